import type { Migration } from './migration';

/**
 * Migration 14 (issue 34, one name for the products domain): the product
 * data per SKU, `customs_products` since migration 4 (rebuilt by migration 9
 * as the station's product data), is renamed `products`, the name of its
 * domain, commands and screens. `ALTER TABLE … RENAME` keeps every row, the
 * columns and their checks; no table, index, trigger or view refers to it
 * (`product_suggestions` names a SKU, not a row of it).
 */
export const m0014ProductsTable: Migration = {
  version: 14,
  name: 'products table',
  up(db) {
    db.exec('ALTER TABLE customs_products RENAME TO products;');
  },
};
