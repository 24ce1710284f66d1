/**
 * The station core's one composition root (DESIGN.md "The pieces"): wires
 * store, platform client, printer service, outbox worker and handlers from a
 * {@link StationSetup} that its caller has already resolved. Electron main and
 * the headless host reach it through `electron/shell/start.ts`, which picks
 * the platform: a configured one, or training mode (`electron/training/`,
 * which starts the embedded sandbox and opens its database). Both transports
 * call commands through {@link invokeCommand} and subscribe to `events`.
 *
 * `createStation(setup)`:
 * - uses the given database, or opens `station.sqlite`/`training.sqlite` in the data folder;
 * - opens the label printer: `printerUri`, else the saved setting, else
 *   `file://<dataDir>/labels`;
 * - recovers what a crash left behind (outbox rows `sending` are reconciled
 *   before being sent again; print jobs `printing` are failed, never reprinted
 *   on their own) and starts the outbox worker.
 */
import path from 'node:path';
import type { EventName, Handlers, StationEvents } from '../../shared/contract/commands';
import type { PlatformInfo } from '../../shared/contract/views';
import { environmentOnlySecrets } from './account/saved-account';
import type { PrinterService, SecretStore, WarehouseLink } from './common/services';
import { createWarehouseLink, type WarehouseLinkOptions } from './warehouse/link';
import { WarehouseConfigError, warehouseSecretKey, WarehouseUrlSetting } from './warehouse/connection';
import { StationNameSetting } from './packers/session';
import { defaultPrinterUri } from './config';
import { ensurePrivateDataDir } from './data-dir';
import { emitAppChanged } from './account/app';
import type { ContextWithoutOutbox, StationContext } from './common/context';
import { createEmitter } from './common/events';
import { createHandlers } from './commands';
import { emitOutboxChanged } from './outbox/handlers';
import { createOutboxExecutors, type ShipmentSettleOptions } from './executors';
import { createStationScale, type ScaleLibraries } from './scales/station-scale';
import { createPrinterService } from './printing/jobs/service';
import { LabelPrinterSetting } from './printing/jobs/service-api';
import { createOutboxWorker, type OutboxBackoff } from './outbox/worker';
import { createPlatformClient } from './platform/client';
import type { PlatformCallLog, RetryOptions } from './platform/client-api';
import { listQueues, openPrinter, type UsbLibrary } from './printing';
import { discoverPrinters } from './printing/transports/discover';
import { loadUsbLibrary } from './printing/transports/usb-load';
import { createSlipService } from './slips/service';
import { pendingIntegrity, startMaintenance, type MaintenanceOptions } from './storage/handlers';
import { rulesFollower } from './rules/handlers';
import { startAheadBuyer, type AheadBuyerOptions } from './shipping/ahead-buyer';
import { productsFollower } from './products/handlers';
import { openStore, type Store } from './store';

export { invokeCommand } from './common/invoke';

/** The running station core. */
export interface Station {
  /** Every command of the contract (call them through {@link invokeCommand} from a transport). */
  handlers: Handlers;
  /** Events for the screens; `on` returns the unsubscribe function. */
  events: { on<E extends EventName>(name: E, listener: (payload: StationEvents[E]) => void): () => void };
  /** Platform in use (mode, base URL, account name). */
  info: PlatformInfo;
  /** Stops the outbox worker, closes printer and store, then runs the setup's `release`. Safe to call twice. */
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
  /** The platform's rate window, ms (default the spec's minute and a margin); the account-budget bench's sped-up sandbox has a shorter one. */
  platformRateWindowMs?: number;
  /** Longest wait of a press for its slot of the account's budget, ms (default the client's). */
  platformMaxRateWaitMs?: number;
  /** Printer connect/status timeout, ms (default 5000). */
  printerTimeoutMs?: number;
  /** Wait before a slip printer that took nothing is tried again, ms (default 5000). */
  slipRetryMs?: number;
  /** The `usb` package's `usb` export for usb:// printers and discovery (default: loaded from the package; tests pass a fake). */
  usb?: UsbLibrary;
  /** Lists OS print queues for discovery (default: `lpstat` / the Windows spooler). */
  listQueues?: () => Promise<Array<{ queue: string; uri: string; description?: string }>>;
  /** Back-off of the outbox worker between background attempts. */
  outboxBackoff?: OutboxBackoff;
  /** Scale libraries (default: node-hid and serialport); tests and the fake scale of the headless host pass their own. */
  scale?: ScaleLibraries;
  /**
   * Settle window after a POST /shipments without an answer, and the look-up interval
   * inside it, ms (default 120000 and 5000; shipping/shipment-executor.ts).
   */
  shipmentSettle?: ShipmentSettleOptions;
  /** The warehouse link's heartbeat and activity intervals, ms (tests shorten them). */
  warehouse?: WarehouseTiming;
  /** The labels-ahead buyer's tick, lease and stale reservations (issue 43 item 3; tests shorten them); it runs when the bench has a warehouse. */
  labelsAhead?: Pick<AheadBuyerOptions, 'intervalMs' | 'leaseS' | 'staleAfterS' | 'perTick'> & {
    /** How long a packer's press waits for a label ahead still being bought or batched, ms (default 20000). */
    pressWaitMs?: number;
  };
  /** Diagnostics (one line each; never holds credentials or tokens). Default: none. */
  log?: (line: string) => void;
  /** Where Settings keeps client secrets (default: none, STATION_CLIENT_SECRET only). */
  secrets?: SecretStore;
  /** Idle upkeep of the data folder: check, retention, page reclaiming (handlers/storage.ts). */
  maintenance?: MaintenanceOptions;
}

