/** Migration 10 (issue 21 item 7): orders waiting for their search index row; the redundant `orders_number` index dropped. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0010OrdersIndexLater as step } from '../../../../../electron/core/store/migrations/0010-orders-index-later';
import { applyStep, columns, databaseBefore, indexes, rows, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 10 "orders index later"', () => {
  it('adds orders_fts_pending (deleted with its order) and drops orders_number; orders untouched', () => {
    const { db } = t;
    db.prepare(
      `INSERT INTO orders (id, shop, order_key, order_number, source, email, created_at, recipient_name, street, city, postal_code, country_code, currency, status, stored_at, updated_at)
       VALUES (1, 'main', '#1001', '#1001', 'shopify_csv', 'giulia@example.it', 't', 'Giulia Rossi', 'Via Roma 1', 'Roma', '00184', 'IT', 'EUR', 'open', 't', 't')`,
    ).run();
    const before = rows(db, 'SELECT * FROM orders');
    expect(applyStep(db, step)).toEqual([step.version]);
    expect(readUserVersion(db)).toBe(step.version);
    expect(rows(db, 'SELECT * FROM orders')).toEqual(before);
    expect(columns(db, 'orders_fts_pending')).toEqual(['order_id']);
    expect(indexes(db, 'orders')).not.toContain('orders_number');
    expect(indexes(db, 'orders')).toContain('orders_number_shop');
    expect(indexes(db, 'orders')).toEqual(expect.arrayContaining(['orders_country_newest', 'orders_status_country_newest']));
    expect(indexes(db, 'orders')).not.toEqual(expect.arrayContaining(['orders_country_created']));
    expect(indexes(db, 'orders')).not.toEqual(expect.arrayContaining(['orders_status_country_created']));
    db.prepare('INSERT INTO orders_fts_pending (order_id) VALUES (1)').run();
    db.pragma('foreign_keys = ON');
    db.prepare('DELETE FROM orders WHERE id = 1').run();
    expect(rows(db, 'SELECT * FROM orders_fts_pending')).toEqual([]);
  });
});
