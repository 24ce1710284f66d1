/**
 * The warehouse's shared settings (issue 35 item 2): shipping rules, product
 * data per SKU, box presets, packers, order settings and customs identifiers
 * live in the warehouse table `shared`, one row per key (common/services.ts
 * `sharedKey`), each change a version with its bench and packer. A bench
 * keeps a copy in its SQLite (the settings, products and packers it already
 * reads) and the last revision it applied; it reads what is newer when the
 * warehouse NOTIFYs (`warehouse_shared`) and when it (re)connects, so a bench
 * that cannot reach the warehouse works with what it last had.
 */
import type { ClientBase, Pool } from 'pg';
import { z } from 'zod';
import { sharedKey, type PulledShared, type SharedChange } from '../common/services';
import { defineSetting, type ProductInput, type SharedPacker, type Store } from '../store';
import type { WarehouseBench } from './claims';

/** The last revision of `shared` this bench applied (0: never heard the warehouse). */
const SharedRevisionSetting = defineSetting('warehouse.sharedRevision', z.number().int().min(0), 0);

/** The settings (by setting key) the warehouse shares; every other setting is the bench's own (its printers, scale, name). */
const SHARED_SETTING_KEYS: readonly string[] = ['rules.document', 'boxes.presets', 'boxes.marginCm', 'orders.allowUnpaid', 'orders.pickupMethods', 'customs.identifiers', 'warehouse.claimTimeoutS'];

/** A product as shared: the fields of the bench's product table (kg, cm; `shipsAlone` whether it needs a parcel of its own). */
const SharedProduct = z.object({
  sku: z.string().min(1).max(100),
  description: z.string().max(500),
  hsCode: z.string().nullable(),
  originCountry: z.string().nullable(),
  unitWeightKg: z.number().positive().nullable(),
  lengthCm: z.number().positive().nullable(),
  widthCm: z.number().positive().nullable(),
  heightCm: z.number().positive().nullable(),
  // Shared since issue 37; a product shared by an older bench has none (false).
  shipsAlone: z.boolean().optional(),
}) satisfies z.ZodType<ProductInput>;

/** A packer as shared (the PIN only as its salted hash). */
const SharedPackerValue = z.object({
  uid: z.string().min(1).max(100),
  name: z.string().min(1).max(100),
  badge: z.string().min(1).max(100).nullable(),
  pinHash: z.string().regex(/^scrypt\$[0-9a-f]+\$[0-9a-f]+$/).nullable(),
  role: z.enum(['packer', 'supervisor']),
}) satisfies z.ZodType<SharedPacker>;

type Db = Pool | ClientBase;

/** Rows read per statement while catching up. */
const PULL_BATCH = 2000;

/**
 * Writes one shared key into the bench's copy.
 * @returns the kind applied, or null when the key or its value is not one this station reads
 */
function applyOne(store: Store, key: string, value: unknown): 'setting' | 'product' | 'packer' | null {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon);
  const name = key.slice(colon + 1);
  if (kind === 'setting' && SHARED_SETTING_KEYS.includes(name)) {
    store.settings.putRaw(name, value);
    return 'setting';
  }
  if (kind === 'product') {
    // A product is never removed from product data, only changed.
    const p = SharedProduct.safeParse(value);
    if (!p.success || p.data.sku !== name) return null;
    store.products.importMany([p.data]);
    return 'product';
  }
  if (kind === 'packer') {
    if (value === null) {
      store.packers.applyShared(name, null);
      return 'packer';
    }
    const p = SharedPackerValue.safeParse(value);
    if (!p.success || p.data.uid !== name) return null;
    store.packers.applyShared(name, p.data);
    return 'packer';
  }
  return null;
}

/**
 * Reads every change of `shared` newer than the bench's revision, oldest first, and applies it to the
 * bench's copy, one local transaction per batch (the revision moves with its batch: a bench killed in
 * the middle reads the rest again).
 * @throws the database's error (what was applied stays, with its revision)
 */
