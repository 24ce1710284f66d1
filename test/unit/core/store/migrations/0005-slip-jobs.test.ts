/** Migration 5 (issue 11): `slip_jobs`, from a version-4 file with an order and a label print job. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0005SlipJobs as step } from '../../../../../electron/core/store/migrations/0005-slip-jobs';
import { applyStep, columns, databaseBefore, indexes, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 5 "slip jobs"', () => {
  it('adds slip_jobs (one auto slip per order and shipment, reprints free, gone with the order); label jobs untouched', () => {
    const { db } = t;
    db.prepare(
      `INSERT INTO orders (id, shop, order_key, order_number, source, created_at, recipient_name, street, city, postal_code, country_code, currency, status, stored_at, updated_at)
       VALUES (1, 'main', '#1001', '#1001', 'manual', 't', 'Giulia Rossi', 'Via Roma 1', 'Roma', '00184', 'IT', 'EUR', 'open', 't', 't')`,
    ).run();
    db.prepare(`INSERT INTO shipments (id, tracking_number, order_id, reference, created_at, updated_at) VALUES (1, 'TRK1', 1, '#1001', 't', 't')`).run();
    db.prepare(`INSERT INTO labels (id, tracking_number, format, bytes, created_at) VALUES (1, 'TRK1', 'ZPL', x'5E5841', 't')`).run();
    db.prepare(
      `INSERT INTO print_jobs (label_id, printer_uri, state, requested_by, created_at, updated_at) VALUES (1, 'socket://10.0.0.5:9100', 'printed', 'auto', 't', 't')`,
    ).run();
    const printJobs = rows(db, 'SELECT * FROM print_jobs');
    expect(tables(db)).not.toContain('slip_jobs');

    expect(applyStep(db, step)).toEqual([5]);
    expect(readUserVersion(db)).toBe(5);
    expect(rows(db, 'SELECT * FROM print_jobs')).toEqual(printJobs);
    expect(columns(db, 'slip_jobs')).toEqual([
      'id',
      'order_id',
      'tracking_number',
      'printer_uri',
      'format',
      'state',
      'attempts',
      'last_error',
      'requested_by',
      'created_at',
      'printed_at',
      'updated_at',
    ]);
    expect(indexes(db, 'slip_jobs')).toEqual(['slip_jobs_auto', 'slip_jobs_state']);
    const slip = db.prepare<[number, string | null, string, string]>(
      `INSERT INTO slip_jobs (order_id, tracking_number, printer_uri, format, state, requested_by, created_at, updated_at)
       VALUES (?, ?, 'socket://10.0.0.6:9100', ?, 'queued', ?, 't', 't')`,
    );
    slip.run(1, 'TRK1', 'escpos', 'auto');
    slip.run(1, null, 'pdf', 'auto');
    expect(() => slip.run(1, 'TRK1', 'escpos', 'auto')).toThrow(/UNIQUE/);
    expect(() => slip.run(1, null, 'escpos', 'auto')).toThrow(/UNIQUE/);
    slip.run(1, 'TRK1', 'escpos', 'reprint');
    slip.run(1, 'TRK1', 'escpos', 'reprint');
    expect(() => slip.run(1, 'TRK1', 'zpl', 'reprint')).toThrow(/CHECK/);
    expect(() => slip.run(99, 'TRK1', 'escpos', 'reprint')).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM orders WHERE id = 1').run();
    expect(rows(db, 'SELECT id FROM slip_jobs')).toEqual([]);
  });
});
