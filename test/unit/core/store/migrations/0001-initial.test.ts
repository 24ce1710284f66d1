/** Migration 1 (initial): from an empty file (user_version 0) to the first schema. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { m0001Initial } from '../../../../../electron/core/store/migrations/0001-initial';
import { readUserVersion } from '../../../../../electron/core/store';
import { applyStep, columns, databaseBefore, indexes, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(m0001Initial)));
afterEach(() => t.cleanup());

describe('migration 1 (initial)', () => {
  it('creates every table with its columns and indexes on an empty file and sets user_version 1', () => {
    const { db } = t;
    expect(readUserVersion(db)).toBe(0);
    expect(tables(db)).toEqual([]);
    expect(applyStep(db, m0001Initial)).toEqual([1]);
    expect(readUserVersion(db)).toBe(1);
    expect(tables(db)).toEqual(
      ['labels', 'manifests', 'order_items', 'orders', 'outbox', 'pickups', 'print_jobs', 'settings', 'shipments'].sort(),
    );
    expect(columns(db, 'shipments')).toEqual(
      expect.arrayContaining([
        'tracking_number',
        'order_id',
        'reference',
        'contract_code',
        'carrier_code',
        'status_key',
        'cost_total',
        'currency',
        'manifest_id',
        'cancelled_at',
        'platform',
        'created_at',
      ]),
    );
    expect(columns(db, 'outbox')).toEqual(
      expect.arrayContaining(['kind', 'payload', 'state', 'attempts', 'last_error', 'result', 'local_ref', 'created_at', 'updated_at']),
    );
    expect(columns(db, 'print_jobs')).toEqual(
      expect.arrayContaining(['label_id', 'printer_uri', 'state', 'attempts', 'last_error', 'bytes_written', 'printed_at', 'requested_by']),
    );
    expect(columns(db, 'labels')).toEqual(expect.arrayContaining(['tracking_number', 'format', 'bytes', 'created_at']));
    expect(columns(db, 'manifests')).toEqual(
      expect.arrayContaining(['platform_id', 'carrier_code', 'pdf', 'total_shipments', 'total_cost', 'created_at']),
    );
    expect(columns(db, 'orders')).toContain('order_number');
    expect(columns(db, 'orders')).not.toContain('shop');
    expect(indexes(db, 'orders')).toEqual(['orders_status_created']);
    expect(indexes(db, 'outbox')).toEqual(['outbox_local_ref', 'outbox_state']);
    expect(indexes(db, 'print_jobs')).toEqual(['print_jobs_label', 'print_jobs_state']);
  });

  it('enforces CHECK, UNIQUE and foreign-key rules', () => {
    const { db } = t;
    applyStep(db, m0001Initial);
    const order = (n: string, status = 'open') =>
      db
        .prepare(
          `INSERT INTO orders (order_number, source, created_at, recipient_name, street, city, postal_code, country_code,
             currency, status, stored_at, updated_at)
           VALUES (?, 'manual', 't', 'n', 's', 'c', '00100', 'IT', 'EUR', ?, 't', 't')`,
        )
        .run(n, status);
    order('#1');
    expect(() => order('#1')).toThrow(/UNIQUE/);
    expect(() => order('#2', 'lost')).toThrow(/CHECK/);
    expect(() =>
      db.prepare(`INSERT INTO order_items (order_id, position, name, quantity, unit_price) VALUES (999, 0, 'x', 1, 1)`).run(),
    ).toThrow(/FOREIGN KEY/);
    expect(() =>
      db.prepare(`INSERT INTO labels (tracking_number, format, bytes, created_at) VALUES ('NOPE', 'ZPL', x'00', 't')`).run(),
    ).toThrow(/FOREIGN KEY/);
    expect(() =>
      db.prepare(`INSERT INTO outbox (kind, payload, state, created_at, updated_at) VALUES ('x', 'not json', 'queued', 't', 't')`).run(),
    ).toThrow(/CHECK/);
    // STRICT tables refuse a wrongly typed value instead of storing it.
    expect(() =>
      db
        .prepare(`INSERT INTO print_jobs (label_id, printer_uri, state, attempts, requested_by, created_at, updated_at)
                  VALUES (1, 'u', 'queued', 'many', 'auto', 't', 't')`)
        .run(),
    ).toThrow(/datatype|cannot store/i);
  });
});
