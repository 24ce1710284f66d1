/**
 * What the station's platform client offers (spec: Endpoints): the
 * {@link PlatformClient} interface, its options, and the queries and
 * account-record kinds it takes. Built by `createPlatformClient` (client.ts).
 */
import type {
  CancelShipmentResponse,
  Carrier,
  CreatedShipment,
  CreditBalance,
  DeliveryPointsQuery,
  DeliveryPointsResponse,
  Manifest,
  ManifestRequest,
  PaginatedOf,
  Pickup,
  PickupRequest,
  Rate,
  RatesRequest,
  Shipment,
  ShipmentLabelResponse,
  ShipmentListQuery,
  ShipmentRequest,
  TaricCode,
  Warehouse,
} from '../../../shared/platform';
import type { CodList, CodListDetail, CreditMovement, Invoice, InvoiceDetail, InvoicePdf, ReturnList, ReturnListDetail } from '../../../shared/platform/finance';
import type { Stock, StockActionRequest, StockStatusFilter, TrackingRecord } from '../../../shared/platform/tracking';
import type { OrdersRequest, OrdersResponse } from '../../../shared/platform/orders';
import type { BudgetPriority, RateWindowStore, SharedRateBudget, Sleep } from './rate-limit';

/** Back-off settings. Delays in ms. */
export interface RetryOptions {
  /** Total attempts of one call, first included (default 4). */
  attempts?: number;
  /** First back-off step (default 500 ms); step n is `base * 2^n`, capped, with full jitter. */
  baseDelayMs?: number;
  /** Cap of one back-off step (default 8000 ms). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the 429 goes to the caller (default 30000 ms). */
  maxRetryAfterMs?: number;
  /** Random source in [0, 1) for jitter (default Math.random). */
  random?: () => number;
  /** How to wait (default real timers); tests inject a recorder. */
  sleep?: Sleep;
}

/** One finished HTTP attempt, for logs. Holds no header, body or secret. */
export interface PlatformCallLog {
  method: string;
  /** Route template, e.g. `GET /shipments/{ldv}`. */
  route: string;
  /** HTTP status, or 0 when no answer arrived. */
  status: number;
  code?: string;
  attempt: number;
  durationMs: number;
}

/** Whether the platform answered the last call (header connection state). */
export type PlatformConnection = 'online' | 'offline' | 'unknown';

/** Options of {@link createPlatformClient}. */
export interface PlatformClientOptions {
  /** `{base_url}`, e.g. `https://acme.example.com/api/2026-09` (no trailing slash needed). */
  baseUrl: string;
  /** `{auth_url}`: the token endpoint is `{auth_url}/oauth/token`. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** Injected fetch (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Timeout of each HTTP attempt in ms (default 15000). */
  timeoutMs?: number;
  /** Clock in ms since the epoch (default Date.now); drives token expiry and rate limits. */
  now?: () => number;
  retry?: RetryOptions;
  /** Per-minute limits by route (default the spec's table); `false` disables client-side limiting. */
  rateLimits?: Readonly<Record<string, number>> | false;
  /**
   * Keeps the per-route windows and Retry-After blocks across restarts (the
   * station: SQLite `rate_windows`); default: memory only.
   */
  rateWindows?: RateWindowStore;
  /**
   * The account's budget shared by the benches of a warehouse (issue 43 item 1), asked before every limited
   * call; null or absent: the bench keeps its own windows. A getter: the warehouse link is made after the client.
   */
  sharedBudget?: () => SharedRateBudget | null;
  /** Called after every HTTP attempt (token requests included, as route `POST /oauth/token`). */
  onCall?: (entry: PlatformCallLog) => void;
  /**
   * Longest wait for a slot of the route's rate window, ms (default
   * {@link DEFAULT_MAX_RATE_WAIT_MS}); a call that would wait longer is refused
   * at once with `RateWindowFull` (errors.ts). `Infinity` waits for every slot.
   */
  maxRateWaitMs?: number;
  /**
   * The platform's rate window, ms (default the spec's minute plus a margin for clocks). Only the account-budget
   * bench changes it: it runs the sandbox's clock faster, so its minute is shorter.
   */
  rateWindowMs?: number;
}

