/**
 * How an order is kept in SQLite (tables `orders`, `order_items`, the
 * `orders_fts` index): the draft the repository takes, its row shapes and
 * explicit mappers, the identity key, the list's sort orders, keys and filters.
 * Used by ./orders-repo.ts.
 */
import { DEFAULT_SHOP, type OrderDelivery, type OrderFixField, type OrderItem, type OrderPageQuery, type OrderSort, type OrderSource, type OrderStatus, type PaymentStatus, type StationOrder } from '../../../shared/domain/order';
import { compact, nul, opt } from './sql';
import type Database from 'better-sqlite3';

/**
 * An order before it has a row id. `shop` defaults to {@link DEFAULT_SHOP};
 * `shopOrderId` is the shop's own id (Shopify `Id`): with it, the order's
 * identity is shop + that id; without it, shop + order number.
 * `paymentStatus` defaults to `unknown`, `delivery` to `ship`, `needsFix` to none.
 */
export type OrderDraft = Omit<StationOrder, 'id' | 'shop' | 'paymentStatus' | 'delivery' | 'needsFix'> &
  Partial<Pick<StationOrder, 'shop' | 'paymentStatus' | 'delivery' | 'needsFix'>>;

/** Filter for lists: one status, several, or all. */
export type OrderStatusFilter = OrderStatus | readonly OrderStatus[] | 'all';

/** A row of `orders` as SQLite returns it (snake_case columns; JSON text in `needs_fix`). */
export interface OrderRow {
  id: number;
  shop: string;
  external_id: string | null;
  payment_status: PaymentStatus;
  delivery: OrderDelivery;
  shipping_method: string | null;
  needs_fix: string;
  order_number: string;
  source: OrderSource;
  email: string | null;
  created_at: string;
  recipient_name: string;
  recipient_company: string | null;
  street: string;
  street2: string | null;
  city: string;
  province: string | null;
  postal_code: string;
  country_code: string;
  phone: string | null;
  recipient_email: string | null;
  total: number | null;
  currency: string;
  notes: string | null;
  status: OrderStatus;
  shipment_tracking_number: string | null;
}

/** A row of `order_items` (unit price in the order currency, `fulfilled` 0/1). */
export interface ItemRow {
  sku: string | null;
  name: string;
  quantity: number;
  unit_price: number;
  fulfilled: number;
}

/** What the import rule reads of a stored order: its source, state, hash, postal code, fixes and line count. */
export interface ImportStateRow {
  id: number;
  source: OrderSource;
  status: OrderStatus;
  shipment_tracking_number: string | null;
  import_hash: string | null;
  postal_code: string;
  needs_fix: string;
  lines: number;
}

export const ORDER_COLUMNS = `id, shop, external_id, payment_status, delivery, shipping_method, needs_fix, order_number, source, email, created_at, recipient_name, recipient_company, street, street2,
  city, province, postal_code, country_code, phone, recipient_email, total, currency, notes, status,
  shipment_tracking_number`;

/** An order's lines in their order (one parameter: the order's row id). */
export const ORDER_ITEMS_SQL = 'SELECT sku, name, quantity, unit_price, fulfilled FROM order_items WHERE order_id = ? ORDER BY position';

/** Row -> domain object. */
export function orderFromRow(row: OrderRow, items: ItemRow[]): StationOrder {
  return compact<StationOrder>({
    id: row.id,
    shop: row.shop,
    shopOrderId: opt(row.external_id),
    orderNumber: row.order_number,
    email: opt(row.email),
    createdAt: row.created_at,
    source: row.source,
    recipient: compact({
      name: row.recipient_name,
      company: opt(row.recipient_company),
      street: row.street,
      street2: opt(row.street2),
      city: row.city,
      province: opt(row.province),
      postalCode: row.postal_code,
      countryCode: row.country_code,
      phone: opt(row.phone),
      email: opt(row.recipient_email),
    }),
    items: items.map(itemFromRow),
    total: opt(row.total),
    currency: row.currency,
    notes: opt(row.notes),
    status: row.status,
    shipmentTrackingNumber: opt(row.shipment_tracking_number),
    paymentStatus: row.payment_status,
    delivery: row.delivery,
    shippingMethod: opt(row.shipping_method),
    needsFix: JSON.parse(row.needs_fix) as OrderFixField[],
  });
}

function itemFromRow(row: ItemRow): OrderItem {
  return compact<OrderItem>({
    sku: opt(row.sku),
    name: row.name,
    quantity: row.quantity,
    unitPrice: row.unit_price,
    fulfilled: row.fulfilled === 1 ? true : undefined,
  });
}

