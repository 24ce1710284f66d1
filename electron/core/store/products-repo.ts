/**
 * Product data per SKU (table `products`: `customs_products` of migration 4,
 * extended by migration 9, renamed by migration 14, its HS code and country
 * of origin columns `hs_code`, `origin_country` since migration 15): what the station knows
 * of a product — customs description, HS code, country of origin, unit
 * weight (kg) and size (cm) — imported from a product CSV, typed in a
 * declaration, or learnt from shipments. A value learnt that differs from
 * the one known becomes a suggestion (`product_suggestions`) the packer
 * confirms; nothing known is overwritten silently (issue 24 item 3).
 * Returns records; the products domain maps them to the screens' views
 * (electron/core/products/views.ts).
 */
import type Database from 'better-sqlite3';
import type { ProductField } from '../../../shared/contract/products';
import { StoreError } from './errors';
import { isoNow, likeContains, type Clock } from './sql';

/**
 * One stored product. `unitWeightKg` kg per piece (> 0), sizes in cm (> 0),
 * `hsCode` 6-10 digits, `originCountry` ISO 3166-1 alpha-2
 * (upper case); each null when not known. `description` '' when not known.
 * `shipsAlone`: the product needs a parcel of its own (a glass carafe; migration 17, false when not said).
 * `updatedAt` ISO 8601, when the row was last written.
 */
export interface ProductRecord {
  sku: string;
  description: string;
  hsCode: string | null;
  originCountry: string | null;
  unitWeightKg: number | null;
  lengthCm: number | null;
  widthCm: number | null;
  heightCm: number | null;
  shipsAlone: boolean;
  updatedAt: string;
}

/**
 * One pending suggestion: a value learnt that differs from the stored one.
 * `current` and `proposed` are the values as text (`0.35`, `IT`; `current`
 * null when the field was empty); `source` where it was seen (`shipment
 * Bottega #1001`); `createdAt` ISO 8601.
 */
export interface ProductSuggestionRecord {
  id: number;
  sku: string;
  field: ProductField;
  current: string | null;
  proposed: string;
  source: string;
  createdAt: string;
}

/** A product as written: every field but the timestamp; `shipsAlone` false when not given. */
export type ProductInput = Omit<ProductRecord, 'updatedAt' | 'shipsAlone'> & { shipsAlone?: boolean | undefined };

/** What a shipment or declaration showed of a product (fields absent when not shown). */
interface ProductObservation {
  sku: string;
  description?: string;
  hsCode?: string;
  originCountry?: string;
  unitWeightKg?: number;
}

/** Repository of product data and its pending suggestions. */
export interface ProductsRepo {
  /** The rows of the given SKUs (unknown SKUs are absent), in any order. */
  getMany(skus: readonly string[]): ProductRecord[];
  /** Products whose SKU or description contains `q` (all when empty), by SKU, at most `limit` (default 500). */
  list(q?: string, limit?: number): ProductRecord[];
  /** Every product, by SKU (for the CSV export). */
  all(): ProductRecord[];
  /**
   * Inserts or replaces each product's customs fields (by SKU): what the packer declared.
   * Size fields are kept.
   * @throws StoreError `invalid_input` naming the field (`sku`, `hsCode`,
   *   `originCountry`, `unitWeightKg`) when a value breaks the table's rules.
   */
  remember(products: ReadonlyArray<{ sku: string; description: string; hsCode: string | null; originCountry: string; unitWeightKg: number | null }>): void;
  /**
   * Writes whole products (a CSV import) in one transaction: all or nothing.
   * Returns how many were new, changed and the same.
   * @throws StoreError `invalid_input` naming `<index>.<field>` (0-based) for a value the table refuses.
   */
  importMany(products: readonly ProductInput[]): { imported: number; updated: number; unchanged: number };
  /** What {@link ProductsRepo.importMany} would count for `products`, writing nothing (the warehouse takes them first). @throws as importMany */
  importCounts(products: readonly ProductInput[]): { imported: number; updated: number; unchanged: number };
  /**
   * Learns from a shipment or declaration: a field not known yet is filled;
   * a known field with another value becomes (or replaces) the pending
   * suggestion of that SKU and field. Returns how many suggestions were made.
   * Invalid observed values are ignored (learning never stops a shipment).
   */
  learn(observations: readonly ProductObservation[], source: string): number;
  /** Pending suggestions, oldest first. */
  suggestions(): ProductSuggestionRecord[];
  /**
   * Accepts (writes the proposed value to the product) or rejects a suggestion; either way it is removed.
   * Returns the product after, or null when the suggestion does not exist.
   */
  resolveSuggestion(id: number, accept: boolean): ProductRecord | null;
  /**
   * The products that have an HS code, most recently declared first, at most
   * `limit` (1..5000): what the HS code field suggests for similar items.
   */
  withHsCode(limit: number): ProductRecord[];
}

interface Row {
  sku: string;
  description: string;
  hs_code: string | null;
  origin_country: string | null;
  unit_weight_kg: number | null;
  length_cm: number | null;
  width_cm: number | null;
  height_cm: number | null;
  ships_alone: number;
  updated_at: string;
}

