/**
 * The station's SQLite store (DESIGN.md "Persistence"): one file opened with
 * better-sqlite3, WAL journal, `foreign_keys=ON`, a busy timeout, numbered
 * migrations, and one repository per domain. Everything is synchronous;
 * `store.tx(fn)` groups repository calls into one transaction (nested calls
 * become savepoints), which is how a local record and its outbox row are
 * written together.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { StoreError } from './errors';
import { classifyStoreError, corruptError } from './open-errors';
import { createLabelsRepo, type LabelsRepo } from './labels-repo';
import { createManifestsRepo, type ManifestsRepo } from './manifests-repo';
import { MIGRATIONS, readUserVersion, runMigrations } from './migrations';
import { createOrdersRepo, type OrdersRepo } from './orders-repo';
import { createOutboxRepo, type OutboxRepo } from './outbox-repo';
import { createPickupsRepo, type PickupsRepo } from './pickups-repo';
import { createProductsRepo, type ProductsRepo } from './products-repo';
import { createPrintJobsRepo, type PrintJobsRepo } from './print-jobs-repo';
import { createRateWindowsRepo, type RateWindowsRepo } from './rate-windows-repo';
import { createSettingsRepo, type SettingsRepo } from './settings-repo';
import { createShipmentsRepo, type ShipmentsRepo } from './shipments-repo';
import { createSlipJobsRepo, type SlipJobsRepo } from './slip-jobs-repo';
import { createItemsRepo, type ItemsRepo } from './items-repo';
import { createPackersRepo, type PackersRepo } from './packers-repo';
import { createActivityRepo, type ActivityRepo } from './activity-repo';
import { createDayStatsRepo, type DayStatsRepo } from './day-stats-repo';
import { createRetention, RetentionSetting, type Retention } from './retention';
import type { Clock } from './sql';

export { StoreError } from './errors';
export { lockDataFolder, LOCK_FILE } from './lock';
export { MIGRATIONS, SCHEMA_VERSION, runMigrations, readUserVersion, type Migration } from './migrations';
export type { OrderDraft, OrderSortKey } from './orders-repo';
export type { ChangedOrder } from './orders-changes';
export { orderSortKeyLength } from './orders-rows';
export type { ShipmentRecord } from './shipments-repo';
export type { SlipJobRecord } from './slip-jobs-repo';
export type { PrintJobRecord, PrintRequester } from './print-jobs-repo';
export type { PickupRecord } from './pickups-repo';
export type { ManifestInput, ManifestRecord } from './manifests-repo';
export { defineSetting, type SettingDef } from './settings-repo';
export type { ItemRecord } from './items-repo';
export { pinMatches, type PackerRecord, type SharedPacker } from './packers-repo';
export type { ProductInput, ProductRecord, ProductSuggestionRecord } from './products-repo';
export type { ParcelRow } from './day-stats-repo';
export { RetentionSetting } from './retention';
export { BenchLanguageSetting } from './bench-language';
export { checkIntegrityInBackground, type IntegrityRecord } from './integrity';
export { type OutboxError, type OutboxKind, type OutboxRecord } from './outbox-repo';

/** Options of {@link openStore}. */
export interface StoreOptions {
  /** Clock for every timestamp the store writes (default: the system clock). */
  now?: Clock;
  /** How long a statement waits for another connection's lock, in ms (default 5000). */
  busyTimeoutMs?: number;
}

