/**
 * The admin prefix `/__sandbox/`, kept apart from the API: no OAuth, only
 * answered to loopback peers (127.0.0.1, ::1; anyone else gets 404 as if it
 * did not exist), JSON in and out, errors in the API's envelope.
 *
 * A web page in the packer's browser is a loopback peer too, so (issue 15
 * item 6; a foreign page could reset the training day) every admin request
 * must also, checked by a route-level hook whatever the path's spelling:
 * - carry a `Host` naming the sandbox itself on loopback (`127.0.0.1:<port>`,
 *   `localhost:<port>`, `[::1]:<port>`): defeats DNS rebinding (403);
 * - carry no `Origin`, or that same origin: defeats cross-site requests (403);
 * - send a body only as JSON (`application/json` or `+json`): a form post or
 *   `text/plain`, which a page can send without a CORS preflight, is 415
 *   `validation_failed` at `_body`;
 * - when the sandbox is embedded in a station (`createSandbox({adminToken})`),
 *   carry the station's token in `x-station-token` (401 without it).
 *
 * - `GET /__sandbox/clock` -> `{now, local}` (UTC and Europe/Rome ISO 8601);
 * - `POST /__sandbox/clock/advance` `{ms?, seconds?, minutes?, hours?, days?}` (summed, >= 0) -> `{now, local}`;
 * - `POST /__sandbox/clock/set` `{at}` (ISO 8601 date-time) -> `{now, local}`;
 * - `GET /__sandbox/faults`, `POST /__sandbox/faults` (faults.ts `FaultsRequest`), `DELETE /__sandbox/faults` -> the faults in force;
 * - `GET /__sandbox/rate-limits`, `POST /__sandbox/rate-limits` `{enabled}` -> `{enabled, limits}` (the spec's table);
 * - `POST /__sandbox/reset` `{seed?}` -> fresh state from the sandbox's seed
 *   (`seed` = tracking-number seed; tokens, clock and faults kept; rate-limit windows cleared) -> the summary;
 * - `GET /__sandbox/state` -> summary: clock, faults, accounts, size of every collection.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { foreignRequestHeader } from '../../../shared/domain/local-request';
import { planUsage } from '../access';
import { ApiError, notFound, parseOrThrow } from '../errors';
import { FaultsRequest } from '../faults';
import type { Gateway } from '../gateway';
import type { RouteTable } from '../http';
import type { SandboxSeed } from '../model';
import { resetState } from '../persist';
import { fieldKind } from '../state-codec';
import { RATE_LIMITS } from '../ratelimit';
import type { SandboxState } from '../state';
import { localIso } from '../time';

/** Prefix of the admin routes. */
const ADMIN_PREFIX = '/__sandbox';

const nonNeg = (unit: string) => z.number({ error: `${unit} must be a number` }).min(0, { error: `${unit} must not be negative (use /clock/set to go back)` }).optional();

/** Body of `POST /__sandbox/clock/advance`: amounts summed; at least one. */
const ClockAdvanceRequest = z
  .strictObject({ ms: nonNeg('ms'), seconds: nonNeg('seconds'), minutes: nonNeg('minutes'), hours: nonNeg('hours'), days: nonNeg('days') })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { error: 'give at least one of ms, seconds, minutes, hours, days' });

/** Body of `POST /__sandbox/clock/set`: `at`, ISO 8601 date-time with offset or Z. */
const ClockSetRequest = z.strictObject({
  at: z.iso.datetime({ offset: true, error: 'at must be an ISO 8601 date-time with offset, e.g. 2026-09-14T10:00:00+02:00' }),
});

/** Body of `POST /__sandbox/rate-limits`: switch the rate limits on or off. */
const RateLimitsRequest = z.strictObject({ enabled: z.boolean({ error: 'enabled must be true or false' }) });

/** Body of `POST /__sandbox/reset`: optional tracking-number seed (integer). */
const ResetRequest = z.strictObject({ seed: z.number().int({ error: 'seed must be an integer' }).min(0).optional() });

/** Milliseconds of a {@link ClockAdvanceRequest}. */
function advanceMs(b: z.output<typeof ClockAdvanceRequest>): number {
  return (b.ms ?? 0) + (b.seconds ?? 0) * 1e3 + (b.minutes ?? 0) * 6e4 + (b.hours ?? 0) * 3.6e6 + (b.days ?? 0) * 8.64e7;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function isLoopback(req: FastifyRequest): boolean {
  const addr = req.socket.remoteAddress ?? '';
  return LOOPBACK.has(addr) || addr.startsWith('127.');
}

/** Header carrying the embedding station's token to the admin prefix. */
const ADMIN_TOKEN_HEADER = 'x-station-token';

/** Options of {@link registerAdminRoutes}. */
export interface AdminOptions {
  /** Token every admin request must carry in {@link ADMIN_TOKEN_HEADER} (the embedding station's); none: no token asked. */
  token?: string;
}

/** Body media types the admin prefix reads (anything else with a body is 415). */
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/** Constant-time comparison of a presented token (length leak only). */
function tokenMatches(given: unknown, expected: Buffer): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const b = Buffer.from(given, 'utf8');
  return b.length === expected.length && timingSafeEqual(b, expected);
}

/**
 * Host, Origin, media type and token checks of one admin request (see the
 * module doc). `port` is the port the sandbox listens on; undefined when it
 * does not listen (`app.inject` in tests), then `Host` may name port 80 or none.
 * @throws ApiError 403 `forbidden`, 415 `validation_failed` (`_body`), 401 `unauthenticated`.
 */
