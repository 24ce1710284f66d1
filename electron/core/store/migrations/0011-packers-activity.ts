import type { Migration } from './migration';

/**
 * Migration 11 (issue 26, packers and the day in pictures):
 * - `packers`: who packs at this bench: a name, a badge barcode (unique), a
 *   PIN kept only as a salted scrypt hash (`pin_hash`, `scrypt$<salt hex>$<hash hex>`),
 *   a role (`packer` or `supervisor`); removing a packer keeps their history;
 * - `activity`: who did what and when: one row per shipment (`ship`),
 *   label print (`print`), reprint, verify mismatch (`verify`), void,
 *   pickup, manifest, scan of an order (`scan`, for the scan-to-label time),
 *   sign-in and sign-out; `day` is the Europe/Rome day of `at`, so End of
 *   day's queries read one day from the index `activity_day`; the packer's
 *   name and the station's name are copied in, so a renamed or removed
 *   packer's past stays as it was.
 */
export const m0011PackersActivity: Migration = {
  version: 11,
  name: 'packers and activity',
  up(db) {
    db.exec(`
      CREATE TABLE packers (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 60),
        badge TEXT UNIQUE CHECK (badge IS NULL OR length(badge) BETWEEN 3 AND 64),
        pin_hash TEXT,
        role TEXT NOT NULL CHECK (role IN ('packer', 'supervisor')),
        removed_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE activity (
        id INTEGER PRIMARY KEY,
        day TEXT NOT NULL,
        at TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('scan', 'ship', 'print', 'reprint', 'verify', 'void', 'pickup', 'manifest', 'sign_in', 'sign_out')),
        packer_id INTEGER REFERENCES packers (id) ON DELETE SET NULL,
        packer_name TEXT,
        station_name TEXT,
        tracking_number TEXT,
        order_id INTEGER,
        subject TEXT
      ) STRICT;
      CREATE INDEX activity_day ON activity (day, action, packer_id);
      CREATE INDEX activity_tracking ON activity (tracking_number);
    `);
  },
};
