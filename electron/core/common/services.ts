/**
 * The narrow interfaces of the station's services that handlers of several
 * domains reach through the context (common/context.ts): the label printer
 * service (implemented by printing/jobs), the packing-slip service (slips/),
 * the scale (scales/), the outbox's sender (outbox/) and the secret store
 * (account/, with back-ends in the shells). Declared here, below every
 * domain, so that `common/` depends on no domain and a domain that uses a
 * service does not depend on the domain that implements it (ARCHITECTURE.md
 * "Domains of the core").
 */
import type { SharedRateBudget } from '../platform/rate-limit';
import type { LabelsAheadStore } from './labels-ahead';
import type { SlipSettings, SlipJobView } from '../../../shared/contract/slips';
import type { DiscoveredPrinterView, LabelPreviewView, PrintJobView, PrinterView, ScaleConfigView, ScaleView, StationText } from '../../../shared/contract/views';
import type { PrinterProfileView } from '../../../shared/contract/printer-profile';
import type { PrintRequester, SlipJobRecord } from '../store';
import type { WarehouseCloseView, WarehouseStatusView } from '../../../shared/contract/warehouse';

/** Outcome of printing one label: the job row, and the error when it did not print (or why it waits). */
export interface PrintOutcome {
  job: PrintJobView | null;
  /** `text`: the message as a core text when the station worded it (issue 25). */
  error: { code: string; message: string; text?: StationText } | null;
}

/** The printer in use, its job runner and what can be done with it. */
export interface PrinterService {
  /** Device URI of the printer in use. */
  readonly uri: string;
  /** Asks the printer for its status (`~HS` for socket printers); at most `timeoutMs` (default: the printer's own timeout). */
  view(timeoutMs?: number): Promise<PrinterView>;
  /** Last status read, without asking the printer. */
  cached(): PrinterView;
  /**
   * Sends ZPL as it is to the printer in use, outside the job queue: a batch of labels bought ahead (issue 43
   * item 5), which are no shipment of this bench yet. @throws PrinterError when the printer does not take it.
   */
  printRaw(zpl: Uint8Array, jobName: string): Promise<void>;
  /**
   * Probes the printer (status, at most `probeMs`), then switches to it,
   * closes the old one and saves the choice in settings. Jobs still waiting
   * move to the new printer.
   * @throws PrinterError `invalid_printer_uri` / `printer_unsupported`; `printer_error` naming the URI when the
   *   probe times out or the folder is not writable; `printer_permission` (nothing changes).
   */
  setUri(uri: string): Promise<PrinterView>;
  /**
   * Prints the newest stored ZPL label of the shipment (else its PDF label,
   * rasterised to `^GFA` for the printer's dpi, one label per page): queues a job (or
   * joins the label's waiting one, see module doc) and waits until it is
   * printed, failed, or waiting for the printer (then `error` says why), at
   * most `waitMs`. Never throws for a printer failure. `target.printerUri`
   * (an `auto` print of a shipment a rule sent to its own printer, issue 24):
   * the job is pinned to that device URI and prints there with its profile; a
   * reprint of a label whose first print was pinned goes to the same printer. `target.longLabelPrinterUri`
   * (issue 36): the printer a rule names for the label when it is longer than the stock; without one such a
   * label is held (`error.code` `label_too_long`, the sentence saying what to load).
   * @throws StationError `not_found_locally` when no label is stored for the tracking number.
   */
  printLabel(trackingNumber: string, requestedBy: PrintRequester, target?: { printerUri?: string | undefined; longLabelPrinterUri?: string | undefined }): Promise<PrintOutcome>;
  /**
   * Prints a held label (too long for the stock, issue 36) shrunk anyway, at the packer's word: the job goes
   * back to the queue allowed to shrink, and its printed note says so. Waits like {@link PrinterService.printLabel}.
   * @throws StationError `not_found_locally` (no such job), `invalid_state` (the job is not held).
   */
  printShrunk(id: number): Promise<PrintOutcome>;
  /**
   * Printers to choose from: what `discover` finds (USB, OS queues), printers
   * chosen before, and the one in use (first), without duplicates.
   */
  discover(): Promise<DiscoveredPrinterView[]>;
  /**
   * What the printer in use will print for a stored label: the very bytes a job would send
   * (`zplFor`: adapted to the printer's profile, a PDF-only label rasterised), rendered back to PNG
   * by zpl-renderer-js at the profile's dpi and label size (else the station's dpi, 4 x 6 in).
   * @throws StationError `not_found_locally` (no label stored), `printer_error` (the ZPL engine refused it).
   */
  preview(trackingNumber: string): Promise<LabelPreviewView>;
  /** Jobs queued, printing or held, oldest first (the Print screen's waiting list). */
  pending(): PrintJobView[];
  /** Cancels a waiting or held job (`queued`/`held` -> `failed` "cancelled by the packer"). @throws StationError `invalid_state`/`not_found_locally`. */
  cancel(id: number): PrintJobView;
  /** The saved profile of a printer (default: the one in use); `profile` null when none is saved. */
  getProfile(uri?: string): PrinterProfileView;
  /**
   * Validates and saves a printer's profile (default: the one in use); jobs printed from now on follow it, and
   * labels held as too long for that printer's stock are tried again on it.
   * @throws StationError `invalid_input` whose message and details name the bad field; nothing is saved.
   */
  setProfile(profile: unknown, uri?: string): PrinterProfileView;
  /** Looks for queued jobs and prints them (start-up, after a job row was added elsewhere). */
  kick(): void;
  /** Resolves when the runner has nothing more to do right now (tests, bench). */
  idle(): Promise<void>;
  /** Stops the runner and closes the printer. */
  close(): Promise<void>;
}