/** An order's columns of the orders table (those an import writes, `import_hash` and the times left out), by name. */
export type OrderParams = ReturnType<typeof orderParams>;

/** Domain object -> named parameters of the orders table. */
export function orderParams(o: OrderDraft) {
  const r = o.recipient;
  return {
    shop: o.shop ?? DEFAULT_SHOP,
    order_key: orderKey(o),
    payment_status: o.paymentStatus ?? 'unknown',
    delivery: o.delivery ?? 'ship',
    shipping_method: nul(o.shippingMethod),
    needs_fix: JSON.stringify(o.needsFix ?? []),
    order_number: o.orderNumber,
    source: o.source,
    email: nul(o.email),
    created_at: o.createdAt,
    recipient_name: r.name,
    recipient_company: nul(r.company),
    street: r.street,
    street2: nul(r.street2),
    city: r.city,
    province: nul(r.province),
    postal_code: r.postalCode,
    country_code: r.countryCode,
    phone: nul(r.phone),
    recipient_email: nul(r.email),
    total: nul(o.total),
    currency: o.currency,
    notes: nul(o.notes),
    status: o.status,
    shipment_tracking_number: nul(o.shipmentTrackingNumber),
    external_id: nul(o.shopOrderId),
  };
}

/**
 * The keys of {@link orderParams}, in its order: the columns `orders-repo`
 * binds by position when it inserts an order (binding 29 values by name costs
 * ≈2 µs an order more, on every order of an import).
 */
export const ORDER_PARAM_COLUMNS = [
  'shop', 'order_key', 'payment_status', 'delivery', 'shipping_method', 'needs_fix', 'order_number', 'source', 'email', 'created_at',
  'recipient_name', 'recipient_company', 'street', 'street2', 'city', 'province', 'postal_code', 'country_code', 'phone',
  'recipient_email', 'total', 'currency', 'notes', 'status', 'shipment_tracking_number', 'external_id',
] as const satisfies ReadonlyArray<keyof OrderParams>;

/** Identity of an order within its shop: the shop's own id, else its number. */
export function orderKey(o: Pick<OrderDraft, 'shopOrderId' | 'orderNumber'>): string {
  return o.shopOrderId ?? o.orderNumber;
}

/** FTS5 phrase for a user's text: quoted, inner quotes doubled, so no query syntax is interpreted. */
export function ftsPhrase(q: string): string {
  return `"${q.replace(/"/g, '""')}"`;
}

export const SORTS: Record<OrderSort, string> = {
  newest: 'created_at DESC, id DESC',
  oldest: 'created_at ASC, id ASC',
  number: 'order_number COLLATE NOCASE ASC, shop ASC, id ASC',
  name: 'recipient_name COLLATE NOCASE ASC, id ASC',
  country: 'country_code ASC, created_at DESC, id DESC',
};

/**
 * A position in the order list for a sort: the values of the sort's key
 * columns of one order, in ORDER BY order, the id last (text columns, then
 * the integer id). The orders domain carries it to the screens as an opaque
 * cursor (orders/page.ts); here it is only a row's values and the SQL that
 * continues after them.
 */
export type OrderSortKey = ReadonlyArray<string | number>;

/** OrdersRepo.page's query: the list's filters, search and sort; `afterKey` starts the page right after that key of the same sort. */
export type OrderPageRequest = Omit<OrderPageQuery, 'after'> & { afterKey?: OrderSortKey };

/** One page of the list: how many orders match in all, the offset asked, the orders, and the key to continue after (when the page is full). */
export interface OrderPageRecord {
  total: number;
  offset: number;
  orders: StationOrder[];
  nextKey?: OrderSortKey;
}

/**
 * Keyset pagination of the order list (issue 27 item 3): per sort, the
 * columns of its ORDER BY (the id last, so the key is unique) and the
 * condition "after this key" as one row-value comparison where the
 * directions agree, which SQLite answers from the same index as the sort.
 */
const SEEKS: Record<OrderSort, { keys: ReadonlyArray<keyof OrderRow>; after: string }> = {
  newest: { keys: ['created_at', 'id'], after: '(created_at, id) < (@k0, @k1)' },
  oldest: { keys: ['created_at', 'id'], after: '(created_at, id) > (@k0, @k1)' },
  number: { keys: ['order_number', 'shop', 'id'], after: '(order_number COLLATE NOCASE, shop, id) > (@k0, @k1, @k2)' },
  name: { keys: ['recipient_name', 'id'], after: '(recipient_name COLLATE NOCASE, id) > (@k0, @k1)' },
  // Mixed directions: the range `country_code >= @k0` comes from the index, the rest filters it.
  country: { keys: ['country_code', 'created_at', 'id'], after: '(country_code >= @k0 AND (country_code > @k0 OR (created_at, id) < (@k1, @k2)))' },
};

