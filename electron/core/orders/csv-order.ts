/**
 * One order of a Shopify export, from its rows: line items, fulfilment, the
 * recipient, order-level fields, and every problem with its row and column
 * (rules in ./shopify-csv.ts).
 */
import { hash } from 'node:crypto';
import type { ImportIssue, OrderFixField, OrderItem, OrderStatus, PaymentStatus } from '../../../shared/domain/order';
// From the zod-free module: this code runs in the import's worker thread too (./csv-worker.ts).
import { normalizePostalCode, ORDER_LIMITS, recipientProblems, type OrderRecipient } from '../../../shared/domain/order-checks';
import type { OrderDraft } from '../store';
import { cell, type ColumnName, type Columns, type Row } from './csv-columns';
import type { IssueList } from './csv-errors';

/** One order read from the file, ready for the store. `line`: where its first row starts; `row`: its spreadsheet row. */
export interface ParsedShopifyOrder {
  line: number;
  row: number;
  order: OrderDraft;
  /** sha256 of the order's content: equal hashes mean an unchanged re-import. */
  hash: string;
}

/** Consecutive rows of one order. `rejected`: a row has the wrong field count (`fieldCountProblem`); `note`: why it must be left out. */
export interface Group {
  name: string;
  rows: Row[];
  repeated: boolean;
  rejected: boolean;
  fieldCountProblem?: ImportIssue;
  note?: string;
}

/** What {@link buildOrder} needs besides the rows. */
export interface BuildContext {
  cols: Columns;
  errors: IssueList;
  warnings: IssueList;
  now: () => Date;
  shop: string;
  pickupMethods: readonly string[];
}

const RECIPIENT_COLUMN: Record<keyof OrderRecipient, ColumnName> = {
  name: 'Shipping Name',
  company: 'Shipping Company',
  street: 'Shipping Address1',
  street2: 'Shipping Address2',
  city: 'Shipping City',
  province: 'Shipping Province',
  postalCode: 'Shipping Zip',
  countryCode: 'Shipping Country',
  phone: 'Shipping Phone',
  email: 'Email',
};

/** Shopify money: "12.50" (also "12,50" after a spreadsheet in an Italian locale). */
function parseMoney(s: string): number | undefined {
  const t = s.trim();
  if (!/^\d+(?:[.,]\d+)?$/.test(t)) return undefined;
  return Number(t.replace(',', '.'));
}

