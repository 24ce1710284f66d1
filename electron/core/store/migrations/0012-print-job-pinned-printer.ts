import type { Migration } from './migration';

/**
 * Migration 12 (issue 24, a rule's label printer): `print_jobs.pinned`. A
 * pinned job prints on its own `printer_uri` (the printer a shipping rule
 * named, with that printer's profile); an unpinned job, as before, follows
 * the label printer in use when the packer switches printers. Existing jobs
 * are unpinned.
 */
export const m0012PrintJobPinnedPrinter: Migration = {
  version: 12,
  name: 'print job pinned printer',
  up(db) {
    db.exec(`ALTER TABLE print_jobs ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1));`);
  },
};
