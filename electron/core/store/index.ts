/**
 * The station's SQLite store (DESIGN.md "Persistence"): one file opened with
 * better-sqlite3, WAL journal, `foreign_keys=ON`, a busy timeout, numbered
 * migrations, and one repository per domain. Everything is synchronous;
 * `store.tx(fn)` groups repository calls into one transaction (nested calls
 * become savepoints), which is how a local record and its outbox row are
 * written together.
 */
import Database from 'better-sqlite3';
import { StoreError } from './errors';
import { createLabelsRepo, type LabelsRepo } from './labels-repo';
import { createManifestsRepo, type ManifestsRepo } from './manifests-repo';
import { MIGRATIONS, readUserVersion, runMigrations } from './migrations';
import { createOrdersRepo, type OrdersRepo } from './orders-repo';
import { createOutboxRepo, type OutboxRepo } from './outbox-repo';
import { createPickupsRepo, type PickupsRepo } from './pickups-repo';
import { createPrintJobsRepo, type PrintJobsRepo } from './print-jobs-repo';
import { createSettingsRepo, type SettingsRepo } from './settings-repo';
import { createShipmentsRepo, type ShipmentsRepo } from './shipments-repo';
import type { Clock } from './sql';

export { StoreError,  } from './errors';
export { MIGRATIONS, SCHEMA_VERSION, runMigrations, readUserVersion, type Migration } from './migrations';
export type { OrderDraft,    } from './orders-repo';
export type {  ShipmentRecord,  } from './shipments-repo';
;
export type { PrintJobRecord,   PrintRequester } from './print-jobs-repo';
export type { PickupRecord,   } from './pickups-repo';
export type { ManifestInput, ManifestRecord,  } from './manifests-repo';
export { defineSetting,   } from './settings-repo';
export {
  
  type OutboxError,
  type OutboxKind,
  type OutboxRecord,
  
  
} from './outbox-repo';
;

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
  /**
   * Runs `fn` in one write transaction (BEGIN IMMEDIATE): every repository call inside
   * commits together or not at all; an exception rolls back and is rethrown. Nested
   * calls are savepoints. `fn` must be synchronous (a returned Promise is an error).
   */
  tx<T>(fn: () => T): T;
  /** Closes the database; further calls throw. Safe to call twice. */
  close(): void;
}

/**
 * Opens (creating if needed) the station database at `file` and migrates it.
 *
 * @throws StoreError `schema_too_new` when the file was written by a newer station
 *   (checked before anything is written: the file stays byte-for-byte as it was);
 *   `cannot_open` when the file cannot be opened or created; `not_a_database` when it is not SQLite; `migration_failed` when a step fails.
 */
export function openStore(file: string, opts: StoreOptions = {}): Store {
  const clock: Clock = opts.now ?? (() => new Date());
  const migrations = MIGRATIONS;
  let db: Database.Database;
  try {
    db = new Database(file, { timeout: opts.busyTimeoutMs ?? 5000 });
  } catch (err) {
    throw new StoreError('cannot_open', `Cannot open the database ${file}: ${String(err)}`, undefined, { cause: err });
  }
  try {
    let version: number;
    try {
      version = readUserVersion(db);
      // Reading the schema makes SQLite parse the header: a non-database fails here.
      db.pragma('schema_version', { simple: true });
    } catch (err) {
      throw new StoreError('not_a_database', `${file} is not a station database: ${String(err)}`, undefined, {
        cause: err,
      });
    }
    // Before any write (even the WAL switch), so a newer file is left untouched.
    if (version > migrations.length) {
      throw new StoreError(
        'schema_too_new',
        `The database ${file} was written by a newer station (schema ${version}, this version knows up to ` +
          `${migrations.length}). Update the station; the file was left untouched.`,
      );
    }
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    runMigrations(db, migrations);
  } catch (err) {
    db.close();
    throw err;
  }

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
    tx<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
    close() {
      if (db.open) db.close();
    },
  };
  return store;
}
