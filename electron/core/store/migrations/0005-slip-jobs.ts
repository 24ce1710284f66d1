import type { Migration } from './migration';

/**
 * Migration 5 (issue 11): packing slips as print jobs of their own. A slip is
 * drawn from the order (and its shipment's tracking number) when it prints,
 * for the slip printer (`socket://`, `usb://`, `printer:<queue>`, `file://`)
 * as ESC/POS or an A4 PDF. One `auto` slip per order and shipment (printed
 * with the label); anything more is a `reprint` the packer asked for.
 */
export const m0005SlipJobs: Migration = {
  version: 5,
  name: 'slip jobs',
  up(db) {
    db.exec(`
      CREATE TABLE slip_jobs (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        tracking_number TEXT,
        printer_uri TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('escpos', 'pdf')),
        state TEXT NOT NULL CHECK (state IN ('queued', 'printing', 'printed', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        requested_by TEXT NOT NULL CHECK (requested_by IN ('auto', 'reprint')),
        created_at TEXT NOT NULL,
        printed_at TEXT,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX slip_jobs_auto ON slip_jobs (order_id, ifnull(tracking_number, '')) WHERE requested_by = 'auto';
      CREATE INDEX slip_jobs_state ON slip_jobs (state, id);
    `);
  },
};
