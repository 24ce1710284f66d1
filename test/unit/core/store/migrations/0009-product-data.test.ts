/** Migration 9 (issue 24): customs_products rebuilt as product data (size, optional origin), product_suggestions; the repository learns without overwriting. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, readUserVersion } from '../../../../../electron/core/store';
import { m0009ProductData as step } from '../../../../../electron/core/store/migrations/0009-product-data';
import { applyStep, columns, databaseBefore, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 9 "product data"', () => {
  it('keeps every remembered product, adds size columns and suggestions, relaxes origin and description', () => {
    const { db } = t;
    db.prepare(`INSERT INTO customs_products (sku, description, harmonized_code, country_of_manufacture, unit_weight_kg, updated_at) VALUES ('TAZ', 'Tazza', '691200', 'IT', 0.35, 't1')`).run();
    db.prepare(`INSERT INTO customs_products (sku, description, harmonized_code, country_of_manufacture, unit_weight_kg, updated_at) VALUES ('OLIO', 'Olio', NULL, 'IT', NULL, 't2')`).run();
    const before = rows(db, 'SELECT * FROM customs_products ORDER BY sku');
    expect(tables(db)).not.toContain('product_suggestions');

    expect(applyStep(db, step)).toEqual([9]);
    expect(readUserVersion(db)).toBe(9);
    expect(columns(db, 'customs_products')).toEqual(['sku', 'description', 'harmonized_code', 'country_of_manufacture', 'unit_weight_kg', 'updated_at', 'length_cm', 'width_cm', 'height_cm']);
    expect(rows(db, 'SELECT sku, description, harmonized_code, country_of_manufacture, unit_weight_kg, updated_at FROM customs_products ORDER BY sku')).toEqual(before);
    const insert = db.prepare<[string, string | null, number | null]>(`INSERT INTO customs_products (sku, country_of_manufacture, length_cm, updated_at) VALUES (?, ?, ?, 't')`);
    insert.run('NEW', null, 10);
    expect(() => insert.run('X', 'ITA', null)).toThrow(/CHECK/);
    expect(() => insert.run('Y', null, 0)).toThrow(/CHECK/);
    const suggest = db.prepare<[string, string]>(`INSERT INTO product_suggestions (sku, field, current_value, proposed_value, source, created_at) VALUES (?, ?, '1', '2', 's', 't')`);
    suggest.run('TAZ', 'unitWeightKg');
    expect(() => suggest.run('TAZ', 'unitWeightKg')).toThrow(/UNIQUE/);
    expect(() => suggest.run('TAZ', 'colour')).toThrow(/CHECK/);
  });

  it('the repository: import all or nothing, learn fills unknown fields and suggests changed ones, the packer confirms', () => {
    t.db.close();
    const store = openStore(t.file);
    try {
      const p = { sku: 'TAZ', description: 'Tazza', hsCode: '691200', originCountry: 'IT', unitWeightKg: 0.35, lengthCm: 10, widthCm: 10, heightCm: 12 };
      expect(store.products.importMany([p])).toEqual({ imported: 1, updated: 0, unchanged: 0 });
      expect(() => store.products.importMany([{ ...p, sku: 'B' }, { ...p, sku: 'C', unitWeightKg: -1 }])).toThrow(expect.objectContaining({ code: 'invalid_input', details: { '1.unitWeightKg': ['Weight must be above 0 kg'] } }));
      expect(store.products.getMany(['B'])).toEqual([]);
      expect(store.products.importMany([p, { ...p, sku: 'B', originCountry: null }])).toEqual({ imported: 1, updated: 0, unchanged: 1 });

      expect(store.products.learn([{ sku: 'TAZ', unitWeightKg: 0.4, originCountry: 'it', hsCode: '691200' }, { sku: 'B', originCountry: 'PT' }, { sku: 'NEW', description: 'Nuovo', unitWeightKg: 1 }], 'shipment #1001')).toBe(1);
      expect(store.products.getMany(['TAZ'])[0]?.unitWeightKg).toBe(0.35);
      expect(store.products.getMany(['B'])[0]?.originCountry).toBe('PT');
      expect(store.products.getMany(['NEW'])[0]).toMatchObject({ description: 'Nuovo', unitWeightKg: 1 });
      const [s] = store.products.suggestions();
      expect(s).toMatchObject({ sku: 'TAZ', field: 'unitWeightKg', current: '0.35', proposed: '0.4', source: 'shipment #1001' });
      expect(store.products.resolveSuggestion(s?.id ?? 0, true)?.unitWeightKg).toBe(0.4);
      expect(store.products.suggestions()).toEqual([]);
      store.products.learn([{ sku: 'TAZ', description: 'Mug' }], 'x');
      const [r] = store.products.suggestions();
      expect(store.products.resolveSuggestion(r?.id ?? 0, false)?.description).toBe('Tazza');
      expect(store.products.resolveSuggestion(9999, true)).toBeNull();
    } finally {
      store.close();
    }
  });
});
