/**
 * Schema migrations of the station database (DESIGN.md "Persistence").
 *
 * Rules:
 * - append-only: a released step is never edited; a change is a new step;
 * - versions are 1, 2, 3, ... in order; `PRAGMA user_version` holds the last applied one;
 * - each step runs in its own transaction together with the `user_version` bump,
 *   so a failing step leaves the file exactly as it was;
 * - a file whose `user_version` is above the last step here was written by a newer
 *   station and is refused (never downgraded, rewritten or deleted).
 *
 * `PRAGMA foreign_keys` cannot change inside a transaction, and with it on a
 * `DROP TABLE` runs the children's ON DELETE actions (CASCADE / SET NULL).
 * A step that rebuilds a table with children sets `foreignKeysOff`: the runner
 * turns foreign keys off around its transaction and runs
 * `PRAGMA foreign_key_check` before committing (SQLite "Making Other Kinds Of
 * Table Schema Changes", the 12-step procedure).
 */
import type Database from 'better-sqlite3';
import { MAX_SHIPMENTS_PER_ORDER, shipmentReference } from '../../../shared/domain/order-reference';
import { StoreError } from './errors';

/** One schema step: `up` runs inside a transaction opened by {@link runMigrations}. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
  /** Run with `PRAGMA foreign_keys = OFF` (table rebuilds); the runner checks every key before committing. */
  foreignKeysOff?: boolean;
}

/**
 * Migration 1, the initial schema. Timestamps are ISO 8601 UTC text; money is
 * REAL in the row's currency (EUR); JSON columns are text; label and manifest
 * bytes are BLOBs exactly as received (decoded from base64).
 */
