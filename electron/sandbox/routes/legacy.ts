/**
 * The deprecated interfaces (spec: Versioning 4-5; Errors > Legacy interface
 * errors), served until their retirement on 28 February 2027 so integrations
 * not yet moved to 2026-09 keep working against the sandbox.
 *
 * - Prefixes `/api/v2`, `/api/v2.1` (static API key as bearer:
 *   `Authorization: Bearer <legacyApiKey>`) and `/api/v1` (HTTP Basic
 *   `<clientId>:<legacyApiKey>`), with the operations of the Versioning table;
 *   plus `/api/tracking/{ldv}` (bearer key). Each operation is translated to
 *   the 2026-09 call and run through the sandbox itself (`app.inject` with a
 *   one-minute internal token), so every rule — validation, 402/403, rate
 *   limits (shared with 2026-09), faults — is the current one.
 * - Legacy field names (spec: Shipment field mapping, Response mapping) in
 *   requests, answers and validation `errors` keys.
 * - Legacy envelopes: errors `{code, status: "error", message}` with `code`
 *   the HTTP status; validation 422 `{message, errors: {field: [messages]}}`.
 * - Every answer on these paths (errors and 404 included) carries
 *   `Deprecation: @1788393600`, `Sunset: Sun, 28 Feb 2027 23:59:59 GMT` and
 *   `Link: <{base_url}>; rel="successor-version", <{auth_url}/api/deprecation>; rel="deprecation"`.
 * - Driver-app endpoints `/api/v2/driver/*` are not part of this interface:
 *   the sandbox has none, they answer 404 in the 2026-09 envelope, without
 *   deprecation headers.
 *
 * The shapes of legacy answers are the sandbox's choice (the spec shows only
 * the mapped names); they are listed in the README ("Deprecated interfaces").
 * Files: this one translates each operation and registers the routes;
 * legacy-access.ts holds the paths, deprecation headers and key
 * authentication; legacy-wire.ts the field mapping and legacy views.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkAuthorization } from '../access';
import { ApiError, fieldError, notFound, validationFailed } from '../errors';
import { INTERNAL_HEADER, type Gateway } from '../gateway';
import type { RouteTable } from '../http';
import type { Account, ShipmentRecord } from '../model';
import type { SandboxState } from '../state';
import { LEGACY_PREFIXES, LEGACY_TRACKING_PATH, DEPRECATION_DOC_PATH, LEGACY_TRACKING_WINDOW_DAYS, LEGACY_LDV_LENGTH, isDeprecatedPath, deprecationHeaders, legacyAuthenticate } from './legacy-access';
import { type Obj, asObj, num, compact, money, party, packages, legacyDetails, shipmentView, rateView, stockView } from './legacy-wire';

// ---- calls into the 2026-09 API ----

interface InnerResponse {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | number | undefined>;
}

/** What each legacy handler gets. */
interface LegacyCtx {
  state: SandboxState;
  account: Account;
  req: FastifyRequest;
  body: Obj;
  params: Record<string, string>;
  /** Calls `method path` of the 2026-09 API as this account. */
  call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<InnerResponse>;
}

/**
 * Turns a 2026-09 error answer into an ApiError with legacy `details` keys
 * (the onSend hook then writes the legacy envelope).
 */
function innerError(res: InnerResponse): ApiError {
  const env = asObj(asObj(res.body)?.error);
  const code = typeof env?.code === 'string' ? env.code : 'internal_error';
  const message = typeof env?.message === 'string' ? env.message : `Unexpected answer ${res.status}`;
  const details = asObj(env?.details) as Record<string, string[]> | undefined;
  if (code === 'validation_failed' && details) return validationFailed(legacyDetails(details), message);
  const retry = res.headers['retry-after'];
  return new ApiError(res.status, code as ApiError['code'], message, undefined, retry !== undefined ? { 'Retry-After': String(retry) } : undefined);
}

/** Expects one of `ok` statuses; otherwise throws the mapped error. */
function expectOk(res: InnerResponse, ...ok: number[]): Obj {
  if (!ok.includes(res.status)) throw innerError(res);
  return asObj(res.body) ?? {};
}

/** Legacy tracking payload of a shipment: the tracking.update payload without `event` and `timestamp` (spec: Events). */
function legacyTracking(state: SandboxState, s: ShipmentRecord): { events: number; body: Obj } {
  state.lifecycle.advance();
  const payload: Obj = { ...state.lifecycle.trackingUpdatePayload(s) };
  delete payload.event;
  delete payload.timestamp;
  return { events: state.lifecycle.history(s).length, body: payload };
}

