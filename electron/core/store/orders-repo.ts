/**
 * Orders and their line items (tables `orders`, `order_items`). Rows are
 * mapped explicitly to {@link StationOrder}; NULL columns become absent
 * optional fields.
 */
import type Database from 'better-sqlite3';
import type { OrderItem, OrderSource, OrderStatus, StationOrder } from '../../../shared/domain/order';
import { StoreError } from './errors';
import { compact, isoNow, isUniqueViolation, likeContains, nul, opt, type Clock } from './sql';

/** An order before it has a row id. `externalId`: the shop's own id (Shopify `Id`), kept for reference. */
export type OrderDraft = Omit<StationOrder, 'id'> & { externalId?: string };

/** What {@link OrdersRepo.upsertImported} did with one order. */
type UpsertOutcome = 'imported' | 'updated' | 'unchanged' | 'skipped';

/** Filter for lists: one status, several, or all. */
type OrderStatusFilter = OrderStatus | readonly OrderStatus[] | 'all';

/** Repository of orders. All methods are synchronous (better-sqlite3) and may run inside `store.tx`. */
export interface OrdersRepo {
  /**
   * Inserts a new order with its items.
   * @throws StoreError `conflict` (details key `orderNumber`) when the number is taken.
   */
  insert(order: OrderDraft, importHash?: string): StationOrder;
  /**
   * Import rule, by `orderNumber`: a new number is inserted (`imported`); an
   * imported order with the same `importHash` is left alone (`unchanged`); an
   * imported order still `open` and without a shipment is replaced, items
   * included (`updated`); anything else (entered by hand, or already shipped or
   * cancelled at the station) is not touched (`skipped`).
   */
  upsertImported(order: OrderDraft, importHash: string): UpsertOutcome;
  getById(id: number): StationOrder | undefined;
  /** Exact order number, e.g. "#1001". */
  getByNumber(orderNumber: string): StationOrder | undefined;
  /**
   * Order for a scanned or typed code: exact number, then with a `#` added
   * (scanners often drop it), then case-insensitively. Undefined when none.
   */
  findByScan(code: string): StationOrder | undefined;
  /** Orders, open first, then newest `createdAt` first. `limit` default 200, max 1000. */
  list(opts?: { status?: OrderStatusFilter; limit?: number; offset?: number }): StationOrder[];
  /**
   * Orders whose number, recipient name/company/city/postal code/phone, e-mail,
   * or an item's SKU or name contains `query` (case-insensitive for ASCII).
   * Same order as {@link list}; `limit` default 50.
   */
  search(query: string, opts?: { status?: OrderStatusFilter; limit?: number }): StationOrder[];
  count(opts?: { status?: OrderStatusFilter }): number;
  /**
   * Sets the status; `open` also clears the shipment tracking number (e.g. after
   * the shipment was cancelled). @throws StoreError `not_found`.
   */
  setStatus(id: number, status: OrderStatus): StationOrder;
  /** Marks the order shipped by the shipment with this tracking number (LDV). @throws StoreError `not_found`. */
  markShipped(id: number, trackingNumber: string): StationOrder;
}

