/**
 * Orders as the station keeps them: imported from a Shopify "Export orders"
 * CSV or typed in by hand, then shipped from the bench. Pure TypeScript + zod
 * (no node:*, no DOM) so the manual form and the main process validate with
 * the same rules. Field limits follow the spec's Address and Party tables
 * (client-shipping-api-2026-09.md, "Value objects") because a recipient here
 * becomes the `recipient` of POST /shipments.
 */
import { z } from 'zod';
import { isCountryCode } from './countries';
import { normalizePostalCode, ORDER_LIMITS, recipientProblems, unknownCountry, type OrderRecipient } from './order-checks';

export { DEFAULT_SHOP, normalizePostalCode, ORDER_LIMITS, recipientProblems } from './order-checks';
export type { OrderRecipient } from './order-checks';

/** Where an order came from. */
export type OrderSource = 'shopify_csv' | 'manual';

/** Station-side order state: `shipped` once a shipment (LDV) exists or the shop marked it fulfilled. */
export type OrderStatus = 'open' | 'shipped' | 'cancelled';

/**
 * One order line. `unitPrice` in the order currency (EUR for the shops this
 * targets), >= 0; `quantity` integer >= 1. `fulfilled`: the shop already sent
 * this line (Shopify `Lineitem fulfillment status` = fulfilled): it is shown as
 * already sent and never offered for shipping again.
 */
export interface OrderItem {
  sku?: string;
  name: string;
  quantity: number;
  unitPrice: number;
  fulfilled?: boolean;
}

/** How the customer gets the order: `ship` by carrier, `pickup` collected in store / local pickup (never on the to-ship list). */
export type OrderDelivery = 'ship' | 'pickup';

/**
 * Payment state from Shopify `Financial Status`: `paid` (also partially
 * refunded), `unpaid` (pending, authorized, partially_paid: ask before
 * shipping), `refunded`/`voided` (do not ship), `unknown` (column absent or
 * manual order).
 */
export type PaymentStatus = 'paid' | 'unpaid' | 'refunded' | 'voided' | 'unknown';

/** Fields the packer must complete before the order can ship (imported incomplete, never dropped). */
export type OrderFixField = 'postalCode' | 'notes';

/**
 * An order as stored by the station.
 * - `id`: local SQLite row id (not the shop's id).
 * - `orderNumber`: the shop's order name, e.g. Shopify `Name` "#1001"; unique in the store.
 * - `createdAt`: ISO 8601 with offset, when the order was placed in the shop.
 * - `total`: order total in `currency` (3 letters, e.g. EUR), when known.
 * - `shipmentTrackingNumber`: tracking number (LDV) of the shipment that shipped it.
 */
export interface StationOrder {
  id: number;
  /**
   * The shop the order belongs to (chosen at import; `main` by default). Every
   * Shopify shop numbers from #1001, so an order is identified by shop plus
   * `shopOrderId`, never by its number alone.
   */
  shop: string;
  /** The shop's own id of the order (Shopify `Id`), when the file has it. */
  shopOrderId?: string;
  orderNumber: string;
  email?: string;
  createdAt: string;
  source: OrderSource;
  recipient: OrderRecipient;
  items: OrderItem[];
  total?: number;
  currency: string;
  notes?: string;
  status: OrderStatus;
  shipmentTrackingNumber?: string;
  /** Payment state (see {@link PaymentStatus}); `unknown` for manual orders. */
  paymentStatus: PaymentStatus;
  /** Carrier delivery or pickup in store. */
  delivery: OrderDelivery;
  /** The shop's shipping method as the customer chose it (Shopify `Shipping Method`). */
  shippingMethod?: string;
  /** Fields to complete before shipping (empty when the order is ready). */
  needsFix: OrderFixField[];
}