// ---- the operations ----

type LegacyHandler = (ctx: LegacyCtx) => Promise<{ status?: number; body: unknown }>;

const ops: Array<{ method: 'GET' | 'POST' | 'DELETE'; path: string; handler: LegacyHandler }> = [
  {
    method: 'GET',
    path: '/carriers',
    handler: async ({ call }) => ({ body: expectOk(await call('GET', '/carriers'), 200).data ?? [] }),
  },
  {
    method: 'POST',
    path: '/shipping/rates',
    handler: async ({ call, body }) => {
      const to = asObj(body.shipTo);
      const from = asObj(body.shipFrom);
      const req = compact({
        recipient: to ? { address: compact({ postalCode: to.postalCode ?? to.zip, countryCode: to.country, city: to.city, province: to.state }) } : body.shipTo,
        packages: packages(body.packages),
        shipper: from ? { address: asObj(party(from))?.address } : undefined,
        warehouseId: num(body.warehouseId),
        options: compact({
          pickupFromAddress: body.pickupFromAddress,
          cod: body.codValue !== undefined ? compact({ amount: num(body.codValue), type: body.codType }) : undefined,
          insurance: body.insuranceValue !== undefined ? { amount: num(body.insuranceValue) } : undefined,
        }),
      });
      const data = expectOk(await call('POST', '/rates', req), 200).data;
      const rates = (Array.isArray(data) ? data : []).map((r: unknown) => asObj(r) ?? {});
      const carrier = typeof body.carrierCode === 'string' ? body.carrierCode.toLowerCase() : undefined;
      return { body: rates.filter((r) => carrier === undefined || r.carrierCode === carrier).map(rateView) };
    },
  },
  {
    method: 'POST',
    path: '/shipping/create',
    handler: async ({ call, body }) => {
      const fmt = typeof body.label_format === 'string' ? body.label_format.toUpperCase() : body.label_format;
      const req = compact({
        carrierCode: body.carrierCode,
        serviceType: body.contractCode,
        recipient: party(body.shipTo, body.rif_dest),
        shipper: body.shipFrom !== undefined ? party(body.shipFrom) : undefined,
        packages: packages(body.packages, body.order_total),
        reference: body.order_id !== undefined && body.order_id !== null ? String(body.order_id) : undefined,
        warehouseId: num(body.warehouseId),
        customsDetail: body.customsDetail,
        options: compact({
          notes: body.notes,
          contentDescription: body.content,
          labelFormat: fmt,
          pickupFromAddress: body.pickupFromAddress,
          insurance: body.insuranceValue !== undefined ? { amount: num(body.insuranceValue) } : undefined,
          cod:
            body.codValue !== undefined
              ? compact({ amount: num(body.codValue), method: body.cashOnDeliveryMode, type: body.codType })
              : undefined,
          accessoryServices: Array.isArray(body.accessoriServices) ? body.accessoriServices.map(num) : body.accessoriServices,
        }),
      });
      return { body: shipmentView(expectOk(await call('POST', '/shipments', req), 201)) };
    },
  },
  {
    method: 'POST',
    path: '/shipping/delete',
    handler: async ({ call, body }) => {
      const ldv = body.trackingNumber ?? body.ldv;
      if (typeof ldv !== 'string' || ldv.trim() === '') throw fieldError('trackingNumber', 'The tracking number is required.');
      const out = expectOk(await call('DELETE', `/shipments/${encodeURIComponent(ldv.trim())}`), 200);
      return { body: { trackingNumber: out.trackingNumber, deleted: out.cancelled === true, refunded: money(typeof out.refunded === 'number' ? out.refunded : 0) } };
    },
  },
  {
    method: 'POST',
    path: '/shippinglist/create',
    handler: async ({ call, body }) => {
      const req = compact({
        shipmentIds: Array.isArray(body.shipmentIds) ? body.shipmentIds.map(num) : body.shipmentIds,
        trackingNumbers: body.trackingNumbers,
      });
      const data = expectOk(await call('POST', '/manifests', req), 201).data;
      const lists = (Array.isArray(data) ? data : []).map((m: unknown) => {
        const o = asObj(m) ?? {};
        const carrier = asObj(o.carrier) ?? {};
        return {
          id: o.id,
          carrierCode: carrier.code,
          carrierName: carrier.name,
          contractCode: o.contractCode,
          totalShipments: o.totalShipments,
          totalCost: typeof o.totalCost === 'number' ? money(o.totalCost) : null,
          trackingNumbers: o.trackingNumbers ?? [],
          createdAt: o.createdAt,
          pdf: o.pdf ?? null,
        };
      });
      return { body: { shippingLists: lists } };
    },
  },
  {
    method: 'POST',
    path: '/pickup/create',
    handler: async ({ call, body }) => {
      const req = compact({
        serviceType: body.contractCode,
        pickupDate: body.pickupDate,
        pickupTime: body.pickupTime,
        warehouseId: num(body.warehouseId),
        shipper: body.shipFrom !== undefined ? party(body.shipFrom) : undefined,
        packages: packages(body.packages),
        shipmentId: body.shipmentId !== undefined && body.shipmentId !== null ? String(body.shipmentId) : undefined,
        instructions: body.notes,
      });
      const p = expectOk(await call('POST', '/pickups', req), 201);
      const cost = asObj(p.cost) ?? {};
      return {
        body: {
          id: p.id,
          pickupId: p.pickupId,
          carrierCode: p.carrierCode,
          contractCode: p.serviceType,
          pickupDate: p.pickupDate,
          pickupTime: p.pickupTime,
          pickupCost: typeof cost.total === 'number' ? money(cost.total) : null,
          currency: cost.currency,
        },
      };
    },
  },
  {
    method: 'GET',
    path: '/stock/list',
    handler: async ({ call }) => {
      const out: Obj[] = [];
      for (let page = 1; ; page++) {
        const res = expectOk(await call('GET', `/stocks?status=open&per_page=200&page=${page}`), 200);
        const data = Array.isArray(res.data) ? res.data : [];
        out.push(...data.map((s: unknown) => stockView(asObj(s) ?? {})));
        const meta = asObj(res.meta);
        if (!meta || typeof meta.last_page !== 'number' || page >= meta.last_page) break;
      }
      return { body: out };
    },
  },
  {
    method: 'POST',
    path: '/stock/update',
    handler: async ({ call, body }) => {
      const id = num(body.stock_id ?? body.stockId ?? body.id);
      if (typeof id !== 'number' || !Number.isInteger(id)) throw fieldError('stock_id', 'The stock id is required.');
      const rest = { ...body };
      delete rest.stock_id;
      delete rest.stockId;
      delete rest.id;
      const res = await call('POST', `/stocks/${id}/actions`, rest);
      if (res.status === 422) {
        const env = asObj(asObj(res.body)?.error);
        // Stock action keys have no legacy renames; keep them.
        throw validationFailed((asObj(env?.details) as Record<string, string[]> | undefined) ?? {}, typeof env?.message === 'string' ? env.message : 'The given data was invalid.');
      }
      return { body: stockView(expectOk(res, 201)) };
    },
  },
  {
    method: 'GET',
    path: '/tracking/:ldv',
    handler: async (ctx) => trackingAnswer(ctx.state, ctx.account, ctx.params.ldv ?? ''),
  },
  {
    method: 'POST',
    path: '/webhook',
    handler: async ({ state, account, call, body }) => {
      if (currentLegacyWebhook(state, account)) throw new ApiError(409, 'invalid_state', 'A webhook is already registered; delete it first.');
      const res = expectOk(
        await call('POST', '/webhooks', {
          url: body.url,
          description: typeof body.description === 'string' ? body.description : 'Legacy webhook (/api/v2/webhook)',
          // What the web interface registers without a list (spec: Events).
          events: ['tracking.update', 'stock.opened', 'stock.closed'],
        }),
        201,
      );
      state.legacyWebhooks.set(account.accountId, { webhookId: Number(res.id), subscriptions: [] });
      return { status: 201, body: { id: res.id, url: res.url, events: res.events, secret: res.secret, createdAt: res.createdAt } };
    },
  },
  {
    method: 'GET',
    path: '/webhook',
    handler: async ({ state, account, call }) => {
      const lw = currentLegacyWebhook(state, account);
      if (!lw) throw notFound('No webhook is registered.');
      const w = expectOk(await call('GET', `/webhooks/${lw.webhookId}`), 200);
      return { body: { id: w.id, url: w.url, events: w.events, isActive: w.isActive, createdAt: w.createdAt, subscriptions: lw.subscriptions.length } };
    },
  },
  {
    method: 'DELETE',
    path: '/webhook',
    handler: async ({ state, account, call }) => {
      const lw = currentLegacyWebhook(state, account);
      if (!lw) throw notFound('No webhook is registered.');
      expectOk(await call('DELETE', `/webhooks/${lw.webhookId}`), 204);
      state.legacyWebhooks.delete(account.accountId);
      return { body: { status: 'success', message: 'Webhook deleted.' } };
    },
  },
  {
    method: 'GET',
    path: '/webhook/subscriptions',
    handler: async ({ state, account }) => ({
      body: requireLegacyWebhook(state, account).subscriptions.map((s) => ({ ldv: s.ldv, createdAt: s.createdAt.toISOString() })),
    }),
  },
  {
    method: 'POST',
    path: '/webhook/subscriptions',
    handler: async ({ state, account, body }) => {
      const lw = requireLegacyWebhook(state, account);
      const ldv = typeof body.ldv === 'string' ? body.ldv.trim().toUpperCase() : '';
      if (ldv === '') throw fieldError('ldv', 'The shipment number is required.');
      const s = state.shipmentByTracking(account, ldv);
      if (!s) throw notFound(`Shipment ${ldv} not found.`);
      let sub = lw.subscriptions.find((x) => x.ldv === s.trackingNumber);
      const created = !sub;
      if (!sub) {
        sub = { ldv: s.trackingNumber, createdAt: state.clock.now() };
        lw.subscriptions.push(sub);
      }
      return { status: created ? 201 : 200, body: { ldv: sub.ldv, createdAt: sub.createdAt.toISOString() } };
    },
  },
  {
    method: 'DELETE',
    path: '/webhook/subscriptions/:ldv',
    handler: async ({ state, account, params }) => {
      const lw = requireLegacyWebhook(state, account);
      const ldv = (params.ldv ?? '').toUpperCase();
      const i = lw.subscriptions.findIndex((x) => x.ldv === ldv);
      if (i < 0) throw notFound(`No subscription for ${ldv}.`);
      lw.subscriptions.splice(i, 1);
      return { body: { status: 'success', message: `Subscription for ${ldv} deleted.` } };
    },
  },
];

