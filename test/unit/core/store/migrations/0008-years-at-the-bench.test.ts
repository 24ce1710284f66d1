/** Migration 8 (issue 27): list indexes, label pruning column, orders_fts with `details`, from a version-7 file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0008YearsAtTheBench as step } from '../../../../../electron/core/store/migrations/0008-years-at-the-bench';
import { applyStep, columns, databaseBefore, indexes, rows, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 8 "years at the bench"', () => {
  it('adds the list indexes and labels.pruned_at; rebuilds orders_fts with details from the rows; data untouched', () => {
    const { db } = t;
    db.prepare(
      `INSERT INTO orders (id, shop, order_key, order_number, source, email, created_at, recipient_name, recipient_company, street, city, postal_code, country_code, phone, currency, status, stored_at, updated_at)
       VALUES (1, 'main', '#1001', '#1001', 'manual', 'giulia@example.it', 't', 'Giulia Rossi', 'Ceramiche Srl', 'Via Roma 1', 'Roma', '00184', 'IT', '+39 333 1234567', 'EUR', 'shipped', 't', 't')`,
    ).run();
    db.prepare(`INSERT INTO order_items (order_id, position, sku, name, quantity, unit_price) VALUES (1, 0, 'TAZ-CER-BLU', 'Tazza blu', 2, 12.5)`).run();
    db.prepare(`INSERT INTO shipments (id, tracking_number, order_id, created_at, updated_at) VALUES (1, 'LDV1', 1, 't', 't')`).run();
    db.prepare(`INSERT INTO labels (id, tracking_number, format, bytes, created_at) VALUES (1, 'LDV1', 'ZPL', X'5E58415E585A', 't')`).run();
    const before = { orders: rows(db, 'SELECT * FROM orders'), items: rows(db, 'SELECT * FROM order_items'), labels: rows(db, 'SELECT id, tracking_number, format, bytes FROM labels') };

    expect(applyStep(db, step)).toEqual([8]);
    expect(readUserVersion(db)).toBe(8);
    expect({ orders: rows(db, 'SELECT * FROM orders'), items: rows(db, 'SELECT * FROM order_items'), labels: rows(db, 'SELECT id, tracking_number, format, bytes FROM labels') }).toEqual(before);
    expect(columns(db, 'labels')).toEqual(['id', 'tracking_number', 'format', 'bytes', 'created_at', 'pruned_at']);
    expect(indexes(db, 'labels')).toEqual(['labels_kept', 'labels_tracking']);
    expect(indexes(db, 'outbox')).toEqual(['outbox_local_ref', 'outbox_state', 'outbox_state_id', 'outbox_state_updated']);
    expect(indexes(db, 'manifests')).toEqual(['manifests_created']);
    expect(indexes(db, 'slip_jobs')).toEqual(['slip_jobs_auto', 'slip_jobs_order', 'slip_jobs_state']);
    expect(indexes(db, 'orders')).toEqual([
      'orders_country',
      'orders_country_created',
      'orders_created',
      'orders_list',
      'orders_name',
      'orders_number',
      'orders_number_shop',
      'orders_shop',
      'orders_status_country_created',
      'orders_status_created',
      'orders_status_name',
      'orders_status_number',
    ]);
    expect(columns(db, 'orders_fts')).toEqual(['order_number', 'recipient_name', 'city', 'skus', 'details']);
    expect(rows(db, 'SELECT rowid, order_number, recipient_name, city, skus, details FROM orders_fts')).toEqual([
      { rowid: 1, order_number: '#1001', recipient_name: 'Giulia Rossi', city: 'Roma', skus: 'TAZ-CER-BLU', details: 'Ceramiche Srl 00184 +39 333 1234567 giulia@example.it Tazza blu' },
    ]);
    const match = (q: string) => db.prepare<[string], number>('SELECT rowid FROM orders_fts WHERE orders_fts MATCH ?').pluck().all(q);
    expect(match('"00184"')).toEqual([1]);
    expect(match('"tazza"')).toEqual([1]);
    expect(match('{order_number recipient_name city skus} : "00184"')).toEqual([]);
  });
});
