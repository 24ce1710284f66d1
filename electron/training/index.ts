/**
 * Training mode: the embedded sandbox (electron/sandbox) as the platform, with
 * the station's database `training.sqlite` and the sandbox's state
 * `training-sandbox.sqlite` (until issue 27 `training-sandbox.json`, taken
 * over once) side by side in the data folder, both kept across
 * restarts so a packer's training day (orders, shipments, labels, manifests)
 * continues where it stopped. When the two cannot be used together (a file
 * unreadable or refused, shipments without sandbox state, sandbox state
 * without a database) both are moved aside as `*.broken-<timestamp>`, never
 * deleted, and training starts afresh.
 *
 * This module sits outside the core on purpose: the core never imports the
 * sandbox. It hands the core an already-built {@link PlatformAccess}, an
 * open store and two hooks (`afterSent`, `release`); `electron/shell/start.ts`
 * composes it with `createStation`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createSandbox, demoSeed, SandboxStateError, type Sandbox, type SandboxOptions } from '../sandbox';
import { databaseFile, type PlatformAccess } from '../core/station';
import { RetentionSetting, StoreError, openStore, type Store } from '../core/store';
import { classOfCode, errorCodeOf, permissionMessage } from '../core/store/open-errors';
import { trainingClientSecrets } from './secret';

/**
 * Options of the embedded training sandbox: its state kept in `stateFile`,
 * the spec's rate limits on (a packer trains against the platform's real
 * pace), the demo account's past (invoices, COD lists, returns) seeded and
 * the data folder's own client secrets (secret.ts), never the public demo ones.
 */
function trainingSandboxOptions(dataDir: string, clientSecrets: Record<string, string>, adminToken: string | undefined, retentionDays: number): SandboxOptions {
  return {
    port: 0,
    stateFile: trainingSandboxFile(dataDir),
    legacyStateFile: legacyTrainingSandboxFile(dataDir),
    stateRetentionDays: retentionDays,
    // The station starts at once; the platform answers when its shipments are read (issue 27).
    loadStateGradually: true,
    rateLimits: true,
    history: true,
    clientSecrets,
    ...(adminToken !== undefined ? { adminToken } : {}),
  };
}

/**
 * File the training sandbox keeps its state in, beside `training.sqlite`:
 * SQLite written incrementally (electron/sandbox/state-db.ts), settled
 * shipments kept as long as the station's retention (`storage.retentionDays`).
 */
export function trainingSandboxFile(dataDir: string): string {
  return path.join(dataDir, 'training-sandbox.sqlite');
}

/**
 * The JSON state file of earlier versions (electron/sandbox/persist.ts): taken
 * over into {@link trainingSandboxFile} at the first start, then renamed
 * `training-sandbox.json.migrated-<timestamp>`.
 */
export function legacyTrainingSandboxFile(dataDir: string): string {
  return path.join(dataDir, 'training-sandbox.json');
}

/** `20261121T094956Z`: a file-name-safe UTC timestamp. */
function fileStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/**
 * Moves the training files (database with its WAL/SHM companions, sandbox
 * state) aside as `<file>.broken-<timestamp>`, never deleting them. Returns
 * the new names.
 */
function moveTrainingAside(dbFile: string, stateFiles: string[]): string[] {
  const stamp = fileStamp(Date.now());
  const moved: string[] = [];
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, ...stateFiles.flatMap((s) => (s.endsWith('.sqlite') ? [s, `${s}-wal`, `${s}-shm`] : [s]))]) {
    if (!fs.existsSync(f)) continue;
    let target = `${f}.broken-${stamp}`;
    for (let n = 2; fs.existsSync(target); n++) target = `${f}.broken-${stamp}-${n}`;
    fs.renameSync(f, target);
    moved.push(target);
  }
  return moved;
}

/** The store errors that mean "this training database cannot be used" (as opposed to "update the station"). */
function isUnusableDatabase(e: unknown): boolean {
  return e instanceof StoreError && (e.code === 'not_a_database' || e.code === 'migration_failed');
}

/**
 * True when the database holds anything the platform side made or was asked
 * for (shipments, manifests, pickups, outbox rows): a training database like
 * that is only meaningful with the sandbox state it was made against. Orders
 * alone are the station's own and need no sandbox.
 */
function hasPlatformRecords(store: Store): boolean {
  return (
    store.shipments.listRecent({ limit: 1, includePending: true }).length > 0 ||
    store.manifests.list({ limit: 1 }).length > 0 ||
    store.pickups.list({ limit: 1 }).length > 0 ||
    store.outbox.list({ limit: 1 }).length > 0
  );
}