interface OrderRow {
  id: number;
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

interface ItemRow {
  sku: string | null;
  name: string;
  quantity: number;
  unit_price: number;
}

interface ImportStateRow {
  id: number;
  source: OrderSource;
  status: OrderStatus;
  shipment_tracking_number: string | null;
  import_hash: string | null;
}

const ORDER_COLUMNS = `id, order_number, source, email, created_at, recipient_name, recipient_company, street, street2,
  city, province, postal_code, country_code, phone, recipient_email, total, currency, notes, status,
  shipment_tracking_number`;

/** Row -> domain object. */
function orderFromRow(row: OrderRow, items: ItemRow[]): StationOrder {
  return compact<StationOrder>({
    id: row.id,
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
  });
}

function itemFromRow(row: ItemRow): OrderItem {
  return compact<OrderItem>({ sku: opt(row.sku), name: row.name, quantity: row.quantity, unitPrice: row.unit_price });
}

/** Domain object -> named parameters of the orders table. */
function orderParams(o: OrderDraft) {
  const r = o.recipient;
  return {
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
    external_id: nul(o.externalId),
  };
}

function statusList(filter: OrderStatusFilter | undefined): readonly OrderStatus[] | null {
  if (filter === undefined || filter === 'all') return null;
  return typeof filter === 'string' ? [filter] : filter;
}

/** Builds the orders repository on an open database. */
export function createOrdersRepo(db: Database.Database, clock: Clock): OrdersRepo {
  const insertOrder = db.prepare<Record<string, unknown>, never>(`
    INSERT INTO orders (order_number, source, email, created_at, recipient_name, recipient_company, street, street2,
      city, province, postal_code, country_code, phone, recipient_email, total, currency, notes, status,
      shipment_tracking_number, external_id, import_hash, stored_at, updated_at)
    VALUES (@order_number, @source, @email, @created_at, @recipient_name, @recipient_company, @street, @street2,
      @city, @province, @postal_code, @country_code, @phone, @recipient_email, @total, @currency, @notes, @status,
      @shipment_tracking_number, @external_id, @import_hash, @now, @now)`);
  const replaceOrder = db.prepare<Record<string, unknown>, never>(`
    UPDATE orders SET email = @email, created_at = @created_at, recipient_name = @recipient_name,
      recipient_company = @recipient_company, street = @street, street2 = @street2, city = @city,
      province = @province, postal_code = @postal_code, country_code = @country_code, phone = @phone,
      recipient_email = @recipient_email, total = @total, currency = @currency, notes = @notes, status = @status,
      external_id = @external_id, import_hash = @import_hash, updated_at = @now
    WHERE id = @id`);
  const insertItem = db.prepare<[number, number, string | null, string, number, number], never>(
    'INSERT INTO order_items (order_id, position, sku, name, quantity, unit_price) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const deleteItems = db.prepare<[number], never>('DELETE FROM order_items WHERE order_id = ?');
  const selectItems = db.prepare<[number], ItemRow>(
    'SELECT sku, name, quantity, unit_price FROM order_items WHERE order_id = ? ORDER BY position',
  );
  const selectById = db.prepare<[number], OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ?`);
  const selectByNumber = db.prepare<[string], OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE order_number = ?`);
  const selectByNumberNoCase = db.prepare<[string], OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders WHERE order_number = ? COLLATE NOCASE ORDER BY id LIMIT 1`,
  );
  const selectImportState = db.prepare<[string], ImportStateRow>(
    'SELECT id, source, status, shipment_tracking_number, import_hash FROM orders WHERE order_number = ?',
  );
  const updateStatus = db.prepare<[OrderStatus, string | null, string, number], never>(
    'UPDATE orders SET status = ?, shipment_tracking_number = ?, updated_at = ? WHERE id = ?',
  );

  const withItems = (row: OrderRow | undefined) => (row ? orderFromRow(row, selectItems.all(row.id)) : undefined);

  const writeItems = (orderId: number, items: readonly OrderItem[]) => {
    items.forEach((it, i) => insertItem.run(orderId, i, nul(it.sku), it.name, it.quantity, it.unitPrice));
  };

  const insertRaw = (order: OrderDraft, importHash: string | null): number => {
    try {
      const res = insertOrder.run({ ...orderParams(order), import_hash: importHash, now: isoNow(clock) });
      const id = Number(res.lastInsertRowid);
      writeItems(id, order.items);
      return id;
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new StoreError('conflict', `Order ${order.orderNumber} already exists`, {
          orderNumber: [`Order ${order.orderNumber} already exists`],
        });
      }
      throw err;
    }
  };

  const insert = db.transaction((order: OrderDraft, importHash?: string): StationOrder => {
    const id = insertRaw(order, importHash ?? null);
    return must(withItems(selectById.get(id)), id);
  });

  const upsertImported = db.transaction((order: OrderDraft, importHash: string): UpsertOutcome => {
    const existing = selectImportState.get(order.orderNumber);
    if (!existing) {
      insertRaw(order, importHash);
      return 'imported';
    }
    if (existing.source !== 'shopify_csv') return 'skipped';
    if (existing.import_hash === importHash) return 'unchanged';
    if (existing.status !== 'open' || existing.shipment_tracking_number !== null) return 'skipped';
    replaceOrder.run({ ...orderParams(order), id: existing.id, import_hash: importHash, now: isoNow(clock) });
    deleteItems.run(existing.id);
    writeItems(existing.id, order.items);
    return 'updated';
  });

  const must = (o: StationOrder | undefined, id: number): StationOrder => {
    if (!o) throw new StoreError('not_found', `Order ${id} not found`);
    return o;
  };

  const setStatusRaw = (id: number, status: OrderStatus, tracking: string | null): StationOrder => {
    const res = updateStatus.run(status, tracking, isoNow(clock), id);
    if (res.changes === 0) throw new StoreError('not_found', `Order ${id} not found`);
    return must(withItems(selectById.get(id)), id);
  };

  /** WHERE clause and named parameters for a status filter plus an optional extra condition; null = no row can match. */
  const listWhere = (filter: OrderStatusFilter | undefined, extra: string | null) => {
    const statuses = statusList(filter);
    const clauses: string[] = [];
    const params: Record<string, unknown> = {};
    if (statuses) {
      if (statuses.length === 0) return null;
      clauses.push(`status IN (${statuses.map((_, i) => `@s${i}`).join(', ')})`);
      statuses.forEach((st, i) => (params[`s${i}`] = st));
    }
    if (extra) clauses.push(extra);
    return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
  };

  const ORDER_BY = `ORDER BY CASE status WHEN 'open' THEN 0 ELSE 1 END, created_at DESC, id DESC`;
  const clampLimit = (n: number | undefined, dflt: number) => Math.max(1, Math.min(1000, Math.floor(n ?? dflt)));

  return {
    insert: (order, importHash) => insert(order, importHash),
    upsertImported: (order, importHash) => upsertImported(order, importHash),
    getById: (id) => withItems(selectById.get(id)),
    getByNumber: (n) => withItems(selectByNumber.get(n)),
    findByScan(code) {
      const c = code.trim();
      if (c === '') return undefined;
      const hashed = c.startsWith('#') ? c : `#${c}`;
      return withItems(selectByNumber.get(c) ?? selectByNumber.get(hashed) ?? selectByNumberNoCase.get(c));
    },
    list(opts = {}) {
      const w = listWhere(opts.status, null);
      if (!w) return [];
      const rows = db
        .prepare<Record<string, unknown>, OrderRow>(
          `SELECT ${ORDER_COLUMNS} FROM orders ${w.where} ${ORDER_BY} LIMIT @limit OFFSET @offset`,
        )
        .all({ ...w.params, limit: clampLimit(opts.limit, 200), offset: Math.max(0, Math.floor(opts.offset ?? 0)) });
      return rows.map((r) => orderFromRow(r, selectItems.all(r.id)));
    },
    search(query, opts = {}) {
      const q = query.trim();
      if (q === '') return [];
      const w = listWhere(
        opts.status,
        `(order_number LIKE @q ESCAPE '\\' OR recipient_name LIKE @q ESCAPE '\\' OR recipient_company LIKE @q ESCAPE '\\'
          OR city LIKE @q ESCAPE '\\' OR postal_code LIKE @q ESCAPE '\\' OR phone LIKE @q ESCAPE '\\'
          OR email LIKE @q ESCAPE '\\'
          OR EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = orders.id
                     AND (i.sku LIKE @q ESCAPE '\\' OR i.name LIKE @q ESCAPE '\\')))`,
      );
      if (!w) return [];
      const rows = db
        .prepare<Record<string, unknown>, OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders ${w.where} ${ORDER_BY} LIMIT @limit`)
        .all({ ...w.params, q: likeContains(q), limit: clampLimit(opts.limit, 50) });
      return rows.map((r) => orderFromRow(r, selectItems.all(r.id)));
    },
    count(opts = {}) {
      const w = listWhere(opts.status, null);
      if (!w) return 0;
      const row = db.prepare<Record<string, unknown>, { n: number }>(`SELECT count(*) AS n FROM orders ${w.where}`).get(w.params);
      return row?.n ?? 0;
    },
    setStatus: (id, status) => {
      const current = selectById.get(id);
      if (!current) throw new StoreError('not_found', `Order ${id} not found`);
      return setStatusRaw(id, status, status === 'open' ? null : current.shipment_tracking_number);
    },
    markShipped: (id, trackingNumber) => setStatusRaw(id, 'shipped', trackingNumber),
  };
}