interface SuggestionRow {
  id: number;
  sku: string;
  field: ProductField;
  current_value: string | null;
  proposed_value: string;
  source: string;
  created_at: string;
}

const toProduct = (r: Row): ProductRecord => ({
  sku: r.sku,
  description: r.description,
  hsCode: r.hs_code,
  originCountry: r.origin_country,
  unitWeightKg: r.unit_weight_kg,
  lengthCm: r.length_cm,
  widthCm: r.width_cm,
  heightCm: r.height_cm,
  shipsAlone: r.ships_alone === 1,
  updatedAt: r.updated_at,
});

/** Checks one product; `prefix` goes before the field in `details` keys. */
function checked(p: ProductInput, prefix = ''): ProductInput {
  const sku = p.sku.trim();
  const fail = (field: string, message: string): never => {
    throw new StoreError('invalid_input', `${message}${sku ? ` (${sku})` : ''}`, { [`${prefix}${field}`]: [message] });
  };
  if (sku === '' || sku.length > 100) fail('sku', 'SKU is required, at most 100 characters');
  if (p.hsCode !== null && !/^\d{6,10}$/.test(p.hsCode)) fail('hsCode', 'HS code must be 6 to 10 digits');
  const country = p.originCountry === null ? null : p.originCountry.trim().toUpperCase();
  if (country !== null && !/^[A-Z]{2}$/.test(country)) fail('originCountry', 'Country of manufacture must be 2 letters');
  if (p.unitWeightKg !== null && !(p.unitWeightKg > 0)) fail('unitWeightKg', 'Weight must be above 0 kg');
  for (const f of ['lengthCm', 'widthCm', 'heightCm'] as const) {
    const v = p[f];
    if (v !== null && !(v > 0)) fail(f, 'Size must be above 0 cm');
  }
  return { ...p, sku, originCountry: country, description: p.description.trim(), shipsAlone: p.shipsAlone === true };
}

/** A field's value as suggestion text. */
const asText = (v: string | number | null): string | null => (v === null ? null : String(v));