function checkAdminRequest(req: FastifyRequest, port: number | undefined, token: Buffer | undefined): void {
  const foreign = foreignRequestHeader({ host: req.headers.host, origin: req.headers.origin }, port);
  if (foreign === 'host') throw new ApiError(403, 'forbidden', 'Host not allowed: the admin prefix answers only to its own loopback address');
  if (foreign === 'origin') throw new ApiError(403, 'forbidden', 'Origin not allowed: the admin prefix takes no cross-site requests');
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  const type = req.headers['content-type'];
  if ((hasBody || type !== undefined) && !JSON_TYPE.test(type ?? '')) {
    throw new ApiError(415, 'validation_failed', 'The admin prefix reads JSON bodies only', { _body: [`Unsupported Content-Type "${type ?? ''}": send application/json`] });
  }
  if (token && !tokenMatches(req.headers[ADMIN_TOKEN_HEADER], token)) {
    throw new ApiError(401, 'unauthenticated', `Missing or wrong ${ADMIN_TOKEN_HEADER}: this sandbox is embedded in a station and needs its token`);
  }
}

/** Clock answer: simulated now in UTC and Europe/Rome. */
function clockView(state: SandboxState): { now: string; local: string } {
  const now = state.clock.now();
  return { now: now.toISOString(), local: localIso(now) };
}

/** Summary of the state: clock, faults, accounts and the size of every data collection (generic over the state's fields). */
function stateSummary(state: SandboxState, gw: Gateway): Record<string, unknown> {
  const rec = state as unknown as Record<string, unknown>;
  const collections: Record<string, number> = {};
  for (const key of Object.keys(state)) {
    const v = rec[key];
    if (fieldKind(v) !== 'data') continue;
    if (Array.isArray(v)) collections[key] = v.length;
    else if (v instanceof Map || v instanceof Set) collections[key] = v.size;
  }
  const now = state.clock.now();
  return {
    clock: clockView(state),
    faults: gw.faults.current,
    rateLimits: gw.rateLimits.enabled,
    collections,
    accounts: state.accounts.map((a) => ({
      accountId: a.accountId,
      clientId: a.clientId,
      name: a.name,
      credit: { balance: a.credit.balance, currency: a.credit.currency },
      subscription: a.subscription ?? null,
      access: a.access ?? null,
      shipmentsThisMonth: planUsage(state, a, now),
    })),
  };
}

/**
 * Registers the admin routes.
 * @param seed what `reset` rebuilds the state from (the sandbox's own seed).
 * @param onClockMoved called after the clock moved (e.g. to let simulated carrier progress catch up).
 */
export function registerAdminRoutes(
  app: FastifyInstance,
  table: RouteTable,
  state: SandboxState,
  gw: Gateway,
  seed: SandboxSeed,
  onClockMoved: () => void = () => undefined,
  opts: AdminOptions = {},
): void {
  // A private copy: tests may change live accounts (nested objects shared with the seed); reset must not see that.
  const pristine = structuredClone(seed);
  const token = opts.token ? Buffer.from(opts.token, 'utf8') : undefined;
  const listeningPort = (): number | undefined => {
    const a = app.server.address();
    return a !== null && typeof a === 'object' ? a.port : undefined;
  };
  const route = (method: 'GET' | 'POST' | 'DELETE', path: string, handler: (req: FastifyRequest) => unknown) => {
    const url = ADMIN_PREFIX + path;
    table.add(method, url);
    app.route({
      method,
      url,
      // On the route itself, before the body is read: whatever spelling routed here meets it.
      onRequest: async (req: FastifyRequest, _reply: FastifyReply) => {
        if (!isLoopback(req)) throw notFound(`No endpoint ${req.method} ${url}`);
        checkAdminRequest(req, listeningPort(), token);
      },
      handler: async (req, reply) => reply.code(200).send(handler(req)),
    });
  };

  route('GET', '/clock', () => clockView(state));
  route('POST', '/clock/advance', (req) => {
    state.clock.advance(advanceMs(parseOrThrow(ClockAdvanceRequest, req.body)));
    onClockMoved();
    return clockView(state);
  });
  route('POST', '/clock/set', (req) => {
    state.clock.set(new Date(parseOrThrow(ClockSetRequest, req.body).at));
    onClockMoved();
    return clockView(state);
  });
  route('GET', '/faults', () => gw.faults.current);
  route('POST', '/faults', (req) => gw.faults.apply(parseOrThrow(FaultsRequest, req.body)));
  route('DELETE', '/faults', () => {
    gw.faults.clear();
    return gw.faults.current;
  });
  const limitsView = () => ({ enabled: gw.rateLimits.enabled, limits: RATE_LIMITS });
  route('GET', '/rate-limits', limitsView);
  route('POST', '/rate-limits', (req) => {
    gw.rateLimits.enabled = parseOrThrow(RateLimitsRequest, req.body).enabled;
    if (!gw.rateLimits.enabled) gw.limiter.reset();
    return limitsView();
  });
  route('POST', '/reset', (req) => {
    const body = parseOrThrow(ResetRequest, req.body);
    resetState(state, { ...structuredClone(pristine), ...(body.seed !== undefined ? { randomSeed: body.seed } : {}) });
    gw.limiter.reset();
    return stateSummary(state, gw);
  });
  route('GET', '/state', () => stateSummary(state, gw));
}
