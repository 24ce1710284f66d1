/**
 * Migration 3 (issue 12, orders-shops-fulfilment-search): the orders table
 * rebuilt with shop identity, from a version-2 file with orders, items and a
 * shipment; data and links kept.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, readUserVersion } from '../../../../../electron/core/store';
import { m0003OrdersShops as step } from '../../../../../electron/core/store/migrations/0003-orders-shops-fulfilment-search';
import { applyStep, columns, databaseBefore, indexes, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

const now = '2026-11-20T10:00:00.000Z';

describe('migration 3 orders-shops-fulfilment-search', () => {
  it('keeps every order, its items and the shipments that point at it; numbers may now repeat across shops', () => {
    const { db } = t;
    const order = db.prepare<[number, string, string, string | null]>(
      `INSERT INTO orders (id, order_number, source, created_at, recipient_name, street, city, postal_code, country_code, currency, status, external_id, stored_at, updated_at)
       VALUES (?, ?, 'shopify_csv', '${now}', ?, 'Via Merulana 141', 'Roma', '00184', 'IT', 'EUR', 'open', ?, '${now}', '${now}')`,
    );
    order.run(7, '#1001', 'Giulia Rossi', '5812345670001');
    order.run(8, '#1002', 'Marco Bianchi', null);
    db.prepare(`INSERT INTO order_items (order_id, position, sku, name, quantity, unit_price) VALUES (7, 0, 'TAZ-CER-BLU', 'Tazza', 2, 12.5)`).run();
    db.prepare(`INSERT INTO shipments (id, order_id, reference, created_at, updated_at) VALUES (3, 7, '#1001', ?, ?)`).run(now, now);

    expect(applyStep(db, step)).toEqual([3]);
    expect(readUserVersion(db)).toBe(3);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1); // turned back on
    expect(columns(db, 'orders').slice(0, 4)).toEqual(['id', 'shop', 'order_key', 'order_number']);
    expect(columns(db, 'order_items').at(-1)).toBe('fulfilled');
    expect(indexes(db, 'orders')).toEqual(['orders_country', 'orders_list', 'orders_number', 'orders_shop', 'orders_status_created']);
    expect(tables(db)).toContain('orders_fts');
    expect(tables(db)).not.toContain('orders_new');
    expect(rows(db, 'SELECT id, shop, order_key, order_number, recipient_name, payment_status, delivery, needs_fix FROM orders ORDER BY id')).toEqual([
      { id: 7, shop: 'main', order_key: '5812345670001', order_number: '#1001', recipient_name: 'Giulia Rossi', payment_status: 'unknown', delivery: 'ship', needs_fix: '[]' },
      // No shop order id in the file: the number is the key.
      { id: 8, shop: 'main', order_key: '#1002', order_number: '#1002', recipient_name: 'Marco Bianchi', payment_status: 'unknown', delivery: 'ship', needs_fix: '[]' },
    ]);
    expect(rows(db, 'SELECT order_id, sku, fulfilled FROM order_items')).toEqual([{ order_id: 7, sku: 'TAZ-CER-BLU', fulfilled: 0 }]);
    expect(db.prepare('SELECT order_id FROM shipments WHERE id = 3').get()).toEqual({ order_id: 7 });
    expect(rows(db, `SELECT rowid FROM orders_fts WHERE orders_fts MATCH '"CER-BL"'`)).toEqual([{ rowid: 7 }]);
    expect(rows(db, `SELECT rowid FROM orders_fts WHERE orders_fts MATCH '"Bianchi"'`)).toEqual([{ rowid: 8 }]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // Still enforced after the rebuild: an item of an unknown order is refused.
    expect(() => db.prepare(`INSERT INTO order_items (order_id, position, name, quantity, unit_price) VALUES (99, 0, 'x', 1, 1)`).run()).toThrow(/FOREIGN KEY/);
    // The same number in another shop is a new order; the same shop and key is refused.
    const insert = db.prepare<[string, string]>(
      `INSERT INTO orders (shop, order_key, order_number, source, created_at, recipient_name, street, city, postal_code, country_code, currency, status, stored_at, updated_at)
       VALUES (?, ?, '#1001', 'manual', 't', 'n', 's', 'c', '00100', 'IT', 'EUR', 'open', 't', 't')`,
    );
    insert.run('UK', '5812345670001');
    expect(() => insert.run('main', '5812345670001')).toThrow(/UNIQUE/);
    db.prepare(`DELETE FROM orders WHERE shop = 'UK'`).run();
    db.close();

    const store = openStore(t.file);
    try {
      const other = store.orders.insert({ ...store.orders.getById(7)!, shop: 'UK', shopOrderId: '6100000001001' });
      expect(store.orders.findAllByScan('1001').map((o) => o.id).sort()).toEqual([7, other.id].sort());
    } finally {
      store.close();
    }
  });
});
