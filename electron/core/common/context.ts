/**
 * What every handler module works with: the store, the platform client, the
 * printer, the outbox worker and the event emitter, built once by
 * `createStation()` (electron/core/station.ts). The services are reached
 * through their narrow interfaces (./services.ts), so `common/` uses no domain.
 */
import type { IntegrityView, PlatformInfo } from '../../../shared/contract/views';
import type { CreditBalance } from '../../../shared/platform/resources';
import type { PlatformClient } from '../platform/client-api';
import type { Store } from '../store';
import type { StationEmitter } from './events';
import type { OutboxSender, PrinterService, SecretStore, SlipService, StationScale, WarehouseLink } from './services';

/** Shared state of the running station. */
export interface StationContext {
  store: Store;
  client: PlatformClient;
  /** Which platform (sandbox or real) and account. */
  platform: PlatformInfo;
  printer: PrinterService;
  /** The bench scale (none plugged is a normal state). */
  scale: StationScale;
  /** The packing-slip printer and its jobs (issue 11). */
  slips: SlipService;
  /** Sends the outbox's rows (the worker of outbox/worker.ts). */
  outbox: OutboxSender;
  /** The warehouse this bench belongs to (issue 35); a station alone wins every claim. */
  warehouse: WarehouseLink;
  events: StationEmitter;
  /** Application version shown in the header. */
  version: string;
  /** Clock (ms since the epoch) for generated references and dates. */
  now: () => number;
  /** Last credit balance read from GET /credit, for the header when offline. */
  lastCredit: CreditBalance | null;
  /** Data folder (Settings saves the platform account there). */
  dataDir: string;
  /** Where Settings keeps client secrets (safeStorage, OS keyring, or none). */
  secrets: SecretStore;
  /** The background check of the database file (handlers/storage.ts), shown in the header and Settings. */
  integrity: IntegrityView;
  /**
   * Aborted when the station starts to close: long work that is not a slice of
   * the event loop (an import's parse in its worker thread) stops. Absent in
   * contexts built by hand (tests): nothing is stopped then.
   */
  stopping?: AbortSignal;
  /**
   * How long a packer's press waits for a label ahead still being bought or waiting in a batch, ms (default 20000,
   * shipping/ahead-use.ts; tests shorten it).
   */
  aheadWaitMs?: number;
}

/** The context before the outbox worker exists (the worker's executors need it). */
export type ContextWithoutOutbox = Omit<StationContext, 'outbox'>;
