import type { Migration } from './migration';

/**
 * Migration 18 (issue 36 item 2, a label longer than the stock): print jobs
 * can be `held`. A job whose label would print with its barcodes under 90 %
 * of their module on the stock loaded waits for the packer instead of
 * printing; it goes back to `queued` when the printer's profile changes or
 * when the packer says to print it shrunk anyway (`shrink_allowed` = 1, the
 * packer's word, kept so the printed job says so). `long_label_printer_uri`
 * is the device URI a shipping rule sends this label to when it is longer
 * than the stock of the printer it would print on (null: none named).
 *
 * SQLite cannot change a CHECK constraint in place: the table is rebuilt
 * (SQLite "Making Other Kinds Of Table Schema Changes"); no table refers to
 * `print_jobs`, so foreign keys stay on. Every row is kept as it was.
 */
export const m0018PrintJobsHeld: Migration = {
  version: 18,
  name: 'print jobs held',
  up(db) {
    db.exec(`
      CREATE TABLE print_jobs_new (
        id INTEGER PRIMARY KEY,
        label_id INTEGER NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
        printer_uri TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued', 'printing', 'printed', 'failed', 'held')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        bytes_written INTEGER NOT NULL DEFAULT 0,
        requested_by TEXT NOT NULL CHECK (requested_by IN ('auto', 'reprint')),
        created_at TEXT NOT NULL,
        printed_at TEXT,
        updated_at TEXT NOT NULL,
        pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
        shrink_allowed INTEGER NOT NULL DEFAULT 0 CHECK (shrink_allowed IN (0, 1)),
        long_label_printer_uri TEXT
      ) STRICT;
      INSERT INTO print_jobs_new (id, label_id, printer_uri, state, attempts, last_error, bytes_written, requested_by, created_at, printed_at, updated_at, pinned)
        SELECT id, label_id, printer_uri, state, attempts, last_error, bytes_written, requested_by, created_at, printed_at, updated_at, pinned FROM print_jobs;
      DROP TABLE print_jobs;
      ALTER TABLE print_jobs_new RENAME TO print_jobs;
      CREATE INDEX print_jobs_state ON print_jobs (state, printer_uri, id);
      CREATE INDEX print_jobs_label ON print_jobs (label_id);
    `);
  },
};