/** The account's legacy webhook while its 2026-09 endpoint still exists (deleting it by the new API deletes this too). */
function currentLegacyWebhook(state: SandboxState, account: Account) {
  const lw = state.legacyWebhooks.get(account.accountId);
  if (!lw) return undefined;
  if (!state.webhooks.registry.find(account.accountId, lw.webhookId)) {
    state.legacyWebhooks.delete(account.accountId);
    return undefined;
  }
  return lw;
}

/** @throws ApiError 409 when no webhook is registered (spec: `*\/webhook/subscriptions`). */
function requireLegacyWebhook(state: SandboxState, account: Account) {
  const lw = currentLegacyWebhook(state, account);
  if (!lw) throw new ApiError(409, 'invalid_state', 'No webhook is registered: register one with POST /webhook first.');
  return lw;
}

/**
 * Legacy tracking (spec: Legacy interface errors): 400 unless exactly 12
 * characters; 404 unknown, of another client or older than 90 days; 204 no
 * events yet; 200 the legacy tracking payload.
 */
async function trackingAnswer(state: SandboxState, account: Account, ldv: string): Promise<{ status?: number; body: unknown }> {
  checkAuthorization(account, 'client-api');
  const n = ldv.trim();
  if (n.length !== LEGACY_LDV_LENGTH) throw new ApiError(400, 'http_error', `The shipment number must be exactly ${LEGACY_LDV_LENGTH} characters.`);
  const s = state.shipmentByTracking(account, n);
  const windowStart = state.clock.nowMs() - LEGACY_TRACKING_WINDOW_DAYS * 86_400_000;
  if (!s || s.createdAt.getTime() < windowStart) throw notFound(`Shipment ${n} not found.`);
  const t = legacyTracking(state, s);
  if (t.events === 0) return { status: 204, body: undefined };
  return { body: t.body };
}

