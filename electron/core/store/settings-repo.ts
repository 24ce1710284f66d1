/**
 * Station settings (table `settings`): key -> JSON value. Each setting is
 * declared once with {@link defineSetting} (key, zod schema, default), so
 * reads and writes are typed and checked where the setting is defined, not
 * here.
 */
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { StoreError } from './errors';
import { fromJson, isoNow, toJson, type Clock } from './sql';

/** A declared setting: its key, the schema its value must pass, and the value when unset. */
export interface SettingDef<T> {
  readonly key: string;
  readonly schema: z.ZodType<T>;
  readonly fallback: T;
}

/**
 * Declares a setting, e.g.
 * `const LabelPrinter = defineSetting('printer.label.uri', z.string(), 'file:///tmp/labels')`.
 * Keys are dotted lower-case words.
 * @throws Error for a malformed key (a programming error).
 */
export function defineSetting<T>(key: string, schema: z.ZodType<T>, fallback: T): SettingDef<T> {
  if (!/^[a-z][a-zA-Z0-9_]*(\.[a-z][a-zA-Z0-9_]*)*$/.test(key)) throw new Error(`Bad setting key "${key}"`);
  return { key, schema, fallback };
}

/** Repository of settings. */
export interface SettingsRepo {
  /**
   * The stored value parsed with the setting's schema; the fallback when unset or when the stored
   * value no longer passes the schema (a bad value must not stop the bench; {@link SettingsRepo.getRaw} shows it).
   */
  get<T>(def: SettingDef<T>): T;
  /** Validates and stores. @throws StoreError `invalid_input` with details keyed by the setting key. */
  set<T>(def: SettingDef<T>, value: T): T;
  /** Removes the stored value (back to the fallback). */
  reset(def: SettingDef<unknown>): void;
  /** The stored JSON value as is, or undefined when unset. */
  getRaw(key: string): unknown;
  /** Every stored key and value. */
  all(): Record<string, unknown>;
  /**
   * Stores a JSON value under `key` as given, or removes it when `value` is null: a value that came from
   * elsewhere (the warehouse's shared settings, issue 35). {@link SettingsRepo.get} still checks it with the
   * setting's schema when it is read.
   */
  putRaw(key: string, value: unknown): void;
}

/** Builds the settings repository on an open database. */
export function createSettingsRepo(db: Database.Database, clock: Clock): SettingsRepo {
  const select = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const upsert = db.prepare<[string, string, string], never>(
    `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare<[string], never>('DELETE FROM settings WHERE key = ?');
  const selectAll = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings ORDER BY key');

  const getRaw = (key: string): unknown => {
    const row = select.get(key);
    return row ? fromJson(row.value) : undefined;
  };

  return {
    get<T>(def: SettingDef<T>): T {
      const raw = getRaw(def.key);
      if (raw === undefined) return def.fallback;
      const parsed = def.schema.safeParse(raw);
      return parsed.success ? parsed.data : def.fallback;
    },
    set<T>(def: SettingDef<T>, value: T): T {
      const parsed = def.schema.safeParse(value);
      if (!parsed.success) {
        const messages = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
        throw new StoreError('invalid_input', `Setting ${def.key}: ${messages.join('; ')}`, { [def.key]: messages });
      }
      upsert.run(def.key, toJson(parsed.data, def.key), isoNow(clock));
      return parsed.data;
    },
    reset(def) {
      remove.run(def.key);
    },
    putRaw(key, value) {
      if (value === null || value === undefined) remove.run(key);
      else upsert.run(key, toJson(value, key), isoNow(clock));
    },
    getRaw,
    all() {
      const out: Record<string, unknown> = {};
      for (const r of selectAll.all()) out[r.key] = fromJson(r.value);
      return out;
    },
  };
}