/** The slip service (see file comment). */
export interface SlipService {
  settings(): SlipSettings;
  /**
   * Saves the settings; the printer URI must be a device URI the station can open.
   * @throws StationError `invalid_input` with details keyed `printerUri` (or the schema's field).
   */
  setSettings(input: SlipSettings): SlipSettings;
  /**
   * In the shipment's transaction: the order's `auto` slip for this shipment, when the
   * station prints slips with the label and has a slip printer; null otherwise.
   */
  queueWithLabel(orderId: number | undefined, trackingNumber: string): SlipJobRecord | null;
  /**
   * A slip the packer asked for (Alt+K): queued for the slip printer, printed by the runner.
   * @throws StationError `not_found` (no such order), `invalid_state` (no slip printer chosen).
   */
  request(orderId: number): SlipJobView;
  /** Slip jobs of an order (all when undefined), newest first. */
  list(orderId?: number): SlipJobView[];
  /** Starts the runner (after a new job, or at start-up for slips left queued). */
  kick(): void;
  /** Resolves when the runner has nothing left to do now (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** The station's scale as the handlers use it (scales/station-scale.ts builds it). */
export interface StationScale {
  /** The scale's state for the screens: saved choice, connection, last reading, problem. */
  view(): ScaleView;
  /** Opens the scale of a new saved choice (the old one is closed); an unknown port is no error (`problem` says it). */
  configure(config: ScaleConfigView): void;
  close(): void;
}

/** What handlers ask of the outbox worker (outbox/worker.ts): send a row now, or drain soon. */
export interface OutboxSender {
  /**
   * Sends row `id` now (rows queued before it go first) and resolves with its
   * executor's outcome. Rejects with the platform's error (PlatformError) or
   * an OutboxAttention; on a transient failure the row stays queued.
   */
  process<O = unknown>(id: number): Promise<O>;
  /** Asks for a background drain soon (e.g. the connection came back). */
  kick(): void;
}

/** Where secrets are kept. `get`/`set` are synchronous (both back-ends are). */
export interface SecretStore {
  /** Shown in Settings: "Electron safeStorage (gnome_libsecret)", "OS keyring", … */
  readonly label: string;
  /** The secret saved for `account`, or null. @throws Error when the store cannot be read. */
  get(account: string): string | null;
  /** Saves `secret` for `account`. @throws SecretStoreUnavailable when nothing can be saved here. */
  set(account: string, secret: string): void;
  /** Removes the secret of `account` (no error when there is none). */
  delete(account: string): void;
}


/**
 * A claim's outcome for the handlers (issue 35): this bench packs the order, or another one does (its name,
 * its packer, since when, ISO 8601). `offline`: the warehouse cannot be asked and this bench holds no claim
 * on the order, so it must not ship it.
 */
export type ClaimResult =
  | { won: true }
  | { won: false; benchName: string; packer: string | null; since: string | null; offline: boolean; shipped?: undefined }
  /** The order is shipped in the warehouse already (issue 42 item 7): by which bench, when (ISO 8601), its tracking number. */
  | { won: false; shipped: { benchName: string; at: string; trackingNumber: string | null; fromPlatform: boolean }; offline: false };

/**
 * A change of one shared setting (issue 35 item 2), keyed for the whole warehouse with {@link sharedKey};
 * `value` the setting's JSON value, null: removed.
 */
export interface SharedChange {
  key: string;
  value: unknown;
}

/** The warehouse keys of what the benches share: settings by their setting key, products by SKU, packers by uid. */
export const sharedKey = {
  setting: (settingKey: string): string => `setting:${settingKey}`,
  product: (sku: string): string => `product:${sku}`,
  packer: (uid: string): string => `packer:${uid}`,
};

/** What a pull of shared settings brought to the bench's copy: the setting keys, how many products and packers, the keys skipped. */
export interface PulledShared {
  settings: string[];
  products: number;
  packers: number;
  /** Keys whose value this station cannot read (a newer bench's); skipped, said in the log. */
  skipped: string[];
}

/**
 * What a bench shows the supervisor's page, sent with each heartbeat (warehouse table `benches.status`):
 * the packer signed in, the order being packed (its warehouse key), the label printer's state and name,
 * the requests waiting in its queue and those refused (needing the packer), and its last label.
 */
export interface BenchStatus {
  packer: string | null;
  order: string | null;
  printer: { state: string; name: string };
  queue: number;
  refused: number;
  /** Labels held as longer than the labels loaded (issue 36), waiting for the packer; absent from benches before it: 0. */
  labelsHeld: number;
  lastLabel: { trackingNumber: string; at: string } | null;
  /**
   * The warehouse's latest refusals of this bench's writes (issue 42 item 1: a row-level rule or a constraint
   * said no), newest last, at most 10: when (ISO 8601), what the bench tried (`ship #1047`, `activity`), and the
   * database's sentence. Absent from benches before it: none.
   */
  warehouseRefusals?: WarehouseRefusal[];
}

/** One write the warehouse database refused (SQLSTATE class 23 or 42501): an answer, not a lost connection. */
export interface WarehouseRefusal {
  /** When, ISO 8601. */
  at: string;
  /** What the bench tried, e.g. `ship #1047`, `activity`, `claim #1048`. */
  what: string;
  /** The database's message, e.g. "new row violates row-level security policy for table \"orders\"". */
  message: string;
  /** The SQLSTATE, e.g. `42501`. */
  code: string;
}

/** What the link asks of the rest of the bench, bound once the handlers exist (commands.ts). */
export interface WarehouseBenchHooks {
  /** The bench's state now, for the supervisor's page (without `order`: the link knows its claims). */
  benchStatus(): Omit<BenchStatus, 'order'>;
  /** The packer signed in now (named with claims and shared changes), or null. */
  packerName(): string | null;
  /** Shared settings from the warehouse were applied to the bench's copy: the domains forget caches, the screens reload. */
  onShared(pulled: PulledShared): void;
  /** Orders from the warehouse were added to the bench's list or marked shipped there (counts): the screens reload it. */
  onOrders?(pulled: { changed: number; shipped: number }): void;
  /** The platform's events applied at the warehouse (issue 44) reached the bench: stock events read, shipments whose status changed. */
  onPlatformEvents?(changes: { stocks: number; shipments: string[] }): void;
  /** The warehouse may have a batch of labels ahead for this bench to print (NOTIFY `warehouse_batches`, each heartbeat): issue 43 item 5. */
  onBatches?(): void;
}

/** A close of the day for the whole warehouse: when, and how many shipments it closed. */
export interface WarehouseClose {
  at: string;
  shipments: number;
}

/** A close of the day for the whole warehouse asked at this bench with the supervisor's PIN (shared/contract/warehouse.ts). */
export type WarehouseCloseDone = WarehouseCloseView;

/** The bench's link to its warehouse (warehouse/link.ts); a station without one works alone and wins every claim. */
export interface WarehouseLink {
  /** Whether the bench joins a warehouse (a URL was given). */
  readonly configured: boolean;
  /** Where the warehouse URL came from: the command line or environment, Settings, or none (alone). */
  readonly source: 'command_line' | 'settings' | 'none';
  /** The URL joined (no password), or null when alone. */
  readonly url: string | null;
  /** `warehouse.status`: connected or not, since when, this bench. */
  status(): WarehouseStatusView;
  /** Claims an order (its key for the whole warehouse: shop and number) for this bench; never throws. */
  claim(orderKey: string, packer: string | null): Promise<ClaimResult>;
  /** Lets the order go (shipped, or the packer moved on); never throws. */
  release(orderKey: string): Promise<void>;
  /**
   * Makes shared settings the warehouse's, before the caller writes them locally: every bench gets them
   * within 2 s. Without a warehouse it does nothing (the caller's local write is the whole save).
   * `mode` 'check' (an edit: refused when another bench changed a key since this bench last heard) or
   * 'force' (an import: the last word wins). `share([])` only checks that shared settings can be changed now.
   * @throws StationError `warehouse_offline` while the warehouse cannot be reached (shared settings are
   *   read-only then), `changed_elsewhere` naming the bench, packer and time of the other change (the
   *   bench has reloaded it)
   */
  share(changes: readonly SharedChange[], mode?: 'check' | 'force'): Promise<void>;
  /**
   * The bench's orders changed (an import, a shipment): what changed goes up to the warehouse now, in the
   * background (issue 35 item 3; also at each heartbeat and when the warehouse comes back, so nothing changed
   * while it was away is lost). Never throws; without a warehouse it does nothing.
   */
  shareOrders(): void;
  /** Binds the hooks (once the handlers exist). */
  /**
   * The account's per-minute limits kept for every bench of the warehouse (issue 43 item 1), for the platform
   * client; null for a bench alone (it keeps its own windows).
   */
  budget(): SharedRateBudget | null;
  /**
   * The warehouse's labels ahead (issue 43 items 3 and 5, warehouse/ahead.ts) while it answers; null for a bench
   * alone or while the warehouse is away (a packer's ship then goes the ordinary way).
   */
  labelsAhead(): LabelsAheadStore | null;
  bind(hooks: WarehouseBenchHooks): void;
  /** One line in the station's log (labels ahead cancelled, refused, not ready: issue 43 item 3). */
  log(line: string): void;
  /** The warehouse's last close of the day (issue 43 item 4); null alone, away, or never closed. Never throws. */
  lastClose(): Promise<WarehouseClose | null>;
  /**
   * Asks the supervisor's program to close the day for the whole warehouse (issue 43 item 4) and waits for its
   * answer, at most `timeoutMs`.
   * @throws StationError `warehouse_offline` (the warehouse does not answer), `timeout` (the supervisor's program
   *   did not answer: it is not running), `invalid_state` (it refused: its words; a bench alone)
   */
  requestClose(packer: string | null, timeoutMs?: number): Promise<WarehouseCloseDone>;
  close(): Promise<void>;
}
