/**
 * Customs data remembered per SKU (table `customs_products`, migration 2):
 * what the packer declared for a product the last time it left the EU
 * customs territory, so the next declaration of the same SKU is prefilled.
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors';
import { isoNow, type Clock } from './sql';

/**
 * One remembered product. `harmonizedCode` 6-10 digits or null (not known
 * yet), `countryOfManufacture` ISO 3166-1 alpha-2 (upper case),
 * `unitWeightKg` the weight of one piece in kg (> 0) or null.
 */
interface CustomsProduct {
  sku: string;
  description: string;
  harmonizedCode: string | null;
  countryOfManufacture: string;
  unitWeightKg: number | null;
  updatedAt: string;
}

/** Repository of {@link CustomsProduct} rows. */
export interface CustomsProductsRepo {
  /** The rows of the given SKUs (unknown SKUs are absent), in any order. */
  getMany(skus: readonly string[]): CustomsProduct[];
  /**
   * Inserts or replaces each product (by SKU), in one statement per row.
   * @throws StoreError `invalid_input` naming the field (`sku`, `harmonizedCode`,
   *   `countryOfManufacture`, `unitWeightKg`) when a value breaks the table's rules.
   */
  remember(products: ReadonlyArray<Omit<CustomsProduct, 'updatedAt'>>): void;
  /**
   * The products that have an HS code, most recently declared first, at most
   * `limit` (1..5000): what the HS code field suggests for similar items.
   */
  withHsCode(limit: number): CustomsProduct[];
}

interface Row {
  sku: string;
  description: string;
  harmonized_code: string | null;
  country_of_manufacture: string;
  unit_weight_kg: number | null;
  updated_at: string;
}

/** Builds the repository on an open database. */
export function createCustomsProductsRepo(db: Database.Database, clock: Clock): CustomsProductsRepo {
  const upsert = db.prepare<[string, string, string | null, string, number | null, string], never>(
    `INSERT INTO customs_products (sku, description, harmonized_code, country_of_manufacture, unit_weight_kg, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (sku) DO UPDATE SET description = excluded.description, harmonized_code = excluded.harmonized_code,
       country_of_manufacture = excluded.country_of_manufacture, unit_weight_kg = excluded.unit_weight_kg, updated_at = excluded.updated_at`,
  );
  const toProduct = (r: Row): CustomsProduct => ({
    sku: r.sku,
    description: r.description,
    harmonizedCode: r.harmonized_code,
    countryOfManufacture: r.country_of_manufacture,
    unitWeightKg: r.unit_weight_kg,
    updatedAt: r.updated_at,
  });
  return {
    getMany(skus) {
      const list = [...new Set(skus.filter((s) => s.trim() !== ''))];
      if (list.length === 0) return [];
      const rows = db.prepare<string[], Row>(`SELECT * FROM customs_products WHERE sku IN (${list.map(() => '?').join(',')})`).all(...list);
      return rows.map(toProduct);
    },
    withHsCode(limit) {
      const n = Math.min(5000, Math.max(1, Math.trunc(limit)));
      return db.prepare<[number], Row>('SELECT * FROM customs_products WHERE harmonized_code IS NOT NULL ORDER BY updated_at DESC, sku LIMIT ?').all(n).map(toProduct);
    },
    remember(products) {
      const now = isoNow(clock);
      for (const p of products) {
        const sku = p.sku.trim();
        if (sku === '') throw new StoreError('invalid_input', 'SKU is required to remember customs data', { sku: ['SKU is required'] });
        if (p.harmonizedCode !== null && !/^\d{6,10}$/.test(p.harmonizedCode)) {
          throw new StoreError('invalid_input', `HS code of ${sku} must be 6 to 10 digits`, { harmonizedCode: ['HS code must be 6 to 10 digits'] });
        }
        const country = p.countryOfManufacture.trim().toUpperCase();
        if (!/^[A-Z]{2}$/.test(country)) throw new StoreError('invalid_input', `Country of manufacture of ${sku} must be 2 letters`, { countryOfManufacture: ['Country of manufacture must be 2 letters'] });
        if (p.unitWeightKg !== null && !(p.unitWeightKg > 0)) throw new StoreError('invalid_input', `Unit weight of ${sku} must be above 0 kg`, { unitWeightKg: ['Weight must be above 0 kg'] });
        upsert.run(sku, p.description, p.harmonizedCode, country, p.unitWeightKg, now);
      }
    },
  };
}
