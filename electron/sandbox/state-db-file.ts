/**
 * The file of the sandbox's SQLite state (./state-db.ts): its tables, format
 * check and the helpers its rows are written with.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ShipmentRecord } from './model';
import { SandboxStateError } from './persist';
import type { SandboxState } from './state';

/** Format marker in `meta`. */
const DB_FORMAT = 'shipping-station-sandbox-state-db';
/** Layout version in `meta`. */
const DB_VERSION = '1';
/** Fields rebuilt from the shipment rows at load, not kept in `root`. */
export const DERIVED = new Set(['shipments', 'byTracking', 'lifecycle.journeys', 'lifecycle.active']);
/** Real ms between two retention passes. */
export const PRUNE_EVERY_MS = 60_000;
/** Status codes after which the carrier does nothing more (spec: Shipment status): delivered, returned to sender. */
export const SETTLED_STATUS = new Set([5, 7]);
/** One day, ms. */
export const DAY_MS = 86_400_000;

/**
 * Opens (creating when missing, owner-only) the state database `file` in WAL mode with its tables.
 * @throws SandboxStateError naming the file when it cannot be opened or is not a state database of this version.
 */
export function openStateDb(file: string): Database.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fresh = !fs.existsSync(file);
  let db: Database.Database;
  try {
    // A file this user may not read or write is healthy: say so with its errno (EACCES), not as damage.
    if (!fresh) fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
    db = new Database(file);
    // Owner only: the state holds the clients' secrets and the recipients' addresses.
    if (fresh && process.platform !== 'win32') fs.chmodSync(file, 0o600);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Bounded as the station's own (electron/core/store PAGE_CACHE_KIB): SQLite's 16 MB default kept every label written in memory.
    db.pragma('cache_size = -4096');
    db.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS root (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS shipments (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS labels (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS log (name TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (name, seq)) WITHOUT ROWID;`);
    const format = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'format'").get();
    const version = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'version'").get();
    if (format === undefined) {
      db.prepare("INSERT INTO meta (key, value) VALUES ('format', ?), ('version', ?)").run(DB_FORMAT, DB_VERSION);
    } else if (format.value !== DB_FORMAT) {
      throw new Error(`not a sandbox state database (format "${format.value}")`);
    } else if (version?.value !== DB_VERSION) {
      throw new Error(`state database version ${version?.value ?? '(none)'} is not supported (expected ${DB_VERSION})`);
    }
  } catch (e) {
    throw new SandboxStateError(file, `Sandbox state database ${file} is not usable: ${(e as Error).message}`, { cause: e });
  }
  return db;
}

/**
 * The state's append-only lists, kept one row per item in `log` (items are
 * never changed once appended): the event history and each account's credit
 * movements, by name.
 */
export function logLists(state: SandboxState): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>([['events.history', state.events.history]]);
  for (const a of state.accounts) out.set(`movements:${a.accountId}`, a.movements);
  return out;
}

/** SHA-1 of a row's text, base64: how a save tells a changed row. */
export function sha1(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/** `20261121T094956Z`: a file-name-safe UTC timestamp. */
export function fileStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/**
 * Runs `encode` with `s.label`; when `unread`, with a stand-in object in its
 * place (the same key, so the same order) and the deferred read put back
 * after, so encoding reads no label row. The journey refers to `s` itself,
 * which is why `s` is changed in place rather than copied.
 */
export function withLabelStandIn<T>(s: ShipmentRecord, unread: boolean, encode: (label: object) => T): T {
  if (!unread) return encode(s.label);
  const deferred = Object.getOwnPropertyDescriptor(s, 'label') as PropertyDescriptor;
  const label = {};
  Object.defineProperty(s, 'label', { value: label, writable: true, enumerable: true, configurable: true });
  try {
    return encode(label);
  } finally {
    Object.defineProperty(s, 'label', deferred);
  }
}