/** The platform the station talks to, with its credentials, resolved by the caller. */
export interface PlatformAccess {
  /** `sandbox`: the embedded training sandbox; `platform`: a real one. Shown in the header. */
  mode: 'sandbox' | 'platform';
  /** `{base_url}`, e.g. `https://acme.example.com/api/2026-09` (spec: What the service does). */
  baseUrl: string;
  /** `{auth_url}`; the token endpoint is `{auth_url}/oauth/token`. */
  authUrl: string;
  clientId: string;
  /** Never logged nor sent to the renderer. */
  clientSecret: string;
  /** Account name shown in the header (the client id when the platform gives none). */
  accountName: string;
}

/** Everything {@link createStation} is built from; nothing in it is read from the environment. */
export interface StationSetup {
  /** Absolute data folder (created when missing): the database and the default label folder. */
  dataDir: string;
  platform: PlatformAccess;
  /** Label printer device URI chosen explicitly; undefined = the saved setting, else `file://<dataDir>/labels`. */
  printerUri?: string;
  /** Application version shown in the header (package.json). */
  version: string;
  /**
   * An already-open database, owned by the station from now on (closed by `close()` or when
   * creation fails). Default: `openStore(databaseFile(dataDir, platform.mode))`.
   */
  store?: Store;
  /** Called (not awaited) after each outbox row finishes `done`: training mode saves the sandbox state then. */
  afterSent?: () => Promise<void>;
  /** Runs last in `close()`, and when creation fails: releases what the caller started with the setup (the training sandbox). */
  release?: () => Promise<void>;
  /** The warehouse database this bench joins (`--warehouse`, `STATION_WAREHOUSE_URL`; issue 35); undefined: the bench works alone. */
  warehouseUrl?: string;
}

/** How often a bench heartbeats and sends its activity, ms (issue 35; defaults in warehouse/link.ts). */
type WarehouseTiming = Pick<WarehouseLinkOptions, 'heartbeatMs' | 'activityMs'>;

/**
 * The bench's warehouse link: the URL of the command line or environment, else the one saved in Settings
 * (its password from the OS secret store when one is saved there, else PGPASSWORD or ~/.pgpass). A URL the
 * link cannot use is said in the log and the bench starts alone (`warehouse.status` then answers not connected).
 */
function openWarehouse(given: string | undefined, store: Store, secrets: SecretStore, log: (line: string) => void, timing: WarehouseTiming, onChange: () => void): WarehouseLink {
  const benchName = (): string => store.settings.get(StationNameSetting);
  const saved = store.settings.get(WarehouseUrlSetting);
  const url = given ?? saved ?? undefined;
  try {
    let password: string | undefined;
    if (url !== undefined) {
      try {
        password = secrets.get(warehouseSecretKey(url)) ?? undefined;
      } catch (e) {
        // No secret store here: libpq's ways remain.
        if (!(e instanceof WarehouseConfigError)) log(`warehouse: the saved password cannot be read (${(e as Error).message}); trying PGPASSWORD or ~/.pgpass`);
      }
    }
    return createWarehouseLink({ url, password, source: given !== undefined ? 'command_line' : 'settings', store, benchName, log, onChange, ...timing });
  } catch (e) {
    log(`warehouse: ${(e as Error).message}; this bench works alone`);
    return createWarehouseLink({ url: undefined, store, benchName, log });
  }
}

/** Database file of a data folder for a platform mode: `training.sqlite` (the embedded sandbox) or `station.sqlite`. */
export function databaseFile(dataDir: string, mode: PlatformAccess['mode']): string {
  return path.join(dataDir, mode === 'sandbox' ? 'training.sqlite' : 'station.sqlite');
}

/** How far back the start-up looks for shipments whose label has no print job, ms (2 days). */
const UNPRINTED_LOOKBACK_MS = 2 * 86_400_000;

