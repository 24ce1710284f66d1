import type { Migration } from './migration';

/**
 * Migration 6 (issue 14 item 5, scan to verify): what the station knows of an
 * item beyond the order line — the barcodes that name a SKU when they differ
 * from it (EAN/UPC printed on the product), its unit weight in kg for the
 * parcel weight check — and the log of verifications the packer skipped,
 * with the reason and what was not scanned.
 */
export const m0006ScanToVerify: Migration = {
  version: 6,
  name: 'scan to verify',
  up(db) {
    db.exec(`
      CREATE TABLE items (
        sku TEXT PRIMARY KEY CHECK (length(sku) BETWEEN 1 AND 100),
        unit_weight_kg REAL CHECK (unit_weight_kg IS NULL OR unit_weight_kg > 0),
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE item_barcodes (
        barcode TEXT PRIMARY KEY CHECK (length(barcode) BETWEEN 1 AND 64),
        sku TEXT NOT NULL REFERENCES items (sku) ON DELETE CASCADE
      ) STRICT;
      CREATE INDEX item_barcodes_sku ON item_barcodes (sku);
      CREATE TABLE verify_skips (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        missing TEXT NOT NULL CHECK (json_valid(missing)),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX verify_skips_order ON verify_skips (order_id);
    `);
  },
};
