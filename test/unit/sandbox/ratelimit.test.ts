import { describe, expect, it } from 'vitest';
import { normalizePattern, RATE_LIMITS, RATE_WINDOW_MS, RateLimiter, rateLimited, rateLimitFor } from '../../../electron/sandbox/ratelimit';

describe('rate limit table', () => {
  it('holds every limit of the spec (Limits > Rate limits), per minute', () => {
    expect(RATE_LIMITS).toEqual({
      'POST /rates': 60,
      'POST /shipments': 30,
      'POST /orders': 30,
      'POST /pickups': 10,
      'POST /manifests': 5,
      'GET /delivery-points': 30,
      'GET /taric': 60,
      'GET /invoices/{id}/pdf': 10,
      'POST /webhooks/{id}/test': 5,
    });
    expect(RATE_WINDOW_MS).toBe(60_000);
  });

  it('matches fastify and spec patterns whatever the parameter names', () => {
    expect(normalizePattern('/invoices/:invoiceId/pdf')).toBe('/invoices/*/pdf');
    expect(normalizePattern('/invoices/{id}/pdf')).toBe('/invoices/*/pdf');
    expect(rateLimitFor('get', '/invoices/:invoiceId/pdf')).toBe(10);
    expect(rateLimitFor('POST', '/webhooks/{webhookId}/test')).toBe(5);
    expect(rateLimitFor('POST', '/shipments')).toBe(30);
  });

  it('leaves endpoints outside the table unlimited', () => {
    expect(rateLimitFor('GET', '/shipments')).toBeUndefined();
    expect(rateLimitFor('GET', '/rates')).toBeUndefined();
    expect(rateLimitFor('DELETE', '/shipments/:ldv')).toBeUndefined();
    expect(rateLimitFor('GET', '/invoices/:id')).toBeUndefined();
  });
});

describe('RateLimiter (sliding window on a given clock)', () => {
  it('allows the limit, refuses the next with the seconds until the oldest call leaves the window', () => {
    const rl = new RateLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < 5; i++) {
      const d = rl.take('1017', 'POST /manifests', 5, t0 + i * 1000);
      expect(d).toEqual({ allowed: true, limit: 5, remaining: 4 - i });
    }
    const refused = rl.take('1017', 'POST /manifests', 5, t0 + 10_500);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    // Oldest at t0 leaves at t0+60 s: 49.5 s later, rounded up.
    expect(refused.retryAfterSeconds).toBe(50);
    // Refused calls do not count: right when the oldest leaves, one call is allowed again.
    expect(rl.take('1017', 'POST /manifests', 5, t0 + 59_999).allowed).toBe(false);
    expect(rl.take('1017', 'POST /manifests', 5, t0 + 60_000).allowed).toBe(true);
    // The second oldest (t0 + 1 s) is still inside the window.
    expect(rl.take('1017', 'POST /manifests', 5, t0 + 60_001).allowed).toBe(false);
  });

  it('counts per client and per endpoint', () => {
    const rl = new RateLimiter();
    for (let i = 0; i < 2; i++) expect(rl.take('a', 'POST /x', 2, 0).allowed).toBe(true);
    expect(rl.take('a', 'POST /x', 2, 0).allowed).toBe(false);
    expect(rl.take('b', 'POST /x', 2, 0).allowed).toBe(true);
    expect(rl.take('a', 'POST /y', 2, 0).allowed).toBe(true);
    rl.reset();
    expect(rl.take('a', 'POST /x', 2, 0).allowed).toBe(true);
  });

  it('never answers a Retry-After below 1 second and refuses a bad limit', () => {
    const rl = new RateLimiter();
    rl.take('a', 'e', 1, 0);
    expect(rl.take('a', 'e', 1, 59_999).retryAfterSeconds).toBe(1);
    expect(() => rl.take('a', 'e', 0, 0)).toThrow(RangeError);
  });

  it('builds the 429 rate_limited error with Retry-After', () => {
    const e = rateLimited({ allowed: false, limit: 5, remaining: 0, retryAfterSeconds: 12 }, 'POST /manifests');
    expect(e.status).toBe(429);
    expect(e.code).toBe('rate_limited');
    expect(e.headers).toMatchObject({ 'Retry-After': '12', 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '0' });
  });
});
