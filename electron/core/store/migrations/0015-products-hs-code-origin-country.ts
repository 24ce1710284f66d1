import type { Migration } from './migration';

/**
 * Migration 15 (issue 34 item 5, one name per thing): the station names the
 * HS code `hsCode` and the country of origin `originCountry` (the product
 * CSV's columns); `harmonizedCode` and `countryOfManufacture` are the
 * platform's wire names only.
 * - `products`: columns `harmonized_code` -> `hs_code`, `country_of_manufacture`
 *   -> `origin_country` (`ALTER TABLE … RENAME COLUMN` keeps every row and
 *   rewrites the columns' CHECKs; no index, trigger or view names them);
 * - `product_suggestions`: its `field` holds the field's name and its CHECK
 *   lists the old ones, so the table is rebuilt SQLite's way (new table,
 *   copy with the names rewritten, drop, rename; no table refers to it, its
 *   only index is the UNIQUE (sku, field) of the table itself), ids kept.
 */
export const m0015ProductsHsCodeOriginCountry: Migration = {
  version: 15,
  name: 'products hs code origin country',
  up(db) {
    db.exec(`
      ALTER TABLE products RENAME COLUMN harmonized_code TO hs_code;
      ALTER TABLE products RENAME COLUMN country_of_manufacture TO origin_country;

      CREATE TABLE product_suggestions_new (
        id INTEGER PRIMARY KEY,
        sku TEXT NOT NULL CHECK (length(sku) BETWEEN 1 AND 100),
        field TEXT NOT NULL CHECK (field IN ('description', 'hsCode', 'originCountry', 'unitWeightKg')),
        current_value TEXT,
        proposed_value TEXT NOT NULL,
        source TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (sku, field)
      ) STRICT;
      INSERT INTO product_suggestions_new (id, sku, field, current_value, proposed_value, source, created_at)
        SELECT id, sku,
               CASE field WHEN 'harmonizedCode' THEN 'hsCode' WHEN 'countryOfManufacture' THEN 'originCountry' ELSE field END,
               current_value, proposed_value, source, created_at
          FROM product_suggestions;
      DROP TABLE product_suggestions;
      ALTER TABLE product_suggestions_new RENAME TO product_suggestions;
    `);
  },
};
