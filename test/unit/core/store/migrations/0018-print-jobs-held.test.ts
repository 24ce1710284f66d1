/**
 * Migration 18 (issue 36 item 2): print jobs may be `held` (a label longer
 * than the stock, waiting for the packer), with `shrink_allowed` (the
 * packer's word) and `long_label_printer_uri` (a rule's printer for long
 * labels). The table is rebuilt for its CHECK: every row, index and
 * constraint is kept.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0018PrintJobsHeld as step } from '../../../../../electron/core/store/migrations/0018-print-jobs-held';
import { createPrintJobsRepo } from '../../../../../electron/core/store/print-jobs-repo';
import { applyStep, columns, databaseBefore, indexes, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

function seed(): void {
  const { db } = t;
  db.prepare(`INSERT INTO shipments (id, tracking_number, reference, created_at, updated_at) VALUES (1, 'TRK1', 'R1', 't', 't')`).run();
  db.prepare(`INSERT INTO labels (id, tracking_number, format, bytes, created_at) VALUES (1, 'TRK1', 'ZPL', x'5E5841', 't')`).run();
  db.prepare(`INSERT INTO print_jobs (label_id, printer_uri, state, requested_by, created_at, updated_at, pinned) VALUES (1, 'socket://10.0.0.5:9100', 'printed', 'auto', 't', 't', 1)`).run();
  db.prepare(`INSERT INTO print_jobs (label_id, printer_uri, state, last_error, requested_by, created_at, updated_at) VALUES (1, 'usb://Zebra/ZD421', 'queued', 'Waiting: printer out of paper', 'reprint', 't', 't')`).run();
}

describe('migration 18 "print jobs held"', () => {
  it('keeps every job as it was, adds shrink_allowed 0 and long_label_printer_uri null, and its indexes', () => {
    const { db } = t;
    seed();
    const before = rows(db, 'SELECT * FROM print_jobs ORDER BY id') as Array<Record<string, unknown>>;
    const indexesBefore = indexes(db, 'print_jobs');
    const otherTables = tables(db);

    expect(applyStep(db, step)).toEqual([18]);
    expect(readUserVersion(db)).toBe(18);
    expect(tables(db)).toEqual(otherTables);
    expect(columns(db, 'print_jobs')).toEqual(expect.arrayContaining(['shrink_allowed', 'long_label_printer_uri', 'pinned']));
    expect(indexes(db, 'print_jobs')).toEqual(indexesBefore);
    expect(rows(db, 'SELECT * FROM print_jobs ORDER BY id')).toEqual(before.map((r) => ({ ...r, shrink_allowed: 0, long_label_printer_uri: null })));
    // The new state is allowed; anything else, a second flag value and an unknown label are still refused.
    db.prepare(`UPDATE print_jobs SET state = 'held' WHERE id = 2`).run();
    expect(() => db.prepare(`UPDATE print_jobs SET state = 'lost'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE print_jobs SET shrink_allowed = 2`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`INSERT INTO print_jobs (label_id, printer_uri, state, requested_by, created_at, updated_at) VALUES (99, 'u', 'queued', 'auto', 't', 't')`).run()).toThrow(/FOREIGN KEY/);
  });

  it('the repository holds a job, lets the packer print it shrunk, and releases held jobs of a printer', () => {
    const { db } = t;
    seed();
    applyStep(db, step);
    const repo = createPrintJobsRepo(db, () => new Date('2026-11-28T10:00:00Z'));
    const job = repo.enqueue({ labelId: 1, printerUri: 'socket://10.0.0.5:9100', requestedBy: 'reprint', longLabelPrinterUri: 'socket://10.0.0.7:9100' });
    expect(job).toMatchObject({ shrinkAllowed: false, longLabelPrinterUri: 'socket://10.0.0.7:9100' });
    repo.claim(job.id);
    // Nothing was sent: the claim that held it is not an attempt.
    expect(repo.hold(job.id, 'This label is 4 × 7.1 in: load 4 × 8 in labels, or choose a printer profile for them')).toMatchObject({ state: 'held', attempts: 0 });
    expect(repo.openForLabel(1)?.id).toBe(2); // the older queued job first
    expect(repo.releaseHeld({ printerUri: 'usb://other' })).toEqual([]);
    expect(repo.releaseHeld({ printerUri: 'socket://10.0.0.5:9100' }).map((j) => [j.id, j.state, j.lastError])).toEqual([[job.id, 'queued', null]]);
    repo.claim(job.id);
    repo.hold(job.id, 'held again');
    expect(repo.allowShrunk(job.id)).toMatchObject({ state: 'queued', shrinkAllowed: true, lastError: null });
    expect(() => repo.allowShrunk(job.id)).toThrow(/queued, not held/);
    repo.claim(job.id);
    expect(repo.markPrinted(job.id, 120, 'Printed shrunk to 80 %')).toMatchObject({ state: 'printed', lastError: 'Printed shrunk to 80 %' });
  });
});