/** How many values a {@link OrderSortKey} of `sort` holds (its key columns, the id included). */
export function orderSortKeyLength(sort: OrderSort): number {
  return SEEKS[sort].keys.length;
}

/** The key of `row` in `sort`: where the next page starts. */
export function orderSortKey(sort: OrderSort, row: OrderRow): OrderSortKey {
  return SEEKS[sort].keys.map((k) => row[k] as string | number);
}

/**
 * The WHERE condition and its parameters (`k0`, `k1`, ...) for rows after
 * `key` in `sort`.
 * @throws Error when `key` does not have {@link orderSortKeyLength} values (a caller's mistake: the
 *   orders domain checks a cursor before it asks).
 */
export function seekAfter(sort: OrderSort, key: OrderSortKey): { where: string; params: Record<string, string | number> } {
  const seek = SEEKS[sort];
  if (key.length !== seek.keys.length) throw new Error(`A key of sort ${sort} has ${seek.keys.length} values, not ${key.length}`);
  const params: Record<string, string | number> = {};
  key.forEach((v, i) => (params[`k${i}`] = v));
  return { where: seek.after, params };
}

export const ALL_STATUSES: readonly OrderStatus[] = ['open', 'shipped', 'cancelled'];

/** The statuses a list filter names: one, several, or null for all. */
export function statusList(filter: OrderStatusFilter | undefined): readonly OrderStatus[] | null {
  if (filter === undefined || filter === 'all') return null;
  return typeof filter === 'string' ? [filter] : filter;
}

/** A text search's condition and its count (orders-repo `textMatches`). */
export interface Matches {
  clause: string;
  count(): number;
}

/**
 * Above this many index matches a text search reads the list's sort index
 * in order and keeps the matching orders (the first page is found after a
 * few hundred index entries); at or below it, it looks the matches up one by
 * one and sorts them. Either way a page costs about the same (issue 27: a
 * search over a year of orders in well under 50 ms).
 */
export const MANY_MATCHES = 2000;

/**
 * The text conditions that stand in for the index for orders still in
 * `orders_fts_pending`: a substring (LIKE, ASCII case-insensitive like the
 * trigram index) of the same fields the index holds, read from the short
 * pending list outward (CROSS JOIN keeps that order: never a scan of orders). `all`: also the
 * details column's fields (company, postal code, phone, e-mail, item names).
 */
export const pendingMatch = (all: boolean): string => `SELECT p.order_id FROM orders_fts_pending p CROSS JOIN orders o ON o.id = p.order_id
   WHERE o.order_number LIKE @like ESCAPE '\\' OR o.recipient_name LIKE @like ESCAPE '\\' OR o.city LIKE @like ESCAPE '\\'
     ${all ? `OR o.recipient_company LIKE @like ESCAPE '\\' OR o.postal_code LIKE @like ESCAPE '\\' OR o.phone LIKE @like ESCAPE '\\' OR o.email LIKE @like ESCAPE '\\'` : ''}
     OR EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND (i.sku LIKE @like ESCAPE '\\'${all ? ` OR i.name LIKE @like ESCAPE '\\'` : ''}))`;

/** The orders of `ids` that exist, by id, with their items, in two queries whatever their number (OrdersRepo.getMany). */
export function readOrdersById(db: Database.Database, ids: readonly number[]): Map<number, StationOrder> {
  const key = JSON.stringify([...new Set(ids)]);
  const items = new Map<number, ItemRow[]>();
  const itemRows = db
    .prepare<[string], ItemRow & { order_id: number }>(
      'SELECT order_id, sku, name, quantity, unit_price, fulfilled FROM order_items WHERE order_id IN (SELECT value FROM json_each(?)) ORDER BY order_id, position',
    )
    .all(key);
  for (const { order_id, ...it } of itemRows) {
    const list = items.get(order_id);
    if (list) list.push(it);
    else items.set(order_id, [it]);
  }
  const rows = db.prepare<[string], OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id IN (SELECT value FROM json_each(?))`).all(key);
  return new Map(rows.map((r) => [r.id, orderFromRow(r, items.get(r.id) ?? [])]));
}