/** The open store: repositories, a transaction helper and `close()`. */
export interface Store {
  /** Path of the database file. */
  readonly file: string;
  /** `PRAGMA user_version` after migrating. */
  readonly schemaVersion: number;
  readonly orders: OrdersRepo;
  readonly shipments: ShipmentsRepo;
  readonly labels: LabelsRepo;
  readonly printJobs: PrintJobsRepo;
  readonly pickups: PickupsRepo;
  readonly manifests: ManifestsRepo;
  readonly settings: SettingsRepo;
  readonly outbox: OutboxRepo;
  /** Product data per SKU (issue 24; customs data remembered per SKU since issue 10). */
  readonly products: ProductsRepo;
  /** The platform client's rate-limit windows, kept across restarts. */
  readonly rateWindows: RateWindowsRepo;
  /** Packing-slip jobs (issue 11). */
  readonly slipJobs: SlipJobsRepo;
  /** Items (alias barcodes, unit weights) and skipped verifications (issue 14, scan to verify). */
  readonly items: ItemsRepo;
  /** Packers and their badges and PINs (issue 26). */
  readonly packers: PackersRepo;
  /** Who did what and when (issue 26). */
  readonly activity: ActivityRepo;
  /** The shipment rows and counts behind End of day and the day report (issue 26; the figures are reports/day-stats.ts). */
  readonly dayStats: DayStatsRepo;
  /** What is kept for how long, pruning in small steps and giving pages back (issue 27). */
  readonly retention: Retention;
  /**
   * True when the last stop was not clean: a `-wal` file was left beside the
   * database (a clean close checkpoints and removes it). The station then runs
   * the whole-file check at once rather than in an idle moment.
   */
  readonly uncleanStop: boolean;
  /**
   * Set when this open switched an older file to `auto_vacuum = INCREMENTAL`:
   * the one-time prune and VACUUM it took, ms (issue 27; a new file is created so).
   */
  readonly compactedMs: number | null;
  /** `PRAGMA page_size`, bytes. */
  readonly pageSize: number;
  /** The connection's page cache limit, KiB ({@link PAGE_CACHE_KIB}; read back from `PRAGMA cache_size`). */
  readonly pageCacheKib: number;
  /** `PRAGMA optimize` (https://sqlite.org/pragma.html#pragma_optimize): refreshes the planner's statistics where they are stale. */
  optimize(): void;
  /**
   * Runs `fn` in one write transaction (BEGIN IMMEDIATE): every repository call inside
   * commits together or not at all; an exception rolls back and is rethrown. Nested
   * calls are savepoints. `fn` must be synchronous (a returned Promise is an error).
   */
  tx<T>(fn: () => T): T;
  /**
   * {@link Store.tx} for data that can be written again from its source (an
   * order export): the commit does not wait for the disk (`PRAGMA synchronous
   * = NORMAL` for this transaction only; WAL keeps the file consistent, and
   * a power cut may lose the last batches, which importing the file again
   * restores). Never for the outbox, shipments or print jobs.
   */
  bulkTx<T>(fn: () => T): T;
  /** Closes the database; further calls throw. Safe to call twice. */
  close(): void;
}

/** `PRAGMA synchronous` level NORMAL (https://sqlite.org/pragma.html#pragma_synchronous). */
const SYNCHRONOUS_NORMAL = 1;

/**
 * The connection's page cache, KiB (`PRAGMA cache_size = -<KiB>`,
 * https://sqlite.org/pragma.html#pragma_cache_size). better-sqlite3 builds
 * SQLite with 16,000 KiB (`SQLITE_DEFAULT_CACHE_SIZE=-16000`): the cache kept
 * the pages each shipment wrote (≈ 16 KB with its label) and the station's
 * RSS climbed ≈ 14 KB per shipment through a day's first thousand (issue 27's
 * soak). 4 MiB is full within the first few hundred; the big-folder bench's
 * commands take the same time with 4 MiB as with 16 MiB (older pages come
 * from the OS file cache).
 */
export const PAGE_CACHE_KIB = 4096;

