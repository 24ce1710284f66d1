/**
 * View types the station sends to the screens. They are the station's own
 * shapes (built from the SQLite store and platform responses), not wire types.
 */
import type { WarehouseStatusView } from './warehouse';
import type { FieldErrors, Money, Status } from '../platform/common';
import type { CreditBalance } from '../platform/resources';
import type { ScaleStatus } from '../domain/scale-weight';

/** Which platform the station talks to: the embedded sandbox (training mode) or a real one. */
export interface PlatformInfo {
  mode: 'sandbox' | 'platform';
  /** `{base_url}` of the API, e.g. `http://127.0.0.1:5123/api/2026-09`. */
  baseUrl: string;
  /** Client name shown in the header (sandbox demo account name, or the configured client id). */
  accountName: string;
}

/** Connection state shown in the header: `online` after the last call succeeded. */
type ConnectionState = 'online' | 'offline' | 'unknown';

/** Printer state as last read by `~HS` / the folder printer check. */
export interface PrinterView {
  uri: string;
  /** Human name (e.g. "Zebra on 10.0.0.5:9100", "Folder /tmp/labels"), in English. */
  name: string;
  /** The name's parts, for the screens to say it in the bench's language (`printerName.<kind>` with `what`); absent when the URI does not parse. */
  nameParts?: PrinterNameParts;
  state: 'ready' | 'paper_out' | 'head_open' | 'paused' | 'error' | 'unreachable' | 'unknown';
  /** The state in words, in English (logs; a printer's own answer such as a socket error). */
  detail: string;
  /** The detail as a text of the locale files (`printerDetail.<key>`, or a core text `coreText.<key>` of shared/contract/core-text.ts, with `values`), when the station made it; the screens then show that instead of `detail`. */
  detailText?: StationText;
}

/** What a printer's name is made of: its kind and what it is (`10.0.0.5:9100`, `/tmp/labels`, `Zebra ZD421 (D2J19…)`, a queue's name). */
export interface PrinterNameParts {
  kind: 'network' | 'usb' | 'queue' | 'folder';
  what: string;
}

/**
 * A text the station made, named by its key in the locale files (the screens' `t(key, values)`), so every
 * bench says it in its own language; a number among the values is written the bench's way (`101,6`).
 */
export interface StationText {
  key: string;
  values?: Record<string, string | number>;
}

/** A printer found by `printers.discover`. */
export interface DiscoveredPrinterView {
  /** Device URI to pass to `printers.set` (`usb://Zebra/ZD421?serial=…`, `printer:Zebra_ZD421`, `socket://…`). */
  uri: string;
  /** Human name, e.g. "Zebra ZD421 (USB, D2J193601234)", in English. */
  name: string;
  /** The name's parts for the screens (`printerName.<kind>` with `what`), when the station words it itself. */
  nameParts?: PrinterNameParts;
  /** `usb`: attached now; `queue`: an OS print queue; `network`: a network printer typed before; `folder`: a label folder. */
  kind: 'usb' | 'queue' | 'network' | 'folder';
  /** True for the printer in use. */
  current: boolean;
}

/** What the header shows. */
export interface AppInfo {
  platform: PlatformInfo;
  connection: ConnectionState;
  credit: CreditBalance | null;
  printer: PrinterView;
  /** Outbox rows not yet done (queued, sending, needs attention). */
  pendingOutbox: number;
  version: string;
  /** The background check of the database file (issue 27): not yet run, running, or its result. */
  integrity: IntegrityView;
  /** The warehouse this bench joins (issue 35), when it joins one: connected or since when it is away. */
  warehouse?: WarehouseStatusView;
}

/**
 * The whole-file check of the station database (`PRAGMA quick_check`), run in
 * the background in an idle moment, or at once after an unclean stop:
 * - `pending`: not run yet in this session; `running`;
 * - `ok`; `damaged`: SQLite found damage (`problems`, first 20 lines): the
 *   bench still works, but the file should be restored from a copy soon;
 * - `failed`: the check could not run (`problems[0]` says why).
 * `checkedAt` ISO 8601 and `ms` the check's wall time, once it has run;
 * `afterUncleanStop` when the last stop was not clean (a WAL file was left).
 */
export interface IntegrityView {
  state: 'pending' | 'running' | 'ok' | 'damaged' | 'failed';
  checkedAt: string | null;
  ms: number | null;
  problems: string[];
  afterUncleanStop?: boolean;
}

/**
 * The data folder at a glance (Settings > Data): sizes in bytes (the whole
 * folder, the database with its WAL), the label bytes kept and since when,
 * how long labels and done queue rows are kept (days), and the last check.
 */
