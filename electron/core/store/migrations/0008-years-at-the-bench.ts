import type { Migration } from './migration';

/**
 * Migration 8 (issue 27, a data folder that stays small and fast for years):
 * - an index for every list, sort and search a bench command makes, so none
 *   reads or sorts a whole table (checked by test/integration/core/query-plans.test.ts):
 *   the Queue's done rows newest first (`outbox_state_id`), End of day's
 *   manifests newest first (`manifests_created`), every sort of the order list
 *   over shipped orders and over all orders;
 * - `labels.pruned_at`: when the label's bytes were given back after the
 *   retention (the row, its format and its shipment stay; `bytes` is then
 *   empty and a reprint fetches the label again from the platform); the
 *   partial index `labels_kept` finds the labels still holding bytes, oldest first;
 * - `outbox_state_updated`: retention finds done outbox rows by age;
 * - `slip_jobs_order`: an order's slips newest first;
 * - `orders_fts` rebuilt with a `details` column (company, postal code,
 *   phone, e-mail, item names), so `orders.list`'s text search is answered
 *   from the index like the list's own search (which still matches only
 *   number, name, city and SKUs).
 */
export const m0008YearsAtTheBench: Migration = {
  version: 8,
  name: 'years at the bench',
  up(db) {
    db.exec(`
      CREATE INDEX outbox_state_id ON outbox (state, id);
      CREATE INDEX outbox_state_updated ON outbox (state, updated_at);
      CREATE INDEX manifests_created ON manifests (created_at, id);

      CREATE INDEX orders_created ON orders (created_at);
      CREATE INDEX orders_status_number ON orders (status, order_number COLLATE NOCASE, shop);
      CREATE INDEX orders_number_shop ON orders (order_number COLLATE NOCASE, shop);
      CREATE INDEX orders_status_name ON orders (status, recipient_name COLLATE NOCASE);
      CREATE INDEX orders_name ON orders (recipient_name COLLATE NOCASE);
      CREATE INDEX orders_status_country_created ON orders (status, country_code, created_at);
      CREATE INDEX orders_country_created ON orders (country_code, created_at);

      ALTER TABLE labels ADD COLUMN pruned_at TEXT;
      CREATE INDEX labels_kept ON labels (created_at) WHERE pruned_at IS NULL;
      CREATE INDEX slip_jobs_order ON slip_jobs (order_id, id);

      DROP TABLE orders_fts;
      CREATE VIRTUAL TABLE orders_fts USING fts5(order_number, recipient_name, city, skus, details, tokenize = 'trigram');
      INSERT INTO orders_fts (rowid, order_number, recipient_name, city, skus, details)
      SELECT o.id, o.order_number, o.recipient_name, o.city,
        COALESCE((SELECT group_concat(i.sku, ' ') FROM order_items i WHERE i.order_id = o.id AND i.sku IS NOT NULL), ''),
        concat_ws(' ', o.recipient_company, o.postal_code, o.phone, o.email,
          (SELECT group_concat(i.name, ' ') FROM order_items i WHERE i.order_id = o.id))
      FROM orders o;
    `);
  },
};
