/**
 * Order submission of the Client Shipping API 2026-09 (spec: Resources >
 * "Order (submitted with POST /orders)"; Endpoints > Orders, batch rules 1-4;
 * Limits: 1 to 100 orders per call, parcels max 50, items max 200).
 *
 * Orders land in the panel's "orders from API" import list, from which an
 * operator creates shipments. These schemas validate a batch as a whole: an
 * issue path joined with '.' is the spec's `details` key, e.g.
 * `orders.1.recipient.address.postalCode` (orders numbered from 0).
 * Rules that need the account (catalog names, already-submitted numbers) or
 * the whole batch (duplicate `orderNumber`) are applied by the platform after
 * these schemas; see {@link duplicateOrderNumbers} and `completePostalCode`
 * (shared/domain/postal.ts) for the leading zeros of an Italian CAP.
 */
import { z } from 'zod';
import { CountryCode, IsoDate, Money, Weight } from './common';

/** Most orders in one POST /orders call (spec: Limits). */
export const MAX_ORDERS_PER_CALL = 100;
/** Most parcels of one order (spec: Limits). */
const MAX_PARCELS_PER_ORDER = 50;
/** Most item rows of one order (spec: Limits). */
const MAX_ITEMS_PER_ORDER = 200;

const reqText = (what: string, max: number) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, { error: `${what} is required` })
    .max(max, { error: `${what} must be at most ${max} characters` });
const optText = (what: string, max: number) => z.string().trim().max(max, { error: `${what} must be at most ${max} characters` }).optional();

/**
 * Recipient of an order. Like the Party value object, except that
 * `countryCode` defaults to `IT` and `province` may be the abbreviation or the
 * full name (spec: Order table), hence up to 50 characters.
 */
const OrderRecipient = z.object({
  name: reqText('Name', 100),
  company: optText('Company', 100),
  address: z.object({
    street: reqText('Street', 150),
    street2: optText('Street 2', 100),
    city: reqText('City', 80),
    province: optText('Province', 50),
    postalCode: reqText('Postal code', 15),
    countryCode: CountryCode.default('IT'),
  }),
  phone: optText('Phone', 30),
  email: z.email({ error: 'E-mail address is not valid' }).optional(),
  reference: optText('Reference', 50),
});
type OrderRecipient = z.output<typeof OrderRecipient>;

/**
 * One order line: `sku`, `quantity` (integer >= 1, default 1), `unitPrice`
 * (>= 0, order currency) and `name`. A line without `name` takes the title of
 * the catalog product with the same SKU; with neither, the order is invalid.
 */
const OrderItem = z.object({
  sku: optText('SKU', 64),
  quantity: z.number({ error: 'Quantity must be a number' }).int({ error: 'Quantity must be a whole number' }).min(1, { error: 'Quantity must be at least 1' }).default(1),
  unitPrice: z.number({ error: 'Unit price must be a number' }).min(0, { error: 'Unit price cannot be negative' }).optional(),
  name: optText('Name', 255),
});
type OrderItem = z.output<typeof OrderItem>;

/** Order date: `YYYY-MM-DD`, or a date-time with offset whose calendar date is taken. */
const OrderDate = z.union([IsoDate, z.iso.datetime({ offset: true, error: 'Order date must be YYYY-MM-DD or an ISO 8601 date-time' })], {
  error: 'Order date must be YYYY-MM-DD or an ISO 8601 date-time',
});

/**
 * One order (spec: Order table). Defaults: `parcels` 1, `weight` 1 kg,
 * `items` none; `orderDate` (today) and `senderReference` (the client's
 * company name) are filled by the platform, which knows them.
 */