/**
 * At start: a shipment that has a label and no print job (left by a crash
 * before jobs were created with the shipment) gets its `auto` job, and every
 * job still queued is printed by the job runner, oldest first, in the background.
 */
function resumeLabelPrinting(ctx: StationContext, log: (line: string) => void): void {
  const { store, printer } = ctx;
  const since = new Date(ctx.now() - UNPRINTED_LOOKBACK_MS).toISOString();
  for (const l of store.printJobs.labelsWithoutJob(since)) {
    store.printJobs.ensureAuto(l.labelId, printer.uri);
    log(`label of ${l.trackingNumber} had no print job; queued`);
  }
  // The job runner prints every queued job (these and any left by the last run), oldest first, in the background.
  printer.kick();
}

/** Commands that do not end an idle moment: the header's own refresh and the Data settings. */
const PASSIVE_COMMANDS: ReadonlySet<string> = new Set(['app.info', 'storage.get']);

/** `handlers` with every packer's command marking activity, so upkeep waits for an idle moment. */
function touching(handlers: Handlers, maintenance: { touch(): void }): Handlers {
  const out: Record<string, (input: never) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(handlers) as Array<[string, (input: never) => Promise<unknown>]>) {
    out[name] = PASSIVE_COMMANDS.has(name)
      ? fn
      : (input) => {
          maintenance.touch();
          return fn(input);
        };
  }
  return out as unknown as Handlers;
}

/**
 * Builds the station core from a resolved setup.
 *
 * @throws StoreError (`schema_too_new`, `not_a_database`, `migration_failed`) when the database cannot be used;
 *   PrinterError (`invalid_printer_uri`, `printer_unsupported`) for a configured printer that cannot be opened;
 *   Error when the data folder cannot be created.
 */