export interface StorageView {
  dataDir: string;
  folderBytes: number;
  databaseBytes: number;
  /** Pages SQLite holds free, in bytes, not yet given back (given back in idle moments). */
  freeBytes: number;
  labelsKept: number;
  labelBytes: number;
  /** `created_at` of the oldest label still holding its bytes, or null. */
  oldestLabelKept: string | null;
  retentionDays: number;
  integrity: IntegrityView;
}

/** A print job row (DESIGN.md "Print jobs are rows too"). */
/**
 * What the label printer in use will print for a stored label (`labels.preview`): the bytes a print
 * job would send (adapted to the printer's profile; a PDF-only label rasterised to `^GFA`), rendered
 * back to PNG by an independent ZPL engine at the printer's resolution and label size.
 */
export interface LabelPreviewView {
  trackingNumber: string;
  printerUri: string;
  /** Resolution rendered at, dpi: the profile's, else the station's. */
  dpi: 203 | 300 | 600;
  /** Label size, mm: the profile's, else 4 x 6 in (101.6 x 152.4). */
  widthMm: number;
  heightMm: number;
  /** Labels in the job (a carrier's return label is a second one). */
  labelCount: number;
  /** PNG images (8-bit grey), base64, one per label, at most 4. */
  pngs: string[];
  /**
   * How carrier ZPL was adapted (issue 23), one sentence: the dpi it was made for and the scale,
   * the ink box against the stock, any move or shrink; for a PDF page that is not label-sized, where its
   * label was found and what else the page holds; null for a label-sized PDF.
   */
  adaptation: string | null;
  /** The same notes as texts of the locale files (`labelPreview.note.<key>`), for the bench's language; empty when `adaptation` is null. */
  adaptationNotes: StationText[];
  /**
   * The ink of carrier ZPL as printed (issue 23): its box in mm from the stock's top-left corner,
   * drawn over the preview against the stock; null when it was not measured (a label whose size
   * fits the stock prints without being measured, and PDF labels).
   */
  inkMm: { x: number; y: number; width: number; height: number } | null;
  /**
   * What the label printer leaves out of a PDF label (issue 23 item 4): the pages that hold more than the
   * label (a second label, the sender's or a waybill copy, a customs form) and where they go; null when
   * every page is the label.
   */
  pageRest: PageRestView | null;
}

/**
 * The rest of a PDF label's pages (LabelPreviewView.pageRest): the parts beside the label, page by page
 * (their ink boxes in mm as they lie on the page), and the A4 printer the whole pages go to with every
 * print of the label, or null when none is set (Settings, Packing slips, format A4).
 */
export interface PageRestView {
  parts: Array<{ page: number; width: number; height: number }>;
  /** Pages (1-based) sent to the A4 printer. */
  pages: number[];
  a4Printer: { uri: string; name: string; nameParts?: PrinterNameParts } | null;
}

export interface PrintJobView {
  id: number;
  trackingNumber: string;
  printerUri: string;
  /** `held`: longer than the labels loaded (issue 36); `lastError` says what to load; `printJobs.printShrunk` prints it anyway. */
  state: 'queued' | 'printing' | 'printed' | 'failed' | 'held';
  attempts: number;
  lastError: string | null;
  /**
   * `lastError` as a core text (`coreText.<key>` in the locales, shared/contract/core-text.ts) when the
   * station worded it, so the screens say it in the bench's language with its details (issue 25).
   * Its `error` value, when there, is the printer's error and `errorText` that error's own text.
   */
  lastErrorText?: StationText;
  bytesWritten: number;
  requestedBy: 'auto' | 'reprint';
  createdAt: string;
  printedAt: string | null;
}

/** Outbox state of the call that created a record (DESIGN.md "Offline and exactly-once"). */
export type OutboxState = 'queued' | 'sending' | 'done' | 'needs_attention';

/** What an outbox row asks the platform to do (one POST/DELETE each). */
export type OutboxKind = 'shipment.create' | 'shipment.cancel' | 'pickup.create' | 'manifest.create' | 'orders.submit' | 'stock.instruct';

/**
 * One outbox row as the Queue panel shows it (DESIGN.md: "The screen shows
 * the row's state: queued, sending, done, needs attention").
 */
