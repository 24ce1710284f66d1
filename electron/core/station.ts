/**
 * The station core, built once by each transport (DESIGN.md "The pieces"):
 * Electron main binds it to IPC, the headless host to loopback HTTP. Both call
 * commands through {@link invokeCommand} and subscribe to `events`.
 *
 * `createStation(config)`:
 * - training mode (no platform configured): starts the sandbox in-process on
 *   a free port and signs in with its first demo client; the data lives in
 *   `training.sqlite`, started afresh each time (the sandbox keeps its records
 *   in memory, so older training shipments would not exist on it);
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
import { createSandbox, type Sandbox } from '../sandbox';
import { defaultPrinterUri, type StationConfig } from './config';
import { emitAppChanged } from './handlers/app';
import type { ContextWithoutOutbox, StationContext } from './handlers/context';
import { createEmitter } from './handlers/events';
import { createHandlers } from './handlers/index';
import { createOutboxExecutors, emitOutboxChanged } from './handlers/outbox';
import { LabelPrinterSetting, createPrinterService, type PrinterService } from './handlers/printing';
import { createOutboxWorker, type OutboxBackoff } from './outbox/worker';
import { createPlatformClient, type PlatformCallLog, type RetryOptions } from './platform/client';
import { openPrinter } from './printers';
import { openStore, type Store } from './store';

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
  /** Back-off of the outbox worker between background attempts. */
  outboxBackoff?: OutboxBackoff;
  /** Diagnostics (one line each; never holds credentials or tokens). Default: none. */
  log?: (line: string) => void;
}

/** Database file of a data folder for a platform mode. */
export function databaseFile(dataDir: string, mode: StationConfig['platform']['mode']): string {
  return path.join(dataDir, mode === 'sandbox' ? 'training.sqlite' : 'station.sqlite');
}

function removeTrainingDatabase(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
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
    if (config.platform.mode === 'sandbox') {
      sandbox = await createSandbox({ port: 0 });
      const demo = sandbox.clients[0];
      if (!demo) throw new Error('The training sandbox has no demo client');
      ({ baseUrl, authUrl } = sandbox);
      ({ clientId, clientSecret, name: accountName } = demo);
    } else {
      ({ baseUrl, authUrl, clientId, clientSecret } = config.platform);
      accountName = clientId;
    }
    const platform: PlatformInfo = { mode: config.platform.mode, baseUrl, accountName };

    const dbFile = databaseFile(config.dataDir, config.platform.mode);
    if (config.platform.mode === 'sandbox') removeTrainingDatabase(dbFile);
    const openedStore = openStore(dbFile);
    store = openedStore;

    const events = createEmitter((e, name) => log(`event listener for ${name} failed: ${String(e)}`));
    const printerOpts = { ...(options.printerTimeoutMs ? { timeoutMs: options.printerTimeoutMs } : {}), dpi: options.printerDpi ?? 203 };
    const open = (uri: string) => openPrinter(uri, printerOpts);
    const saved = openedStore.settings.get(LabelPrinterSetting);
    const fallback = defaultPrinterUri(config.dataDir);
    const initialUri = config.printerUri ?? saved ?? fallback;
    try {
      printer = createPrinterService({ store: openedStore, events, uri: initialUri, open, dpi: printerOpts.dpi });
    } catch (e) {
      // A bad explicit choice is the user's to fix; a bad saved one must not stop the bench.
      if (config.printerUri !== undefined) throw e;
      log(`saved label printer ${initialUri} cannot be opened (${String(e)}); using ${fallback}`);
      printer = createPrinterService({ store: openedStore, events, uri: fallback, open, dpi: printerOpts.dpi });
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
      onRowChange: (row) => emitOutboxChanged(base, row),
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