/** Default of {@link PlatformClientOptions.maxRateWaitMs}: a press may wait this long for the rate window, ms. */
export const DEFAULT_MAX_RATE_WAIT_MS = 1_000;

/** Account records that have a detail with lines (spec: Invoices, credit, COD lists, returns). */
type FinanceDetailKind = 'invoices' | 'codLists' | 'returns';
/** The detail of each kind: an invoice with `items`, a COD or return list with `shipments`. */
export type FinanceDetail<K extends FinanceDetailKind> = { invoices: InvoiceDetail; codLists: CodListDetail; returns: ReturnListDetail }[K];
/** The account's paginated read-only lists (spec: Invoices, credit, COD lists, returns). */
type FinanceList = 'movements' | 'invoices' | 'codLists' | 'returns';
/** Item type of each {@link FinanceList}. */
export type FinanceItem<K extends FinanceList> = { movements: CreditMovement; invoices: Invoice; codLists: CodList; returns: ReturnList }[K];

/** Query of GET /manifests and GET /pickups: period and pagination. */
interface PeriodQuery {
  from?: string;
  to?: string;
  page?: number;
  per_page?: number;
}

/** Query of GET /shipments (spec: Endpoints > Shipments) plus pagination; `storeId` an integer. */
type ShipmentQuery = Omit<ShipmentListQuery, 'storeId'> & { storeId?: number; page?: number; per_page?: number };

/** The platform client; every method may throw `PlatformError` (errors.ts). */
export interface PlatformClient {
  /** `{base_url}` in use. */
  readonly baseUrl: string;
  /** `online` after the last call got an answer, `offline` when it got none, `unknown` before any call. */
  readonly connection: PlatformConnection;
  /** Subscribes to connection changes; returns the unsubscribe function. */
  onConnectionChange(listener: (state: PlatformConnection) => void): () => void;

