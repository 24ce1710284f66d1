/**
 * Migration 14 (issue 34): `customs_products` renamed `products`, every row,
 * column and check kept; a file written under the old name opens and its
 * products and pending suggestions are read through the repository.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, readUserVersion, SCHEMA_VERSION } from '../../../../../electron/core/store';
import { m0014ProductsTable as step } from '../../../../../electron/core/store/migrations/0014-products-table';
import { applyStep, columns, databaseBefore, indexes, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

/** Two products and a pending suggestion, written under the table's old name. */
function writeOldRows(): void {
  const insert = t.db.prepare<[string, string, string | null, string | null, number | null, number | null, string]>(
    `INSERT INTO customs_products (sku, description, harmonized_code, country_of_manufacture, unit_weight_kg, length_cm, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  insert.run('TAZ-CER-BLU', 'Tazza in ceramica', '691200', 'IT', 0.35, 12, '2024-03-01T10:00:00.000Z');
  insert.run('OLIO-1L', '', null, null, 1.1, null, '2024-03-02T10:00:00.000Z');
  t.db
    .prepare(`INSERT INTO product_suggestions (sku, field, current_value, proposed_value, source, created_at) VALUES ('TAZ-CER-BLU', 'unitWeightKg', '0.35', '0.4', 'shipment #1001', 't')`)
    .run();
}

describe('migration 14 "products table"', () => {
  it('renames customs_products to products, keeping every row, column and check', () => {
    const { db } = t;
    writeOldRows();
    const before = { products: rows(db, 'SELECT * FROM customs_products ORDER BY sku'), suggestions: rows(db, 'SELECT * FROM product_suggestions') };
    const cols = columns(db, 'customs_products');
    const otherTables = tables(db).filter((n) => n !== 'customs_products');

    expect(applyStep(db, step)).toEqual([14]);
    expect(readUserVersion(db)).toBe(14);
    expect(tables(db)).not.toContain('customs_products');
    expect(tables(db)).toEqual([...otherTables, 'products'].sort());
    expect(columns(db, 'products')).toEqual(cols);
    expect(indexes(db, 'products')).toEqual([]);
    expect({ products: rows(db, 'SELECT * FROM products ORDER BY sku'), suggestions: rows(db, 'SELECT * FROM product_suggestions') }).toEqual(before);
    const insert = db.prepare<[string, string | null, number | null]>(`INSERT INTO products (sku, country_of_manufacture, unit_weight_kg, updated_at) VALUES (?, ?, ?, 't')`);
    insert.run('NEW', null, null);
    expect(() => insert.run('NEW', null, null)).toThrow(/UNIQUE/);
    expect(() => insert.run('X', 'ITA', null)).toThrow(/CHECK/);
    expect(() => insert.run('Y', null, 0)).toThrow(/CHECK/);
  });

  it('an older file opens at the current schema and the repository reads the products written under the old name', () => {
    writeOldRows();
    t.db.close();
    const store = openStore(t.file);
    try {
      expect(store.schemaVersion).toBe(SCHEMA_VERSION);
      expect(store.products.all().map((p) => p.sku)).toEqual(['OLIO-1L', 'TAZ-CER-BLU']);
      expect(store.products.getMany(['TAZ-CER-BLU'])).toEqual([
        {
          sku: 'TAZ-CER-BLU',
          description: 'Tazza in ceramica',
          hsCode: '691200',
          originCountry: 'IT',
          unitWeightKg: 0.35,
          lengthCm: 12,
          widthCm: null,
          heightCm: null,
          shipsAlone: false,
          updatedAt: '2024-03-01T10:00:00.000Z',
        },
      ]);
      const [s] = store.products.suggestions();
      expect(s).toMatchObject({ sku: 'TAZ-CER-BLU', field: 'unitWeightKg', current: '0.35', proposed: '0.4', source: 'shipment #1001' });
      expect(store.products.resolveSuggestion(s?.id ?? 0, true)?.unitWeightKg).toBe(0.4);
      expect(store.products.withHsCode(10).map((p) => p.sku)).toEqual(['TAZ-CER-BLU']);
    } finally {
      store.close();
    }
  });
});
