/**
 * Client of the Client Shipping API 2026-09 (spec beside DESIGN.md).
 *
 * - OAuth2 client credentials (spec: Authentication): token cached, renewed
 *   {@link TOKEN_RENEW_MARGIN_MS} before expiry and once on a 401.
 * - Every attempt has a timeout (`AbortSignal.timeout`).
 * - Errors come back as {@link PlatformError} with the envelope's code
 *   unchanged (spec: Errors), or `offline` / `timeout` when no answer arrived.
 * - 429 (honouring Retry-After) is retried for every call, because the
 *   platform refused the request before doing anything. 5xx is retried with
 *   jittered exponential back-off only for safe calls (GET, POST /rates):
 *   a create call (POST /shipments, /pickups, /manifests) or a cancel whose
 *   outcome is unknown goes back to the caller, and the outbox reconciles it.
 * - Per-endpoint limits of the spec's Limits table are kept client side
 *   ({@link SlidingWindowLimiter}): a call whose slot is at most
 *   `maxRateWaitMs` away waits for it; a later one is refused at once with
 *   {@link RateWindowFull} (429 `rate_limited`, `retryAfterMs` = when the
 *   window has room), so no press waits in silence for a minute (issue 21).
 *   With `rateWindows` the windows and a 429's Retry-After survive a restart.
 * - A 502 `carrier_error` with the platform's envelope is the carrier's
 *   answer (an unknown place, a refused address): never retried, its
 *   message goes to the packer at once.
 * - Every response is parsed with the shared zod schemas; a body that does
 *   not match is a PlatformError `http_error` naming the path.
 * - Secrets (client secret, access token) are never put in errors or log entries.
 *
 * `fetch` is injectable (openapi-fetch style) so unit tests drive every branch.
 */
import { z } from 'zod';
import {
  CancelShipmentResponse,
  CarriersResponse,
  CreatedShipment,
  CreditBalance,
  AnyErrorEnvelope,
  Manifest,
  ManifestsCreated,
  Paginated,
  Pickup,
  PlatformErrorCode,
  RatesResponse,
  Shipment,
  ShipmentLabelResponse,
  TaricResponse,
  DeliveryPointsResponse,
  TokenResponse,
  Warehouse,
  type Carrier,
  type ManifestRequest,
  type PaginatedOf,
  type PickupRequest,
  type Rate,
  type RatesRequest,
  type ShipmentListQuery,
  type ShipmentRequest,
  type TaricCode,
  type DeliveryPointsQuery,
} from '../../../shared/platform';
import { CodList, CodListDetail, CreditMovement, Invoice, InvoiceDetail, InvoicePdf, ReturnList, ReturnListDetail } from '../../../shared/platform/finance';
import { Stock, TrackingRecord, type StockActionRequest, type StockStatusFilter } from '../../../shared/platform/tracking';
import { OrdersResponse, type OrdersRequest } from '../../../shared/platform/orders';
import { PlatformError, RateWindowFull } from './errors';
import { SPEC_RATE_LIMITS_PER_MINUTE, SlidingWindowLimiter, realSleep, type RateWindowStore, type Sleep } from './rate-limit';

/** Renew the cached token this long before it expires (ms). */
const TOKEN_RENEW_MARGIN_MS = 60_000;
/** Default timeout of one HTTP attempt (ms). */
const DEFAULT_TIMEOUT_MS = 15_000;
/**
 * Extra ms added to the client's one-minute windows: the platform counts a
 * call when it arrives, the client when it starts, and two calls a minute
 * apart at the start may arrive less than a minute apart.
 */
export const RATE_WINDOW_MARGIN_MS = 1_000;