/** Parts of an outbox row's title (see {@link OutboxRowView.titleParts}); absent parts were not readable from the row. */
export type OutboxTitleParts =
  | { what: 'ship'; orderNumber?: string; reference?: string }
  | { what: 'pickup'; date?: string; time?: string; contract?: string }
  | { what: 'manifest'; shipments?: number }
  | { what: 'stock'; trackingNumber?: string; stockId?: number; action?: string }
  | { what: 'orders'; orderNumbers?: string[] }
  | { what: 'other'; kind: string };

export interface OutboxRowView {
  id: number;
  kind: OutboxKind;
  /** What the packer recognises: `Ship order #1002`, `Book pickup 2026-11-23 PM (BRT-STD)`, `Close the day: 4 shipments` (English; logs and the IPC). */
  title: string;
  /**
   * The same title without a language, for the screen to word it: which request
   * (`ship`, `pickup`, `manifest`, `stock`, `orders`, or `other` with `kind`) and
   * its parts (order number or reference, pickup date `YYYY-MM-DD` and window,
   * contract name, shipment count, stock action, order numbers).
   */
  titleParts: OutboxTitleParts;
  /** Local records the row belongs to, when it has them. */
  orderNumber: string | null;
  /** Tracking number (LDV) once the shipment exists. */
  trackingNumber: string | null;
  /** Shipment reference sent to the platform (order number, or the station's `ST-...`). */
  reference: string | null;
  /** Pickup date `YYYY-MM-DD` of a pickup booking. */
  pickupDate: string | null;
  state: OutboxState;
  /** How a done row ended: sent, adopted (found on the platform after a lost answer), superseded by a later row, dismissed by the packer. Null while not done. */
  outcome: 'sent' | 'adopted' | 'superseded' | 'dismissed' | null;
  /** The packer's note on a dismissed row. */
  note: string | null;
  /** Times the row was taken for sending (a crash mid-send counts). */
  attempts: number;
  /**
   * Last failure; `status` is the platform's HTTP status when it answered, null when no
   * answer arrived or the station refused; `details` the platform's field errors (spec
   * `details` keys, e.g. `recipient.address.province`), null when none.
   */
  lastError: {
    code: string;
    message: string;
    status: number | null;
    details: FieldErrors | null;
    /** The message as a core text (`coreText.<key>`, shared/contract/core-text.ts) when the station worded it (issue 25). */
    text?: StationText;
  } | null;
  /** Needs attention: `outbox.retry` sends it again (the station reconciles first). */
  canRetry: boolean;
  /** Needs attention and the platform surely refused it (a 4xx answer to the create call): `outbox.dismiss` may close it. */
  canDismiss: boolean;
  /**
   * Needs attention because a shipment got no answer and the platform showed nothing
   * after the settle window (`outcome_unknown`): `outbox.confirmResend` posts it again.
   */
  canConfirmResend: boolean;
  /** ISO time before which a queued row waits (back-off), or null. */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `outbox.list`: the rows still to do and the last ones done. */
export interface OutboxListView {
  /** Queued, sending and needs-attention rows, oldest first (the order they are sent in). */
  pending: OutboxRowView[];
  /** The most recent done rows, newest first. */
  done: OutboxRowView[];
}

/** A shipment as the bench shows it. Money in `currency` (EUR); weights kg. */
export interface ShipmentView {
  trackingNumber: string;
  reference: string | null;
  orderNumber: string | null;
  status: Status;
  carrier: { code: string; name: string; contractCode: string; contractName: string };
  parcels: number;
  /** Total weight of the packages in kg as the platform recorded it; null when unknown. */
  weightKg: number | null;
  packageTrackingNumbers: string[];
  cost: Money;
  createdAt: string;
  recipient: { name: string; city: string; postalCode: string; countryCode: string } | null;
  /**
   * The carrier delivery point (shop or locker) the parcel goes to, as the
   * platform registered it (`options.deliveryPoint`); null for home delivery
   * or when the platform did not say. `address`: street, postal code and city in one line.
   */
  deliveryPoint: { id: string; name: string; type: 'shop' | 'locker'; address: string } | null;
  cod: Money | null;
  manifestId: number | null;
  cancelled: boolean;
  /** Label formats stored locally (bytes as received), so reprints need no network. */
  labelFormats: Array<'ZPL' | 'PDF'>;
  printJobs: PrintJobView[];
  warning: string | null;
}

/** A manifest (closing list) kept locally with its PDF. */
export interface ManifestView {
  id: number;
  carrier: { code: string; name: string };
  /** The contract code as the platform gave it (may be an encrypted reseller code): for API calls only, never shown. */
  contractCode: string | null;
  /** The contract's name as the bench shows it; null when the station does not know it. */
  contractName: string | null;
  totalShipments: number;
  totalCost: number;
  createdAt: string;
  hasPdf: boolean;
}

/** One carrier event of a shipment's tracking (spec: Endpoints > Tracking; shared/platform/tracking.ts). */
interface TrackingEventView {
  /** ISO 8601 date-time with offset, as the carrier sent it (the screens show it in local time). */
  timestamp: string;
  /** Shipment status after the event. */
  status: Status;
  /** The carrier's text (Italian, as carriers write it). */
  description: string;
  /** Where it happened: city or depot, e.g. `MILANO`, `BERLIN (DE)`. */
  location: string;
}

/**
 * A shipment's tracking as the bench shows it (`shipments.tracking`), built
 * from GET /shipments/{ldv}/tracking, or from the station's own record when
 * the platform cannot be asked.
 */
export interface TrackingView {
  /** The shipment's tracking number (LDV). */
  trackingNumber: string;
  /** LDV the parcel travels under now (differs after the carrier reissued it); null when only the local record is known. */
  carrierTrackingNumber: string | null;
  carrier: { code: string; name: string };
  /** Current status (platform), or the last known one (local). */
  status: Status;
  /** Carrier events, newest first; empty before the carrier collects the parcel, and when `source` is `local`. */
  events: TrackingEventView[];
  /** `YYYY-MM-DD` of the next planned delivery attempt; null when none is planned or unknown. */
  estimatedDelivery: string | null;
  /** ISO 8601 instant of delivery; null until delivered or unknown. */
  deliveredAt: string | null;
  cancelled: boolean;
  /** The platform's id of the shipment's open stock (held parcel), null when none. */
  stockId: number | null;
  /**
   * `platform`: read just now from GET /shipments/{ldv}/tracking;
   * `local`: the platform could not be asked, status as last recorded by the station.
   */
  source: 'platform' | 'local';
  /** Why the platform could not be asked (`offline`, `timeout`, `rate_limited`, a 5xx code); null when `source` is `platform`. */
  unavailable: { code: string; message: string } | null;
  /** When the status was read (`platform`) or last recorded (`local`), ISO 8601 UTC. */
  asOf: string;
}

/** A scale's reading (electron/core/scales/reading.ts). Only `stable` with `kg > 0` fills a weight (shared/domain/scale-weight.ts). */
interface ScaleReadingView {
  status: ScaleStatus;
  /** kg, rounded to the scale's resolution; null for fault and over capacity. */
  kg: number | null;
  /** Decimals the scale resolves. */
  decimals: number;
}

/** The station's scale setting (`scale.config`). */
export type ScaleConfigView =
  | { kind: 'none' }
  | { kind: 'hid' }
  | { kind: 'serial'; path: string; baudRate: number; protocol: 'mt-sics' | 'continuous' };

/** The scale in the header and on Quote/Ship. */
export interface ScaleView {
  config: ScaleConfigView;
  /** Re-quote at once when a new stable weight arrives on Quote. */
  requoteOnStable: boolean;
  connected: boolean;
  /** Device name ("Dymo M25", "/dev/ttyUSB0"), null when none. */
  name: string | null;
  reading: ScaleReadingView | null;
  /** Why no scale can be used (library or port error); null when fine or simply absent. */
  problem: string | null;
}

/**
 * Settings › Platform account (`account.settings.get`): the account saved for
 * the next start and where its secret is kept. The secret itself never leaves
 * the main process.
 */
export interface AccountView {
  /** Saved account (account.json), or null: the station starts in training mode unless one is given at launch. */
  saved: { platformUrl: string; authUrl?: string; clientId: string } | null;
  /** True when the secret store holds a secret for the saved account. */
  secretSaved: boolean;
  /** Where secrets are kept here, e.g. "Electron safeStorage (gnome_libsecret)", "OS keyring", or why none. */
  secretStore: string;
  /** True when STATION_CLIENT_SECRET is set (it wins over a saved secret). */
  secretFromEnvironment: boolean;
}


/** Answer of `orders.importBegin`: the upload's id, the largest piece and the largest file accepted (bytes). */
export interface ImportUploadView {
  importId: string;
  chunkBytes: number;
  maxBytes: number;
}

/**
 * Event `imports.changed`: one import's progress. `bytesRead` of `bytesTotal`
 * (bytes of the file), `rows` data rows read, `orders` distinct orders found;
 * `done` on the last report.
 */
export interface ImportProgressView {
  importId: string;
  fileName: string;
  bytesRead: number;
  bytesTotal: number;
  rows: number;
  orders: number;
  done: boolean;
}
