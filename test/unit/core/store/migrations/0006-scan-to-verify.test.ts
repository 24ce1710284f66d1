/** Migration 6 (issue 14): items, their barcodes and the log of skipped verifications, from a version-5 file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0006ScanToVerify as step } from '../../../../../electron/core/store/migrations/0006-scan-to-verify';
import { applyStep, columns, databaseBefore, indexes, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 6 "scan to verify"', () => {
  it('adds items, item_barcodes and verify_skips with their rules; orders and customs products untouched', () => {
    const { db } = t;
    db.prepare(
      `INSERT INTO orders (id, shop, order_key, order_number, source, created_at, recipient_name, street, city, postal_code, country_code, currency, status, stored_at, updated_at)
       VALUES (1, 'main', '#1001', '#1001', 'manual', 't', 'Giulia Rossi', 'Via Roma 1', 'Roma', '00184', 'IT', 'EUR', 'open', 't', 't')`,
    ).run();
    db.prepare(`INSERT INTO order_items (order_id, position, sku, name, quantity, unit_price) VALUES (1, 0, 'TAZ-CER-BLU', 'Tazza', 2, 12.5)`).run();
    db.prepare(
      `INSERT INTO customs_products (sku, description, harmonized_code, country_of_manufacture, unit_weight_kg, updated_at) VALUES ('TAZ-CER-BLU', 'Mug', '691200', 'IT', 0.35, 't')`,
    ).run();
    const before = { orders: rows(db, 'SELECT * FROM orders'), items: rows(db, 'SELECT * FROM order_items'), customs: rows(db, 'SELECT * FROM customs_products') };
    expect(tables(db)).not.toContain('items');

    expect(applyStep(db, step)).toEqual([6]);
    expect(readUserVersion(db)).toBe(6);
    expect({ orders: rows(db, 'SELECT * FROM orders'), items: rows(db, 'SELECT * FROM order_items'), customs: rows(db, 'SELECT * FROM customs_products') }).toEqual(before);
    expect(tables(db)).toEqual(expect.arrayContaining(['items', 'item_barcodes', 'verify_skips']));
    expect(columns(db, 'items')).toEqual(['sku', 'unit_weight_kg', 'updated_at']);
    expect(columns(db, 'item_barcodes')).toEqual(['barcode', 'sku']);
    expect(columns(db, 'verify_skips')).toEqual(['id', 'order_id', 'reason', 'missing', 'created_at']);
    expect(indexes(db, 'item_barcodes')).toEqual(['item_barcodes_sku']);
    expect(indexes(db, 'verify_skips')).toEqual(['verify_skips_order']);

    const item = db.prepare<[string, number | null]>(`INSERT INTO items (sku, unit_weight_kg, updated_at) VALUES (?, ?, 't')`);
    const barcode = db.prepare<[string, string]>(`INSERT INTO item_barcodes (barcode, sku) VALUES (?, ?)`);
    const skip = db.prepare<[number, string, string]>(`INSERT INTO verify_skips (order_id, reason, missing, created_at) VALUES (?, ?, ?, 't')`);
    item.run('TAZ-CER-BLU', 0.35);
    expect(() => item.run('', null)).toThrow(/CHECK/);
    expect(() => item.run('X', 0)).toThrow(/CHECK/);
    barcode.run('8001234567890', 'TAZ-CER-BLU');
    expect(() => barcode.run('8001234567890', 'TAZ-CER-BLU')).toThrow(/UNIQUE/);
    expect(() => barcode.run('4000000000001', 'NOPE')).toThrow(/FOREIGN KEY/);
    skip.run(1, 'label unreadable', '["TAZ-CER-BLU"]');
    expect(() => skip.run(1, '   ', '[]')).toThrow(/CHECK/);
    expect(() => skip.run(1, 'x', 'not json')).toThrow(/CHECK/);
    expect(() => skip.run(99, 'x', '[]')).toThrow(/FOREIGN KEY/);

    db.prepare(`DELETE FROM items WHERE sku = 'TAZ-CER-BLU'`).run();
    expect(rows(db, 'SELECT * FROM item_barcodes')).toEqual([]);
    db.prepare('DELETE FROM orders WHERE id = 1').run();
    expect(rows(db, 'SELECT * FROM verify_skips')).toEqual([]);
  });
});
