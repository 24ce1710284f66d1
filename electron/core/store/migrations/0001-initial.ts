import type { Migration } from './migration';

/**
 * Migration 1, the initial schema. Timestamps are ISO 8601 UTC text; money is
 * REAL in the row's currency (EUR); JSON columns are text; label and manifest
 * bytes are BLOBs exactly as received (decoded from base64).
 */
export const m0001Initial: Migration = {
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
