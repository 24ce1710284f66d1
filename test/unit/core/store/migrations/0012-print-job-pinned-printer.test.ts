/** Migration 12 (issue 24): `print_jobs.pinned`, 0 for the jobs already there, only 0 or 1. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0012PrintJobPinnedPrinter as step } from '../../../../../electron/core/store/migrations/0012-print-job-pinned-printer';
import { applyStep, columns, databaseBefore, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 12 "print job pinned printer"', () => {
  it('adds pinned, 0 for an existing job, and refuses any other value than 0 or 1', () => {
    const { db } = t;
    db.pragma('foreign_keys = OFF'); // a job row without its shipment is enough here
    db.prepare("INSERT INTO labels (tracking_number, format, bytes, created_at) VALUES ('LDV1', 'ZPL', x'00', 't')").run();
    db.prepare("INSERT INTO print_jobs (label_id, printer_uri, state, requested_by, created_at, updated_at) VALUES (1, 'socket://a:9100', 'queued', 'auto', 't', 't')").run();
    expect(applyStep(db, step)).toEqual([12]);
    expect(readUserVersion(db)).toBe(12);
    expect(columns(db, 'print_jobs')).toContain('pinned');
    expect(db.prepare('SELECT pinned FROM print_jobs').get()).toEqual({ pinned: 0 });
    const add = db.prepare("INSERT INTO print_jobs (label_id, printer_uri, pinned, state, requested_by, created_at, updated_at) VALUES (1, 'socket://b:9100', ?, 'queued', 'reprint', 't', 't')");
    expect(() => add.run(1)).not.toThrow();
    expect(() => add.run(2)).toThrow(/CHECK/);
  });
});
