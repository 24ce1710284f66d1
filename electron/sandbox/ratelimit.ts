/**
 * Rate limits of the API (spec: Limits > Rate limits): per client, per
 * endpoint, a sliding window of 60 seconds of the simulated clock. Beyond the
 * limit the call answers 429 `rate_limited` with `Retry-After` (seconds until
 * the oldest counted call leaves the window).
 *
 * The table is keyed by method and route pattern and applied in one place
 * (the API gateway hook, gateway.ts), so route modules need no change.
 * Endpoints not in the table are not limited (the spec does not show their
 * limits). Every authenticated call that reaches the limiter counts, whatever
 * its answer (a 422 counts); calls refused with 429 do not.
 */
import { SPEC_RATE_LIMITS_PER_MINUTE } from '../../shared/platform/rate-limits';
import { ApiError } from './errors';

/** Length of the window, ms of the simulated clock (limits are per minute). */
export const RATE_WINDOW_MS = 60_000;

/**
 * Calls per minute and client, keyed `"<METHOD> <path pattern>"` with the
 * pattern relative to `{base_url}` and path parameters written `{name}`
 * (the name is ignored when matching). Source: spec, Limits table, kept in
 * shared/platform/rate-limits.ts so the station's client delays by the very
 * same numbers.
 */
export const RATE_LIMITS: Readonly<Record<string, number>> = SPEC_RATE_LIMITS_PER_MINUTE;

/** `/invoices/:id/pdf` or `/invoices/{invoiceId}/pdf` -> `/invoices/*\/pdf` (parameter names do not matter). */
export function normalizePattern(path: string): string {
  return path
    .split('/')
    .map((seg) => (seg.startsWith(':') || /^\{[^}]*\}$/.test(seg) ? '*' : seg))
    .join('/');
}

const NORMALIZED = new Map<string, number>(
  Object.entries(RATE_LIMITS).map(([key, limit]) => {
    const [method = '', path = ''] = key.split(' ');
    return [`${method} ${normalizePattern(path)}`, limit];
  }),
);

/**
 * Limit per minute of an endpoint, or undefined when not limited.
 * @param method HTTP method (any case).
 * @param pattern route pattern relative to `{base_url}`, fastify style (`/invoices/:id/pdf`) or spec style (`/invoices/{id}/pdf`).
 */
export function rateLimitFor(method: string, pattern: string): number | undefined {
  return NORMALIZED.get(`${method.toUpperCase()} ${normalizePattern(pattern)}`);
}

/** Outcome of {@link RateLimiter.take}: `limit`, calls `remaining` in the window after this one, and for a refused call the seconds to wait. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds (integer >= 1) until a call is allowed again; only when refused. */
  retryAfterSeconds?: number;
}

/**
 * Sliding-window log per (client, endpoint): the instants of the counted
 * calls of the last {@link RATE_WINDOW_MS}. Time is passed in (ms of the
 * simulated clock), so the limiter never reads the wall clock. Not the
 * station's SlidingWindowLimiter (core/platform/rate-limit.ts): that one
 * books future start slots and delays; this one counts past calls, refuses,
 * reports `remaining` and tolerates a clock moved backwards.
 */
export class RateLimiter {
  private readonly log = new Map<string, number[]>();

  /** @param windowMs window length in ms (default one minute). */
  constructor(private readonly windowMs = RATE_WINDOW_MS) {}

  /**
   * Counts one call of `clientKey` on `endpointKey` at `nowMs` when the limit
   * allows it; otherwise refuses it without counting it.
   * @throws RangeError when `limit` is not a positive integer.
   */
  take(clientKey: string, endpointKey: string, limit: number, nowMs: number): RateDecision {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Rate limit must be a positive integer, got ${limit}`);
    const key = `${clientKey}\u0000${endpointKey}`;
    const since = nowMs - this.windowMs;
    // A clock moved backwards leaves "future" entries; they still count until they age out.
    const times = (this.log.get(key) ?? []).filter((t) => t > since);
    if (times.length >= limit) {
      this.log.set(key, times);
      const oldest = Math.min(...times);
      const waitMs = oldest + this.windowMs - nowMs;
      return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    times.push(nowMs);
    this.log.set(key, times);
    return { allowed: true, limit, remaining: limit - times.length };
  }

  /** Forgets every counted call (sandbox reset). */
  reset(): void {
    this.log.clear();
  }
}

/**
 * 429 `rate_limited` with `Retry-After` and the limit headers.
 * @param decision a refused {@link RateDecision}.
 */
export function rateLimited(decision: RateDecision, endpoint: string): ApiError {
  const retry = decision.retryAfterSeconds ?? 60;
  return new ApiError(429, 'rate_limited', `Too many requests: ${endpoint} allows ${decision.limit} calls per minute; retry after ${retry} s`, undefined, {
    'Retry-After': String(retry),
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': '0',
  });
}
