/**
 * The station core, built once by each transport (DESIGN.md "The pieces"):
 * Electron main binds it to IPC, the headless host to loopback HTTP. Both call
 * commands through {@link invokeCommand} and subscribe to `events`.
 *
 * `createStation(config)`:
 * - training mode (no platform configured): starts the sandbox in-process on
 *   a free port and signs in with its first demo client; the station's data
 *   lives in `training.sqlite` and the sandbox's in `training-sandbox.json`,
 *   both kept across restarts so a packer's training day (orders, shipments,
 *   labels, manifests) continues where it stopped. When the two cannot be
 *   used together (a file unreadable or refused, shipments without sandbox
 *   state, sandbox state without a database) both are moved aside as
 *   `*.broken-<timestamp>`, never deleted, and training starts afresh;
 * - platform mode: the configured platform and credentials; data in `station.sqlite`;
 * - opens the label printer: `--printer`, else the saved setting, else
 *   `file://<dataDir>/labels`;
 * - recovers what a crash left behind (outbox rows `sending` are reconciled
 *   before being sent again; print jobs `printing` are failed, never reprinted
 *   on their own) and starts the outbox worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EventName, Handlers, StationEvents } from '../../shared/contract/commands';
import type { PlatformInfo } from '../../shared/contract/views';
import pkg from '../../package.json' with { type: 'json' };
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox';
import { defaultPrinterUri, type StationConfig } from './config';
import { emitAppChanged } from './handlers/app';
import type { ContextWithoutOutbox, StationContext } from './handlers/context';
import { createEmitter } from './handlers/events';
import { createHandlers } from './handlers/index';
import { createOutboxExecutors, emitOutboxChanged } from './handlers/outbox';
import { LabelPrinterSetting, createPrinterService, type PrinterService } from './handlers/printing';
import { createOutboxWorker, type OutboxBackoff } from './outbox/worker';
import { createPlatformClient, type PlatformCallLog, type RetryOptions } from './platform/client';
import { listQueues, openPrinter, type UsbLibrary } from './printers';
import { discoverPrinters } from './printers/discover';
import { loadUsbLibrary } from './printers/usb-load';
import { StoreError, openStore, type Store } from './store';

export { invokeCommand } from './handlers/invoke';

/** The running station core. */
export interface Station {
  /** Every command of the contract (call them through {@link invokeCommand} from a transport). */
  handlers: Handlers;
  /** Events for the screens; `on` returns the unsubscribe function. */
  events: { on<E extends EventName>(name: E, listener: (payload: StationEvents[E]) => void): () => void };
  /** Platform in use (mode, base URL, account name). */
  info: PlatformInfo;
  /** Stops the outbox worker, closes printer, store and (training mode) the sandbox. Safe to call twice. */
  close(): Promise<void>;
}

/** Knobs for tests and tools; production uses the defaults. */
export interface StationOptions {
  /** fetch for the platform client (default global fetch). */
  fetch?: typeof fetch;
  /** Timeout of one platform HTTP attempt, ms (default 15000). */
  platformTimeoutMs?: number;
  /** Back-off of the platform client on 429/5xx. */
  retry?: RetryOptions;
  /** Client-side per-minute limits by route (default the spec's Limits table); `false` turns them off (benchmarks). */
  platformRateLimits?: Readonly<Record<string, number>> | false;
  /** Printer connect/status timeout, ms (default 5000). */
  printerTimeoutMs?: number;
  /** Label printer resolution (default 203 dpi). */
  printerDpi?: 203 | 300;
  /** The `usb` package's `usb` export for usb:// printers and discovery (default: loaded from the package; tests pass a fake). */
  usb?: UsbLibrary;
  /** Lists OS print queues for discovery (default: `lpstat` / the Windows spooler). */
  listQueues?: () => Promise<Array<{ queue: string; uri: string; description?: string }>>;
  /** Back-off of the outbox worker between background attempts. */
  outboxBackoff?: OutboxBackoff;
  /**
   * Diagnostics (one line each; never holds credentials or tokens). Default: none, except
   * that training files moved aside are reported on stderr.
   */
  log?: (line: string) => void;
}

/**
 * Options of the embedded training sandbox: its state kept in `stateFile`,
 * the spec's rate limits on (a packer trains against the platform's real
 * pace) and the demo account's past (invoices, COD lists, returns) seeded.
 */
function trainingSandboxOptions(stateFile: string): SandboxOptions {
  return { port: 0, stateFile, rateLimits: true, history: true };
}