/** Connection errors (Node's `cause.code`) that prove the request never reached the platform. */
const NOT_SENT_CAUSES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

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
type PlatformConnection = 'online' | 'offline' | 'unknown';

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
  /** Timeout of each HTTP attempt in ms (default {@link DEFAULT_TIMEOUT_MS}). */
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
  /** Called after every HTTP attempt (token requests included, as route `POST /oauth/token`). */
  onCall?: (entry: PlatformCallLog) => void;
  /**
   * Longest wait for a slot of the route's rate window, ms (default
   * {@link DEFAULT_MAX_RATE_WAIT_MS}); a call that would wait longer is refused
   * at once with {@link RateWindowFull}. `Infinity` waits for every slot.
   */
  maxRateWaitMs?: number;
}

/** Default of {@link PlatformClientOptions.maxRateWaitMs}: a press may wait this long for the rate window, ms. */
const DEFAULT_MAX_RATE_WAIT_MS = 1_000;

/** Account records that have a detail with lines (spec: Invoices, credit, COD lists, returns). */
type FinanceDetailKind = 'invoices' | 'codLists' | 'returns';
/** The detail of each kind: an invoice with `items`, a COD or return list with `shipments`. */
type FinanceDetail<K extends FinanceDetailKind> = { invoices: InvoiceDetail; codLists: CodListDetail; returns: ReturnListDetail }[K];
const FINANCE_DETAILS = {
  invoices: { path: '/invoices', schema: InvoiceDetail },
  codLists: { path: '/cod-lists', schema: CodListDetail },
  returns: { path: '/returns', schema: ReturnListDetail },
} as const;

/** The account's paginated read-only lists (spec: Invoices, credit, COD lists, returns). */
type FinanceList = 'movements' | 'invoices' | 'codLists' | 'returns';
/** Item type of each {@link FinanceList}. */
type FinanceItem<K extends FinanceList> = { movements: CreditMovement; invoices: Invoice; codLists: CodList; returns: ReturnList }[K];
const MovementPage = Paginated(CreditMovement);
const InvoicePage = Paginated(Invoice);
const CodListPage = Paginated(CodList);
const ReturnListPage = Paginated(ReturnList);
const FINANCE_LISTS = {
  movements: { path: '/credit/movements', schema: MovementPage },
  invoices: { path: '/invoices', schema: InvoicePage },
  codLists: { path: '/cod-lists', schema: CodListPage },
  returns: { path: '/returns', schema: ReturnListPage },
} as const;

/** Query of GET /manifests and GET /pickups: period and pagination. */
interface PeriodQuery {
  from?: string;
  to?: string;
  page?: number;
  per_page?: number;
}

/**
 * GET /manifests answer: the spec says "manifests of the period" and that
 * list endpoints are paginated; links/meta are accepted when present.
 */
const ManifestList = z.object({
  data: z.array(Manifest),
  links: Paginated(Manifest).shape.links.optional(),
  meta: Paginated(Manifest).shape.meta.optional(),
});
const ShipmentPage = Paginated(Shipment);
const PickupPage = Paginated(Pickup);
const StockPage = Paginated(Stock);
const WarehousesResponse = z.object({ data: z.array(Warehouse) });

/** Query of GET /shipments (spec: Endpoints > Shipments) plus pagination; `storeId` an integer. */
type ShipmentQuery = Omit<ShipmentListQuery, 'storeId'> & { storeId?: number; page?: number; per_page?: number };

type Query = Record<string, string | number | boolean | undefined | null>;

interface CallSpec<T> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Concrete path under `{base_url}`. */
  path: string;
  /** Route template used for limits and logs. */
  route: string;
  query?: Query;
  body?: unknown;
  schema: z.ZodType<T>;
  /** Safe to repeat after a 5xx (no side effect). */
  safe: boolean;
  /** Called right before each HTTP attempt leaves (after the rate-limit wait). */
  beforeAttempt?: () => void;
}