const m1Initial: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE orders (
        id INTEGER PRIMARY KEY,
        order_number TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL CHECK (source IN ('shopify_csv', 'manual')),
        email TEXT,
        created_at TEXT NOT NULL,
        recipient_name TEXT NOT NULL,
        recipient_company TEXT,
        street TEXT NOT NULL,
        street2 TEXT,
        city TEXT NOT NULL,
        province TEXT,
        postal_code TEXT NOT NULL,
        country_code TEXT NOT NULL,
        phone TEXT,
        recipient_email TEXT,
        total REAL,
        currency TEXT NOT NULL,
        notes TEXT,
        status TEXT NOT NULL CHECK (status IN ('open', 'shipped', 'cancelled')),
        shipment_tracking_number TEXT,
        external_id TEXT,
        import_hash TEXT,
        stored_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX orders_status_created ON orders (status, created_at);

      CREATE TABLE order_items (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        sku TEXT,
        name TEXT NOT NULL,
        quantity INTEGER NOT NULL CHECK (quantity >= 1),
        unit_price REAL NOT NULL CHECK (unit_price >= 0),
        UNIQUE (order_id, position)
      ) STRICT;
      CREATE INDEX order_items_sku ON order_items (sku);

      CREATE TABLE manifests (
        id INTEGER PRIMARY KEY,
        platform_id INTEGER NOT NULL UNIQUE,
        carrier_code TEXT NOT NULL,
        carrier_name TEXT,
        contract_code TEXT,
        pdf BLOB,
        total_shipments INTEGER NOT NULL,
        total_cost REAL NOT NULL,
        created_at TEXT NOT NULL,
        stored_at TEXT NOT NULL
      ) STRICT;

      -- tracking_number is NULL while the shipment is only queued in the outbox
      -- (its reference is what the worker looks it up by after a crash).
      CREATE TABLE shipments (
        id INTEGER PRIMARY KEY,
        tracking_number TEXT UNIQUE,
        platform_id INTEGER,
        order_id INTEGER REFERENCES orders (id) ON DELETE SET NULL,
        reference TEXT,
        contract_code TEXT,
        carrier_code TEXT,
        status_key TEXT,
        cost_total REAL,
        currency TEXT,
        manifest_id INTEGER REFERENCES manifests (id),
        cancelled_at TEXT,
        platform TEXT CHECK (platform IS NULL OR json_valid(platform)),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX shipments_reference ON shipments (reference);
      CREATE INDEX shipments_order ON shipments (order_id);
      CREATE INDEX shipments_manifest ON shipments (manifest_id);
      CREATE INDEX shipments_created ON shipments (created_at);

      CREATE TABLE labels (
        id INTEGER PRIMARY KEY,
        tracking_number TEXT NOT NULL REFERENCES shipments (tracking_number) ON DELETE CASCADE,
        format TEXT NOT NULL CHECK (format IN ('ZPL', 'PDF')),
        bytes BLOB NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX labels_tracking ON labels (tracking_number);

      CREATE TABLE print_jobs (
        id INTEGER PRIMARY KEY,
        label_id INTEGER NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
        printer_uri TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued', 'printing', 'printed', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        bytes_written INTEGER NOT NULL DEFAULT 0,
        requested_by TEXT NOT NULL CHECK (requested_by IN ('auto', 'reprint')),
        created_at TEXT NOT NULL,
        printed_at TEXT,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX print_jobs_state ON print_jobs (state, printer_uri, id);
      CREATE INDEX print_jobs_label ON print_jobs (label_id);

      CREATE TABLE pickups (
        id INTEGER PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('requested', 'booked', 'failed')),
        contract_code TEXT NOT NULL,
        carrier_code TEXT,
        pickup_date TEXT NOT NULL,
        pickup_time TEXT,
        platform_id INTEGER UNIQUE,
        pickup_id TEXT,
        cost_total REAL,
        currency TEXT,
        request TEXT NOT NULL CHECK (json_valid(request)),
        platform TEXT CHECK (platform IS NULL OR json_valid(platform)),
        last_error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX pickups_date ON pickups (pickup_date);

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL CHECK (json_valid(value)),
        updated_at TEXT NOT NULL
      ) STRICT;

      -- kind has no CHECK on purpose: new kinds must not need a table rebuild.
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL CHECK (json_valid(payload)),
        state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'done', 'needs_attention')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT CHECK (last_error IS NULL OR json_valid(last_error)),
        result TEXT CHECK (result IS NULL OR json_valid(result)),
        local_ref TEXT,
        next_attempt_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX outbox_state ON outbox (state, next_attempt_at, id);
      CREATE INDEX outbox_local_ref ON outbox (local_ref);
    `);
  },
};

/**
 * Migration: outbox settle window and persistent rate-limit windows (issue 7).
 * - `outbox.posted_at`: when the row's last create call (POST /shipments) was
 *   sent without an answer yet; while set, the row is never posted again
 *   until the settle window after it has passed (outbox/shipments.ts);
 * - `rate_windows`: the platform client's per-route sliding windows (start
 *   times of the last calls, ms since the epoch, JSON array) and the time a
 *   429's Retry-After blocks the route until, kept across restarts.
 */
const mOutboxSettleAndRateWindows: Migration = {
  version: 2,
  name: 'outbox posted_at, rate_windows',
  up(db) {
    db.exec(`
      ALTER TABLE outbox ADD COLUMN posted_at TEXT;
      CREATE TABLE rate_windows (
        route TEXT PRIMARY KEY,
        slots TEXT NOT NULL CHECK (json_valid(slots)),
        blocked_until INTEGER,
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};

/**
 * Migration 3, orders as a warehouse receives them (issue 12):
 * - an order is identified by `shop` + `order_key` (the shop's own order id,
 *   Shopify `Id`, or `#number` when the file has none), no longer by its number
 *   alone: the `orders` table is rebuilt without the UNIQUE on `order_number`
 *   (ids kept, so order_items and shipments still point at the same rows);
 * - `payment_status`, `delivery` (ship / pickup), `shipping_method`,
 *   `needs_fix` (JSON list of fields to complete), and per line `fulfilled`;
 * - `orders_fts`: FTS5 trigram index of number, recipient name, city and SKUs,
 *   so the list's substring search is answered from an index (3+ characters).
 */
const m3OrdersShops: Migration = {
  version: 3,
  name: 'orders-shops-fulfilment-search',
  foreignKeysOff: true,
  up(db) {
    db.exec(`
      CREATE TABLE orders_new (
        id INTEGER PRIMARY KEY,
        shop TEXT NOT NULL,
        order_key TEXT NOT NULL,
        order_number TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('shopify_csv', 'manual')),
        email TEXT,
        created_at TEXT NOT NULL,
        recipient_name TEXT NOT NULL,
        recipient_company TEXT,
        street TEXT NOT NULL,
        street2 TEXT,
        city TEXT NOT NULL,
        province TEXT,
        postal_code TEXT NOT NULL,
        country_code TEXT NOT NULL,
        phone TEXT,
        recipient_email TEXT,
        total REAL,
        currency TEXT NOT NULL,
        notes TEXT,
        status TEXT NOT NULL CHECK (status IN ('open', 'shipped', 'cancelled')),
        shipment_tracking_number TEXT,
        external_id TEXT,
        import_hash TEXT,
        payment_status TEXT NOT NULL DEFAULT 'unknown'
          CHECK (payment_status IN ('paid', 'unpaid', 'refunded', 'voided', 'unknown')),
        delivery TEXT NOT NULL DEFAULT 'ship' CHECK (delivery IN ('ship', 'pickup')),
        shipping_method TEXT,
        needs_fix TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(needs_fix)),
        stored_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (shop, order_key)
      ) STRICT;
      INSERT INTO orders_new (id, shop, order_key, order_number, source, email, created_at, recipient_name,
        recipient_company, street, street2, city, province, postal_code, country_code, phone, recipient_email, total,
        currency, notes, status, shipment_tracking_number, external_id, import_hash, stored_at, updated_at)
      SELECT id, 'main', COALESCE(external_id, order_number), order_number, source, email, created_at, recipient_name,
        recipient_company, street, street2, city, province, postal_code, country_code, phone, recipient_email, total,
        currency, notes, status, shipment_tracking_number, external_id, import_hash, stored_at, updated_at
      FROM orders;
      DROP TABLE orders;
      ALTER TABLE orders_new RENAME TO orders;
      CREATE INDEX orders_status_created ON orders (status, created_at);
      CREATE INDEX orders_number ON orders (order_number COLLATE NOCASE);
      CREATE INDEX orders_list ON orders (status, delivery, created_at);
      CREATE INDEX orders_shop ON orders (shop, status);
      CREATE INDEX orders_country ON orders (country_code, status);

      ALTER TABLE order_items ADD COLUMN fulfilled INTEGER NOT NULL DEFAULT 0 CHECK (fulfilled IN (0, 1));

      CREATE VIRTUAL TABLE orders_fts USING fts5(order_number, recipient_name, city, skus, tokenize = 'trigram');
      INSERT INTO orders_fts (rowid, order_number, recipient_name, city, skus)
      SELECT o.id, o.order_number, o.recipient_name, o.city,
        COALESCE((SELECT group_concat(i.sku, ' ') FROM order_items i WHERE i.order_id = o.id), '')
      FROM orders o;
    `);
  },
};

/**
 * Migration 4 (issue 10): what the packer declared for customs, remembered
 * per SKU so the next order of the same product needs no typing: HS code
 * (6-10 digits), country of manufacture (ISO alpha-2), description, unit
 * weight in kg. One row per SKU, overwritten by the latest declaration.
 */
const m4CustomsProducts: Migration = {
  version: 4,
  name: 'customs products',
  up(db) {
    db.exec(`
      CREATE TABLE customs_products (
        sku TEXT PRIMARY KEY,
        description TEXT NOT NULL,
        harmonized_code TEXT CHECK (harmonized_code IS NULL OR harmonized_code GLOB '[0-9][0-9][0-9][0-9][0-9][0-9]*'),
        country_of_manufacture TEXT NOT NULL CHECK (length(country_of_manufacture) = 2),
        unit_weight_kg REAL CHECK (unit_weight_kg IS NULL OR unit_weight_kg > 0),
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};

/**
 * Migration 5 (issue 11): packing slips as print jobs of their own. A slip is
 * drawn from the order (and its shipment's tracking number) when it prints,
 * for the slip printer (`socket://`, `usb://`, `printer:<queue>`, `file://`)
 * as ESC/POS or an A4 PDF. One `auto` slip per order and shipment (printed
 * with the label); anything more is a `reprint` the packer asked for.
 */
const m5SlipJobs: Migration = {
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

/**
 * Migration 6 (issue 14 item 5, scan to verify): what the station knows of an
 * item beyond the order line — the barcodes that name a SKU when they differ
 * from it (EAN/UPC printed on the product), its unit weight in kg for the
 * parcel weight check — and the log of verifications the packer skipped,
 * with the reason and what was not scanned.
 */
const m6ScanToVerify: Migration = {
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

/**
 * Migration 7 (issue 21, an order's identity is its shop and its number): an
 * order's shipment reference became shop and number (`shipmentReference`,
 * shared/domain/order-reference.ts) where it was the bare order number, which
 * two shops may share. A reference is data, never computed again: every
 * shipment and every outbox row keeps the one it may have been posted with,
 * so a row posted under the bare number is still looked up by it (and adopted
 * only with the same recipient, outbox/shipment-lookup.ts). Only a
 * `shipment.create` row that surely never left (queued, never claimed:
 * `attempts` 0, no `posted_at`) whose pending shipment carries the bare form
 * (`#2236`, or `#2236-2` for a later shipment) takes its order's new
 * reference, on the row and the pending shipment alike, unless another local
 * shipment already holds it. Nothing on the platform can hold the old one for it.
 */
const m7OrderReferences: Migration = {
  version: 7,
  name: 'order references per shop',
  up(db) {
    const rows = db
      .prepare<[], { id: number; payload: string; shipment_id: number; reference: string | null; shop: string; order_number: string }>(
        `SELECT o.id, o.payload, s.id AS shipment_id, s.reference, ord.shop, ord.order_number
         FROM outbox o
         JOIN shipments s ON s.id = json_extract(o.payload, '$.localShipmentId')
         JOIN orders ord ON ord.id = json_extract(o.payload, '$.orderId')
         WHERE o.kind = 'shipment.create' AND o.state = 'queued' AND o.attempts = 0 AND o.posted_at IS NULL
           AND s.tracking_number IS NULL`,
      )
      .all();
    const taken = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM shipments WHERE reference = ?');
    const setPayload = db.prepare<[string, number], never>('UPDATE outbox SET payload = ? WHERE id = ?');
    const setReference = db.prepare<[string, number], never>('UPDATE shipments SET reference = ? WHERE id = ?');
    for (const r of rows) {
      const payload = JSON.parse(r.payload) as { request?: { reference?: unknown } };
      const old = payload.request?.reference;
      if (typeof old !== 'string' || old !== r.reference) continue;
      let n: number | undefined;
      if (old === r.order_number) n = 1;
      else if (old.startsWith(`${r.order_number}-`) && /^[1-9]\d*$/.test(old.slice(r.order_number.length + 1))) n = Number(old.slice(r.order_number.length + 1));
      if (n === undefined || n > MAX_SHIPMENTS_PER_ORDER) continue;
      const ref = shipmentReference({ shop: r.shop, orderNumber: r.order_number }, n);
      if (ref === old || (taken.get(ref)?.n ?? 0) > 0) continue;
      setPayload.run(JSON.stringify({ ...payload, request: { ...payload.request, reference: ref } }), r.id);
      setReference.run(ref, r.shipment_id);
    }
  },
};

/** All migrations, in order. Append only. */
export const MIGRATIONS: readonly Migration[] = [m1Initial, mOutboxSettleAndRateWindows, m3OrdersShops, m4CustomsProducts, m5SlipJobs, m6ScanToVerify, m7OrderReferences];

/** Schema version this code writes: the last migration's version. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Brings `db` up to the last of `migrations` (default {@link MIGRATIONS}).
 * Returns the versions applied (empty when already current).
 *
 * @throws StoreError `schema_too_new` when the file's `user_version` is above the
 *   last migration (nothing is written); `migration_failed` when a step throws (that
 *   step is rolled back, earlier steps stay); a plain Error when `migrations` is not
 *   numbered 1..n (a programming error).
 */
export function runMigrations(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
  });
  const target = migrations.length;
  const current = readUserVersion(db);
  if (current > target) {
    throw new StoreError(
      'schema_too_new',
      `The database was written by a newer station (schema ${current}, this version knows up to ${target}). ` +
        'Update the station; the file was left untouched.',
    );
  }
  const applied: number[] = [];
  for (const m of migrations.slice(current)) {
    const step = db.transaction((): boolean => {
      // Another process may have migrated between our read and this write lock.
      if (readUserVersion(db) >= m.version) return false;
      m.up(db);
      if (m.foreignKeysOff) {
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0) throw new Error(`${broken.length} foreign key(s) broken: ${JSON.stringify(broken.slice(0, 3))}`);
      }
      // user_version lives in the file header and is part of this transaction.
      db.pragma(`user_version = ${m.version}`);
      return true;
    });
    let ran: boolean;
    const fkBefore = m.foreignKeysOff ? db.pragma('foreign_keys', { simple: true }) : undefined;
    try {
      if (m.foreignKeysOff) db.pragma('foreign_keys = OFF');
      ran = step.immediate();
    } catch (err) {
      throw new StoreError('migration_failed', `Migration ${m.version} "${m.name}" failed: ${String(err)}`, undefined, {
        cause: err,
      });
    } finally {
      if (m.foreignKeysOff) db.pragma(`foreign_keys = ${fkBefore === 1 ? 'ON' : 'OFF'}`);
    }
    if (ran) applied.push(m.version);
  }
  return applied;
}

/** `PRAGMA user_version` of `db` (0 for a new file). */
export function readUserVersion(db: Database.Database): number {
  const v: unknown = db.pragma('user_version', { simple: true });
  if (typeof v !== 'number') throw new Error(`PRAGMA user_version returned ${String(v)}`);
  return v;
}