/**
 * Opens (creating if needed) the station database at `file`, checks its small
 * tables (the whole file is checked later, in the background: store/integrity.ts)
 * and migrates it. A new file is created with `auto_vacuum = INCREMENTAL`; an
 * older one is switched once (prune past the retention, then VACUUM:
 * {@link Store.compactedMs}). Every failure is a StoreError whose
 * code tells a healthy file that cannot be used now (locked, read-only) from
 * a damaged one, and whose message says what to do (store/open-errors.ts).
 * The file is never moved, deleted or repaired here.
 *
 * @throws StoreError `schema_too_new` when the file was written by a newer station
 *   (checked before anything is written: the file stays byte-for-byte as it was);
 *   `locked` when another program holds its lock past the busy timeout;
 *   `permission_denied` when the file, its folder or the file system is read-only for this user;
 *   `corrupt` when quick_check reports damage (the file is left in place, unchanged);
 *   `disk_full`; `not_a_database` when it is not SQLite; `migration_failed` when a step's SQL fails;
 *   `cannot_open` for anything else.
 */
export function openStore(file: string, opts: StoreOptions = {}): Store {
  const clock: Clock = opts.now ?? (() => new Date());
  const migrations = MIGRATIONS;
  const busyMs = opts.busyTimeoutMs ?? 5000;
  let db: Database.Database;
  // A clean close removes the WAL; one left behind means the last stop was a crash, a kill or a power cut.
  const uncleanStop = walLeft(file);
  let compactedMs: number | null = null;
  try {
    db = new Database(file, { timeout: busyMs });
  } catch (err) {
    throw classifyStoreError(err, file, 'cannot_open', busyMs);
  }
  try {
    let version: number;
    try {
      version = readUserVersion(db);
      // Reading the schema makes SQLite parse the header: a non-database fails here.
      db.pragma('schema_version', { simple: true });
    } catch (err) {
      throw classifyStoreError(err, file, 'not_a_database', busyMs);
    }
    // Before any write (even the WAL switch), so a newer file is left untouched.
    if (version > migrations.length) {
      throw new StoreError(
        'schema_too_new',
        `The database ${file} was written by a newer station (schema ${version}, this version knows up to ` +
          `${migrations.length}). Update the station; the file was left untouched.`,
      );
    }
    checkSmallTables(db, file, busyMs);
    try {
      // Before the first table of a new file: pages freed later can be given back (retention.ts).
      if (version === 0 && isEmpty(db)) db.pragma('auto_vacuum = INCREMENTAL');
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
      runMigrations(db, migrations);
      probeWrite(db);
      if (Number(db.pragma('auto_vacuum', { simple: true })) !== 2) compactedMs = switchToIncrementalVacuum(db, clock);
    } catch (err) {
      throw classifyStoreError(err, file, 'cannot_open', busyMs);
    }
  } catch (err) {
    db.close();
    throw err;
  }

  const readSynchronous = db.prepare<[], number>('PRAGMA synchronous').pluck();
  const synchronousSetters = new Map<number, Database.Statement>();
  /** `PRAGMA synchronous = level`, prepared once per level. */
  const setSynchronous = (level: number): Database.Statement => {
    let st = synchronousSetters.get(level);
    if (!st) synchronousSetters.set(level, (st = db.prepare(`PRAGMA synchronous = ${level}`)));
    return st;
  };
  let syncLevel: number | undefined;
  const store: Store = {
    file,
    schemaVersion: readUserVersion(db),
    orders: createOrdersRepo(db, clock),
    shipments: createShipmentsRepo(db, clock),
    labels: createLabelsRepo(db, clock),
    printJobs: createPrintJobsRepo(db, clock),
    pickups: createPickupsRepo(db, clock),
    manifests: createManifestsRepo(db, clock),
    settings: createSettingsRepo(db, clock),
    outbox: createOutboxRepo(db, clock),
    products: createProductsRepo(db, clock),
    rateWindows: createRateWindowsRepo(db, clock),
    slipJobs: createSlipJobsRepo(db, clock),
    items: createItemsRepo(db, clock),
    packers: createPackersRepo(db, clock),
    activity: createActivityRepo(db, clock),
    dayStats: createDayStatsRepo(db),
    retention: createRetention(db, clock),
    uncleanStop,
    compactedMs,
    pageSize: Number(db.pragma('page_size', { simple: true })),
    // A negative cache_size is a size in KiB, a positive one a number of pages.
    pageCacheKib: ((n) => (n < 0 ? -n : (n * Number(db.pragma('page_size', { simple: true }))) / 1024))(Number(db.pragma('cache_size', { simple: true }))),
    optimize() {
      db.pragma('optimize');
    },
    tx<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
    bulkTx<T>(fn: () => T): T {
      if (db.inTransaction) return db.transaction(fn)();
      // The connection's own level (FULL unless changed), read once: the pragmas are then prepared statements, not three parses per slice of an import.
      syncLevel ??= Number(readSynchronous.get());
      setSynchronous(SYNCHRONOUS_NORMAL).run();
      try {
        return db.transaction(fn).immediate();
      } finally {
        setSynchronous(syncLevel).run();
      }
    },
    close() {
      if (db.open) db.close();
    },
  };
  return store;
}