export async function createStation(setup: StationSetup, options: StationOptions = {}): Promise<Station> {
  const log = options.log ?? (() => undefined);
  let store: Store | undefined = setup.store;
  let printer: PrinterService | undefined;
  try {
    // Created 0700 (or tightened) before anything is written in it; see data-dir.ts.
    const loosened = ensurePrivateDataDir(setup.dataDir);
    if (loosened.length) log(`data folder: made private (0700/0600): ${loosened.join(', ')}`);
    const { baseUrl, authUrl, clientId, clientSecret, accountName } = setup.platform;
    const openedStore: Store = store ?? openStore(databaseFile(setup.dataDir, setup.platform.mode));
    store = openedStore;
    const platform: PlatformInfo = { mode: setup.platform.mode, baseUrl, accountName };

    const events = createEmitter((e, name) => log(`event listener for ${name} failed: ${String(e)}`));
    const usbLoad = options.usb ? { usb: options.usb } : await loadUsbLibrary();
    const printerOpts = {
      // Label printer resolution.
      dpi: 203 as const,
      ...(options.printerTimeoutMs ? { timeoutMs: options.printerTimeoutMs } : {}),
      ...(usbLoad.usb ? { usb: usbLoad.usb } : {}),
      ...(usbLoad.error ? { usbLoadError: usbLoad.error } : {}),
    };
    const open = (uri: string) => openPrinter(uri, printerOpts);
    // The header follows the printer's state (hot-plug, faults seen by the job runner); bound once the context exists.
    let onPrinterStatus: () => void = () => undefined;
    // The warehouse coming or going shows in the header; bound once the context exists.
    let onWarehouseChange: () => void = () => undefined;
    // The A4 printer (the slip printer in A4 format) gets the rest of a PDF label's A4 page; bound once the slips exist.
    let a4Printer: () => string | null = () => null;
    const serviceOpts = {
      store: openedStore,
      events,
      open,
      dpi: printerOpts.dpi,
      log,
      onStatus: () => onPrinterStatus(),
      a4Printer: () => a4Printer(),
      discover: () => discoverPrinters({ ...(usbLoad.usb ? { usb: usbLoad.usb } : {}), queues: options.listQueues ?? (() => listQueues()) }),
    };
    const saved = openedStore.settings.get(LabelPrinterSetting);
    const fallback = defaultPrinterUri(setup.dataDir);
    const initialUri = setup.printerUri ?? saved ?? fallback;
    try {
      printer = createPrinterService({ ...serviceOpts, uri: initialUri });
    } catch (e) {
      // A bad explicit choice is the user's to fix; a bad saved one must not stop the bench.
      if (setup.printerUri !== undefined) throw e;
      log(`saved label printer ${initialUri} cannot be opened (${String(e)}); using ${fallback}`);
      printer = createPrinterService({ ...serviceOpts, uri: fallback });
    }

    // The warehouse link is opened with the context below; the client asks it for the account's budget then.
    let warehouseLink: WarehouseLink | null = null;
    const client = createPlatformClient({
      sharedBudget: () => warehouseLink?.budget() ?? null,
      baseUrl,
      authUrl,
      clientId,
      clientSecret,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.platformTimeoutMs ? { timeoutMs: options.platformTimeoutMs } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.platformRateLimits !== undefined ? { rateLimits: options.platformRateLimits } : {}),
      ...(options.platformRateWindowMs !== undefined ? { rateWindowMs: options.platformRateWindowMs } : {}),
      ...(options.platformMaxRateWaitMs !== undefined ? { maxRateWaitMs: options.platformMaxRateWaitMs } : {}),
      // The windows survive a restart, so a restarted station does not walk into 429s (issue 7).
      rateWindows: openedStore.rateWindows,
      onCall: (c: PlatformCallLog) => {
        if (c.status === 0 || c.status >= 400) log(`platform ${c.route} -> ${c.status || c.code} (attempt ${c.attempt}, ${c.durationMs} ms)`);
      },
    });

    // Databases created just now (and their -wal/-shm) get 0600 too.
    ensurePrivateDataDir(setup.dataDir);

    const interrupted = openedStore.printJobs.failInterrupted();
    if (interrupted) log(`${interrupted} print job(s) were interrupted by a stop; they can be reprinted`);

    const secrets = options.secrets ?? environmentOnlySecrets('no secret store was given to this station');
    const stopping = new AbortController();
    const base: ContextWithoutOutbox = {
      stopping: stopping.signal,
      ...(options.labelsAhead?.pressWaitMs !== undefined ? { aheadWaitMs: options.labelsAhead.pressWaitMs } : {}),
      store: openedStore,
      client,
      platform,
      printer,
      scale: createStationScale(openedStore.settings, events, options.scale),
      slips: createSlipService({ store: openedStore, events, open, log, ...(options.slipRetryMs ? { retryMs: options.slipRetryMs } : {}) }),
      events,
      version: setup.version,
      now: Date.now,
      lastCredit: null,
      dataDir: setup.dataDir,
      secrets,
      integrity: pendingIntegrity(openedStore.uncleanStop),
      warehouse: (warehouseLink = openWarehouse(setup.warehouseUrl, openedStore, secrets, log, options.warehouse ?? {}, () => onWarehouseChange())),
    };
    if (openedStore.compactedMs !== null) log(`database switched to incremental vacuum once (pruned past the retention, then VACUUM): ${openedStore.compactedMs} ms`);
    const outbox = createOutboxWorker({
      store: openedStore,
      executors: createOutboxExecutors(base, options.shipmentSettle),
      ...(options.outboxBackoff ? { backoff: options.outboxBackoff } : {}),
      onRowChange: (row) => {
        emitOutboxChanged(base, row);
        // Training: the sandbox saves its state a moment after each call; a finished row saves it
        // at once (setup.afterSent), so a crash right after a shipment cannot leave it only on the station's side.
        if (row.state === 'done') setup.afterSent?.().catch((e: unknown) => log(`after a finished request: ${String(e)}`));
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
    onWarehouseChange = () => emitAppChanged(ctx);
    a4Printer = () => {
      const s = ctx.slips.settings();
      return s.format === 'a4' ? s.printerUri : null;
    };
    resumeLabelPrinting(ctx, log);
    ctx.slips.kick(); // slips left queued at the last stop

    const maintenance = startMaintenance(ctx, { ...options.maintenance, log });
    // The shared rules and product files (issue 24): looked at now and every few seconds.
    const followed = [rulesFollower(ctx), productsFollower(ctx)];
    for (const f of followed) {
      f.start();
      void f.check().catch(() => undefined);
    }
    // Labels ahead (issue 43 item 3): the bench that holds the warehouse's lease buys them in the minutes left free.
    const aheadBuyer = ctx.warehouse.configured ? startAheadBuyer(ctx, { ...options.labelsAhead, log }) : null;
    const handlers = touching(createHandlers(ctx), maintenance);
    let closing: Promise<void> | undefined;
    return {
      handlers,
      events: { on: (name, listener) => events.on(name, listener) },
      info: platform,
      close() {
        closing ??= (async () => {
          stopping.abort();
          await aheadBuyer?.stop();
          stopConnection();
          await maintenance.stop();
          await Promise.all(followed.map((f) => f.stop()));
          await outbox.stop();
          await ctx.warehouse.close();
          ctx.scale.close();
          await ctx.slips.close();
          await printer?.close().catch(() => undefined);
          openedStore.close();
          await setup.release?.();
        })();
        return closing;
      },
    };
  } catch (e) {
    await printer?.close().catch(() => undefined);
    store?.close();
    await setup.release?.().catch(() => undefined);
    throw e;
  }
}
