/**
 * Schema migrations of the station database (DESIGN.md "Persistence"): one
 * step per file (`NNNN-<name>.ts`, a {@link Migration}), listed here in order,
 * and the runner that applies them.
 *
 * Rules:
 * - append-only: a released step is never edited; a change is a new step;
 * - versions are 1, 2, 3, ... in order; `PRAGMA user_version` holds the last applied one;
 * - each step runs in its own transaction together with the `user_version` bump,
 *   so a failing step leaves the file exactly as it was;
 * - a file whose `user_version` is above the last step here was written by a newer
 *   station and is refused (never downgraded, rewritten or deleted).
 *
 * `PRAGMA foreign_keys` cannot change inside a transaction, and with it on a
 * `DROP TABLE` runs the children's ON DELETE actions (CASCADE / SET NULL).
 * A step that rebuilds a table with children sets `foreignKeysOff`: the runner
 * turns foreign keys off around its transaction and runs
 * `PRAGMA foreign_key_check` before committing (SQLite "Making Other Kinds Of
 * Table Schema Changes", the 12-step procedure).
 */
import type Database from 'better-sqlite3';
import { StoreError } from '../errors';
import { m0001Initial } from './0001-initial';
import { m0002OutboxSettleAndRateWindows } from './0002-outbox-posted-at-rate-windows';
import { m0003OrdersShops } from './0003-orders-shops-fulfilment-search';
import { m0004CustomsProducts } from './0004-customs-products';
import { m0005SlipJobs } from './0005-slip-jobs';
import { m0006ScanToVerify } from './0006-scan-to-verify';
import { m0007OrderReferences } from './0007-order-references-per-shop';
import { m0008YearsAtTheBench } from './0008-years-at-the-bench';
import { m0009ProductData } from './0009-product-data';
import { m0010OrdersIndexLater } from './0010-orders-index-later';
import { m0011PackersActivity } from './0011-packers-activity';
import { m0012PrintJobPinnedPrinter } from './0012-print-job-pinned-printer';
import { m0013OrdersRedundantIndexes } from './0013-orders-redundant-indexes';
import { m0014ProductsTable } from './0014-products-table';
import { m0015ProductsHsCodeOriginCountry } from './0015-products-hs-code-origin-country';
import { m0016PackersWarehouseUid } from './0016-packers-warehouse-uid';
import { m0017ProductsShipsAlone } from './0017-products-ships-alone';
import { m0018PrintJobsHeld } from './0018-print-jobs-held';
import type { Migration } from './migration';

export type { Migration } from './migration';

/** All migrations, in order. Append only: a new step is a new file `NNNN-<name>.ts` added at the end. */
export const MIGRATIONS: readonly Migration[] = [
  m0001Initial,
  m0002OutboxSettleAndRateWindows,
  m0003OrdersShops,
  m0004CustomsProducts,
  m0005SlipJobs,
  m0006ScanToVerify,
  m0007OrderReferences,
  m0008YearsAtTheBench,
  m0009ProductData,
  m0010OrdersIndexLater,
  m0011PackersActivity,
  m0012PrintJobPinnedPrinter,
  m0013OrdersRedundantIndexes,
  m0014ProductsTable,
  m0015ProductsHsCodeOriginCountry,
  m0016PackersWarehouseUid,
  m0017ProductsShipsAlone,
  m0018PrintJobsHeld,
];

/** Schema version this code writes: the last migration's version. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Brings `db` up to the last of `migrations` (default {@link MIGRATIONS}).
 * Returns the versions applied (empty when already current).
 *
 * @throws StoreError `schema_too_new` when the file's `user_version` is above the
 *   last migration (nothing is written); `migration_failed` when a step throws (that
 *   step is rolled back, earlier steps stay); a plain Error when `migrations` is not
 *   numbered 1..n (a programming error).
 */
export function runMigrations(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
  });
  const target = migrations.length;
  const current = readUserVersion(db);
  if (current > target) {
    throw new StoreError(
      'schema_too_new',
      `The database was written by a newer station (schema ${current}, this version knows up to ${target}). ` +
        'Update the station; the file was left untouched.',
    );
  }
  const applied: number[] = [];
  for (const m of migrations.slice(current)) {
    const step = db.transaction((): boolean => {
      // Another process may have migrated between our read and this write lock.
      if (readUserVersion(db) >= m.version) return false;
      m.up(db);
      if (m.foreignKeysOff) {
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0) throw new Error(`${broken.length} foreign key(s) broken: ${JSON.stringify(broken.slice(0, 3))}`);
      }
      // user_version lives in the file header and is part of this transaction.
      db.pragma(`user_version = ${m.version}`);
      return true;
    });
    let ran: boolean;
    const fkBefore = m.foreignKeysOff ? db.pragma('foreign_keys', { simple: true }) : undefined;
    try {
      if (m.foreignKeysOff) db.pragma('foreign_keys = OFF');
      ran = step.immediate();
    } catch (err) {
      throw new StoreError('migration_failed', `Migration ${m.version} "${m.name}" failed: ${String(err)}`, undefined, {
        cause: err,
      });
    } finally {
      if (m.foreignKeysOff) db.pragma(`foreign_keys = ${fkBefore === 1 ? 'ON' : 'OFF'}`);
    }
    if (ran) applied.push(m.version);
  }
  return applied;
}

/** `PRAGMA user_version` of `db` (0 for a new file). */
export function readUserVersion(db: Database.Database): number {
  const v: unknown = db.pragma('user_version', { simple: true });
  if (typeof v !== 'number') throw new Error(`PRAGMA user_version returned ${String(v)}`);
  return v;
}
