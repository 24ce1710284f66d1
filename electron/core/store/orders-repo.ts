/**
 * Orders and their line items (tables `orders`, `order_items`). Rows are
 * mapped explicitly to {@link StationOrder}; NULL columns become absent
 * optional fields.
 */
import { DEFAULT_SHOP, type ImportSkipReason, type OrderFixField, type OrderFacets, type OrderItem, type OrderStatus, type StationOrder } from '../../../shared/domain/order';
import { StoreError } from './errors';
import { changedOrdersQuery, type ChangedOrder, type OrderChangeCursor } from './orders-changes';
import { isoNow, isUniqueViolation, likeContains, nul, type Clock } from './sql';
import type Database from 'better-sqlite3';
import { type OrderDraft, type OrderParams, type OrderStatusFilter, type OrderRow, type ItemRow, type ImportStateRow, ORDER_COLUMNS, ORDER_ITEMS_SQL, ORDER_PARAM_COLUMNS, orderFromRow, orderParams, orderKey, ftsPhrase, SORTS, ALL_STATUSES, statusList, orderSortKey, seekAfter, readOrdersById, type Matches, type OrderPageRecord, type OrderPageRequest } from './orders-rows';
import { createTextMatches } from './orders-text';

export type { OrderDraft, OrderSortKey } from './orders-rows';

/** What {@link OrdersRepo.upsertImported} did with one order. */
type UpsertOutcome = 'imported' | 'updated' | 'unchanged' | 'skipped';

/** {@link OrdersRepo.upsertImported}'s answer: the outcome and, when skipped, why. */
interface UpsertResult {
  outcome: UpsertOutcome;
  reason?: Exclude<ImportSkipReason, 'repeated_in_file'>;
  /** The order's row id (also when skipped or unchanged). */
  id: number;
}

/** Repository of orders. All methods are synchronous (better-sqlite3) and may run inside `store.tx`. */
export interface OrdersRepo {
  /**
   * Inserts a new order with its items.
   * @throws StoreError `conflict` (details key `orderNumber`) when the shop already has that order.
   */
  insert(order: OrderDraft, importHash?: string): StationOrder;
  /**
   * Import rule, by shop + shop order id (or number): a new order is inserted
   * (`imported`); an imported order with the same `importHash` is left alone
   * (`unchanged`); an imported order still `open` and without a shipment is
   * replaced, items included (`updated`), except when the new version has
   * fewer lines than the stored one (a truncated file: `skipped`,
   * `fewer_lines`). Entered by hand (`manual`) or already shipped/cancelled at
   * the station (`already_shipped`): not touched. A postal code the packer
   * completed is kept when the file still lacks it.
   */
  upsertImported(order: OrderDraft, importHash: string, opts?: { indexLater?: boolean }): UpsertResult;
  /**
   * Writes the search index rows of orders a bulk import stored with
   * `indexLater` (table `orders_fts_pending`, migration 10), oldest first, for
   * at most `budgetMs` ms (at least one order) in one transaction.
   * Until then {@link search} and {@link page} match those orders by
   * substring, so they are found all along. Returns how many are still waiting.
   */
  indexPending(budgetMs: number): number;
  /** How many orders wait for their search index row (see {@link indexPending}). */
  pendingIndexCount(): number;
  getById(id: number): StationOrder | undefined;
  /** The orders of `ids` (those that exist), by id, in two queries whatever their number (lists of shipments). */
  getMany(ids: readonly number[]): Map<number, StationOrder>;
  /** First order with this exact number, any shop (lowest id). */
  getByNumber(orderNumber: string): StationOrder | undefined;
  /** The order of `shop` with this exact number. */
  getByShopNumber(shop: string, orderNumber: string): StationOrder | undefined;
  /**
   * Order for a scanned or typed code (first of {@link findAllByScan}).
   * Undefined when none.
   */
  findByScan(code: string): StationOrder | undefined;
  /**
   * Every order, of any shop, for a scanned or typed code: exact number, then
   * with a `#` added (scanners often drop it), then without one, then
   * case-insensitively; open first. Two shops sharing a number give both.
   */
  findAllByScan(code: string): StationOrder[];
  /** Orders, open first, then newest `createdAt` first. `limit` default 200, max 1000. */
  list(opts?: { status?: OrderStatusFilter; limit?: number; offset?: number }): StationOrder[];
  /**
   * Orders whose number, recipient name/company/city/postal code/phone, e-mail,
   * or an item's SKU or name contains `query` (case-insensitive for ASCII).
   * Same order as {@link list}; `limit` default 50.
   */
  search(query: string, opts?: { status?: OrderStatusFilter; limit?: number }): StationOrder[];
  /**
   * A page of the order list with filters, search and sorting (see {@link OrderPageRequest}); with `afterKey`, the
   * rows after it from the sort's index (`offset` only echoed). @throws Error when `afterKey` has the wrong length for the sort.
   */
  page(query: OrderPageRequest): OrderPageRecord;
  /** Shops, countries and shipping methods of open orders, sorted. */
  facets(): OrderFacets;
  count(opts?: { status?: OrderStatusFilter }): number;
  /**
   * Completes an order that needs a fix: sets the postal code and/or shortens
   * the notes, and clears those fields from `needsFix`. Validation is the
   * caller's (handlers/orders.ts). @throws StoreError `not_found`.
   */
  fix(id: number, patch: { postalCode?: string; notes?: string }): StationOrder;
  /**
   * Sets the status; `open` also clears the shipment tracking number (e.g. after
   * the shipment was cancelled). @throws StoreError `not_found`.
   */
  setStatus(id: number, status: OrderStatus): StationOrder;
  /** Marks the order shipped by the shipment with this tracking number (LDV). @throws StoreError `not_found`. */
  markShipped(id: number, trackingNumber: string): StationOrder;
  /** Orders imported from a shop's file changed after `after` (and before `before`), for the warehouse (orders-changes.ts). */
  changedSince(after: OrderChangeCursor, before: string | null, limit: number): ChangedOrder[];
}