/**
 * A file this user may only read opens without complaint (SQLite falls back
 * to read-only, and BEGIN IMMEDIATE still succeeds) and nothing writes once
 * it is up to date: write the header's user_version again, to its own value,
 * in a transaction rolled back, so a read-only file or a held write lock is
 * told at open rather than at the first shipment. Nothing reaches the file.
 */
function probeWrite(db: Database.Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.pragma(`user_version = ${readUserVersion(db)}`);
  } finally {
    db.exec('ROLLBACK');
  }
}

/** True when `file`'s write-ahead log exists and is not empty. */
function walLeft(file: string): boolean {
  try {
    return fs.statSync(`${file}-wal`).size > 0;
  } catch {
    return false;
  }
}

/** True for a file with nothing in its schema yet (a new database). */
function isEmpty(db: Database.Database): boolean {
  return db.prepare<[], { n: number }>('SELECT count(*) AS n FROM sqlite_schema').get()?.n === 0;
}

/** Tables read at start whose check takes constant time: the settings and the rate windows (a few rows each). */
const START_CHECKED_TABLES = ['settings', 'rate_windows'] as const;

/**
 * `PRAGMA quick_check(<table>)` (https://sqlite.org/pragma.html#pragma_quick_check)
 * of the few small tables start-up reads: a file damaged throughout is
 * refused at once, in constant time; the whole file (labels, orders, the
 * outbox) is checked in the background (store/integrity.ts), never at start.
 * A table not created yet (a new or older file) is skipped.
 * @throws StoreError `corrupt` listing what SQLite found; `locked` / `permission_denied` as classified.
 */
function checkSmallTables(db: Database.Database, file: string, busyMs: number): void {
  const problems: string[] = [];
  try {
    const present = new Set(db.prepare<[], string>(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all());
    for (const t of START_CHECKED_TABLES) {
      if (!present.has(t)) continue;
      const rows = db.pragma(`quick_check(${t})`) as unknown[];
      problems.push(...rows.map((r) => String(Object.values(r as Record<string, unknown>)[0] ?? '')).filter((x) => x !== 'ok'));
    }
  } catch (err) {
    throw classifyStoreError(err, file, 'cannot_open', busyMs);
  }
  if (problems.length > 0) throw corruptError(file, problems);
}

/**
 * One-time step for a file made before issue 27 (`auto_vacuum = NONE`): the
 * mode can only change with a VACUUM, which rewrites the whole file. Label
 * bytes and done outbox rows past the retention are pruned first, so the
 * VACUUM copies only what is kept. Runs at the first start of this version,
 * before the bench opens; returns its wall time, ms. Needs free disk about the
 * size of what is kept.
 */
function switchToIncrementalVacuum(db: Database.Database, clock: Clock): number {
  const t0 = Date.now();
  const retention = createRetention(db, clock);
  const days = createSettingsRepo(db, clock).get(RetentionSetting);
  while (retention.prune(days, 5000).more) {
    // every batch in its own transaction, so the WAL stays small
  }
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
  return Date.now() - t0;
}
