/** Migration 2 (orders-shops-fulfilment-search): the orders table rebuilt with shop identity, data and links kept. */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore, readUserVersion, runMigrations } from '../../../electron/core/store';
import { tempDir } from './helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const m2 = MIGRATIONS.find((m) => m.name === 'orders-shops-fulfilment-search')!;

describe('migration orders-shops-fulfilment-search', () => {
  it('keeps every order, its items and the shipments that point at it; numbers may now repeat across shops', () => {
    const db = new Database(`${dir}/station.sqlite`);
    db.pragma('foreign_keys = ON');
    runMigrations(db, MIGRATIONS.slice(0, m2.version - 1));
    const now = '2026-11-20T10:00:00.000Z';
    db.prepare(
      `INSERT INTO orders (id, order_number, source, created_at, recipient_name, street, city, postal_code, country_code, currency, status, external_id, stored_at, updated_at)
       VALUES (7, '#1001', 'shopify_csv', ?, 'Giulia Rossi', 'Via Merulana 141', 'Roma', '00184', 'IT', 'EUR', 'open', '5812345670001', ?, ?)`,
    ).run(now, now, now);
    db.prepare(`INSERT INTO order_items (order_id, position, sku, name, quantity, unit_price) VALUES (7, 0, 'TAZ-CER-BLU', 'Tazza', 2, 12.5)`).run();
    db.prepare(`INSERT INTO shipments (id, order_id, reference, created_at, updated_at) VALUES (3, 7, '#1001', ?, ?)`).run(now, now);

    expect(runMigrations(db)).toEqual(MIGRATIONS.slice(m2.version - 1).map((m) => m.version));
    expect(readUserVersion(db)).toBe(MIGRATIONS.length);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1); // turned back on
    expect(db.prepare('SELECT id, shop, order_key, order_number, payment_status, delivery, needs_fix FROM orders').all()).toEqual([
      { id: 7, shop: 'main', order_key: '5812345670001', order_number: '#1001', payment_status: 'unknown', delivery: 'ship', needs_fix: '[]' },
    ]);
    expect(db.prepare('SELECT order_id, sku, fulfilled FROM order_items').all()).toEqual([{ order_id: 7, sku: 'TAZ-CER-BLU', fulfilled: 0 }]);
    expect(db.prepare('SELECT order_id FROM shipments WHERE id = 3').get()).toEqual({ order_id: 7 });
    expect(db.prepare(`SELECT rowid FROM orders_fts WHERE orders_fts MATCH '"CER-BL"'`).all()).toEqual([{ rowid: 7 }]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // Still enforced after the rebuild: an item of an unknown order is refused.
    expect(() => db.prepare(`INSERT INTO order_items (order_id, position, name, quantity, unit_price) VALUES (99, 0, 'x', 1, 1)`).run()).toThrow(/FOREIGN KEY/);
    db.close();

    const store = openStore(`${dir}/station.sqlite`);
    const other = store.orders.insert({ ...store.orders.getById(7)!, shop: 'UK', shopOrderId: '6100000001001' });
    expect(store.orders.findAllByScan('1001').map((o) => o.id).sort()).toEqual([7, other.id].sort());
    store.close();
  });
});
