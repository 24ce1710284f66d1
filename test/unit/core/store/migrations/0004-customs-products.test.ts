/** Migration 4 (issue 10): `customs_products`, from a version-3 file with an order; and the repository on it. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, readUserVersion, SCHEMA_VERSION } from '../../../../../electron/core/store';
import { m0004CustomsProducts as step } from '../../../../../electron/core/store/migrations/0004-customs-products';
import { applyStep, columns, databaseBefore, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 4 "customs products"', () => {
  it('adds customs_products with its checks and leaves the orders as they were', () => {
    const { db } = t;
    db.prepare(
      `INSERT INTO orders (shop, order_key, order_number, source, created_at, recipient_name, street, city, postal_code, country_code, currency, status, stored_at, updated_at)
       VALUES ('main', '#1001', '#1001', 'manual', 't', 'Giulia Rossi', 'Via Roma 1', 'Roma', '00184', 'IT', 'EUR', 'open', 't', 't')`,
    ).run();
    const orders = rows(db, 'SELECT * FROM orders');
    expect(tables(db)).not.toContain('customs_products');

    expect(applyStep(db, step)).toEqual([4]);
    expect(readUserVersion(db)).toBe(4);
    expect(rows(db, 'SELECT * FROM orders')).toEqual(orders);
    expect(columns(db, 'customs_products')).toEqual(['sku', 'description', 'harmonized_code', 'country_of_manufacture', 'unit_weight_kg', 'updated_at']);
    const product = db.prepare<[string, string | null, string, number | null]>(
      `INSERT INTO customs_products (sku, description, harmonized_code, country_of_manufacture, unit_weight_kg, updated_at) VALUES (?, 'd', ?, ?, ?, 't')`,
    );
    product.run('TS-01', '610910', 'PT', 0.2);
    product.run('TS-02', null, 'IT', null);
    expect(() => product.run('TS-01', null, 'IT', null)).toThrow(/UNIQUE/);
    expect(() => product.run('X', '61', 'IT', null)).toThrow(/CHECK/);
    expect(() => product.run('X', '61091A', 'IT', null)).toThrow(/CHECK/);
    expect(() => product.run('X', null, 'ITA', null)).toThrow(/CHECK/);
    expect(() => product.run('X', null, 'IT', 0)).toThrow(/CHECK/);
  });

  it('upgrades a version-3 file to the current schema and the repository remembers per SKU', () => {
    t.db.close();
    const store = openStore(t.file);
    try {
      expect(store.schemaVersion).toBe(SCHEMA_VERSION);
      store.products.remember([{ sku: 'TS-01', description: 'T-shirt', hsCode: '610910', originCountry: 'pt', unitWeightKg: 0.2 }]);
      store.products.remember([{ sku: 'TS-01', description: 'T-shirt cotone', hsCode: '61091000', originCountry: 'PT', unitWeightKg: 0.25 }]);
      const [p] = store.products.getMany(['TS-01', 'NOPE']);
      expect(p).toMatchObject({ sku: 'TS-01', description: 'T-shirt cotone', hsCode: '61091000', originCountry: 'PT', unitWeightKg: 0.25 });
      expect(store.products.getMany(['NOPE'])).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('refuses a bad HS code naming the field, and keeps what was saved', () => {
    t.db.close();
    const store = openStore(t.file);
    try {
      store.products.remember([{ sku: 'A', description: 'a', hsCode: '610910', originCountry: 'IT', unitWeightKg: null }]);
      expect(() => store.products.remember([{ sku: 'A', description: 'a', hsCode: '61', originCountry: 'IT', unitWeightKg: null }])).toThrow(
        expect.objectContaining({ code: 'invalid_input', details: { hsCode: ['HS code must be 6 to 10 digits'] } }),
      );
      expect(store.products.getMany(['A'])[0]?.hsCode).toBe('610910');
    } finally {
      store.close();
    }
  });
});