/** One problem found while importing a file. */
export interface ImportIssue {
  /** 1-based physical line of the file where the offending row starts (the header is line 1). */
  line: number;
  /**
   * Row number as a spreadsheet shows it (header = row 1): differs from `line`
   * when a quoted field (a multi-line note) spans several lines. Absent for
   * problems of the file as a whole.
   */
  row?: number;
  /** The order the problem belongs to, e.g. "#2134", when known. */
  order?: string;
  /** Header name of the offending column, e.g. "Shipping Zip". */
  column: string;
  /** What is wrong, in words a packer can act on. */
  message: string;
}

/** Why an order of the file was left as it was (see {@link ImportReport.skipped}). */
export type ImportSkipReason =
  /** already shipped or cancelled at the station: never changed by a file */
  | 'already_shipped'
  /** entered by hand at the station with the same shop and number */
  | 'manual'
  /** the file has fewer lines for it than the station already holds (a truncated or filtered file) */
  | 'fewer_lines'
  /** the same order appears again further down the file */
  | 'repeated_in_file';

/** One order the import left untouched, with its reason in words. */
export interface ImportSkip {
  order: string;
  row: number;
  reason: ImportSkipReason;
  message: string;
}

/**
 * Outcome of an order import (Shopify CSV).
 * - `imported`: orders new to the store;
 * - `updated`: orders already imported, still open, whose content changed in the file;
 * - `unchanged`: orders already imported with identical content;
 * - `skippedDuplicates`: orders whose number is already taken by a record the
 *   import must not overwrite (entered by hand, or already shipped/cancelled at
 *   the station) or that appear twice in the file;
 * - `skippedNotShippable`: orders with no line item that requires shipping
 *   (gift cards, digital goods);
 * - `errors`: rows that were rejected; an order with any bad row is not
 *   imported at all (a partial order would be packed incomplete).
 */
export interface ImportReport {
  imported: number;
  updated: number;
  unchanged: number;
  skippedDuplicates: number;
  skippedNotShippable: number;
  errors: ImportIssue[];
  /** The shop the orders were imported for. */
  shop: string;
  /** How the file was read: `utf-8`, `utf-8-bom`, `utf-16le`, `utf-16be` or `windows-1252`. */
  encoding: string;
  /** Field separator found in the header row: `,`, `;` or a tab. */
  delimiter: string;
  /** Cancelled orders in the file: kept as cancelled, never reported as problems. */
  cancelled: number;
  /** Orders left as they were, each with the reason. */
  skipped: ImportSkip[];
  /** Imported orders that need a fix before shipping (missing postal code, note too long); not errors. */
  warnings: ImportIssue[];
}

/** Turns form text into `undefined` when blank, trimmed otherwise (forms send "" for empty fields). */
const blankToUndefined = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  return t === '' ? undefined : t;
};

const requiredText = (label: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${label} is required` })
      .max(max, { error: `${label} is too long (max ${max} characters)` }),
  );

const optionalText = (label: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${label} must be text` })
      .max(max, { error: `${label} is too long (max ${max} characters)` })
      .optional(),
  );

const optionalEmail = z.preprocess(blankToUndefined, z.email({ error: 'E-mail address is not valid' }).optional());

/** Manual form recipient; see {@link OrderRecipient} for the limits. */
const ManualRecipient = z
  .object({
    name: requiredText('Recipient name', ORDER_LIMITS.name),
    company: optionalText('Company', ORDER_LIMITS.company),
    street: requiredText('Street', ORDER_LIMITS.street),
    street2: optionalText('Street 2', ORDER_LIMITS.street2),
    city: requiredText('City', ORDER_LIMITS.city),
    province: z.preprocess(
      (v) => {
        const t = blankToUndefined(v);
        return typeof t === 'string' ? t.toUpperCase() : t;
      },
      z
        .string({ error: 'Province must be text' })
        .max(ORDER_LIMITS.province, { error: `Province is too long (max ${ORDER_LIMITS.province} characters)` })
        .optional(),
    ),
    postalCode: requiredText('Postal code', ORDER_LIMITS.postalCode),
    countryCode: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
      z
        .string({ error: 'Country is required' })
        .regex(/^[A-Z]{2}$/, { error: 'Country must be a 2-letter code such as IT', abort: true })
        .refine(isCountryCode, { error: (iss) => unknownCountry(String(iss.input)) }),
    ),
    phone: optionalText('Phone', ORDER_LIMITS.phone),
    email: optionalEmail,
  }, { error: 'Recipient is required' })
  .transform((r) => ({ ...r, postalCode: normalizePostalCode(r.postalCode, r.countryCode) }))
  .superRefine((r, ctx) => {
    // Only the Italian rules are left: lengths and formats were checked above.
    const p = recipientProblems(r);
    if (p.postalCode) ctx.addIssue({ code: 'custom', path: ['postalCode'], message: p.postalCode });
    if (p.province) ctx.addIssue({ code: 'custom', path: ['province'], message: p.province });
  });

