/**
 * The API gateway of the sandbox: one `onRequest` hook in front of every
 * route under the version prefix, so route modules stay free of cross-cutting
 * rules. For each call, in order:
 *
 * 1. injected latency (faults.ts), then an injected 500/503 `internal_error`;
 * 2. bearer check -> 401 `unauthenticated` (http.ts `authenticate`);
 * 3. 403 checks (access.ts: scope, disabled client, client role, documents);
 * 4. rate limit -> 429 `rate_limited` + `Retry-After` (ratelimit.ts), when enabled;
 * 5. 402 checks on the costly endpoints (access.ts);
 * 6. injected 502 `carrier_error` on carrier-facing endpoints.
 *
 * A `preHandler` hook holds the calls the `hold` fault picks (after the body
 * is read, so they are handled even when the client gave up). Then the
 * route's own handler runs (it authenticates again, cheaply).
 * An `onSend` hook drops the connection after a committed `POST /shipments`
 * when `dropAfterCommit` is set. Public routes (the OpenAPI document) skip
 * all of this.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkAuthorization, checkSubscription } from './access';
import { ApiError } from './errors';
import { Faults } from './faults';
import { authenticate } from './http';
import { RateLimiter, rateLimited, rateLimitFor } from './ratelimit';
import type { SandboxState } from './state';

/** Header marking a call the sandbox makes to itself (legacy adapters); its value is the gateway's secret. */
export const INTERNAL_HEADER = 'x-sandbox-internal';

/** What {@link installGateway} returns: the pieces the admin prefix and the legacy adapters drive. */
export interface Gateway {
  limiter: RateLimiter;
  /** Rate limits enforced (createSandbox option `rateLimits`, admin `POST /__sandbox/rate-limits`). */
  rateLimits: { enabled: boolean };
  faults: Faults;
  /** Route patterns (full, fastify style) that need no token. */
  publicRoutes: Set<string>;
  /** Value of {@link INTERNAL_HEADER} on the sandbox's own injected calls. */
  internalSecret: string;
}

/** `"POST /shipments"`: method and route pattern relative to the prefix, parameters as `{name}`. */
function endpointKey(method: string, routeUrl: string, prefix: string): string {
  const rel = routeUrl.startsWith(prefix) ? routeUrl.slice(prefix.length) || '/' : routeUrl;
  return `${method.toUpperCase()} ${rel.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}

/** Access token of an already authenticated request. */
function bearer(req: FastifyRequest): string {
  return (req.headers.authorization ?? '').trim().replace(/^Bearer\s+/i, '');
}

function isInternal(req: FastifyRequest, gw: Gateway): boolean {
  return req.headers[INTERNAL_HEADER] === gw.internalSecret;
}

/**
 * Installs the gateway hooks on `app` for routes under `prefix`
 * (e.g. `/api/2026-09`). Call once, before or after the routes are added.
 * `opts.rateLimits`: enforce the spec's rate limits (default false: test
 * suites pin the simulated clock and would hit them; the CLI turns them on).
 */
export function installGateway(app: FastifyInstance, state: SandboxState, prefix: string, opts: { rateLimits?: boolean } = {}): Gateway {
  const gw: Gateway = {
    limiter: new RateLimiter(),
    rateLimits: { enabled: opts.rateLimits ?? false },
    faults: new Faults(),
    publicRoutes: new Set(),
    internalSecret: randomBytes(16).toString('hex'),
  };

  app.addHook('onRequest', async (req, reply) => {
    const url = req.routeOptions.url;
    if (url === undefined || !url.startsWith(prefix + '/') || gw.publicRoutes.has(url)) return;
    const latency = gw.faults.latency();
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    const status = gw.faults.serverError();
    if (status !== undefined) {
      throw new ApiError(status, 'internal_error', status === 503 ? 'Service temporarily unavailable (injected fault)' : 'Unexpected error (injected fault)', undefined, {
        'x-sandbox-fault': `server_error_${status}`,
      });
    }
    const account = authenticate(state, req);
    const token = state.tokens.get(bearer(req));
    checkAuthorization(account, token?.scope ?? '');
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const endpoint = endpointKey(method, url, prefix);
    const now = state.clock.now();
    const limit = rateLimitFor(method, endpoint.slice(endpoint.indexOf(' ') + 1));
    if (limit !== undefined && gw.rateLimits.enabled) {
      const d = gw.limiter.take(String(account.accountId), endpoint, limit, now.getTime());
      if (!d.allowed) throw rateLimited(d, endpoint);
      void reply.header('X-RateLimit-Limit', String(d.limit)).header('X-RateLimit-Remaining', String(d.remaining));
    }
    checkSubscription(state, account, endpoint, now);
    if (gw.faults.carrierError(endpoint)) {
      throw new ApiError(502, 'carrier_error', 'The carrier did not answer (injected fault); nothing was created', undefined, { 'x-sandbox-fault': 'carrier_error' });
    }
  });

  // The hold waits once the body is read (preHandler), so a held call is handled afterwards
  // even when the client gave up meanwhile: what a congested platform or proxy does.
  app.addHook('preHandler', async (req) => {
    const url = req.routeOptions.url;
    if (url === undefined || !url.startsWith(prefix + '/') || gw.publicRoutes.has(url) || isInternal(req, gw)) return;
    const held = gw.faults.hold(endpointKey(req.method === 'HEAD' ? 'GET' : req.method, url, prefix));
    if (held > 0) await new Promise((resolve) => setTimeout(resolve, held));
  });

  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'POST' || req.routeOptions.url !== `${prefix}/shipments` || reply.statusCode !== 201 || isInternal(req, gw)) return payload;
    if (gw.faults.takeDrop()) {
      // The shipment is committed; the client only sees the connection die.
      req.raw.socket.destroy();
    }
    return payload;
  });

  return gw;
}