/** A running training platform: what `createStation` needs from it. */
export interface Training {
  /** The sandbox's URLs and its first demo client (mode `sandbox`), with the data folder's own secret. */
  platform: PlatformAccess;
  /** `training.sqlite`, open; the station owns it once handed over. */
  store: Store;
  /** Saves the sandbox state now (after a finished outbox row). */
  afterSent: () => Promise<void>;
  /** Stops the sandbox (its state is saved on the way). */
  release: () => Promise<void>;
}

/**
 * Starts training mode's two halves, kept consistent: the station database
 * and the embedded sandbox with its state file. Both present: both loaded.
 * Started afresh, with both files moved aside and a log line naming them,
 * when: the database is not one (or cannot be migrated); it holds platform
 * records but the sandbox state is missing (e.g. a `training.sqlite` from a
 * version that kept the sandbox in memory); the sandbox state is there
 * without the database; or the sandbox refuses its state file
 * ({@link SandboxStateError}). A database written by a newer station is
 * refused as in platform mode.
 *
 * @param dataDir data folder (created when missing)
 * A database that is locked, read-only or damaged (StoreError `locked`,
 * `permission_denied`, `corrupt`, `disk_full`) and a state file this user may
 * not read are healthy or repairable: never moved aside, the error is thrown.
 *
 * @param log where "moved aside" lines go (one line each)
 * @param adminToken the station's per-launch token, required by the sandbox's admin prefix
 * @throws StoreError `schema_too_new` for a newer database, `locked`, `permission_denied`,
 *   `corrupt`, `disk_full` as above; Error when the sandbox cannot start
 *   for another reason (e.g. no port) or has no demo client.
 */
export async function openTraining(dataDir: string, log: (line: string) => void, adminToken?: string): Promise<Training> {
  fs.mkdirSync(dataDir, { recursive: true });
  const dbFile = databaseFile(dataDir, 'sandbox');
  const stateFile = trainingSandboxFile(dataDir);
  const legacyFile = legacyTrainingSandboxFile(dataDir);
  const startAfresh = (why: string) => {
    const moved = moveTrainingAside(dbFile, [stateFile, legacyFile]);
    log(`training data: ${why}; starting a fresh training day${moved.length ? ` (moved aside: ${moved.join(', ')})` : ''}`);
  };

  const clientSecrets = trainingClientSecrets(dataDir, demoSeed().accounts.map((a) => a.clientId));
  const hadDb = fs.existsSync(dbFile);
  let store: Store;
  try {
    store = openStore(dbFile);
  } catch (e) {
    if (!isUnusableDatabase(e)) throw e;
    startAfresh(`${dbFile} cannot be used (${(e as Error).message})`);
    store = openStore(dbFile);
  }
  let sandbox: Sandbox | undefined;
  try {
    const hasState = fs.existsSync(stateFile) || fs.existsSync(legacyFile);
    if (hasState && !hadDb) {
      startAfresh(`${fs.existsSync(stateFile) ? stateFile : legacyFile} has no station database beside it`);
    } else if (!hasState && hasPlatformRecords(store)) {
      store.close();
      startAfresh(`${dbFile} holds shipments the sandbox has no state for (${stateFile} is missing)`);
      store = openStore(dbFile);
    }
    const retentionDays = () => store.settings.get(RetentionSetting);
    try {
      sandbox = await createSandbox(trainingSandboxOptions(dataDir, clientSecrets, adminToken, retentionDays()));
    } catch (e) {
      if (!(e instanceof SandboxStateError)) throw e;
      // A state file this user may not read is healthy: say so, never move it aside.
      if (classOfCode(errorCodeOf(e.cause)) === 'permission_denied') {
        throw new StoreError('permission_denied', permissionMessage(e.file, e.cause, `the training sandbox's state ${e.file}`), undefined, { cause: e });
      }
      store.close();
      startAfresh(`the sandbox refused its state (${e.message})`);
      store = openStore(dbFile);
      sandbox = await createSandbox(trainingSandboxOptions(dataDir, clientSecrets, adminToken, retentionDays()));
    }
    const demo = sandbox.clients[0];
    if (!demo) throw new Error('The training sandbox has no demo client');
    const running = sandbox;
    return {
      platform: { mode: 'sandbox', baseUrl: running.baseUrl, authUrl: running.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret, accountName: demo.name },
      store,
      afterSent: () => running.flushState(),
      release: () => running.close(),
    };
  } catch (e) {
    store.close();
    await sandbox?.close().catch(() => undefined);
    throw e;
  }
}
