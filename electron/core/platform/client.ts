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
  type PaginatedOf,
} from '../../../shared/platform';
import { CodList, CodListDetail, CreditMovement, Invoice, InvoiceDetail, InvoicePdf, ReturnList, ReturnListDetail } from '../../../shared/platform/finance';
import { Stock, TrackingRecord } from '../../../shared/platform/tracking';
import { OrdersResponse } from '../../../shared/platform/orders';
import { ENDPOINTS, pathOf, routeOf, type Endpoint } from '../../../shared/platform/endpoints';
import { PlatformError } from './errors';
import { DEFAULT_MAX_RATE_WAIT_MS, type FinanceDetail, type FinanceItem, type PlatformCallLog, type PlatformClient, type PlatformClientOptions, type PlatformConnection } from './client-api';
import { SPEC_RATE_LIMITS_PER_MINUTE, SlidingWindowLimiter, createRateGate, realSleep } from './rate-limit';
import type { BudgetPriority } from './rate-limit';
import { coreText } from '../../../shared/contract/core-text';

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

const FINANCE_DETAILS = {
  invoices: { endpoint: ENDPOINTS.getInvoice, schema: InvoiceDetail },
  codLists: { endpoint: ENDPOINTS.getCodList, schema: CodListDetail },
  returns: { endpoint: ENDPOINTS.getReturnList, schema: ReturnListDetail },
} as const;

const MovementPage = Paginated(CreditMovement);
const InvoicePage = Paginated(Invoice);
const CodListPage = Paginated(CodList);
const ReturnListPage = Paginated(ReturnList);
const FINANCE_LISTS = {
  movements: { endpoint: ENDPOINTS.listCreditMovements, schema: MovementPage },
  invoices: { endpoint: ENDPOINTS.listInvoices, schema: InvoicePage },
  codLists: { endpoint: ENDPOINTS.listCodLists, schema: CodListPage },
  returns: { endpoint: ENDPOINTS.listReturns, schema: ReturnListPage },
} as const;

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

type Query = Record<string, string | number | boolean | undefined | null>;

interface CallSpec<T> {
  /** The endpoint (shared/platform/endpoints.ts): method, path template, and the route of limits and logs. */
  endpoint: Endpoint;
  /** Values of the path template's `{name}` parameters. */
  params?: Readonly<Record<string, string | number>>;
  query?: Query;
  body?: unknown;
  schema: z.ZodType<T>;
  /** The call's own key in the account's shared queue (an outbox row's reference): it keeps its place between tries. */
  budgetKey?: string;
  /** Whose slot the call takes in the account's budget: a packer's (default) or background work's (labels ahead). */
  budgetPriority?: BudgetPriority;
  /** Safe to repeat after a 5xx (no side effect). */
  safe: boolean;
  /** Called right before each HTTP attempt leaves (after the rate-limit wait). */
  beforeAttempt?: () => void;
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
  const rateWindowMs = options.rateWindowMs ?? 60_000 + RATE_WINDOW_MARGIN_MS;
  const limits = options.rateLimits === false ? {} : (options.rateLimits ?? SPEC_RATE_LIMITS_PER_MINUTE);
  const limiters = new Map<string, SlidingWindowLimiter>();
  for (const [route, perMinute] of Object.entries(limits)) {
    limiters.set(
      route,
      new SlidingWindowLimiter(perMinute, rateWindowMs, now, retry.sleep, options.rateWindows ? { route, store: options.rateWindows } : undefined),
    );
  }