  /** GET /carriers: the client's carriers with contracts (spec: Endpoints > Carriers). */
  getCarriers(): Promise<Carrier[]>;
  /** POST /rates: one rate per available contract, in platform order (spec: Endpoints > Rates). Empty when no contract serves the parcel. */
  quote(request: RatesRequest, opts?: { budgetPriority?: BudgetPriority }): Promise<Rate[]>;
  /**
   * POST /shipments: creates and pays the shipment; the label comes back at once (spec: Endpoints > Shipments).
   * Never retried on 5xx/timeout: the outcome is unknown, see `PlatformError.outcomeUnknown` (errors.ts).
   * `opts.beforeAttempt` runs right before each attempt leaves (the outbox records when
   * the last POST was sent: its settle window starts there).
   */
  createShipment(request: ShipmentRequest, opts?: { beforeAttempt?: () => void; budgetKey?: string; budgetPriority?: BudgetPriority }): Promise<CreatedShipment>;
  /** GET /shipments: paginated, filters as in the spec (default the last 30 days). */
  listShipments(query?: ShipmentQuery): Promise<PaginatedOf<Shipment>>;
  /** GET /shipments/{ldv}: full detail; 404 `not_found` for an unknown or foreign tracking number. */
  getShipment(trackingNumber: string): Promise<Shipment>;
  /** DELETE /shipments/{ldv}: cancel and refund; 409 `invalid_state` once manifested or in transit. */
  cancelShipment(trackingNumber: string): Promise<CancelShipmentResponse>;
  /**
   * GET /shipments/{ldv}/tracking (spec: Endpoints > Tracking): the tracking
   * record (shared/platform/tracking.ts `TrackingRecord`: current status,
   * carrier events newest first with ISO 8601 timestamps, estimated delivery
   * date). `{ldv}` may also be a package's number. A plain GET: 5xx (the
   * spec's 502) backs off and repeats, 429 waits for Retry-After; 404
   * `not_found` for an unknown or another client's tracking number.
   */
  getTracking(trackingNumber: string): Promise<TrackingRecord>;
  /** GET /shipments/{ldv}/label?format=pdf|zpl: base64 label(s); without format, all available. */
  getLabel(trackingNumber: string, format?: 'pdf' | 'zpl'): Promise<ShipmentLabelResponse>;
  /** POST /manifests: one manifest per contract, each with its base64 PDF (spec: Manifests). */
  createManifests(body: ManifestRequest): Promise<Manifest[]>;
  /** GET /manifests: manifests of the period. */
  listManifests(query?: PeriodQuery): Promise<Manifest[]>;
  /** GET /manifests/{id}?pdf=: one manifest, with the base64 PDF when `pdf` is true. */
  getManifest(id: number, pdf?: boolean): Promise<Manifest>;
  /** POST /pickups: book a pickup (spec: Endpoints > Pickups); 402 when it costs and no subscription. */
  createPickup(request: PickupRequest): Promise<Pickup>;
  /** GET /pickups?from&to: paginated, default the last 30 days. */
  listPickups(query?: PeriodQuery): Promise<PaginatedOf<Pickup>>;
  /** GET /pickups/{id}. */
  getPickup(id: number): Promise<Pickup>;
  /** GET /credit: current balance, EUR (spec: Invoices, credit...). */
  getCredit(): Promise<CreditBalance>;
  /**
   * POST /orders: 1 to 100 orders to the panel's orders-from-API list (spec:
   * Endpoints > Orders). Repeatable: an `orderNumber` already submitted is
   * listed in `skipped`, not created twice (batch rule 4), so it retries like a read.
   */
  submitOrders(request: OrdersRequest): Promise<OrdersResponse>;
  /** GET /warehouses: warehouses (sandbox extension; "not shown" in the spec). */
  listWarehouses(): Promise<Warehouse[]>;
  /**
   * GET /taric?q&limit (spec: Endpoints > Customs codes): customs codes whose
   * code starts with `q` or whose description holds its words. `q` at least 3
   * characters, `limit` 1..100 (default 25). 422 for a shorter `q`.
   */
  searchTaric(q: string, limit?: number): Promise<TaricCode[]>;
  /**
   * GET /delivery-points?city&postalCode&address&carrier (spec: Endpoints >
   * Delivery points): the carrier's delivery points near the place, nearest first
   * (shape: shared/platform/lookups.ts). 429, 502 `carrier_error`.
   */
  searchDeliveryPoints(query: DeliveryPointsQuery): Promise<DeliveryPointsResponse['data']>;
  /** GET /stocks?status&trackingNumber + pagination (spec: Endpoints > Stocks): held shipments, `status` default `open`. */
  listStocks(query?: { status?: StockStatusFilter; trackingNumber?: string; page?: number; per_page?: number }): Promise<PaginatedOf<Stock>>;
  /** GET /stocks/{id}: one stock; 404 `not_found`. */
  getStock(id: number): Promise<Stock>;
  /**
   * POST /stocks/{id}/actions: registers release instructions (spec: States > Stock).
   * 409 `invalid_state` when instructions were already sent; 422; 502. Not retried on 5xx
   * (the outbox reconciles with {@link PlatformClient.getStock}).
   */
  instructStock(id: number, request: StockActionRequest): Promise<Stock>;
  /** GET /credit/movements (newest first), GET /invoices, GET /cod-lists, GET /returns: one page each (spec: Invoices, credit, COD lists, returns). */
  listFinance<K extends FinanceList>(list: K, query?: { page?: number; per_page?: number }): Promise<PaginatedOf<FinanceItem<K>>>;
  /** GET /invoices/{id}/pdf: the invoice with its base64 PDF; 503 while PDF generation is unavailable (try later). */
  getInvoicePdf(id: number): Promise<InvoicePdf>;
  /**
   * One record of an account list with its lines (spec: Invoices, credit, COD lists, returns):
   * GET /invoices/{id} (`items[]`), GET /cod-lists/{id} (`shipments[]`), GET /returns/{id} (the returned shipments). 404.
   */
  getFinanceDetail<K extends FinanceDetailKind>(kind: K, id: number): Promise<FinanceDetail<K>>;
  /** GET /tracking/bda/{bda}: the tracking record of a shipment by its BDA (delivery note) number, last 60 days; 404. */
  getTrackingByBda(bda: string): Promise<TrackingRecord>;
}