/** Manual form line item: name required, quantity integer >= 1, unit price >= 0 (EUR). */
const ManualItem = z.object({
  sku: optionalText('SKU', ORDER_LIMITS.sku),
  name: requiredText('Item name', ORDER_LIMITS.itemName),
  quantity: z
    .number({ error: 'Quantity must be a number' })
    .int({ error: 'Quantity must be a whole number' })
    .min(1, { error: 'Quantity must be at least 1' }),
  unitPrice: z
    .number({ error: 'Unit price must be a number' })
    .min(0, { error: 'Unit price cannot be negative' })
    .default(0),
});

/**
 * Manual order form (`orders.create`). Blank optional fields become absent;
 * country and Italian province are upper-cased; the postal code is normalised
 * with {@link normalizePostalCode}. `orderNumber` may be left out: the station
 * then assigns one (`M-YYYYMMDD-NNN`). Issue paths are the form's field names
 * (`recipient.postalCode`, `items.0.quantity`).
 */
export const ManualOrderInput = z.object({
  orderNumber: optionalText('Order number', ORDER_LIMITS.orderNumber),
  email: optionalEmail,
  recipient: ManualRecipient,
  items: z
    .array(ManualItem, { error: 'Items must be a list' })
    .max(ORDER_LIMITS.items, { error: `At most ${ORDER_LIMITS.items} items per order` })
    .default([]),
  total: z.number({ error: 'Total must be a number' }).min(0, { error: 'Total cannot be negative' }).optional(),
  currency: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
    z.string().regex(/^[A-Z]{3}$/, { error: 'Currency must be 3 letters, like EUR' }).default('EUR'),
  ),
  notes: optionalText('Notes', ORDER_LIMITS.notes),
});
/** What the form sends. */
export type ManualOrderInput = z.input<typeof ManualOrderInput>;

/**
 * The recipient in the spec's Party shape (`address` nested), ready for
 * POST /shipments `recipient`; absent optional fields stay absent.
 */
export function recipientToParty(r: OrderRecipient): {
  name: string;
  company?: string;
  address: { street: string; street2?: string; city: string; province?: string; postalCode: string; countryCode: string };
  phone?: string;
  email?: string;
} {
  const address: { street: string; street2?: string; city: string; province?: string; postalCode: string; countryCode: string } = {
    street: r.street,
    city: r.city,
    postalCode: r.postalCode,
    countryCode: r.countryCode,
  };
  if (r.street2 !== undefined) address.street2 = r.street2;
  if (r.province !== undefined) address.province = r.province;
  const party: ReturnType<typeof recipientToParty> = { name: r.name, address };
  if (r.company !== undefined) party.company = r.company;
  if (r.phone !== undefined) party.phone = r.phone;
  if (r.email !== undefined) party.email = r.email;
  return party;
}

/** Longest shop name (it goes into the order's reference with the number: shared/domain/order-reference.ts). */
const SHOP_NAME_MAX = 40;

