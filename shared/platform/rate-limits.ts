/**
 * Per-endpoint rate limits of the Client Shipping API 2026-09 (spec: Limits >
 * Rate limits), read from the endpoint table (endpoints.ts) for both sides:
 * the station's platform client delays calls to stay under them, the sandbox
 * refuses calls over them with 429 `rate_limited`.
 */
import { ENDPOINTS, routeOf, type Endpoint } from './endpoints';

/**
 * Calls per minute and client, keyed `"<METHOD> <path template>"` with the
 * path relative to `{base_url}` and path parameters written `{name}`.
 * Endpoints not listed are not limited (the spec shows no limit for them).
 */
export const SPEC_RATE_LIMITS_PER_MINUTE: Readonly<Record<string, number>> = Object.fromEntries(
  Object.values(ENDPOINTS as Record<string, Endpoint>).flatMap((e) => (e.ratePerMinute === undefined ? [] : [[routeOf(e), e.ratePerMinute]])),
);
