import type { Migration } from './migration';

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
export const m0003OrdersShops: Migration = {
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