/** A shop name as typed at import: trimmed, 1 to {@link SHOP_NAME_MAX} characters. */
export const ShopName = z
  .string({ error: 'Shop must be text' })
  .trim()
  .min(1, { error: 'Shop is required' })
  .max(SHOP_NAME_MAX, { error: `Shop is too long (max ${SHOP_NAME_MAX} characters)` })
  // Shops key per-shop settings: this one name would be an object's prototype, not a key.
  .refine((s) => s !== '__proto__', { error: 'A shop cannot be named __proto__' });

/** Lines still to ship (the shop has not fulfilled them). */
export function linesToShip(order: Pick<StationOrder, 'items'>): OrderItem[] {
  return order.items.filter((i) => !i.fulfilled);
}

/** Views of the order list: see {@link OrderPageQuery}. */
const ORDER_VIEWS = ['to_ship', 'pickup', 'shipped', 'cancelled', 'all'] as const;
/** Sort orders of the list. */
const ORDER_SORTS = ['newest', 'oldest', 'number', 'name', 'country'] as const;
export type OrderView = (typeof ORDER_VIEWS)[number];
export type OrderSort = (typeof ORDER_SORTS)[number];

/**
 * A page of the order list (`orders.page`). `view`: `to_ship` (open, sent by
 * carrier; default), `pickup` (open, collected in store), `shipped`,
 * `cancelled`, `all`. `q` (max 100): order number, recipient name, city or
 * SKU, substring, case-insensitive (3+ characters use the SQLite FTS5
 * trigram index; 1-2 match the start of the order number). `carrier`: the
 * shop's shipping method text, exact. `sort` default `newest`. `limit` 1..500
 * (default 100), `offset` >= 0. `after`: a page's `next` cursor: the page
 * then starts right after that page's last order, read from the sort's index
 * (keyset pagination: as fast at the millionth row as at the first); `offset`
 * is then only echoed back. A cursor is valid for the same sort only.
 */
export const OrderPageQuery = z.object({
  view: z.enum(ORDER_VIEWS, { error: `View must be one of ${ORDER_VIEWS.join(', ')}` }).default('to_ship'),
  q: z.string().max(100, { error: 'Search is too long (max 100 characters)' }).optional(),
  shop: z.string().max(SHOP_NAME_MAX).optional(),
  country: z.string().max(2, { error: 'Country must be a 2-letter code' }).optional(),
  carrier: z.string().max(200).optional(),
  unpaid: z.boolean().optional(),
  needsFix: z.boolean().optional(),
  sort: z.enum(ORDER_SORTS, { error: `Sort must be one of ${ORDER_SORTS.join(', ')}` }).default('newest'),
  offset: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(500).default(100),
  after: z.string().max(2000, { error: 'List position is too long' }).optional(),
});
export type OrderPageQuery = z.input<typeof OrderPageQuery>;

/** One page: the orders and how many match in all. */
export interface OrderPage {
  total: number;
  offset: number;
  orders: StationOrder[];
  /** Cursor for the page after this one (`after`), when this page is full. */
  next?: string;
}

/** Values to offer in the list's filters (open orders only), sorted. */
export interface OrderFacets {
  shops: string[];
  countries: string[];
  carriers: string[];
}

/**
 * Order settings of the station (`orders.settings.get`):
 * - `allowUnpaid`: whether an unpaid order (pending/authorized) may be shipped
 *   after the packer confirms; false forbids it;
 * - `pickupMethods`: per shop, the shipping method names that mean store or
 *   local pickup (case-insensitive substrings of Shopify `Shipping Method`);
 *   a shop without an entry uses the defaults (`DEFAULT_PICKUP_METHODS`).
 */
export const OrderSettings = z.object({
  allowUnpaid: z.boolean({ error: 'allowUnpaid must be true or false' }),
  pickupMethods: z.record(
    ShopName,
    z
      .array(z.string().trim().min(1, { error: 'A pickup method name cannot be empty' }).max(100, { error: 'Pickup method name too long (max 100)' }))
      .max(50, { error: 'At most 50 pickup method names per shop' }),
  ),
});
export type OrderSettings = z.output<typeof OrderSettings>;