/** Shopify time "2026-09-28 14:05:33 +0200" (or ISO 8601) -> ISO 8601 UTC; undefined when not a date. */
export function parseShopifyTime(s: string): string | undefined {
  const t = s.trim();
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(t);
  if (!m) return undefined;
  let zone = m[3] ?? 'Z';
  if (/^[+-]\d{4}$/.test(zone)) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const d = new Date(`${m[1]}T${m[2]}${zone}`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Text cleanup for phone numbers: spreadsheets' leading apostrophe. */
function cleanPhone(s: string): string {
  return s.trim().replace(/^'+/, '').trim();
}

function optional(s: string): string | undefined {
  const t = s.trim();
  return t === '' ? undefined : t;
}

/** Shopify `Financial Status` -> {@link PaymentStatus}. */
function paymentStatusOf(raw: string): PaymentStatus {
  switch (raw.trim().toLowerCase()) {
    case 'paid':
    case 'partially_refunded':
      return 'paid';
    case 'pending':
    case 'authorized':
    case 'partially_paid':
    case 'unpaid':
    case 'expired':
      return 'unpaid';
    case 'refunded':
      return 'refunded';
    case 'voided':
      return 'voided';
    default:
      return 'unknown';
  }
}

/**
 * Builds the order of a group of rows. Problems go to `ctx.errors` (the order
 * is then left out: undefined) or `ctx.warnings` (imported as "needs fix").
 * @returns the order, `not_shippable` when no line needs shipping, or undefined.
 */
export function buildOrder(g: Group, ctx: BuildContext): ParsedShopifyOrder | 'not_shippable' | undefined {
  const { cols, errors, warnings, now, shop, pickupMethods } = ctx;
  const errorsBefore = errors.count;
  const first = g.rows[0];
  if (!first) return undefined;
  const order = g.name;
  const rowOf = new Map(g.rows.map((r) => [r.line, r.row]));
  const issue = (line: number, column: string, message: string): ImportIssue => ({ line, row: rowOf.get(line) ?? first.row, order, column, message });
  const err = (line: number, column: string, message: string) => errors.add(issue(line, column, message));
  /** Order-level value: Shopify puts it on the first row; tolerate it on a later one. */
  const single = g.rows.length === 1;
  const field = (c: ColumnName): { value: string; line: number } => {
    // Most orders are one row: its cell, blank or not, on its line.
    if (single) return { value: cell(first, cols[c]), line: first.line };
    for (const r of g.rows) {
      const v = cell(r, cols[c]);
      if (v.trim() !== '') return { value: v, line: r.line };
    }
    return { value: '', line: first.line };
  };

  if (g.name.length > ORDER_LIMITS.orderNumber) {
    // It becomes the shipment reference and the recipient reference (spec: Party.reference max 50).
    err(first.line, 'Name', `Order number is too long (max ${ORDER_LIMITS.orderNumber} characters)`);
  }

  // Line items, one per row.
  const items: OrderItem[] = [];
  let shippable = 0;
  let toShip = 0;
  for (const r of g.rows) {
    const qtyText = cell(r, cols['Lineitem quantity']).trim();
    const name = cell(r, cols['Lineitem name']).trim();
    const priceText = cell(r, cols['Lineitem price']);
    const sku = optional(cell(r, cols['Lineitem sku']));
    const requiresShipping = cell(r, cols['Lineitem requires shipping']).trim().toLowerCase() !== 'false';
    const fulfilled = cell(r, cols['Lineitem fulfillment status']).trim().toLowerCase() === 'fulfilled';
    const quantity = /^\d+$/.test(qtyText) ? Number(qtyText) : NaN;
    const unitPrice = parseMoney(priceText);
    let ok = true;
    if (!Number.isInteger(quantity) || quantity < 1) {
      err(r.line, 'Lineitem quantity', `Quantity must be a whole number of at least 1, got "${qtyText}"`);
      ok = false;
    }
    if (name === '') {
      err(r.line, 'Lineitem name', 'Item name is empty');
      ok = false;
    } else if (name.length > ORDER_LIMITS.itemName) {
      err(r.line, 'Lineitem name', `Item name is too long (max ${ORDER_LIMITS.itemName} characters)`);
      ok = false;
    }
    if (unitPrice === undefined) {
      err(r.line, 'Lineitem price', `Price must be a number like 12.50, got "${priceText.trim()}"`);
      ok = false;
    }
    if (sku !== undefined && sku.length > ORDER_LIMITS.sku) {
      err(r.line, 'Lineitem sku', `SKU is too long (max ${ORDER_LIMITS.sku} characters)`);
      ok = false;
    }
    if (ok && requiresShipping) {
      shippable++;
      if (!fulfilled) toShip++;
      const item: OrderItem = { name, quantity, unitPrice: unitPrice ?? 0 };
      if (sku !== undefined) item.sku = sku;
      if (fulfilled) item.fulfilled = true;
      items.push(item);
    }
  }
  if (errors.count === errorsBefore && shippable === 0) return 'not_shippable';
  if (items.length > ORDER_LIMITS.items) {
    err(first.line, 'Lineitem name', `An order can have at most ${ORDER_LIMITS.items} items to ship, this one has ${items.length}`);
  }

  const shippingMethod = optional(field('Shipping Method').value);
  const methodLower = shippingMethod?.toLowerCase() ?? '';
  const isPickup = methodLower !== '' && pickupMethods.some((m) => methodLower.includes(m));

  // Recipient from the shipping address (each column read once; absent optional fields are left out, not undefined).
  const country = field('Shipping Country');
  const countryCode = country.value.trim().toUpperCase();
  const street1 = field('Shipping Address1');
  const streetCombined = field('Shipping Street');
  const useCombined = street1.value.trim() === '';
  const emailField = field('Email');
  const email = optional(emailField.value);
  const shippingPhone = field('Shipping Phone');
  const phoneField = shippingPhone.value.trim() !== '' ? shippingPhone : field('Phone');
  const provinceField = field('Shipping Province');
  const province = optional(provinceField.value);
  const nameField = field('Shipping Name');
  const companyField = field('Shipping Company');
  const street2Field = field('Shipping Address2');
  const cityField = field('Shipping City');
  const zipField = field('Shipping Zip');
  const street = useCombined ? streetCombined : street1;
  const recipientLine: Record<keyof OrderRecipient, number> = {
    name: nameField.line,
    company: companyField.line,
    street: street.line,
    street2: street2Field.line,
    city: cityField.line,
    province: provinceField.line,
    postalCode: zipField.line,
    countryCode: country.line,
    phone: phoneField.line,
    email: emailField.line,
  };
  // Keys added in this order, absent ones skipped: the content hash is taken over this object's JSON.
  const r: Partial<OrderRecipient> = { name: nameField.value.trim() };
  const company = optional(companyField.value);
  if (company !== undefined) r.company = company;
  r.street = street.value.trim();
  const street2 = useCombined ? undefined : optional(street2Field.value);
  if (street2 !== undefined) r.street2 = street2;
  r.city = cityField.value.trim();
  if (province !== undefined) r.province = countryCode === 'IT' ? province.toUpperCase() : province;
  r.postalCode = normalizePostalCode(zipField.value, countryCode);
  r.countryCode = countryCode;
  const phone = optional(cleanPhone(phoneField.value));
  if (phone !== undefined) r.phone = phone;
  if (email !== undefined) r.email = email;
  const recipient = r as OrderRecipient;
  const needsFix: OrderFixField[] = [];
  const problems = recipientProblems(recipient);
  for (const [key, message] of Object.entries(problems) as Array<[keyof OrderRecipient, string]>) {
    if (key === 'postalCode' && recipient.postalCode === '') {
      // Countries without postcodes (AE, HK, ...) or a shop where the zip is optional: the packer completes it.
      needsFix.push('postalCode');
      warnings.add(issue(recipientLine.postalCode, 'Shipping Zip', `Order ${order} has no postal code (${countryCode || 'no country'}): imported as "needs fix", complete it before shipping`));
      continue;
    }
    // A store pickup is not sent by carrier: its address need not be complete.
    if (isPickup && key !== 'countryCode') continue;
    let column: string = RECIPIENT_COLUMN[key];
    if (key === 'street' && useCombined) column = cols['Shipping Address1'] >= 0 ? 'Shipping Address1' : 'Shipping Street';
    if (key === 'phone' && shippingPhone.value.trim() === '') column = 'Phone';
    const shown = key === 'postalCode' ? ` (file has "${zipField.value.trim()}")` : '';
    err(recipientLine[key], column, `${message}${shown}`);
  }

  // Order-level fields.
  let createdAt: string;
  if (cols['Created at'] < 0) createdAt = now().toISOString();
  else {
    const c = field('Created at');
    const parsed = parseShopifyTime(c.value);
    if (parsed === undefined) {
      err(c.line, 'Created at', `Date must look like 2026-09-28 14:05:33 +0200, got "${c.value.trim()}"`);
    }
    createdAt = parsed ?? '';
  }
  const currencyField = field('Currency');
  const currency = currencyField.value.trim().toUpperCase() || 'EUR';
  if (!/^[A-Z]{3}$/.test(currency)) err(currencyField.line, 'Currency', `Currency must be 3 letters like EUR, got "${currency}"`);
  const totalField = field('Total');
  let total: number | undefined;
  if (totalField.value.trim() !== '') {
    total = parseMoney(totalField.value);
    if (total === undefined) err(totalField.line, 'Total', `Total must be a number like 49.90, got "${totalField.value.trim()}"`);
  }
  const notesField = field('Notes');
  const notes = optional(notesField.value);
  if (notes !== undefined && notes.length > ORDER_LIMITS.notes) {
    // The platform refuses shipment notes over 255 characters: say so now, not at the bench.
    needsFix.push('notes');
    warnings.add(issue(notesField.line, 'Notes', `Order ${order} has a note of ${notes.length} characters; the platform takes ${ORDER_LIMITS.notes}: shorten it before shipping`));
  }

  if (errors.count !== errorsBefore) return undefined;

  let status: OrderStatus = 'open';
  if (field('Cancelled at').value.trim() !== '') status = 'cancelled';
  else if (field('Fulfillment Status').value.trim().toLowerCase() === 'fulfilled' || toShip === 0) status = 'shipped';

  // As the recipient: keys in this order, absent ones skipped (the hash reads this JSON).
  const d: Partial<OrderDraft> = { shop };
  const shopOrderId = optional(field('Id').value);
  if (shopOrderId !== undefined) d.shopOrderId = shopOrderId;
  d.orderNumber = g.name;
  if (email !== undefined) d.email = email;
  d.createdAt = createdAt;
  d.source = 'shopify_csv';
  d.recipient = recipient;
  d.items = items;
  if (total !== undefined) d.total = total;
  d.currency = currency;
  if (notes !== undefined) d.notes = notes;
  d.status = status;
  d.paymentStatus = paymentStatusOf(field('Financial Status').value);
  d.delivery = isPickup ? 'pickup' : 'ship';
  if (shippingMethod !== undefined) d.shippingMethod = shippingMethod;
  d.needsFix = needsFix;
  const draft = d as OrderDraft;
  return { line: first.line, row: first.row, order: draft, hash: contentHash(draft) };
}

/**
 * sha256 over the order's JSON (keys in a fixed order, since the object is
 * always built the same way), hex. One-shot `crypto.hash`: the same digest as
 * a Hash object, without making one per order.
 */
function contentHash(order: OrderDraft): string {
  return hash('sha256', JSON.stringify(order), 'hex');
}