export async function pullShared(db: Db, store: Store, log: (line: string) => void = () => undefined): Promise<PulledShared> {
  const out: PulledShared = { settings: [], products: 0, packers: 0, skipped: [] };
  for (;;) {
    const after = store.settings.get(SharedRevisionSetting);
    const res = await db.query<{ key: string; value: unknown; revision: string }>('SELECT key, value, revision FROM shared WHERE revision > $1 ORDER BY revision LIMIT $2', [after, PULL_BATCH]);
    const last = res.rows[res.rows.length - 1];
    if (!last) return out;
    store.tx(() => {
      for (const row of res.rows) {
        const kind = applyOne(store, row.key, row.value);
        if (kind === 'setting') out.settings.push(row.key.slice('setting:'.length));
        else if (kind === 'product') out.products++;
        else if (kind === 'packer') out.packers++;
        else out.skipped.push(row.key);
      }
      store.settings.set(SharedRevisionSetting, Number(last.revision));
    });
    if (out.skipped.length) log(`warehouse: ${out.skipped.length} shared value(s) this station cannot read were skipped (${out.skipped.slice(0, 3).join(', ')}): update this station`);
  }
}

/** Another bench changed a key first: which, when (ISO 8601), at which bench, by whom. */
export class SharedConflictError extends Error {
  constructor(
    public readonly key: string,
    public readonly at: string,
    public readonly benchName: string,
    public readonly packer: string | null,
  ) {
    super(`${key} was changed at ${benchName}${packer ? ` by ${packer}` : ''} at ${at}`);
    this.name = 'SharedConflictError';
  }
}

/**
 * Writes `changes` to the warehouse in one call of its `share_changes` (all or none), as `bench` and `packer`.
 * @param mode 'check' (refused when another bench changed a key after the bench's revision), 'force'
 *   (an import) or 'seed' (only keys the warehouse lacks)
 * @returns the last revision written (0: nothing changed)
 * @throws SharedConflictError when refused; the database's error otherwise
 */
export async function pushShared(db: Db, store: Store, changes: readonly SharedChange[], bench: WarehouseBench, packer: string | null, mode: 'check' | 'force' | 'seed'): Promise<number> {
  if (changes.length === 0) return 0;
  const keys = changes.map((c) => c.key);
  const values = changes.map((c) => (c.value === null || c.value === undefined ? null : JSON.stringify(c.value)));
  try {
    const res = await db.query<{ r: string }>('SELECT share_changes($1::text[], $2::jsonb[], $3, $4, $5, $6) AS r', [keys, values, store.settings.get(SharedRevisionSetting), bench.id, packer, mode]);
    return Number(res.rows[0]?.r ?? 0);
  } catch (e) {
    const err = e as { code?: string; detail?: string };
    if (err.code === 'WH409' && err.detail) {
      const d = JSON.parse(err.detail) as { key: string; at: string; bench: string | null; packer: string | null };
      throw new SharedConflictError(d.key, new Date(d.at).toISOString(), d.bench ?? 'another bench', d.packer);
    }
    throw e;
  }
}

/** Whether this bench has ever applied the warehouse's shared settings (a bench that has not brings its own first). */
export function hasJoined(store: Store): boolean {
  return store.settings.get(SharedRevisionSetting) > 0;
}

/** Everything this bench would share: its shared settings that are set, its products and its packers. */
export function localShared(store: Store): SharedChange[] {
  const out: SharedChange[] = [];
  for (const key of SHARED_SETTING_KEYS) {
    const value = store.settings.getRaw(key);
    if (value !== undefined) out.push({ key: sharedKey.setting(key), value });
  }
  for (const p of store.products.all()) {
    const { updatedAt: _updatedAt, ...product } = p;
    out.push({ key: sharedKey.product(p.sku), value: product });
  }
  for (const p of store.packers.allShared()) out.push({ key: sharedKey.packer(p.uid), value: p });
  return out;
}
