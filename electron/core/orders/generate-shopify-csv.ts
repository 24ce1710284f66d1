/**
 * Builds realistic Shopify "Export orders" CSV files: Italian shops and
 * recipients, several line items per order (one row each, order fields on the
 * first row only), quoted notes with commas, quotes and line breaks, a UTF-8
 * BOM, and zip codes as Shopify/Excel write them (`'00184`, or `184` after
 * losing leading zeros). Deterministic for a given seed. Used by the
 * benchmark (10,000 orders) and the import tests.
 */

import { mulberry32 } from '../../../shared/domain/random';

/** Every column of Shopify's orders export, in Shopify's order. */
export const SHOPIFY_ORDER_COLUMNS = [
  'Name', 'Email', 'Financial Status', 'Paid at', 'Fulfillment Status', 'Fulfilled at', 'Accepts Marketing',
  'Currency', 'Subtotal', 'Shipping', 'Taxes', 'Total', 'Discount Code', 'Discount Amount', 'Shipping Method',
  'Created at', 'Lineitem quantity', 'Lineitem name', 'Lineitem price', 'Lineitem compare at price', 'Lineitem sku',
  'Lineitem requires shipping', 'Lineitem taxable', 'Lineitem fulfillment status', 'Billing Name', 'Billing Street',
  'Billing Address1', 'Billing Address2', 'Billing Company', 'Billing City', 'Billing Zip', 'Billing Province',
  'Billing Country', 'Billing Phone', 'Shipping Name', 'Shipping Street', 'Shipping Address1', 'Shipping Address2',
  'Shipping Company', 'Shipping City', 'Shipping Zip', 'Shipping Province', 'Shipping Country', 'Shipping Phone',
  'Notes', 'Note Attributes', 'Cancelled at', 'Payment Method', 'Payment Reference', 'Refunded Amount', 'Vendor',
  'Outstanding Balance', 'Employee', 'Location', 'Device ID', 'Id', 'Tags', 'Risk Level', 'Source',
  'Lineitem discount', 'Tax 1 Name', 'Tax 1 Value', 'Tax 2 Name', 'Tax 2 Value', 'Tax 3 Name', 'Tax 3 Value',
  'Tax 4 Name', 'Tax 4 Value', 'Tax 5 Name', 'Tax 5 Value', 'Phone', 'Receipt Number', 'Duties',
  'Billing Province Name', 'Shipping Province Name', 'Payment ID', 'Payment Terms Name', 'Next Payment Due At',
  'Payment References',
] as const;

/** A column of {@link SHOPIFY_ORDER_COLUMNS}. */
export type ShopifyColumn = (typeof SHOPIFY_ORDER_COLUMNS)[number];

/** One CSV row as column -> text; absent columns are empty. */
export type ShopifyRow = Partial<Record<ShopifyColumn, string>>;

