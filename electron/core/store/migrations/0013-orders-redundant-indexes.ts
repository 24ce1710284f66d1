import type { Migration } from './migration';

/**
 * Migration 13 (issue 21 item 7, a 10,000-order export in well under a
 * second): every import writes each index of `orders` and `order_items`, so
 * an index that no query needs is paid for by every order stored. Each index
 * was checked against every query the station makes on these tables
 * (orders-repo.ts, orders-rows.ts, day-stats.ts; EXPLAIN QUERY PLAN on a
 * folder of 50,000 orders, and test/integration/core/query-plans.test.ts):
 * - drops `orders_country` (country_code, status): the country filter and the
 *   country facet are answered from `orders_status_country_newest` (status,
 *   country_code, …: a view's status and the country, covering for the facet
 *   and the count) and, over every status, `orders_country_newest`
 *   (country_code, …), both of migration 10;
 * - drops `order_items_sku` (sku): no query looks an item up by its SKU;
 *   the SKU is matched only as a substring (LIKE '%…%', no index can serve
 *   it) within one order's lines, found by `order_id` from the table's
 *   UNIQUE (order_id, position).
 * Kept, each the only one serving a query: `orders_shop` (shop, status)
 * counts a view's orders of one shop from the index alone (the UNIQUE
 * (shop, order_key) would read each row for its status); `orders_list` and
 * `orders_status_created` (the open views by delivery, and a status newest
 * first); the sort indexes by number, name, country and date, with and
 * without the status.
 */
export const m0013OrdersRedundantIndexes: Migration = {
  version: 13,
  name: 'orders redundant indexes',
  up(db) {
    db.exec(`
      DROP INDEX orders_country;
      DROP INDEX order_items_sku;
    `);
  },
};
