/**
 * Items (tables `items`, `item_barcodes`, migration 6) and the log of skipped
 * verifications (`verify_skips`), for scan to verify (issue 14 item 5).
 * Returns records; the packing domain maps them to views (packing/views.ts).
 */
import type Database from 'better-sqlite3';
import type { VerifySkipInput } from '../../../shared/contract/items';
import { StoreError } from './errors';
import { isoNow, type Clock } from './sql';

/**
 * One stored item: its SKU, its alias barcodes (sorted, each naming only
 * this SKU), its unit weight in kg (null when not known) and when it was last
 * saved (ISO 8601).
 */
export interface ItemRecord {
  sku: string;
  barcodes: string[];
  unitWeightKg: number | null;
  updatedAt: string;
}

/** What `save` writes: the item's SKU, its whole barcode list (duplicates kept once) and unit weight in kg (or null). */
interface ItemDraft {
  sku: string;
  barcodes: readonly string[];
  unitWeightKg: number | null;
}

/** Repository of items and skipped verifications. */
export interface ItemsRepo {
  /** Items whose SKU or a barcode contains `q` (all when empty), by SKU, at most `limit` (default 200). */
  list(q?: string, limit?: number): ItemRecord[];
  /** The items of these SKUs (unknown SKUs absent). */
  getMany(skus: readonly string[]): ItemRecord[];
  /**
   * Creates or replaces an item: its unit weight and its whole barcode list.
   * @throws StoreError `invalid_input` keyed `barcodes` when a barcode already names another SKU.
   */
  save(item: ItemDraft): ItemRecord;
  /** Removes an item and its barcodes; false when it did not exist. */
  remove(sku: string): boolean;
  /** Logs a skipped verification. Returns its id. */
  logSkip(input: VerifySkipInput): number;
  /** Skipped verifications of an order, oldest first. */
  skipsOf(orderId: number): Array<{ id: number; reason: string; missing: VerifySkipInput['missing']; createdAt: string }>;
}

interface ItemRow {
  sku: string;
  unit_weight_kg: number | null;
  updated_at: string;
  barcodes: string | null;
}

const SELECT = `SELECT i.sku, i.unit_weight_kg, i.updated_at, (SELECT json_group_array(barcode) FROM (SELECT barcode FROM item_barcodes b WHERE b.sku = i.sku ORDER BY barcode)) AS barcodes FROM items i`;

const record = (r: ItemRow): ItemRecord => ({ sku: r.sku, unitWeightKg: r.unit_weight_kg, updatedAt: r.updated_at, barcodes: r.barcodes ? (JSON.parse(r.barcodes) as string[]) : [] });

/** Builds the repository on an open database. */
export function createItemsRepo(db: Database.Database, clock: Clock): ItemsRepo {
  const bySku = db.prepare<[string], ItemRow>(`${SELECT} WHERE i.sku = ?`);
  const owner = db.prepare<[string], { sku: string }>('SELECT sku FROM item_barcodes WHERE barcode = ?');
  const upsert = db.prepare<[string, number | null, string], never>(
    'INSERT INTO items (sku, unit_weight_kg, updated_at) VALUES (?, ?, ?) ON CONFLICT (sku) DO UPDATE SET unit_weight_kg = excluded.unit_weight_kg, updated_at = excluded.updated_at',
  );
  const clearCodes = db.prepare<[string], never>('DELETE FROM item_barcodes WHERE sku = ?');
  const addCode = db.prepare<[string, string], never>('INSERT INTO item_barcodes (barcode, sku) VALUES (?, ?)');
  const save = db.transaction((item: ItemDraft): ItemRecord => {
    for (const b of item.barcodes) {
      const o = owner.get(b)?.sku;
      if (o !== undefined && o !== item.sku) throw new StoreError('invalid_input', `Barcode ${b} already names item ${o}`, { barcodes: [`Barcode ${b} already names item ${o}`] });
    }
    upsert.run(item.sku, item.unitWeightKg, isoNow(clock));
    clearCodes.run(item.sku);
    for (const b of new Set(item.barcodes)) addCode.run(b, item.sku);
    return record(bySku.get(item.sku)!);
  });
  return {
    list(q = '', limit = 200) {
      const like = `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return db
        .prepare<[string, string, number], ItemRow>(`${SELECT} WHERE i.sku LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM item_barcodes b WHERE b.sku = i.sku AND b.barcode LIKE ? ESCAPE '\\') ORDER BY i.sku LIMIT ?`)
        .all(like, like, limit)
        .map(record);
    },
    getMany(skus) {
      const list = [...new Set(skus.filter((s) => s.trim() !== ''))];
      if (!list.length) return [];
      return db.prepare<string[], ItemRow>(`${SELECT} WHERE i.sku IN (${list.map(() => '?').join(',')})`).all(...list).map(record);
    },
    save: (item) => save.immediate(item),
    remove: (sku) => db.prepare('DELETE FROM items WHERE sku = ?').run(sku).changes > 0,
    logSkip(input) {
      const r = db.prepare('INSERT INTO verify_skips (order_id, reason, missing, created_at) VALUES (?, ?, ?, ?)').run(input.orderId, input.reason, JSON.stringify(input.missing), isoNow(clock));
      return Number(r.lastInsertRowid);
    },
    skipsOf(orderId) {
      return db
        .prepare<[number], { id: number; reason: string; missing: string; created_at: string }>('SELECT * FROM verify_skips WHERE order_id = ? ORDER BY id')
        .all(orderId)
        .map((r) => ({ id: r.id, reason: r.reason, missing: JSON.parse(r.missing) as VerifySkipInput['missing'], createdAt: r.created_at }));
    },
  };
}