/** `insertOrder`'s values: {@link ORDER_PARAM_COLUMNS}' values in order, then import_hash, stored_at, updated_at. */
type InsertValues = [Array<OrderParams[keyof OrderParams] | string | null>];

/** Builds the orders repository on an open database. */
export function createOrdersRepo(db: Database.Database, clock: Clock): OrdersRepo {
  // Bound by position (ORDER_PARAM_COLUMNS): cheaper than by name on every order of an import.
  const insertOrder = db.prepare<InsertValues, never>(`
    INSERT INTO orders (${ORDER_PARAM_COLUMNS.join(', ')}, import_hash, stored_at, updated_at)
    VALUES (${ORDER_PARAM_COLUMNS.map(() => '?').join(', ')}, ?, ?, ?)`);
  const replaceOrder = db.prepare<Record<string, unknown>, never>(`
    UPDATE orders SET order_number = @order_number, email = @email, created_at = @created_at,
      recipient_name = @recipient_name, recipient_company = @recipient_company, street = @street, street2 = @street2,
      city = @city, province = @province, postal_code = @postal_code, country_code = @country_code, phone = @phone,
      recipient_email = @recipient_email, total = @total, currency = @currency, notes = @notes, status = @status,
      external_id = @external_id, import_hash = @import_hash, payment_status = @payment_status, delivery = @delivery,
      shipping_method = @shipping_method, needs_fix = @needs_fix, updated_at = @now
    WHERE id = @id`);
  const insertItem = db.prepare<[number, number, string | null, string, number, number, number], never>(
    'INSERT INTO order_items (order_id, position, sku, name, quantity, unit_price, fulfilled) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const deleteItems = db.prepare<[number], never>('DELETE FROM order_items WHERE order_id = ?');
  const selectItems = db.prepare<[number], ItemRow>(ORDER_ITEMS_SQL);
  const deleteFts = db.prepare<[number], never>('DELETE FROM orders_fts WHERE rowid = ?');
  const insertFts = db.prepare<[number, string, string, string, string, string], never>(
    'INSERT INTO orders_fts (rowid, order_number, recipient_name, city, skus, details) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertPending = db.prepare<[number], never>('INSERT OR IGNORE INTO orders_fts_pending (order_id) VALUES (?)');
  const deletePending = db.prepare<[number], never>('DELETE FROM orders_fts_pending WHERE order_id = ?');
  const selectPending = db.prepare<[number], { order_id: number }>('SELECT order_id FROM orders_fts_pending ORDER BY order_id LIMIT ?');
  const countPending = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM orders_fts_pending');
  const selectById = db.prepare<[number], OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ?`);
  // The exact number (BINARY) also compared without case: the same rows, found from `orders_number_shop`
  // (order_number COLLATE NOCASE, shop) instead of reading every order (or every order of the shop).
  const selectByNumber = db.prepare<{ n: string }, OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders WHERE order_number = @n COLLATE NOCASE AND order_number = @n ORDER BY id LIMIT 1`,
  );
  const selectByShopNumber = db.prepare<{ shop: string; n: string }, OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders WHERE order_number = @n COLLATE NOCASE AND shop = @shop AND order_number = @n ORDER BY id LIMIT 1`,
  );
  const selectAllByNumber = db.prepare<[string], OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders WHERE order_number = ? COLLATE NOCASE
     ORDER BY CASE status WHEN 'open' THEN 0 ELSE 1 END, shop, id LIMIT 50`,
  );
  const selectImportState = db.prepare<[string, string], ImportStateRow>(
    `SELECT id, source, status, shipment_tracking_number, import_hash, postal_code, needs_fix,
       (SELECT count(*) FROM order_items i WHERE i.order_id = orders.id) AS lines
     FROM orders WHERE shop = ? AND order_key = ?`,
  );
  const updateStatus = db.prepare<[OrderStatus, string | null, string, number], never>(
    'UPDATE orders SET status = ?, shipment_tracking_number = ?, updated_at = ? WHERE id = ?',
  );
  const updateFix = db.prepare<[string, string | null, string, string, number], never>(
    'UPDATE orders SET postal_code = ?, notes = ?, needs_fix = ?, updated_at = ? WHERE id = ?',
  );

  const withItems = (row: OrderRow | undefined) => (row ? orderFromRow(row, selectItems.all(row.id)) : undefined);

  const writeItems = (orderId: number, items: readonly OrderItem[]) => {
    items.forEach((it, i) => insertItem.run(orderId, i, nul(it.sku), it.name, it.quantity, it.unitPrice, it.fulfilled ? 1 : 0));
  };

  /** Keeps the search index row of an order in step with its content. */
  const indexOrder = (id: number, o: OrderDraft, fresh = false) => {
    // A new row has no index entry yet: the delete is only for a replaced order.
    if (!fresh) deleteFts.run(id);
    const skus = o.items.map((i) => i.sku ?? '').filter((x) => x !== '').join(' ');
    // What only the store's `search` reads (migration 8; the retired `orders.list` command's): company, postal code, phone, e-mail, item names.
    const details = [o.recipient.company, o.recipient.postalCode, o.recipient.phone, o.email, ...o.items.map((i) => i.name)]
      .filter((x): x is string => typeof x === 'string' && x !== '')
      .join(' ');
    insertFts.run(id, o.orderNumber, o.recipient.name, o.recipient.city, skus, details);
  };

  const insertRaw = (order: OrderDraft, importHash: string | null, indexLater = false): number => {
    try {
      const params = orderParams(order);
      const now = isoNow(clock);
      const res = insertOrder.run([...ORDER_PARAM_COLUMNS.map((c) => params[c]), importHash, now, now]);
      const id = Number(res.lastInsertRowid);
      writeItems(id, order.items);
      if (indexLater) insertPending.run(id);
      else indexOrder(id, order, true);
      return id;
    } catch (err) {
      if (isUniqueViolation(err)) {
        const shop = order.shop ?? DEFAULT_SHOP;
        const msg = `Order ${order.orderNumber} of shop ${shop} already exists`;
        throw new StoreError('conflict', msg, { orderNumber: [msg] });
      }
      throw err;
    }
  };

  const insert = db.transaction((order: OrderDraft, importHash?: string): StationOrder => {
    const id = insertRaw(order, importHash ?? null);
    return must(withItems(selectById.get(id)), id);
  });

  /** The import rule's body; runs in the caller's transaction (a savepoint per order costs a third of an import). */
  const upsertImportedIn = (order: OrderDraft, importHash: string, indexLater = false): UpsertResult => {
    const existing = selectImportState.get(order.shop ?? DEFAULT_SHOP, orderKey(order));
    if (!existing) return { outcome: 'imported', id: insertRaw(order, importHash, indexLater) };
    const id = existing.id;
    if (existing.source !== 'shopify_csv') return { outcome: 'skipped', reason: 'manual', id };
    if (existing.import_hash === importHash) return { outcome: 'unchanged', id };
    if (existing.status !== 'open' || existing.shipment_tracking_number !== null) {
      return { outcome: 'skipped', reason: 'already_shipped', id };
    }
    if (order.items.length < existing.lines) return { outcome: 'skipped', reason: 'fewer_lines', id };
    let next = order;
    const fixes = order.needsFix ?? [];
    const fixedBefore = !(JSON.parse(existing.needs_fix) as OrderFixField[]).includes('postalCode');
    if (fixes.includes('postalCode') && existing.postal_code !== '' && fixedBefore) {
      // The packer completed the postal code; a file that still lacks it must not erase it.
      next = { ...order, recipient: { ...order.recipient, postalCode: existing.postal_code }, needsFix: fixes.filter((f) => f !== 'postalCode') };
    }
    replaceOrder.run({ ...orderParams(next), id, import_hash: importHash, now: isoNow(clock) });
    deleteItems.run(id);
    writeItems(id, next.items);
    if (indexLater) {
      // The old index row would match the old text: it goes now, the new one comes with the others.
      deleteFts.run(id);
      insertPending.run(id);
    } else indexOrder(id, next);
    return { outcome: 'updated', id };
  };
  const upsertImportedTx = db.transaction(upsertImportedIn);
  // Inside a transaction (the importer's batch) no savepoint is needed: the batch commits or rolls back whole.
  const upsertImported = (order: OrderDraft, importHash: string, indexLater: boolean): UpsertResult =>
    db.inTransaction ? upsertImportedIn(order, importHash, indexLater) : upsertImportedTx(order, importHash, indexLater);

  const indexPendingTx = db.transaction((budgetMs: number): number => {
    const start = performance.now();
    let done = 0;
    for (;;) {
      const ids = selectPending.all(100);
      if (ids.length === 0) break;
      for (const { order_id: id } of ids) {
        if (done > 0 && performance.now() - start >= budgetMs) return countPending.get()?.n ?? 0;
        const order = withItems(selectById.get(id));
        deletePending.run(id);
        if (order) indexOrder(id, order);
        done++;
      }
    }
    return 0;
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

  /** WHERE clause and named parameters for a status filter plus extra conditions; null = no row can match. */
  const listWhere = (filter: OrderStatusFilter | undefined, ...extra: Array<string | null>) => {
    const statuses = statusList(filter);
    const clauses: string[] = [];
    const params: Record<string, unknown> = {};
    if (statuses) {
      if (statuses.length === 0) return null;
      clauses.push(`status IN (${statuses.map((_, i) => `@s${i}`).join(', ')})`);
      statuses.forEach((st, i) => (params[`s${i}`] = st));
    }
    for (const e of extra) if (e) clauses.push(e);
    return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
  };

  const ORDER_BY = `ORDER BY CASE status WHEN 'open' THEN 0 ELSE 1 END, created_at DESC, id DESC`;
  /**
   * Orders of `statuses`, newest first, at most `limit`: one status reads its
   * (status, created_at) index; several read the created_at index and skip
   * the others (`+status` keeps the planner from sorting every match).
   */
  const listByStatus = (statuses: readonly OrderStatus[], limit: number): OrderRow[] => {
    const one = statuses.length === 1;
    const params: Record<string, unknown> = { limit };
    statuses.forEach((st, i) => (params[`s${i}`] = st));
    const where = one ? 'status = @s0' : `+status IN (${statuses.map((_, i) => `@s${i}`).join(', ')})`;
    return db
      .prepare<Record<string, unknown>, OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit`)
      .all(params);
  };
  const clampLimit = (n: number | undefined, dflt: number, max = 1000) => Math.max(1, Math.min(max, Math.floor(n ?? dflt)));

  const text = createTextMatches(db);
  const textMatches = text.matches;

  /** WHERE and parameters of a list page (see OrderPageQuery). */
  const pageWhere = (q: OrderPageRequest) => {
    const clauses: string[] = [];
    const params: Record<string, unknown> = {};
    switch (q.view ?? 'to_ship') {
      case 'to_ship':
        clauses.push(`status = 'open' AND delivery = 'ship'`);
        break;
      case 'pickup':
        clauses.push(`status = 'open' AND delivery = 'pickup'`);
        break;
      case 'shipped':
        clauses.push(`status = 'shipped'`);
        break;
      case 'cancelled':
        clauses.push(`status = 'cancelled'`);
        break;
      case 'all':
        break;
    }
    if (q.shop !== undefined) {
      clauses.push('shop = @shop');
      params.shop = q.shop;
    }
    if (q.country !== undefined) {
      clauses.push('country_code = @country');
      params.country = q.country;
    }
    if (q.carrier !== undefined) {
      clauses.push('shipping_method = @carrier');
      params.carrier = q.carrier;
    }
    if (q.unpaid) clauses.push(`payment_status = 'unpaid'`);
    if (q.needsFix) clauses.push(`needs_fix <> '[]'`);
    const text = q.q?.trim() ?? '';
    let matches: Matches | undefined;
    if ([...text].length >= 3) {
      // Trigram FTS5: any substring of 3+ characters, from the index.
      params.fts = `{order_number recipient_name city skus} : ${ftsPhrase(text)}`;
      params.like = likeContains(text);
      matches = textMatches(params.fts as string, false, params.like as string);
      clauses.push(matches.clause);
    } else if (text !== '') {
      // Too short for trigrams: the start of the order number (with or without its #).
      clauses.push(`(order_number LIKE @p ESCAPE '\\' OR order_number LIKE @ph ESCAPE '\\')`);
      const esc = text.replace(/[\\%_]/g, (c) => `\\${c}`);
      params.p = `${esc}%`;
      params.ph = `#${esc}%`;
    }
    return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params, matches, filtered: clauses.length > (matches ? 1 : 0) };
  };

  /** Text search over orders (OrdersRepo.search); the caller releases the text matches (orders-text.ts). */
  const searchOf = (query: string, opts: { status?: OrderStatusFilter; limit?: number }): StationOrder[] => {
    const q = query.trim();
    if (q === '') return [];
    // 3+ characters: the trigram index over every searched field (migration 8).
    if ([...q].length >= 3) {
      // Open orders first, then the rest, each newest first from the status's index.
      const statuses = statusList(opts.status) ?? ALL_STATUSES;
      const limit = clampLimit(opts.limit, 50);
      const m = textMatches(ftsPhrase(q), true, likeContains(q));
      const part = (sts: readonly OrderStatus[], n: number): OrderRow[] => {
        if (sts.length === 0 || n <= 0) return [];
        const one = sts.length === 1;
        const sp: Record<string, unknown> = { fts: ftsPhrase(q), like: likeContains(q), limit: n };
        sts.forEach((st, i) => (sp[`s${i}`] = st));
        const where = one ? 'status = @s0' : `+status IN (${sts.map((_, i) => `@s${i}`).join(', ')})`;
        return db
          .prepare<Record<string, unknown>, OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE ${where} AND ${m.clause} ORDER BY created_at DESC, id DESC LIMIT @limit`)
          .all(sp);
      };
      const open = statuses.includes('open') ? part(['open'], limit) : [];
      const rows = open.concat(part(statuses.filter((st) => st !== 'open'), limit - open.length));
      return rows.map((r) => orderFromRow(r, selectItems.all(r.id)));
    }
    // Shorter text has no trigram: a substring scan, stopped by the limit (1-2 characters match most orders).
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
  };

  /** One page of the order list (OrdersRepo.page); the caller releases the text matches (orders-text.ts). */
  const pageOf = (query: OrderPageRequest): OrderPageRecord => {
    const { where, params, matches, filtered } = pageWhere(query);
    const sort = query.sort ?? 'newest';
    const limit = clampLimit(query.limit, 100, 500);
    const offset = Math.max(0, Math.floor(query.offset ?? 0));
    // A search over every order is counted by the index alone (no order row read).
    const total =
      matches && !filtered
        ? matches.count()
        : (db.prepare<Record<string, unknown>, { n: number }>(`SELECT count(*) AS n FROM orders ${where}`).get(params)?.n ?? 0);
    // After a key the page starts right there, from the sort's index (no rows read and skipped).
    const seek = query.afterKey !== undefined ? seekAfter(sort, query.afterKey) : undefined;
    const seekWhere = seek ? `${where === '' ? 'WHERE' : `${where} AND`} ${seek.where}` : where;
    const rows = db
      .prepare<Record<string, unknown>, OrderRow>(
        `SELECT ${ORDER_COLUMNS} FROM orders ${seekWhere} ORDER BY ${SORTS[sort]} LIMIT @limit${seek ? '' : ' OFFSET @offset'}`,
      )
      .all({ ...params, ...seek?.params, limit, ...(seek ? {} : { offset }) });
    const last = rows.at(-1);
    return {
      total,
      offset,
      orders: rows.map((r) => orderFromRow(r, selectItems.all(r.id))),
      ...(last && rows.length === limit ? { nextKey: orderSortKey(sort, last) } : {}),
    };
  };

  const distinct = (col: 'shop' | 'country_code' | 'shipping_method') =>
    db
      .prepare<[], { v: string }>(`SELECT DISTINCT ${col} AS v FROM orders WHERE status = 'open' AND ${col} IS NOT NULL ORDER BY v`)
      .all()
      .map((r) => r.v);

  return {
    insert: (order, importHash) => insert(order, importHash),
    upsertImported: (order, importHash, opts) => upsertImported(order, importHash, opts?.indexLater === true),
    indexPending: (budgetMs) => indexPendingTx.immediate(budgetMs),
    pendingIndexCount: () => countPending.get()?.n ?? 0,
    getById: (id) => withItems(selectById.get(id)),
    getMany: (ids) => readOrdersById(db, ids),
    getByNumber: (n) => withItems(selectByNumber.get({ n })),
    getByShopNumber: (shop, n) => withItems(selectByShopNumber.get({ shop, n })),
    findByScan(code) {
      return this.findAllByScan(code)[0];
    },
    findAllByScan(code) {
      const c = code.trim();
      if (c === '') return [];
      const candidates = c.startsWith('#') ? [c, c.slice(1)] : [c, `#${c}`];
      for (const k of candidates) {
        const rows = selectAllByNumber.all(k);
        if (rows.length > 0) return rows.map((r) => orderFromRow(r, selectItems.all(r.id)));
      }
      return [];
    },
    list(opts = {}) {
      const statuses = statusList(opts.status) ?? ALL_STATUSES;
      const limit = clampLimit(opts.limit, 200);
      const offset = Math.max(0, Math.floor(opts.offset ?? 0));
      // Open first, then the rest, each newest first from an index (never a sort of every order).
      const want = offset + limit;
      const open = statuses.includes('open') ? listByStatus(['open'], want) : [];
      const rest = statuses.filter((st) => st !== 'open');
      const rows = open.length < want && rest.length > 0 ? open.concat(listByStatus(rest, want - open.length)) : open;
      return rows.slice(offset, offset + limit).map((r) => orderFromRow(r, selectItems.all(r.id)));
    },
    search(query, opts = {}) {
      try {
        return searchOf(query, opts);
      } finally {
        text.release();
      }
    },
    page(query) {
      try {
        return pageOf(query);
      } finally {
        text.release();
      }
    },
    facets: () => ({ shops: distinct('shop'), countries: distinct('country_code'), carriers: distinct('shipping_method') }),
    count(opts = {}) {
      const w = listWhere(opts.status);
      if (!w) return 0;
      const row = db.prepare<Record<string, unknown>, { n: number }>(`SELECT count(*) AS n FROM orders ${w.where}`).get(w.params);
      return row?.n ?? 0;
    },
    fix(id, patch) {
      const current = withItems(selectById.get(id));
      if (!current) throw new StoreError('not_found', `Order ${id} not found`);
      let needs = current.needsFix;
      const postalCode = patch.postalCode ?? current.recipient.postalCode;
      if (patch.postalCode !== undefined) needs = needs.filter((f) => f !== 'postalCode');
      const notes = patch.notes ?? current.notes;
      if (patch.notes !== undefined) needs = needs.filter((f) => f !== 'notes');
      updateFix.run(postalCode, nul(notes === '' ? undefined : notes), JSON.stringify(needs), isoNow(clock), id);
      // The postal code is searched (orders_fts.details): the index row follows it.
      indexOrder(id, { ...current, recipient: { ...current.recipient, postalCode } });
      return must(withItems(selectById.get(id)), id);
    },
    setStatus: (id, status) => {
      const current = selectById.get(id);
      if (!current) throw new StoreError('not_found', `Order ${id} not found`);
      return setStatusRaw(id, status, status === 'open' ? null : current.shipment_tracking_number);
    },
    markShipped: (id, trackingNumber) => setStatusRaw(id, 'shipped', trackingNumber),
    changedSince: changedOrdersQuery(db),
  };
}