  // A limited call's slot: the account's shared budget in a warehouse, else the bench's own window (rate-limit.ts).
  const gate = createRateGate({ windowMs: rateWindowMs, maxRateWaitMs, now, sleep: retry.sleep, shared: () => options.sharedBudget?.() ?? null });

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
      const said = timedOut ? coreText('platformNoAnswer', { ms: timeoutMs, route }) : coreText('platformUnreachable', { route, reason: (e as Error)?.message ?? String(e) });
      throw new PlatformError(0, code, said.message, undefined, undefined, route, notSent, said.text);
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
    const { method } = spec.endpoint;
    const path = pathOf(spec.endpoint, spec.params);
    const route = routeOf(spec.endpoint);
    const url = `${baseUrl}${path}${buildQuery(spec.query)}`;
    const limiter = limiters.get(route);
    let renewedAfter401 = false;
    for (let attempt = 1; ; attempt++) {
      const bearer = await getToken();
      if (limiter) await gate.acquire(route, limiter, spec.budgetKey, spec.budgetPriority ?? 'packer');
      spec.beforeAttempt?.();
      const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${bearer}` };
      const init: RequestInit = { method, headers };
      if (spec.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(spec.body);
      }
      const { res, json } = await exchange(url, init, route, attempt);

      if (res.ok) {
        const parsed = spec.schema.safeParse(json);
        if (!parsed.success) {
          throw new PlatformError(res.status, 'http_error', `Unexpected response from ${method} ${path}: ${describeZod(parsed.error)}`, undefined, undefined, route);
        }
        return parsed.data;
      }

      const err = errorFrom(res, json, route);
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
      if (res.status === 429 && limiter) void options.sharedBudget?.()?.block(route, err.retryAfterMs);
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
      const r = await call({ endpoint: ENDPOINTS.listCarriers, schema: CarriersResponse, safe: true });
      return r.data;
    },
    async quote(request) {
      // A quote has no side effect: safe to repeat.
      const r = await call({ endpoint: ENDPOINTS.quoteRates, body: request, schema: RatesResponse, safe: true });
      return r.data;
    },
    createShipment(request, opts) {
      return call({
        endpoint: ENDPOINTS.createShipment,
        body: request,
        schema: CreatedShipment,
        safe: false,
        ...(opts?.beforeAttempt ? { beforeAttempt: opts.beforeAttempt } : {}),
        ...(opts?.budgetKey ? { budgetKey: opts.budgetKey } : {}),
        ...(opts?.budgetPriority ? { budgetPriority: opts.budgetPriority } : {}),
      });
    },
    listShipments(query = {}) {
      return call({ endpoint: ENDPOINTS.listShipments, query: { ...query }, schema: ShipmentPage, safe: true });
    },
    getShipment(trackingNumber) {
      return call({ endpoint: ENDPOINTS.getShipment, params: { ldv: trackingNumber }, schema: Shipment, safe: true });
    },
    cancelShipment(trackingNumber) {
      // Not repeated on 5xx: a second DELETE after a refund would answer a misleading 404/409.
      return call({ endpoint: ENDPOINTS.cancelShipment, params: { ldv: trackingNumber }, schema: CancelShipmentResponse, safe: false });
    },
    getTracking(trackingNumber) {
      return call({ endpoint: ENDPOINTS.getShipmentTracking, params: { ldv: trackingNumber }, schema: TrackingRecord, safe: true });
    },
    getLabel(trackingNumber, format) {
      return call({
        endpoint: ENDPOINTS.getShipmentLabel,
        params: { ldv: trackingNumber },
        query: { format },
        schema: ShipmentLabelResponse,
        safe: true,
      });
    },
    async createManifests(body) {
      const r = await call({ endpoint: ENDPOINTS.createManifests, body, schema: ManifestsCreated, safe: false });
      return r.data;
    },
    async listManifests(query = {}) {
      const r = await call({ endpoint: ENDPOINTS.listManifests, query: { ...query }, schema: ManifestList, safe: true });
      return r.data;
    },
    getManifest(id, pdf = false) {
      return call({ endpoint: ENDPOINTS.getManifest, params: { id }, query: { pdf: pdf ? 'true' : undefined }, schema: Manifest, safe: true });
    },
    createPickup(request) {
      return call({ endpoint: ENDPOINTS.bookPickup, body: request, schema: Pickup, safe: false });
    },
    listPickups(query = {}) {
      return call({ endpoint: ENDPOINTS.listPickups, query: { ...query }, schema: PickupPage, safe: true });
    },
    getPickup(id) {
      return call({ endpoint: ENDPOINTS.getPickup, params: { id }, schema: Pickup, safe: true });
    },
    submitOrders(request) {
      return call({ endpoint: ENDPOINTS.submitOrders, body: request, schema: OrdersResponse, safe: true });
    },
    getCredit() {
      return call({ endpoint: ENDPOINTS.getCredit, schema: CreditBalance, safe: true });
    },
    async listWarehouses() {
      const r = await call({ endpoint: ENDPOINTS.listWarehouses, schema: WarehousesResponse, safe: true });
      return r.data;
    },
    async searchTaric(q, limit) {
      const r = await call({ endpoint: ENDPOINTS.searchTaric, query: { q, limit: limit === undefined ? undefined : String(limit) }, schema: TaricResponse, safe: true });
      return r.data;
    },
    listStocks(query = {}) {
      return call({ endpoint: ENDPOINTS.listStocks, query: { ...query }, schema: StockPage, safe: true });
    },
    getStock(id) {
      return call({ endpoint: ENDPOINTS.getStock, params: { id }, schema: Stock, safe: true });
    },
    instructStock(id, request) {
      return call({ endpoint: ENDPOINTS.instructStock, params: { id }, body: request, schema: Stock, safe: false });
    },
    listFinance(list, query = {}) {
      const spec = FINANCE_LISTS[list];
      return call({ endpoint: spec.endpoint, query: { ...query }, schema: spec.schema as unknown as z.ZodType<PaginatedOf<FinanceItem<typeof list>>>, safe: true });
    },
    getFinanceDetail(kind, id) {
      const spec = FINANCE_DETAILS[kind];
      return call({ endpoint: spec.endpoint, params: { id }, schema: spec.schema as unknown as z.ZodType<FinanceDetail<typeof kind>>, safe: true });
    },
    getInvoicePdf(id) {
      return call({ endpoint: ENDPOINTS.getInvoicePdf, params: { id }, schema: InvoicePdf, safe: true });
    },
    getTrackingByBda(bda) {
      return call({ endpoint: ENDPOINTS.getTrackingByBda, params: { bda }, schema: TrackingRecord, safe: true });
    },
    async searchDeliveryPoints(query) {
      const r = await call({ endpoint: ENDPOINTS.searchDeliveryPoints, query: { ...query }, schema: DeliveryPointsResponse, safe: true });
      return r.data;
    },
  };
}
