import type { Migration } from './migration';

/**
 * Migration 10 (issue 21 item 7, a 10,000-order export in well under a second):
 * - `orders_fts_pending`: orders a bulk import stored without their search
 *   index row; the index is written for them right after the import, in small
 *   slices (orders-repo.ts `indexPending`), and until then the text search
 *   matches them by substring (LIKE) so nothing imported is ever unfindable.
 *   Kept in the same transaction as the order, so a crash leaves the list
 *   and the station finishes the job at the next start.
 * - drops `orders_number` (order_number NOCASE): `orders_number_shop`
 *   (migration 8) begins with the same column, so every lookup it served is
 *   served as well, and each import wrote one index more than needed;
 * - the country sort (country A→Z, newest first within a country) from an
 *   index in that order (`created_at DESC`), so a page of it, searched or
 *   not, is read in order instead of sorting every order of a country:
 *   replaces `orders_country_created` and `orders_status_country_created`.
 */
export const m0010OrdersIndexLater: Migration = {
  version: 10,
  name: 'orders index later',
  up(db) {
    db.exec(`
      CREATE TABLE orders_fts_pending (order_id INTEGER PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE);
      DROP INDEX orders_number;
      DROP INDEX orders_country_created;
      DROP INDEX orders_status_country_created;
      CREATE INDEX orders_country_newest ON orders (country_code, created_at DESC, id DESC);
      CREATE INDEX orders_status_country_newest ON orders (status, country_code, created_at DESC, id DESC);
    `);
  },
};
