/**
 * Migration 13 (issue 21 item 7): `orders_country` and `order_items_sku`
 * dropped, rows untouched, and the queries they could serve answered from the
 * indexes that stay (EXPLAIN QUERY PLAN).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0013OrdersRedundantIndexes as step } from '../../../../../electron/core/store/migrations/0013-orders-redundant-indexes';
import { applyStep, databaseBefore, indexes, rows, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

/** The plan's lines of `sql` (its `detail` column), parameters bound to `args`. */
const plan = (sql: string, ...args: unknown[]): string[] =>
  (t.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((p) => p.detail);

describe('migration 13 "orders redundant indexes"', () => {
  it('drops orders_country and order_items_sku, keeps every other index and every row', () => {
    const { db } = t;
    db.prepare(
      `INSERT INTO orders (id, shop, order_key, order_number, source, email, created_at, recipient_name, street, city, postal_code, country_code, currency, status, stored_at, updated_at)
       VALUES (1, 'main', '#1001', '#1001', 'shopify_csv', 'giulia@example.it', 't', 'Giulia Rossi', 'Via Roma 1', 'Roma', '00184', 'IT', 'EUR', 'open', 't', 't')`,
    ).run();
    db.prepare(`INSERT INTO order_items (order_id, position, sku, name, quantity, unit_price) VALUES (1, 0, 'TAZ-CER-BLU', 'Tazza', 2, 12.5)`).run();
    const before = { orders: rows(db, 'SELECT * FROM orders'), items: rows(db, 'SELECT * FROM order_items') };
    const kept = indexes(db, 'orders').filter((i) => i !== 'orders_country');
    expect(kept).toHaveLength(indexes(db, 'orders').length - 1);
    expect(applyStep(db, step)).toEqual([13]);
    expect(readUserVersion(db)).toBe(13);
    expect(indexes(db, 'orders')).toEqual(kept);
    expect(indexes(db, 'orders')).toEqual(expect.arrayContaining(['orders_shop', 'orders_country_newest', 'orders_status_country_newest']));
    expect(indexes(db, 'order_items')).toEqual([]);
    expect({ orders: rows(db, 'SELECT * FROM orders'), items: rows(db, 'SELECT * FROM order_items') }).toEqual(before);
  });

  it('answers the country filter and facet, and an order’s lines, from the indexes that stay', () => {
    expect(applyStep(t.db, step)).toEqual([13]);
    // orders.facets: the countries of open orders, from the index alone.
    expect(plan(`SELECT DISTINCT country_code AS v FROM orders WHERE status = 'open' AND country_code IS NOT NULL ORDER BY v`)).toEqual([
      expect.stringMatching(/^SEARCH orders USING COVERING INDEX orders_status_country_newest \(status=\?/),
    ]);
    // orders.page with a view and a country: its count and its page.
    expect(plan(`SELECT count(*) AS n FROM orders WHERE status = 'shipped' AND country_code = ?`, 'DE')).toEqual([
      'SEARCH orders USING COVERING INDEX orders_status_country_newest (status=? AND country_code=?)',
    ]);
    expect(plan(`SELECT id FROM orders WHERE country_code = ? ORDER BY created_at DESC, id DESC LIMIT 100`, 'DE')).toEqual([
      'SEARCH orders USING COVERING INDEX orders_country_newest (country_code=?)',
    ]);
    // An order's lines, and a SKU matched within them (LIKE '%…%': no SKU index could serve it).
    expect(plan('SELECT sku, name FROM order_items WHERE order_id = ? ORDER BY position', 1)).toEqual([
      'SEARCH order_items USING INDEX sqlite_autoindex_order_items_1 (order_id=?)',
    ]);
    expect(plan(`SELECT 1 FROM order_items i WHERE i.order_id = ? AND i.sku LIKE ? ESCAPE '\\'`, 1, '%TAZ%')).toEqual([
      'SEARCH i USING INDEX sqlite_autoindex_order_items_1 (order_id=?)',
    ]);
  });
});