/** Builds the repository on an open database. */
export function createProductsRepo(db: Database.Database, clock: Clock): ProductsRepo {
  const bySku = db.prepare<[string], Row>('SELECT * FROM products WHERE sku = ?');
  const upsertCustoms = db.prepare<[string, string, string | null, string, number | null, string], never>(
    `INSERT INTO products (sku, description, hs_code, origin_country, unit_weight_kg, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (sku) DO UPDATE SET description = excluded.description, hs_code = excluded.hs_code,
       origin_country = excluded.origin_country, unit_weight_kg = excluded.unit_weight_kg, updated_at = excluded.updated_at`,
  );
  const upsertAll = db.prepare<[string, string, string | null, string | null, number | null, number | null, number | null, number | null, number, string], never>(
    `INSERT INTO products (sku, description, hs_code, origin_country, unit_weight_kg, length_cm, width_cm, height_cm, ships_alone, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (sku) DO UPDATE SET description = excluded.description, hs_code = excluded.hs_code,
       origin_country = excluded.origin_country, unit_weight_kg = excluded.unit_weight_kg,
       length_cm = excluded.length_cm, width_cm = excluded.width_cm, height_cm = excluded.height_cm, ships_alone = excluded.ships_alone,
       updated_at = excluded.updated_at`,
  );
  const suggest = db.prepare<[string, string, string | null, string, string, string], never>(
    `INSERT INTO product_suggestions (sku, field, current_value, proposed_value, source, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (sku, field) DO UPDATE SET current_value = excluded.current_value, proposed_value = excluded.proposed_value,
       source = excluded.source, created_at = excluded.created_at`,
  );
  const dropSuggestion = db.prepare<[string, string], never>('DELETE FROM product_suggestions WHERE sku = ? AND field = ?');
  const COLUMN: Record<ProductField, string> = {
    description: 'description',
    hsCode: 'hs_code',
    originCountry: 'origin_country',
    unitWeightKg: 'unit_weight_kg',
  };

  const importMany = db.transaction((products: readonly ProductInput[], write = true) => {
    const now = isoNow(clock);
    const counts = { imported: 0, updated: 0, unchanged: 0 };
    products.forEach((raw, i) => {
      const p = checked(raw, `${i}.`);
      const before = bySku.get(p.sku);
      if (before) {
        const { updatedAt: _u, ...old } = toProduct(before);
        if ((Object.keys(old) as Array<keyof typeof old>).every((k) => old[k] === (k === 'shipsAlone' ? p.shipsAlone === true : p[k]))) {
          counts.unchanged++;
          return;
        }
        counts.updated++;
      } else counts.imported++;
      if (write) upsertAll.run(p.sku, p.description, p.hsCode, p.originCountry, p.unitWeightKg, p.lengthCm, p.widthCm, p.heightCm, p.shipsAlone ? 1 : 0, now);
    });
    return counts;
  });

  const learn = db.transaction((observations: readonly ProductObservation[], source: string) => {
    const now = isoNow(clock);
    let made = 0;
    for (const o of observations) {
      const sku = o.sku.trim();
      if (sku === '' || sku.length > 100) continue;
      const seen: Partial<Record<ProductField, string | number>> = {};
      if (o.description !== undefined && o.description.trim() !== '') seen.description = o.description.trim();
      if (o.hsCode !== undefined && /^\d{6,10}$/.test(o.hsCode)) seen.hsCode = o.hsCode;
      if (o.originCountry !== undefined && /^[A-Za-z]{2}$/.test(o.originCountry.trim())) seen.originCountry = o.originCountry.trim().toUpperCase();
      if (o.unitWeightKg !== undefined && o.unitWeightKg > 0 && Number.isFinite(o.unitWeightKg)) seen.unitWeightKg = Math.round(o.unitWeightKg * 1000) / 1000;
      const row = bySku.get(sku);
      if (!row) {
        upsertAll.run(sku, String(seen.description ?? ''), (seen.hsCode as string | undefined) ?? null, (seen.originCountry as string | undefined) ?? null, (seen.unitWeightKg as number | undefined) ?? null, null, null, null, 0, now);
        continue;
      }
      const known = toProduct(row);
      for (const [field, value] of Object.entries(seen) as Array<[ProductField, string | number]>) {
        const current = known[field];
        if (current === null || current === '') {
          db.prepare(`UPDATE products SET ${COLUMN[field]} = ?, updated_at = ? WHERE sku = ?`).run(value, now, sku);
        } else if (String(current) !== String(value)) {
          suggest.run(sku, field, asText(current), String(value), source, now);
          made++;
        } else dropSuggestion.run(sku, field);
      }
    }
    return made;
  });

  const resolve = db.transaction((id: number, accept: boolean): ProductRecord | null => {
    const s = db.prepare<[number], SuggestionRow>('SELECT * FROM product_suggestions WHERE id = ?').get(id);
    if (!s) return null;
    db.prepare('DELETE FROM product_suggestions WHERE id = ?').run(id);
    if (accept) {
      const value: string | number = s.field === 'unitWeightKg' ? Number(s.proposed_value) : s.proposed_value;
      db.prepare(`UPDATE products SET ${COLUMN[s.field]} = ?, updated_at = ? WHERE sku = ?`).run(value, isoNow(clock), s.sku);
    }
    const row = bySku.get(s.sku);
    return row ? toProduct(row) : null;
  });

  return {
    getMany(skus) {
      const list = [...new Set(skus.filter((s) => s.trim() !== ''))];
      if (list.length === 0) return [];
      const rows = db.prepare<string[], Row>(`SELECT * FROM products WHERE sku IN (${list.map(() => '?').join(',')})`).all(...list);
      return rows.map(toProduct);
    },
    list(q = '', limit = 500) {
      const like = likeContains(q.trim());
      return db
        .prepare<[string, string, number], Row>(`SELECT * FROM products WHERE sku LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\' ORDER BY sku LIMIT ?`)
        .all(like, like, limit)
        .map(toProduct);
    },
    all() {
      return db.prepare<[], Row>('SELECT * FROM products ORDER BY sku').all().map(toProduct);
    },
    withHsCode(limit) {
      const n = Math.min(5000, Math.max(1, Math.trunc(limit)));
      return db.prepare<[number], Row>('SELECT * FROM products WHERE hs_code IS NOT NULL ORDER BY updated_at DESC, sku LIMIT ?').all(n).map(toProduct);
    },
    remember(products) {
      const now = isoNow(clock);
      for (const p of products) {
        const sku = p.sku.trim();
        if (sku === '') throw new StoreError('invalid_input', 'SKU is required to remember customs data', { sku: ['SKU is required'] });
        if (p.hsCode !== null && !/^\d{6,10}$/.test(p.hsCode)) {
          throw new StoreError('invalid_input', `HS code of ${sku} must be 6 to 10 digits`, { hsCode: ['HS code must be 6 to 10 digits'] });
        }
        const country = p.originCountry.trim().toUpperCase();
        if (!/^[A-Z]{2}$/.test(country)) throw new StoreError('invalid_input', `Country of manufacture of ${sku} must be 2 letters`, { originCountry: ['Country of manufacture must be 2 letters'] });
        if (p.unitWeightKg !== null && !(p.unitWeightKg > 0)) throw new StoreError('invalid_input', `Unit weight of ${sku} must be above 0 kg`, { unitWeightKg: ['Weight must be above 0 kg'] });
        upsertCustoms.run(sku, p.description, p.hsCode, country, p.unitWeightKg, now);
      }
    },
    importMany: (products) => importMany.immediate(products),
    importCounts: (products) => importMany.deferred(products, false),
    learn: (observations, source) => learn.immediate(observations, source),
    suggestions() {
      return db
        .prepare<[], SuggestionRow>('SELECT * FROM product_suggestions ORDER BY id')
        .all()
        .map((s) => ({ id: s.id, sku: s.sku, field: s.field, current: s.current_value, proposed: s.proposed_value, source: s.source, createdAt: s.created_at }));
    },
    resolveSuggestion: (id, accept) => resolve.immediate(id, accept),
  };
}