export const Order = z.object({
  recipient: OrderRecipient,
  orderNumber: optText('Order number', 100).refine((s) => s === undefined || s !== '', { error: 'Order number cannot be empty' }),
  orderDate: OrderDate.optional(),
  parcels: z
    .number({ error: 'Parcels must be a number' })
    .int({ error: 'Parcels must be a whole number' })
    .min(1, { error: 'Parcels must be at least 1' })
    .max(MAX_PARCELS_PER_ORDER, { error: `At most ${MAX_PARCELS_PER_ORDER} parcels per order` })
    .default(1),
  weight: Weight.default({ value: 1, units: 'KG' }),
  senderReference: optText('Sender reference', 50),
  cod: Money.optional(),
  insurance: Money.optional(),
  total: z.number({ error: 'Total must be a number' }).min(0, { error: 'Total cannot be negative' }).optional(),
  contentDescription: optText('Content description', 255),
  notes: optText('Notes', 255),
  items: z.array(OrderItem).max(MAX_ITEMS_PER_ORDER, { error: `At most ${MAX_ITEMS_PER_ORDER} items per order` }).default([]),
});
type Order = z.input<typeof Order>;

/** POST /orders body: `orders` 1 to 100, `saveToAddressBook` default false. */
export const OrdersRequest = z.object({
  saveToAddressBook: z.boolean({ error: 'saveToAddressBook must be true or false' }).default(false),
  orders: z
    .array(Order, { error: 'orders must be a list of orders' })
    .min(1, { error: 'At least one order is required' })
    .max(MAX_ORDERS_PER_CALL, { error: `At most ${MAX_ORDERS_PER_CALL} orders per call` }),
});
export type OrdersRequest = z.input<typeof OrdersRequest>;

/** An order created by the call: platform `id`, the client's `orderNumber` (null when none was sent), item rows, shipped yet. */
const CreatedOrder = z.object({
  id: z.number().int(),
  orderNumber: z.string().nullable(),
  itemsCount: z.number().int(),
  shipped: z.boolean(),
});
type CreatedOrder = z.infer<typeof CreatedOrder>;

/** An order left out because its `orderNumber` was already submitted: its position in the request and the existing order's id. */
const SkippedOrder = z.object({
  index: z.number().int(),
  orderNumber: z.string(),
  id: z.number().int(),
});
type SkippedOrder = z.infer<typeof SkippedOrder>;

/** POST /orders answer: 201 when at least one order was created, 200 when all were already present. */
export const OrdersResponse = z.object({
  created: z.array(CreatedOrder),
  skipped: z.array(SkippedOrder),
});
export type OrdersResponse = z.infer<typeof OrdersResponse>;

/**
 * Batch rule 3: positions of orders repeating an `orderNumber` already used
 * earlier in the same call, as `details` keys `orders.<index>.orderNumber`.
 * The first occurrence is fine; each later one is an error.
 */
export function duplicateOrderNumbers(orders: ReadonlyArray<{ orderNumber?: string | undefined }>): Record<string, string[]> {
  const firstAt = new Map<string, number>();
  const out: Record<string, string[]> = {};
  orders.forEach((o, i) => {
    const n = o.orderNumber;
    if (n === undefined) return;
    const first = firstAt.get(n);
    if (first === undefined) firstAt.set(n, i);
    else out[`orders.${i}.orderNumber`] = [`Order number "${n}" is repeated in this call (first at orders.${first})`];
  });
  return out;
}

/**
 * Italian provinces and metropolitan cities: 2-letter code (as on vehicle
 * plates and in addresses) -> name. Used to accept an order's `province` as
 * "abbreviation or full name" (spec: Order table). Also accepts the former
 * Sardinian codes CI, VS, OG, OT that still appear in address books.
 */