/**
 * Registers the deprecated interfaces: the operations under each of
 * {@link LEGACY_PREFIXES}, `/api/tracking/{ldv}`, the deprecation page, and
 * the hook that adds the deprecation headers and writes legacy envelopes.
 * @param apiPrefix the 2026-09 prefix (`/api/2026-09`) the operations are translated to.
 */
export function registerLegacyRoutes(app: FastifyInstance, table: RouteTable, state: SandboxState, gw: Gateway, apiPrefix: string): void {
  const call = async (account: Account, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<InnerResponse> => {
    // A one-minute token of the account, removed right after: the call goes through every 2026-09 rule.
    const token = 'legacy-' + randomBytes(24).toString('base64url');
    const now = state.clock.nowMs();
    state.tokens.set(token, { accountId: account.accountId, scope: 'client-api', issuedAt: now, expiresAt: now + 60_000 });
    // The sandbox calling itself names itself: its own loopback authority (the Host rule of index.ts).
    const addr = app.server.address();
    const self = addr !== null && typeof addr === 'object' ? `127.0.0.1:${addr.port}` : 'localhost:80';
    try {
      const res = await app.inject({
        method,
        url: apiPrefix + path,
        headers: {
          host: self,
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          [INTERNAL_HEADER]: gw.internalSecret,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      return { status: res.statusCode, body: res.body === '' ? undefined : (JSON.parse(res.body) as unknown), headers: res.headers };
    } finally {
      state.tokens.delete(token);
    }
  };

  const send = (reply: FastifyReply, out: { status?: number; body: unknown }) => {
    const status = out.status ?? 200;
    return status === 204 ? reply.code(204).send() : reply.code(status).send(out.body);
  };

  for (const prefix of LEGACY_PREFIXES) {
    const basic = prefix === '/api/v1';
    for (const op of ops) {
      const url = prefix + op.path;
      table.add(op.method, url);
      app.route({
        method: op.method,
        url,
        handler: async (req, reply) => {
          const account = legacyAuthenticate(state, req, basic);
          const body = asObj(req.body) ?? {};
          const out = await op.handler({
            state,
            account,
            req,
            body,
            params: (req.params ?? {}) as Record<string, string>,
            call: (m, p, b) => call(account, m, p, b),
          });
          return send(reply, out);
        },
      });
    }
  }

  table.add('GET', LEGACY_TRACKING_PATH);
  app.get(LEGACY_TRACKING_PATH, async (req, reply) => {
    const account = legacyAuthenticate(state, req, false);
    return send(reply, await trackingAnswer(state, account, (req.params as { ldv?: string }).ldv ?? ''));
  });

  table.add('GET', DEPRECATION_DOC_PATH);
  app.get(DEPRECATION_DOC_PATH, async (req) => {
    const base = `${req.protocol}://${req.host}`;
    return {
      deprecated: [...LEGACY_PREFIXES.map((p) => `${p}/`), '/api/tracking/{ldv}'],
      notAffected: ['/api/v2/driver/'],
      deprecatedSince: '2026-09-03',
      sunset: '2027-02-28T23:59:59Z',
      successor: base + apiPrefix,
      openapi: `${base}${apiPrefix}/openapi.json`,
      operations: [
        ['POST /shipping/rates', 'POST /rates'],
        ['POST /shipping/create', 'POST /shipments'],
        ['POST /shipping/delete', 'DELETE /shipments/{ldv}'],
        ['GET /tracking/{ldv}', 'GET /shipments/{ldv}/tracking'],
        ['POST /shippinglist/create', 'POST /manifests'],
        ['POST /pickup/create', 'POST /pickups'],
        ['GET /stock/list', 'GET /stocks'],
        ['POST /stock/update', 'POST /stocks/{id}/actions'],
        ['/webhook', '/webhooks'],
        ['GET /carriers', 'GET /carriers'],
      ].map(([earlier, current]) => ({ earlier, current })),
    };
  });

  // Headers and envelopes of every answer on a deprecated path, in one place.
  app.addHook('onSend', async (req, reply, payload) => {
    const pathname = req.url.split('?')[0] ?? req.url;
    if (!isDeprecatedPath(pathname)) return payload;
    const base = `${req.protocol}://${req.host}`;
    void reply.headers(deprecationHeaders(base, base + apiPrefix));
    if (typeof payload !== 'string' || reply.statusCode < 400) return payload;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return payload;
    }
    const env = asObj(asObj(parsed)?.error);
    if (!env) return payload;
    const message = typeof env.message === 'string' ? env.message : '';
    if (env.code === 'validation_failed') {
      return JSON.stringify({ message, errors: asObj(env.details) ?? {} });
    }
    return JSON.stringify({ code: reply.statusCode, status: 'error', message });
  });
}