/** Quotes a field when needed (RFC 4180: commas, quotes, line breaks; quotes doubled). */
export function csvField(v: string): string {
  return /[",\r\n]/.test(v) || /^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * Serialises rows with Shopify's full header. `bom` (default true) prepends
 * the UTF-8 BOM Shopify writes; `newline` default `\n`.
 */
export function shopifyCsv(rows: readonly ShopifyRow[], opts: { bom?: boolean; newline?: string } = {}): string {
  const nl = opts.newline ?? '\n';
  const out: string[] = [SHOPIFY_ORDER_COLUMNS.join(',')];
  for (const r of rows) out.push(SHOPIFY_ORDER_COLUMNS.map((c) => csvField(r[c] ?? '')).join(','));
  return `${opts.bom === false ? '' : '\uFEFF'}${out.join(nl)}${nl}`;
}

const CITIES: ReadonlyArray<{ city: string; zip: string; province: string; provinceName: string }> = [
  { city: 'Roma', zip: '00184', province: 'RM', provinceName: 'Roma' },
  { city: 'Roma', zip: '00153', province: 'RM', provinceName: 'Roma' },
  { city: 'Milano', zip: '20121', province: 'MI', provinceName: 'Milano' },
  { city: 'Milano', zip: '20144', province: 'MI', provinceName: 'Milano' },
  { city: 'Napoli', zip: '80133', province: 'NA', provinceName: 'Napoli' },
  { city: 'Torino', zip: '10121', province: 'TO', provinceName: 'Torino' },
  { city: 'Bologna', zip: '40121', province: 'BO', provinceName: 'Bologna' },
  { city: 'Firenze', zip: '50122', province: 'FI', provinceName: 'Firenze' },
  { city: 'Bari', zip: '70121', province: 'BA', provinceName: 'Bari' },
  { city: 'Palermo', zip: '90133', province: 'PA', provinceName: 'Palermo' },
  { city: 'Genova', zip: '16121', province: 'GE', provinceName: 'Genova' },
  { city: 'Venezia', zip: '30121', province: 'VE', provinceName: 'Venezia' },
  { city: 'Verona', zip: '37121', province: 'VR', provinceName: 'Verona' },
  { city: 'Cagliari', zip: '09124', province: 'CA', provinceName: 'Cagliari' },
  { city: 'Aosta', zip: '11100', province: 'AO', provinceName: "Valle d'Aosta" },
  { city: "L'Aquila", zip: '67100', province: 'AQ', provinceName: "L'Aquila" },
  { city: 'Ancona', zip: '60121', province: 'AN', provinceName: 'Ancona' },
  { city: 'Trento', zip: '38122', province: 'TN', provinceName: 'Trento' },
  { city: 'Lecce', zip: '73100', province: 'LE', provinceName: 'Lecce' },
  { city: 'Viterbo', zip: '01100', province: 'VT', provinceName: 'Viterbo' },
  { city: 'Frosinone', zip: '03100', province: 'FR', provinceName: 'Frosinone' },
  { city: 'Sassari', zip: '07100', province: 'SS', provinceName: 'Sassari' },
];
const FIRST = ['Giulia', 'Marco', 'Francesca', 'Luca', 'Chiara', 'Alessandro', 'Sara', 'Matteo', 'Elena', 'Davide', 'Anna', "Niccolò"];
const LAST = ['Rossi', 'Bianchi', 'Esposito', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', "D'Angelo", 'Conti'];
const STREETS = ['Via Garibaldi', 'Corso Italia', 'Via Roma', 'Piazza del Duomo', 'Via Dante Alighieri', 'Viale Europa', 'Via XX Settembre', 'Via Cavour'];
const PRODUCTS: ReadonlyArray<{ sku: string; name: string; price: number; ships?: false }> = [
  { sku: 'TAZ-CER-BLU', name: 'Tazza in ceramica - Blu', price: 12.5 },
  { sku: 'TAZ-CER-VER', name: 'Tazza in ceramica - Verde', price: 12.5 },
  { sku: 'OLIO-EVO-500', name: "Olio extravergine d'oliva 500 ml", price: 9.9 },
  { sku: 'PASTA-GRA-1K', name: 'Pasta di Gragnano, trafilata al bronzo 1 kg', price: 4.2 },
  { sku: 'CAFFE-MOKA-250', name: 'Caffè macinato per moka 250 g', price: 6.8 },
  { sku: 'TOV-LINO-40', name: 'Tovaglia in lino 140x180 cm', price: 39 },
  { sku: 'SAP-OLIVA-100', name: 'Sapone all\'olio d\'oliva 100 g', price: 3.5 },
  { sku: 'QUAD-A5-RIG', name: 'Quaderno A5 "righe"', price: 5.9 },
  { sku: 'GIFT-25', name: 'Carta regalo digitale 25 €', price: 25, ships: false },
];
const NOTES = [
  'Consegnare al portiere, grazie',
  'Citofono "Rossi B." - terzo piano, scala C',
  'Regalo: non inserire lo scontrino.\nGrazie mille!',
  'Lasciare il pacco al bar sotto casa, chiedere di Gino, oppure\nal vicino del 2° piano',
];

const money = (n: number) => n.toFixed(2);
const pad2 = (n: number) => String(n).padStart(2, '0');
/** Shopify's time format, in Italian summer time: "2026-09-28 14:05:33 +0200". */
function shopifyTime(utcMs: number): string {
  const d = new Date(utcMs + 2 * 3600_000);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} +0200`;
}

/** Options of {@link generateShopifyCsv}. */
export interface GenerateShopifyCsvOptions {
  /** PRNG seed (default 1): same seed, same file. */
  seed?: number;
  /** Number of the first order (default 1001 -> "#1001"). */
  firstNumber?: number;
  /** Prepend the UTF-8 BOM (default true). */
  bom?: boolean;
}

/**
 * A Shopify orders export with `orderCount` Italian orders, #1001 upwards,
 * 1-4 line items each; about one order in forty is a digital-only gift card
 * (nothing to ship). Returns the CSV text.
 * @throws RangeError when `orderCount` is not an integer >= 0.
 */
export function generateShopifyCsv(orderCount: number, opts: GenerateShopifyCsvOptions = {}): string {
  if (!Number.isInteger(orderCount) || orderCount < 0) throw new RangeError(`orderCount must be an integer >= 0, got ${orderCount}`);
  const rand = mulberry32(opts.seed ?? 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const first = opts.firstNumber ?? 1001;
  const start = Date.UTC(2026, 8, 1, 7, 0, 0);
  const rows: ShopifyRow[] = [];
  const shippable = PRODUCTS.filter((p) => p.ships !== false);
  const giftCard = PRODUCTS.find((p) => p.ships === false);

  for (let i = 0; i < orderCount; i++) {
    const n = first + i;
    const name = `${pick(FIRST)} ${pick(LAST)}`;
    const email = `${name.toLowerCase().normalize('NFD').replace(/[^a-z ]/g, '').replace(' ', '.')}.${n}@example.it`;
    const place = pick(CITIES);
    const created = shopifyTime(start + i * 137_000 + Math.floor(rand() * 60_000));
    const digitalOnly = giftCard !== undefined && rand() < 0.025;
    const lines = digitalOnly
      ? [{ p: giftCard, q: 1 }]
      : Array.from({ length: 1 + Math.floor(rand() * 4) }, () => ({ p: pick(shippable), q: 1 + Math.floor(rand() * 3) }));
    const subtotal = lines.reduce((s, l) => s + l.p.price * l.q, 0);
    const shipping = digitalOnly || subtotal >= 60 ? 0 : 6.9;
    const total = subtotal + shipping;
    const taxes = total - total / 1.22;
    const address1 = `${pick(STREETS)} ${1 + Math.floor(rand() * 180)}`;
    const address2 = rand() < 0.3 ? `Scala ${'ABCD'[Math.floor(rand() * 4)]}, interno ${1 + Math.floor(rand() * 20)}` : '';
    const company = rand() < 0.15 ? `${pick(LAST)} S.r.l.` : '';
    // Shopify writes the zip as text ('00184); a spreadsheet may have turned it into a number (184).
    const zipStyle = rand();
    const zip = zipStyle < 0.5 ? `'${place.zip}` : zipStyle < 0.7 ? String(Number(place.zip)) : place.zip;
    const phone = rand() < 0.8 ? `'+39 3${Math.floor(rand() * 9e8 + 1e8)}` : '';
    const notes = rand() < 0.25 ? pick(NOTES) : '';
    const street = address2 ? `${address1}, ${address2}` : address1;
    const id = String(5_800_000_000_000 + n * 7);

    lines.forEach((l, j) => {
      const item: ShopifyRow = {
        Name: `#${n}`,
        Email: email,
        'Created at': created,
        'Lineitem quantity': String(l.q),
        'Lineitem name': l.p.name,
        'Lineitem price': money(l.p.price),
        'Lineitem sku': l.p.sku,
        'Lineitem requires shipping': l.p.ships === false ? 'false' : 'true',
        'Lineitem taxable': 'true',
        'Lineitem fulfillment status': 'pending',
        'Lineitem discount': '0.00',
        Vendor: 'Bottega Esempio',
      };
      if (j === 0) {
        Object.assign(item, {
          'Financial Status': 'paid',
          'Paid at': created,
          'Fulfillment Status': 'unfulfilled',
          'Accepts Marketing': rand() < 0.4 ? 'yes' : 'no',
          Currency: 'EUR',
          Subtotal: money(subtotal),
          Shipping: money(shipping),
          Taxes: money(taxes),
          Total: money(total),
          'Discount Amount': '0.00',
          'Shipping Method': digitalOnly ? '' : 'Spedizione standard',
          'Billing Name': name,
          'Billing Street': street,
          'Billing Address1': address1,
          'Billing Address2': address2,
          'Billing Company': company,
          'Billing City': place.city,
          'Billing Zip': zip,
          'Billing Province': place.province,
          'Billing Country': 'IT',
          'Billing Phone': phone,
          'Shipping Name': digitalOnly ? '' : name,
          'Shipping Street': digitalOnly ? '' : street,
          'Shipping Address1': digitalOnly ? '' : address1,
          'Shipping Address2': digitalOnly ? '' : address2,
          'Shipping Company': digitalOnly ? '' : company,
          'Shipping City': digitalOnly ? '' : place.city,
          'Shipping Zip': digitalOnly ? '' : zip,
          'Shipping Province': digitalOnly ? '' : place.province,
          'Shipping Country': digitalOnly ? '' : 'IT',
          'Shipping Phone': digitalOnly ? '' : phone,
          Notes: notes,
          'Payment Method': 'Shopify Payments',
          'Outstanding Balance': '0.00',
          Id: id,
          'Risk Level': 'Low',
          Source: 'web',
          'Tax 1 Name': 'IT IVA 22%',
          'Tax 1 Value': money(taxes),
          Phone: phone,
          'Billing Province Name': place.provinceName,
          'Shipping Province Name': digitalOnly ? '' : place.provinceName,
          'Payment ID': `c${id}.1`,
          'Payment References': `c${id}.1`,
        } satisfies ShopifyRow);
      }
      rows.push(item);
    });
  }
  return shopifyCsv(rows, { bom: opts.bom ?? true });
}