const ITALIAN_PROVINCES: Readonly<Record<string, string>> = {
  AG: 'Agrigento', AL: 'Alessandria', AN: 'Ancona', AO: 'Aosta', AP: 'Ascoli Piceno', AQ: "L'Aquila", AR: 'Arezzo', AT: 'Asti', AV: 'Avellino',
  BA: 'Bari', BG: 'Bergamo', BI: 'Biella', BL: 'Belluno', BN: 'Benevento', BO: 'Bologna', BR: 'Brindisi', BS: 'Brescia', BT: 'Barletta-Andria-Trani', BZ: 'Bolzano',
  CA: 'Cagliari', CB: 'Campobasso', CE: 'Caserta', CH: 'Chieti', CL: 'Caltanissetta', CN: 'Cuneo', CO: 'Como', CR: 'Cremona', CS: 'Cosenza', CT: 'Catania', CZ: 'Catanzaro',
  EN: 'Enna', FC: 'Forlì-Cesena', FE: 'Ferrara', FG: 'Foggia', FI: 'Firenze', FM: 'Fermo', FR: 'Frosinone', GE: 'Genova', GO: 'Gorizia', GR: 'Grosseto',
  IM: 'Imperia', IS: 'Isernia', KR: 'Crotone', LC: 'Lecco', LE: 'Lecce', LI: 'Livorno', LO: 'Lodi', LT: 'Latina', LU: 'Lucca',
  MB: 'Monza e Brianza', MC: 'Macerata', ME: 'Messina', MI: 'Milano', MN: 'Mantova', MO: 'Modena', MS: 'Massa-Carrara', MT: 'Matera',
  NA: 'Napoli', NO: 'Novara', NU: 'Nuoro', OR: 'Oristano', PA: 'Palermo', PC: 'Piacenza', PD: 'Padova', PE: 'Pescara', PG: 'Perugia', PI: 'Pisa', PN: 'Pordenone', PO: 'Prato',
  PR: 'Parma', PT: 'Pistoia', PU: 'Pesaro e Urbino', PV: 'Pavia', PZ: 'Potenza', RA: 'Ravenna', RC: 'Reggio Calabria', RE: 'Reggio Emilia', RG: 'Ragusa', RI: 'Rieti',
  RM: 'Roma', RN: 'Rimini', RO: 'Rovigo', SA: 'Salerno', SI: 'Siena', SO: 'Sondrio', SP: 'La Spezia', SR: 'Siracusa', SS: 'Sassari', SU: 'Sud Sardegna', SV: 'Savona',
  TA: 'Taranto', TE: 'Teramo', TN: 'Trento', TO: 'Torino', TP: 'Trapani', TR: 'Terni', TS: 'Trieste', TV: 'Treviso', UD: 'Udine',
  VA: 'Varese', VB: 'Verbano-Cusio-Ossola', VC: 'Vercelli', VE: 'Venezia', VI: 'Vicenza', VR: 'Verona', VT: 'Viterbo', VV: 'Vibo Valentia',
  CI: 'Carbonia-Iglesias', VS: 'Medio Campidano', OG: 'Ogliastra', OT: 'Olbia-Tempio',
};

/** Other names in use for some provinces (official long forms, German or English names). */
const PROVINCE_ALIASES: Readonly<Record<string, string>> = {
  "reggio nell'emilia": 'RE', 'reggio di calabria': 'RC', bozen: 'BZ', 'alto adige': 'BZ', 'sudtirol': 'BZ', 'aoste': 'AO', 'valle d aosta': 'AO',
  'monza e della brianza': 'MB', 'massa carrara': 'MS', 'pesaro urbino': 'PU', rome: 'RM', milan: 'MI', naples: 'NA', turin: 'TO', florence: 'FI',
  venice: 'VE', genoa: 'GE', padua: 'PD', mantua: 'MN', syracuse: 'SR',
};

const foldName = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();

/**
 * The 2-letter code of an Italian province given as code (any case) or full
 * name (accents, case and punctuation ignored: "forli cesena" = "Forlì-Cesena",
 * "Reggio nell'Emilia" = RE); undefined when it is neither.
 */
export function italianProvinceCode(value: string): string | undefined {
  const v = value.trim();
  if (/^[A-Za-z]{2}$/.test(v)) {
    const code = v.toUpperCase();
    return ITALIAN_PROVINCES[code] ? code : undefined;
  }
  const f = foldName(v);
  for (const [code, name] of Object.entries(ITALIAN_PROVINCES)) if (foldName(name) === f) return code;
  for (const [alias, code] of Object.entries(PROVINCE_ALIASES)) if (foldName(alias) === f) return code;
  return undefined;
}
