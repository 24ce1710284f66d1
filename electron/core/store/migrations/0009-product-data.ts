import type { Migration } from './migration';

/**
 * Migration 9 (issue 24, product data per SKU): `customs_products` becomes
 * the station's product data, extended rather than duplicated:
 * - rebuilt so a product may be known without a country of origin or a
 *   description (a CSV row with only a weight), SQLite's way of relaxing a
 *   NOT NULL/CHECK (new table, copy, drop, rename; no table refers to it);
 * - `length_cm`, `width_cm`, `height_cm`: the product's own size in cm (> 0),
 *   for the several-boxes rule;
 * - `product_suggestions`: a value learnt from a shipment or declaration
 *   that differs from the product data, waiting for the packer to confirm
 *   (nothing is overwritten silently); one open suggestion per SKU and field,
 *   the newest proposal replacing an older one.
 */
export const m0009ProductData: Migration = {
  version: 9,
  name: 'product data',
  up(db) {
    db.exec(`
      CREATE TABLE products_new (
        sku TEXT PRIMARY KEY CHECK (length(sku) BETWEEN 1 AND 100),
        description TEXT NOT NULL DEFAULT '',
        harmonized_code TEXT CHECK (harmonized_code IS NULL OR harmonized_code GLOB '[0-9][0-9][0-9][0-9][0-9][0-9]*'),
        country_of_manufacture TEXT CHECK (country_of_manufacture IS NULL OR length(country_of_manufacture) = 2),
        unit_weight_kg REAL CHECK (unit_weight_kg IS NULL OR unit_weight_kg > 0),
        updated_at TEXT NOT NULL,
        length_cm REAL CHECK (length_cm IS NULL OR length_cm > 0),
        width_cm REAL CHECK (width_cm IS NULL OR width_cm > 0),
        height_cm REAL CHECK (height_cm IS NULL OR height_cm > 0)
      ) STRICT;
      INSERT INTO products_new (sku, description, harmonized_code, country_of_manufacture, unit_weight_kg, updated_at)
        SELECT sku, description, harmonized_code, country_of_manufacture, unit_weight_kg, updated_at FROM customs_products;
      DROP TABLE customs_products;
      ALTER TABLE products_new RENAME TO customs_products;

      CREATE TABLE product_suggestions (
        id INTEGER PRIMARY KEY,
        sku TEXT NOT NULL CHECK (length(sku) BETWEEN 1 AND 100),
        field TEXT NOT NULL CHECK (field IN ('description', 'harmonizedCode', 'countryOfManufacture', 'unitWeightKg')),
        current_value TEXT,
        proposed_value TEXT NOT NULL,
        source TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (sku, field)
      ) STRICT;
    `);
  },
};