/** Database file of a data folder for a platform mode. */
export function databaseFile(dataDir: string, mode: StationConfig['platform']['mode']): string {
  return path.join(dataDir, mode === 'sandbox' ? 'training.sqlite' : 'station.sqlite');
}

/** File the training sandbox keeps its state in (electron/sandbox/persist.ts), beside `training.sqlite`. */
export function trainingSandboxFile(dataDir: string): string {
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
function moveTrainingAside(dbFile: string, stateFile: string): string[] {
  const stamp = fileStamp(Date.now());
  const moved: string[] = [];
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, stateFile]) {
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

/**
 * Training mode's two halves, kept consistent: the station database and the
 * embedded sandbox with its state file. Both present: both loaded. Started
 * afresh, with both files moved aside and a log line naming them, when: the
 * database is not one (or cannot be migrated); it holds platform records but
 * the sandbox state is missing (e.g. a `training.sqlite` from a version that
 * kept the sandbox in memory); the sandbox state is there without the
 * database; or the sandbox cannot read or refuses its state file. A database
 * written by a newer station is refused as in platform mode (StoreError
 * `schema_too_new`).
 */
async function openTraining(dataDir: string, log: (line: string) => void): Promise<{ sandbox: Sandbox; store: Store }> {
  const dbFile = databaseFile(dataDir, 'sandbox');
  const stateFile = trainingSandboxFile(dataDir);
  const startAfresh = (why: string) => {
    const moved = moveTrainingAside(dbFile, stateFile);
    log(`training data: ${why}; starting a fresh training day${moved.length ? ` (moved aside: ${moved.join(', ')})` : ''}`);
  };

  const hadDb = fs.existsSync(dbFile);
  let store: Store;
  try {
    store = openStore(dbFile);
  } catch (e) {
    if (!isUnusableDatabase(e)) throw e;
    startAfresh(`${dbFile} cannot be used (${(e as Error).message})`);
    store = openStore(dbFile);
  }
  try {
    const hasState = fs.existsSync(stateFile);
    if (hasState && !hadDb) {
      startAfresh(`${stateFile} has no station database beside it`);
    } else if (!hasState && hasPlatformRecords(store)) {
      store.close();
      startAfresh(`${dbFile} holds shipments the sandbox has no state for (${stateFile} is missing)`);
      store = openStore(dbFile);
    }
    let sandbox: Sandbox;
    try {
      sandbox = await createSandbox(trainingSandboxOptions(stateFile));
    } catch (e) {
      // The sandbox names its state file in every load failure; anything else is not ours to repair.
      if (!(e instanceof Error && e.message.includes(stateFile))) throw e;
      store.close();
      startAfresh(`the sandbox refused its state (${e.message})`);
      store = openStore(dbFile);
      sandbox = await createSandbox(trainingSandboxOptions(stateFile));
    }
    return { sandbox, store };
  } catch (e) {
    store.close();
    throw e;
  }
}

/**
 * Builds the station core from a resolved configuration (see config.ts).
 *
 * @throws StoreError (`schema_too_new`, `not_a_database`, `migration_failed`) when the database cannot be used;
 *   PrinterError (`invalid_printer_uri`, `printer_unsupported`) for a configured printer that cannot be opened;
 *   Error when the data folder cannot be created or the training sandbox cannot start.
 */
export async function createStation(config: StationConfig, options: StationOptions = {}): Promise<Station> {
  const log = options.log ?? (() => undefined);
  fs.mkdirSync(config.dataDir, { recursive: true });

  let sandbox: Sandbox | undefined;
  let store: Store | undefined;
  let printer: PrinterService | undefined;
  try {
    let baseUrl: string, authUrl: string, clientId: string, clientSecret: string, accountName: string;
    let openedStore: Store;
    if (config.platform.mode === 'sandbox') {
      // Moving a packer's training files aside is never silent: without a log it goes to stderr.
      const warn = options.log ?? ((line: string) => process.stderr.write(`Shipping Station: ${line}\n`));
      ({ sandbox, store: openedStore } = await openTraining(config.dataDir, warn));
      store = openedStore;
      const demo = sandbox.clients[0];
      if (!demo) throw new Error('The training sandbox has no demo client');
      ({ baseUrl, authUrl } = sandbox);
      ({ clientId, clientSecret, name: accountName } = demo);
    } else {
      ({ baseUrl, authUrl, clientId, clientSecret } = config.platform);
      accountName = clientId;
      openedStore = openStore(databaseFile(config.dataDir, config.platform.mode));
      store = openedStore;
    }
    const platform: PlatformInfo = { mode: config.platform.mode, baseUrl, accountName };

    const events = createEmitter((e, name) => log(`event listener for ${name} failed: ${String(e)}`));
    const usbLoad = options.usb ? { usb: options.usb } : await loadUsbLibrary();
    const printerOpts = {
      ...(options.printerTimeoutMs ? { timeoutMs: options.printerTimeoutMs } : {}),
      dpi: options.printerDpi ?? 203,
      ...(usbLoad.usb ? { usb: usbLoad.usb } : {}),
      ...(usbLoad.error ? { usbLoadError: usbLoad.error } : {}),
    };
    const open = (uri: string) => openPrinter(uri, printerOpts);
    // The header follows the printer's state (hot-plug, faults seen by the job runner); bound once the context exists.
    let onPrinterStatus: () => void = () => undefined;
    const serviceOpts = {
      store: openedStore,
      events,
      open,
      dpi: printerOpts.dpi,
      log,
      onStatus: () => onPrinterStatus(),
      discover: () => discoverPrinters({ ...(usbLoad.usb ? { usb: usbLoad.usb } : {}), queues: options.listQueues ?? (() => listQueues()) }),
    };
    const saved = openedStore.settings.get(LabelPrinterSetting);
    const fallback = defaultPrinterUri(config.dataDir);
    const initialUri = config.printerUri ?? saved ?? fallback;
    try {
      printer = createPrinterService({ ...serviceOpts, uri: initialUri });
    } catch (e) {
      // A bad explicit choice is the user's to fix; a bad saved one must not stop the bench.
      if (config.printerUri !== undefined) throw e;
      log(`saved label printer ${initialUri} cannot be opened (${String(e)}); using ${fallback}`);
      printer = createPrinterService({ ...serviceOpts, uri: fallback });
    }

    const client = createPlatformClient({
      baseUrl,
      authUrl,
      clientId,
      clientSecret,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.platformTimeoutMs ? { timeoutMs: options.platformTimeoutMs } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.platformRateLimits !== undefined ? { rateLimits: options.platformRateLimits } : {}),
      onCall: (c: PlatformCallLog) => {
        if (c.status === 0 || c.status >= 400) log(`platform ${c.route} -> ${c.status || c.code} (attempt ${c.attempt}, ${c.durationMs} ms)`);
      },
    });

    const interrupted = openedStore.printJobs.failInterrupted();
    if (interrupted) log(`${interrupted} print job(s) were interrupted by a stop; they can be reprinted`);

    const base: ContextWithoutOutbox = {
      store: openedStore,
      client,
      platform,
      printer,
      events,
      version: pkg.version,
      now: Date.now,
      lastCredit: null,
    };
    const outbox = createOutboxWorker({
      store: openedStore,
      executors: createOutboxExecutors(base),
      ...(options.outboxBackoff ? { backoff: options.outboxBackoff } : {}),
      onRowChange: (row) => {
        emitOutboxChanged(base, row);
        // Training: the sandbox saves its state a moment after each call; a finished row saves it
        // at once, so a crash right after a shipment cannot leave it only on the station's side.
        if (row.state === 'done') sandbox?.flushState().catch((e: unknown) => log(`training sandbox state not saved: ${String(e)}`));
      },
      onError: (e, row) => log(`outbox${row ? ` row ${row.id} (${row.kind})` : ''}: ${e instanceof Error ? e.message : String(e)}`),
    });
    // The context object is the same one the executors hold: adding the worker completes it for them too.
    const ctx: StationContext = Object.assign(base, { outbox });
    const recovered = outbox.recover();
    if (recovered.length) log(`outbox: ${recovered.length} request(s) were in flight at the last stop; reconciling before sending again`);

    const stopConnection = client.onConnectionChange((state) => {
      emitAppChanged(ctx);
      if (state === 'online') outbox.kick();
    });
    outbox.start();
    onPrinterStatus = () => emitAppChanged(ctx);
    // Jobs left queued by the last run (or queued with their shipment) print by themselves, in order.
    printer.kick();

    const handlers = createHandlers(ctx);
    let closing: Promise<void> | undefined;
    return {
      handlers,
      events: { on: (name, listener) => events.on(name, listener) },
      info: platform,
      close() {
        closing ??= (async () => {
          stopConnection();
          await outbox.stop();
          await printer?.close().catch(() => undefined);
          openedStore.close();
          await sandbox?.close();
        })();
        return closing;
      },
    };
  } catch (e) {
    await printer?.close().catch(() => undefined);
    store?.close();
    await sandbox?.close().catch(() => undefined);
    throw e;
  }
}
