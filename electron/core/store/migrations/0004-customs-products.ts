import type { Migration } from './migration';

/**
 * Migration 4 (issue 10): what the packer declared for customs, remembered
 * per SKU so the next order of the same product needs no typing: HS code
 * (6-10 digits), country of manufacture (ISO alpha-2), description, unit
 * weight in kg. One row per SKU, overwritten by the latest declaration.
 */
export const m0004CustomsProducts: Migration = {
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
