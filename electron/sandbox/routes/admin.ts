/**
 * The admin prefix `/__sandbox/`, kept apart from the API: no OAuth, only
 * answered to loopback peers (127.0.0.1, ::1; anyone else gets 404 as if it
 * did not exist), JSON in and out, errors in the API's envelope.
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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { planUsage } from '../access';
import { notFound, parseOrThrow } from '../errors';
import { FaultsRequest } from '../faults';
import type { Gateway } from '../gateway';
import type { RouteTable } from '../http';
import type { SandboxSeed } from '../model';
import { fieldKind, resetState } from '../persist';
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
): void {
  // A private copy: tests may change live accounts (nested objects shared with the seed); reset must not see that.
  const pristine = structuredClone(seed);
  const route = (method: 'GET' | 'POST' | 'DELETE', path: string, handler: (req: FastifyRequest) => unknown) => {
    const url = ADMIN_PREFIX + path;
    table.add(method, url);
    app.route({
      method,
      url,
      handler: async (req, reply) => {
        if (!isLoopback(req)) throw notFound(`No endpoint ${req.method} ${url}`);
        return reply.code(200).send(handler(req));
      },
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
