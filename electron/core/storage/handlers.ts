/**
 * `storage.*` commands and the station's idle-time upkeep (issue 27: a data
 * folder that stays small and fast for years).
 *
 * In an idle moment (no command for {@link MaintenanceOptions.idleMs}) the
 * station, one small step per tick:
 * 1. runs the whole-file check once per session (`PRAGMA quick_check` on a
 *    read-only connection in a worker thread: store/integrity.ts), or at once
 *    after an unclean stop; its result goes to the header (`app.changed`,
 *    `integrity`) and Settings (`storage.get`);
 * 2. prunes label bytes and done outbox rows past the retention
 *    (store/retention.ts), a few hundred rows a statement;
 * 3. gives free pages back to the file system (`PRAGMA incremental_vacuum`);
 * 4. once a session, `PRAGMA optimize` (fresh planner statistics);
 * 5. at most once an hour (sooner while a pass left more), deletes the printed
 *    files of the station's own label folder past the retention (label-folder.ts),
 *    off the database connection, a bounded number a pass.
 * Each step is a few milliseconds on the station's connection, so a command
 * arriving meanwhile waits at most that long.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Handlers } from '../../../shared/contract/commands';
import type { IntegrityView, StorageView } from '../../../shared/contract/views';
import { checkIntegrityInBackground, RetentionSetting } from '../store';
import { emitAppChanged } from '../account/app';
import type { ContextWithoutOutbox, StationContext } from '../common/context';
import { labelFolderOf, pruneLabelFolder } from './label-folder';
import { integrityView } from './views';

/** Timing of the idle upkeep, ms. */
export interface MaintenanceOptions {
  /** No command for this long makes a moment idle (default 30 s). */
  idleMs?: number;
  /** How often the station looks for an idle moment (default 10 s). */
  tickMs?: number;
}

/** The running upkeep: `touch` marks activity; `stop` ends it (awaits a running check). */
export interface Maintenance {
  touch(): void;
  stop(): Promise<void>;
}

/** Rows pruned per statement, and the time one tick may spend pruning, ms. */
const PRUNE_BATCH = 200;
const PRUNE_BUDGET_MS = 20;
/** Pages given back per tick (4 KiB each: 4 MiB). */
const RECLAIM_PAGES = 1024;
/** Real ms between two passes over the label folder, and the files one pass may delete. */
const LABEL_FOLDER_EVERY_MS = 3_600_000;
const LABEL_FOLDER_BATCH = 500;

/** The check's state before it has run in this session. */
export function pendingIntegrity(afterUncleanStop: boolean): IntegrityView {
  return { state: 'pending', checkedAt: null, ms: null, problems: [], ...(afterUncleanStop ? { afterUncleanStop: true } : {}) };
}

/**
 * Starts the idle upkeep of `ctx`'s store. The whole-file check starts at
 * once when the store reports an unclean stop, else at the first idle moment.
 * Errors of a step are logged, never thrown (the bench goes on).
 */
export function startMaintenance(ctx: ContextWithoutOutbox, opts: MaintenanceOptions & { log: (line: string) => void }): Maintenance {
  const idleMs = opts.idleMs ?? 30_000;
  const { store } = ctx;
  let lastActivity = ctx.now();
  let checking: Promise<void> | undefined;
  let optimized = false;
  let stopped = false;
  let labelPass: Promise<void> | undefined;
  let labelPassAt = -Infinity;
  let labelPassMore = false;

  const pruneLabels = (days: number) => {
    if (labelPass || (!labelPassMore && Date.now() - labelPassAt < LABEL_FOLDER_EVERY_MS)) return;
    labelPassAt = Date.now();
    labelPass = pruneLabelFolder(labelFolderOf(ctx.dataDir), days, ctx.now(), LABEL_FOLDER_BATCH)
      .then(
        (r) => {
          labelPassMore = r.more;
        },
        (e: unknown) => opts.log(`upkeep of the label folder: ${e instanceof Error ? e.message : String(e)}`),
      )
      .finally(() => {
        labelPass = undefined;
      });
  };

  const runCheck = () => {
    if (checking || stopped) return;
    const unclean = ctx.integrity.afterUncleanStop === true;
    ctx.integrity = { ...pendingIntegrity(unclean), state: 'running' };
    emitAppChanged(ctx);
    checking = checkIntegrityInBackground(store.file).then((result) => {
      ctx.integrity = integrityView(result, unclean);
      if (result.state !== 'ok') opts.log(`database check: ${result.state}: ${result.problems.join('; ')}`);
      if (!stopped) emitAppChanged(ctx);
    });
  };

  const tick = () => {
    if (stopped || ctx.now() - lastActivity < idleMs) return;
    try {
      if (ctx.integrity.state === 'pending') runCheck();
      const days = store.settings.get(RetentionSetting);
      const t0 = Date.now();
      while (store.retention.prune(days, PRUNE_BATCH).more && Date.now() - t0 < PRUNE_BUDGET_MS) {
        // small steps until the budget is spent; the next idle tick goes on
      }
      if (store.retention.freePages() > 0) store.retention.reclaim(RECLAIM_PAGES);
      pruneLabels(days);
      if (!optimized) {
        store.optimize();
        optimized = true;
      }
    } catch (e) {
      opts.log(`upkeep of the data folder: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  if (store.uncleanStop) runCheck();
  const timer = setInterval(tick, opts.tickMs ?? 10_000);
  timer.unref();
  return {
    touch() {
      lastActivity = ctx.now();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await checking;
      await labelPass;
    },
  };
}

/** Total bytes of the files under `dir` (recursively); a file that vanishes meanwhile counts 0. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) total += await fs.stat(p).then((s) => s.size, () => 0);
  }
  return total;
}

/** Handlers of the `storage` domain (Settings > Data). */
export function createStorageHandlers(ctx: StationContext) {
  const { store } = ctx;
  const view = async (): Promise<StorageView> => {
    const size = (f: string) => fs.stat(f).then((s) => s.size, () => 0);
    const [folder, main, wal] = await Promise.all([folderBytes(ctx.dataDir), size(store.file), size(`${store.file}-wal`)]);
    const usage = store.retention.usage();
    return {
      dataDir: ctx.dataDir,
      folderBytes: folder,
      databaseBytes: main + wal,
      freeBytes: store.retention.freePages() * store.pageSize,
      labelsKept: usage.labelsKept,
      labelBytes: usage.labelBytes,
      oldestLabelKept: usage.oldestKept,
      retentionDays: store.settings.get(RetentionSetting),
      integrity: ctx.integrity,
    };
  };
  return {
    'storage.get': view,
    /** Saves the retention; pruning to it happens in the next idle moments. */
    'storage.setRetention': async ({ days }) => {
      store.settings.set(RetentionSetting, days);
      return view();
    },
  } satisfies Pick<Handlers, 'storage.get' | 'storage.setRetention'>;
}
