/**
 * Migration 17 (issue 37 item 2): product data gets `ships_alone` (0 or 1,
 * 0 for every product written before, a CHECK refuses anything else); the
 * repository reads it as `shipsAlone` and writes it with a CSV import.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0017ProductsShipsAlone as step } from '../../../../../electron/core/store/migrations/0017-products-ships-alone';
import { createProductsRepo } from '../../../../../electron/core/store/products-repo';
import { applyStep, columns, databaseBefore, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 17 "products ships alone"', () => {
  it('adds ships_alone, 0 for every product written before, keeping every row', () => {
    const { db } = t;
    db.prepare(`INSERT INTO products (sku, description, unit_weight_kg, length_cm, width_cm, height_cm, updated_at) VALUES ('CAR-GL', 'Caraffa in vetro', 0.7, 12, 12, 25, 't')`).run();
    const before = rows(db, 'SELECT * FROM products');
    const otherTables = tables(db);

    expect(applyStep(db, step)).toEqual([17]);
    expect(readUserVersion(db)).toBe(17);
    expect(tables(db)).toEqual(otherTables);
    expect(columns(db, 'products')).toContain('ships_alone');
    expect(rows(db, 'SELECT * FROM products')).toEqual((before as Array<Record<string, unknown>>).map((r) => ({ ...r, ships_alone: 0 })));
    expect(() => db.prepare(`UPDATE products SET ships_alone = 2`).run()).toThrow(/CHECK/);
  });

  it('the repository reads and writes shipsAlone', () => {
    const { db } = t;
    applyStep(db, step);
    const repo = createProductsRepo(db, () => new Date('2026-11-28T10:00:00Z'));
    const carafe = { sku: 'CAR-GL', description: 'Caraffa in vetro', hsCode: null, originCountry: 'IT', unitWeightKg: 0.7, lengthCm: 12, widthCm: 12, heightCm: 25 };
    expect(repo.importMany([{ ...carafe, shipsAlone: true }, { ...carafe, sku: 'CUP' }])).toEqual({ imported: 2, updated: 0, unchanged: 0 });
    expect(repo.getMany(['CAR-GL', 'CUP']).map((p) => [p.sku, p.shipsAlone])).toEqual([
      ['CAR-GL', true],
      ['CUP', false],
    ]);
    // The same again is unchanged; the flag changed is an update.
    expect(repo.importMany([{ ...carafe, shipsAlone: true }, { ...carafe, sku: 'CUP', shipsAlone: true }])).toEqual({ imported: 0, updated: 1, unchanged: 1 });
    expect(repo.getMany(['CUP'])[0]?.shipsAlone).toBe(true);
  });
});
