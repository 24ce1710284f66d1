/**
 * Per-endpoint rate limits of the Client Shipping API 2026-09 (spec: Limits >
 * Rate limits), one table for both sides: the station's platform client
 * delays calls to stay under them, the sandbox refuses calls over them with
 * 429 `rate_limited`.
 */

/**
 * Calls per minute and client, keyed `"<METHOD> <path template>"` with the
 * path relative to `{base_url}` and path parameters written `{name}`.
 * Endpoints not listed are not limited (the spec shows no limit for them).
 * Source: spec, Limits table.
 */
export const SPEC_RATE_LIMITS_PER_MINUTE: Readonly<Record<string, number>> = {
  'POST /rates': 60,
  'POST /shipments': 30,
  'POST /orders': 30,
  'POST /pickups': 10,
  'POST /manifests': 5,
  'GET /delivery-points': 30,
  'GET /taric': 60,
  'GET /invoices/{id}/pdf': 10,
  'POST /webhooks/{id}/test': 5,
};