/** The platform client; every method may throw {@link PlatformError}. */
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
  quote(request: RatesRequest): Promise<Rate[]>;
  /**
   * POST /shipments: creates and pays the shipment; the label comes back at once (spec: Endpoints > Shipments).
   * Never retried on 5xx/timeout: the outcome is unknown, see {@link PlatformError.outcomeUnknown}.
   * `opts.beforeAttempt` runs right before each attempt leaves (the outbox records when
   * the last POST was sent: its settle window starts there).
   */
  createShipment(request: ShipmentRequest, opts?: { beforeAttempt?: () => void }): Promise<CreatedShipment>;
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
  /** GET /warehouses: pickup points (sandbox extension; "not shown" in the spec). */
  listWarehouses(): Promise<Warehouse[]>;
  /**
   * GET /taric?q&limit (spec: Endpoints > Customs codes): customs codes whose
   * code starts with `q` or whose description holds its words. `q` at least 3
   * characters, `limit` 1..100 (default 25). 422 for a shorter `q`.
   */
  searchTaric(q: string, limit?: number): Promise<TaricCode[]>;
  /**
   * GET /delivery-points?city&postalCode&address&carrier (spec: Endpoints >
   * Delivery points): the carrier's pickup points near the place, nearest first
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

/** Parses a Retry-After header (seconds or HTTP date) into ms from `now`; undefined when absent or unreadable. */
function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    params.append(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

function describeZod(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

const KNOWN_CODES = new Set<string>(PlatformErrorCode.options);

/** Builds a {@link PlatformClient}. Throws TypeError for a missing base URL, auth URL or credential. */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  for (const key of ['baseUrl', 'authUrl', 'clientId', 'clientSecret'] as const) {
    if (typeof options[key] !== 'string' || options[key].trim() === '') throw new TypeError(`Platform client: ${key} is required`);
  }
  const baseUrl = trimSlash(options.baseUrl);
  const tokenUrl = `${trimSlash(options.authUrl)}/oauth/token`;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const retry = {
    attempts: Math.max(1, options.retry?.attempts ?? 4),
    baseDelayMs: options.retry?.baseDelayMs ?? 500,
    maxDelayMs: options.retry?.maxDelayMs ?? 8_000,
    maxRetryAfterMs: options.retry?.maxRetryAfterMs ?? 30_000,
    random: options.retry?.random ?? Math.random,
    sleep: options.retry?.sleep ?? realSleep,
  };
  const maxRateWaitMs = options.maxRateWaitMs ?? DEFAULT_MAX_RATE_WAIT_MS;
  const limits = options.rateLimits === false ? {} : (options.rateLimits ?? SPEC_RATE_LIMITS_PER_MINUTE);
  const limiters = new Map<string, SlidingWindowLimiter>();
  for (const [route, perMinute] of Object.entries(limits)) {
    limiters.set(
      route,
      new SlidingWindowLimiter(perMinute, 60_000 + RATE_WINDOW_MARGIN_MS, now, retry.sleep, options.rateWindows ? { route, store: options.rateWindows } : undefined),
    );
  }

  let token: { value: string; renewAt: number } | null = null;
  let tokenInFlight: Promise<string> | null = null;
  let connection: PlatformConnection = 'unknown';
  const connectionListeners = new Set<(state: PlatformConnection) => void>();

  function setConnection(state: PlatformConnection): void {
    if (state === connection) return;
    connection = state;
    for (const l of connectionListeners) {
      try {
        l(state);
      } catch {
        // A listener's failure must not break the call that reported the state.
      }
    }
  }

  function log(entry: PlatformCallLog): void {
    try {
      options.onCall?.(entry);
    } catch {
      // Logging never breaks a call.
    }
  }

  /** One HTTP exchange with timeout; maps network failures to offline/timeout. */
  async function exchange(url: string, init: RequestInit, route: string, attempt: number): Promise<{ res: Response; json: unknown; text: string }> {
    const started = now();
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (e) {
      const name = (e as { name?: unknown } | null)?.name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      const causeCode = (e as { cause?: { code?: unknown } } | null)?.cause?.code;
      const notSent = !timedOut && typeof causeCode === 'string' && NOT_SENT_CAUSES.has(causeCode);
      const code = timedOut ? 'timeout' : 'offline';
      log({ method: init.method ?? 'GET', route, status: 0, code, attempt, durationMs: now() - started });
      setConnection('offline');
      throw new PlatformError(
        0,
        code,
        timedOut ? `No answer from the platform within ${timeoutMs} ms (${route})` : `Platform not reachable (${route}): ${(e as Error)?.message ?? String(e)}`,
        undefined,
        undefined,
        route,
        notSent,
      );
    }
    setConnection('online');
    let json: unknown = undefined;
    if (text.trim() !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    log({ method: init.method ?? 'GET', route, status: res.status, attempt, durationMs: now() - started, ...(res.ok ? {} : { code: errorCodeOf(json) }) });
    return { res, json, text };
  }

  function errorCodeOf(json: unknown): string | undefined {
    const env = AnyErrorEnvelope.safeParse(json);
    return env.success ? env.data.error.code : undefined;
  }

  /** Builds the PlatformError for a non-2xx answer from its envelope. */
  function errorFrom(res: Response, json: unknown, route: string): PlatformError {
    const retryAfterMs = res.status === 429 ? parseRetryAfter(res.headers.get('retry-after'), now()) : undefined;
    const env = AnyErrorEnvelope.safeParse(json);
    if (!env.success) {
      return new PlatformError(res.status, res.status === 429 ? 'rate_limited' : 'http_error', `HTTP ${res.status} from ${route} without an error envelope`, undefined, retryAfterMs, route);
    }
    const { code, message, details } = env.data.error;
    const known = KNOWN_CODES.has(code) ? (code as PlatformErrorCode) : 'http_error';
    const text = known === code ? message : `${message} (platform code ${code})`;
    return new PlatformError(res.status, known, text, details, retryAfterMs, route);
  }

  async function fetchToken(): Promise<string> {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
      scope: 'client-api',
    });
    const { res, json } = await exchange(
      tokenUrl,
      { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' }, body: body.toString() },
      'POST /oauth/token',
      1,
    );
    if (!res.ok) {
      const err = errorFrom(res, json, 'POST /oauth/token');
      // Never echo the credentials; the envelope message is the platform's own.
      throw new PlatformError(err.status, err.code === 'http_error' && res.status === 401 ? 'unauthenticated' : err.code, `Token request refused: ${err.message}`, err.details, undefined, 'POST /oauth/token');
    }
    const parsed = TokenResponse.safeParse(json);
    if (!parsed.success) throw new PlatformError(res.status, 'http_error', `Unexpected token response from POST /oauth/token: ${describeZod(parsed.error)}`);
    const lifetimeMs = parsed.data.expires_in * 1000;
    // Renew a minute early; a token shorter-lived than twice the margin is renewed at half its life.
    const margin = Math.min(TOKEN_RENEW_MARGIN_MS, lifetimeMs / 2);
    token = { value: parsed.data.access_token, renewAt: now() + lifetimeMs - margin };
    return token.value;
  }

  /** The cached token, renewed when near expiry; concurrent callers share one request. */
  async function getToken(forceRenew = false): Promise<string> {
    if (!forceRenew && token && now() < token.renewAt) return token.value;
    if (forceRenew) token = null;
    tokenInFlight ??= fetchToken().finally(() => {
      tokenInFlight = null;
    });
    return tokenInFlight;
  }

  function backoffDelay(retryIndex: number): number {
    const cap = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** retryIndex);
    return Math.round(retry.random() * cap);
  }

  async function call<T>(spec: CallSpec<T>): Promise<T> {
    const url = `${baseUrl}${spec.path}${buildQuery(spec.query)}`;
    const limiter = limiters.get(spec.route);
    let renewedAfter401 = false;
    for (let attempt = 1; ; attempt++) {
      const bearer = await getToken();
      if (limiter) {
        const wait = limiter.delayNow();
        if (wait > maxRateWaitMs) throw new RateWindowFull(spec.route, wait, limiter.perWindow);
        await limiter.acquire();
      }
      spec.beforeAttempt?.();
      const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${bearer}` };
      const init: RequestInit = { method: spec.method, headers };
      if (spec.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(spec.body);
      }
      const { res, json } = await exchange(url, init, spec.route, attempt);

      if (res.ok) {
        const parsed = spec.schema.safeParse(json);
        if (!parsed.success) {
          throw new PlatformError(res.status, 'http_error', `Unexpected response from ${spec.method} ${spec.path}: ${describeZod(parsed.error)}`, undefined, undefined, spec.route);
        }
        return parsed.data;
      }

      const err = errorFrom(res, json, spec.route);
      if (res.status === 401 && !renewedAfter401) {
        // Expired or revoked token (spec: Authentication 3): renew once, and the
        // platform refused the call, so repeating it is safe for every method.
        renewedAfter401 = true;
        await getToken(true);
        attempt--;
        continue;
      }
      if (res.status === 429 && err.retryAfterMs !== undefined) {
        // The platform's Retry-After holds every call of this route (kept across restarts).
        limiter?.blockUntil(now() + err.retryAfterMs);
      }
      if (attempt >= retry.attempts) throw err;
      if (res.status === 429) {
        // Refused before any work: safe to repeat even for a create call.
        const wait = err.retryAfterMs ?? backoffDelay(attempt - 1);
        if (wait > retry.maxRetryAfterMs) throw err;
        if (limiter && err.retryAfterMs !== undefined) continue; // acquire() waits for the block
        await retry.sleep(wait + Math.round(retry.random() * 100));
        continue;
      }
      // The carrier's own refusal (its envelope says so): repeating it changes nothing.
      if (res.status >= 500 && spec.safe && err.code !== 'carrier_error') {
        await retry.sleep(backoffDelay(attempt - 1));
        continue;
      }
      throw err;
    }
  }

  const enc = encodeURIComponent;

  return {
    baseUrl,
    get connection() {
      return connection;
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => {
        connectionListeners.delete(listener);
      };
    },

    async getCarriers() {
      const r = await call({ method: 'GET', path: '/carriers', route: 'GET /carriers', schema: CarriersResponse, safe: true });
      return r.data;
    },
    async quote(request) {
      // A quote has no side effect: safe to repeat.
      const r = await call({ method: 'POST', path: '/rates', route: 'POST /rates', body: request, schema: RatesResponse, safe: true });
      return r.data;
    },
    createShipment(request, opts) {
      return call({
        method: 'POST',
        path: '/shipments',
        route: 'POST /shipments',
        body: request,
        schema: CreatedShipment,
        safe: false,
        ...(opts?.beforeAttempt ? { beforeAttempt: opts.beforeAttempt } : {}),
      });
    },
    listShipments(query = {}) {
      return call({ method: 'GET', path: '/shipments', route: 'GET /shipments', query: { ...query }, schema: ShipmentPage, safe: true });
    },
    getShipment(trackingNumber) {
      return call({ method: 'GET', path: `/shipments/${enc(trackingNumber)}`, route: 'GET /shipments/{ldv}', schema: Shipment, safe: true });
    },
    cancelShipment(trackingNumber) {
      // Not repeated on 5xx: a second DELETE after a refund would answer a misleading 404/409.
      return call({ method: 'DELETE', path: `/shipments/${enc(trackingNumber)}`, route: 'DELETE /shipments/{ldv}', schema: CancelShipmentResponse, safe: false });
    },
    getTracking(trackingNumber) {
      return call({
        method: 'GET',
        path: `/shipments/${enc(trackingNumber)}/tracking`,
        route: 'GET /shipments/{ldv}/tracking',
        schema: TrackingRecord,
        safe: true,
      });
    },
    getLabel(trackingNumber, format) {
      return call({
        method: 'GET',
        path: `/shipments/${enc(trackingNumber)}/label`,
        route: 'GET /shipments/{ldv}/label',
        query: { format },
        schema: ShipmentLabelResponse,
        safe: true,
      });
    },
    async createManifests(body) {
      const r = await call({ method: 'POST', path: '/manifests', route: 'POST /manifests', body, schema: ManifestsCreated, safe: false });
      return r.data;
    },
    async listManifests(query = {}) {
      const r = await call({ method: 'GET', path: '/manifests', route: 'GET /manifests', query: { ...query }, schema: ManifestList, safe: true });
      return r.data;
    },
    getManifest(id, pdf = false) {
      return call({ method: 'GET', path: `/manifests/${enc(String(id))}`, route: 'GET /manifests/{id}', query: { pdf: pdf ? 'true' : undefined }, schema: Manifest, safe: true });
    },
    createPickup(request) {
      return call({ method: 'POST', path: '/pickups', route: 'POST /pickups', body: request, schema: Pickup, safe: false });
    },
    listPickups(query = {}) {
      return call({ method: 'GET', path: '/pickups', route: 'GET /pickups', query: { ...query }, schema: PickupPage, safe: true });
    },
    getPickup(id) {
      return call({ method: 'GET', path: `/pickups/${enc(String(id))}`, route: 'GET /pickups/{id}', schema: Pickup, safe: true });
    },
    submitOrders(request) {
      return call({ method: 'POST', path: '/orders', route: 'POST /orders', body: request, schema: OrdersResponse, safe: true });
    },
    getCredit() {
      return call({ method: 'GET', path: '/credit', route: 'GET /credit', schema: CreditBalance, safe: true });
    },
    async listWarehouses() {
      const r = await call({ method: 'GET', path: '/warehouses', route: 'GET /warehouses', schema: WarehousesResponse, safe: true });
      return r.data;
    },
    async searchTaric(q, limit) {
      const r = await call({ method: 'GET', path: '/taric', route: 'GET /taric', query: { q, limit: limit === undefined ? undefined : String(limit) }, schema: TaricResponse, safe: true });
      return r.data;
    },
    listStocks(query = {}) {
      return call({ method: 'GET', path: '/stocks', route: 'GET /stocks', query: { ...query }, schema: StockPage, safe: true });
    },
    getStock(id) {
      return call({ method: 'GET', path: `/stocks/${enc(String(id))}`, route: 'GET /stocks/{id}', schema: Stock, safe: true });
    },
    instructStock(id, request) {
      return call({ method: 'POST', path: `/stocks/${enc(String(id))}/actions`, route: 'POST /stocks/{id}/actions', body: request, schema: Stock, safe: false });
    },
    listFinance(list, query = {}) {
      const spec = FINANCE_LISTS[list];
      return call({ method: 'GET', path: spec.path, route: `GET ${spec.path}`, query: { ...query }, schema: spec.schema as unknown as z.ZodType<PaginatedOf<FinanceItem<typeof list>>>, safe: true });
    },
    getFinanceDetail(kind, id) {
      const spec = FINANCE_DETAILS[kind];
      return call({ method: 'GET', path: `${spec.path}/${enc(String(id))}`, route: `GET ${spec.path}/{id}`, schema: spec.schema as unknown as z.ZodType<FinanceDetail<typeof kind>>, safe: true });
    },
    getInvoicePdf(id) {
      return call({ method: 'GET', path: `/invoices/${enc(String(id))}/pdf`, route: 'GET /invoices/{id}/pdf', schema: InvoicePdf, safe: true });
    },
    getTrackingByBda(bda) {
      return call({ method: 'GET', path: `/tracking/bda/${enc(bda)}`, route: 'GET /tracking/bda/{bda}', schema: TrackingRecord, safe: true });
    },
    async searchDeliveryPoints(query) {
      const r = await call({ method: 'GET', path: '/delivery-points', route: 'GET /delivery-points', query: { ...query }, schema: DeliveryPointsResponse, safe: true });
      return r.data;
    },
  };
}
