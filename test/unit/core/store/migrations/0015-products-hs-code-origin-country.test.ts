/**
 * Migration 15 (issue 34 item 5): the products' HS code and country of origin
 * columns renamed `hs_code`, `origin_country`, and the pending suggestions'
 * field names rewritten (`harmonizedCode` -> `hsCode`, `countryOfManufacture`
 * -> `originCountry`) under a CHECK that lists the new names; rows written
 * under the old schema are read through the repository after migrating.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, readUserVersion, SCHEMA_VERSION } from '../../../../../electron/core/store';
import { m0015ProductsHsCodeOriginCountry as step } from '../../../../../electron/core/store/migrations/0015-products-hs-code-origin-country';
import { applyStep, columns, databaseBefore, indexes, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

/** Two products and a pending suggestion of each field, written under the old column and field names. */
function writeOldRows(): void {
  const insert = t.db.prepare<[string, string, string | null, string | null, number | null, string]>(
    `INSERT INTO products (sku, description, harmonized_code, country_of_manufacture, unit_weight_kg, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  insert.run('TAZ-CER-BLU', 'Tazza in ceramica', '691200', 'IT', 0.35, '2024-03-01T10:00:00.000Z');
  insert.run('OLIO-1L', '', null, null, 1.1, '2024-03-02T10:00:00.000Z');
  const suggest = t.db.prepare<[string, string, string | null, string]>(
    `INSERT INTO product_suggestions (sku, field, current_value, proposed_value, source, created_at) VALUES (?, ?, ?, ?, 'shipment #1001', 't')`,
  );
  suggest.run('TAZ-CER-BLU', 'harmonizedCode', '691200', '691110');
  suggest.run('TAZ-CER-BLU', 'countryOfManufacture', 'IT', 'PT');
  suggest.run('TAZ-CER-BLU', 'unitWeightKg', '0.35', '0.4');
  suggest.run('OLIO-1L', 'description', null, 'Olio extravergine');
}

describe('migration 15 "products hs code origin country"', () => {
  it('renames the columns and rewrites the suggestions’ field names, keeping every row, id and check', () => {
    const { db } = t;
    writeOldRows();
    const products = rows(db, 'SELECT sku, description, harmonized_code AS hs, country_of_manufacture AS origin, unit_weight_kg, updated_at FROM products ORDER BY sku');
    const suggestions = rows(db, 'SELECT * FROM product_suggestions ORDER BY id') as Array<{ field: string }>;
    const otherTables = tables(db);

    expect(applyStep(db, step)).toEqual([15]);
    expect(readUserVersion(db)).toBe(15);
    expect(tables(db)).toEqual(otherTables);
    expect(columns(db, 'products')).toEqual(['sku', 'description', 'hs_code', 'origin_country', 'unit_weight_kg', 'updated_at', 'length_cm', 'width_cm', 'height_cm']);
    expect(columns(db, 'product_suggestions')).toEqual(['id', 'sku', 'field', 'current_value', 'proposed_value', 'source', 'created_at']);
    expect(indexes(db, 'products')).toEqual([]);
    expect(indexes(db, 'product_suggestions')).toEqual([]);
    expect(rows(db, 'SELECT sku, description, hs_code AS hs, origin_country AS origin, unit_weight_kg, updated_at FROM products ORDER BY sku')).toEqual(products);
    const renamed: Record<string, string> = { harmonizedCode: 'hsCode', countryOfManufacture: 'originCountry' };
    expect(rows(db, 'SELECT * FROM product_suggestions ORDER BY id')).toEqual(suggestions.map((s) => ({ ...s, field: renamed[s.field] ?? s.field })));

    // The products' checks follow the renamed columns.
    const insert = db.prepare<[string, string | null, string | null]>(`INSERT INTO products (sku, hs_code, origin_country, updated_at) VALUES (?, ?, ?, 't')`);
    insert.run('NEW', '61091000', 'pt');
    expect(() => insert.run('X', '61', null)).toThrow(/CHECK/);
    expect(() => insert.run('Y', null, 'ITA')).toThrow(/CHECK/);
    // The suggestions' check takes the new names only; one open suggestion per SKU and field.
    const suggest = db.prepare<[string, string]>(`INSERT INTO product_suggestions (sku, field, current_value, proposed_value, source, created_at) VALUES (?, ?, '1', '2', 's', 't')`);
    suggest.run('NEW', 'hsCode');
    suggest.run('NEW', 'originCountry');
    expect(() => suggest.run('NEW', 'hsCode')).toThrow(/UNIQUE/);
    expect(() => suggest.run('NEW', 'harmonizedCode')).toThrow(/CHECK/);
    expect(() => suggest.run('NEW', 'countryOfManufacture')).toThrow(/CHECK/);
  });

  it('an older file opens at the current schema and the repository reads its products and suggestions under the new names', () => {
    writeOldRows();
    t.db.close();
    const store = openStore(t.file);
    try {
      expect(store.schemaVersion).toBe(SCHEMA_VERSION);
      expect(store.products.getMany(['TAZ-CER-BLU'])).toEqual([
        { sku: 'TAZ-CER-BLU', description: 'Tazza in ceramica', hsCode: '691200', originCountry: 'IT', unitWeightKg: 0.35, lengthCm: null, widthCm: null, heightCm: null, shipsAlone: false, updatedAt: '2024-03-01T10:00:00.000Z' },
      ]);
      expect(store.products.suggestions().map((s) => [s.sku, s.field, s.current, s.proposed])).toEqual([
        ['TAZ-CER-BLU', 'hsCode', '691200', '691110'],
        ['TAZ-CER-BLU', 'originCountry', 'IT', 'PT'],
        ['TAZ-CER-BLU', 'unitWeightKg', '0.35', '0.4'],
        ['OLIO-1L', 'description', null, 'Olio extravergine'],
      ]);
      const [hs, origin] = store.products.suggestions();
      expect(store.products.resolveSuggestion(hs?.id ?? 0, true)?.hsCode).toBe('691110');
      expect(store.products.resolveSuggestion(origin?.id ?? 0, true)?.originCountry).toBe('PT');
      expect(store.products.withHsCode(10).map((p) => [p.sku, p.hsCode])).toEqual([['TAZ-CER-BLU', '691110']]);
      // Learning writes the new field names: a changed country becomes an `originCountry` suggestion.
      expect(store.products.learn([{ sku: 'TAZ-CER-BLU', originCountry: 'es', hsCode: '691200' }], 'shipment #1002')).toBe(2);
      expect(store.products.suggestions().filter((s) => s.source === 'shipment #1002').map((s) => [s.field, s.proposed])).toEqual([
        ['hsCode', '691200'],
        ['originCountry', 'ES'],
      ]);
    } finally {
      store.close();
    }
  });
});
