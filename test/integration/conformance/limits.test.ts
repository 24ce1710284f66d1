/**
 * Conformance: Limits (spec: Limits > Rate limits, Other bounds; Paginated
 * list envelope). Rate limits are per client and per endpoint, on a one-minute
 * sliding window of the simulated clock; beyond the limit 429 `rate_limited`
 * with `Retry-After`. Every authenticated call counts (a 422 too), so the
 * suite spends the window with cheap invalid calls. Also: `per_page` bounds
 * and defaults on every paginated list, and the default periods of the
 * shipment and pickup lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { RATE_LIMITS } from '../../../electron/sandbox/ratelimit';
import { MONDAY_2026_09_14, caller, pkg, recipient, start, tokenFor, type Caller, type ErrorBody } from '../sandbox/helpers';
import { admin, advance } from './admin-client';

/** One cheap call per limited endpoint: `[method, path, body]` (ids that do not exist still count). */
const CALLS: Record<string, [string, string, unknown?]> = {
  'POST /rates': ['POST', '/rates', {}],
  'POST /shipments': ['POST', '/shipments', {}],
  'POST /orders': ['POST', '/orders', {}],
  'POST /pickups': ['POST', '/pickups', {}],
  'POST /manifests': ['POST', '/manifests', {}],
  'GET /delivery-points': ['GET', '/delivery-points'],
  'GET /taric': ['GET', '/taric'],
  'GET /invoices/{id}/pdf': ['GET', '/invoices/999999/pdf'],
  'POST /webhooks/{id}/test': ['POST', '/webhooks/999999/test', {}],
};

describe('rate limits (429 rate_limited)', () => {
  let sb: Sandbox;
  let a: Caller;
  let b: Caller;
  beforeAll(async () => {
    ({ sb, a, b } = await start({ clock: MONDAY_2026_09_14, rateLimits: true }));
  });
  afterAll(async () => {
    await sb.close();
  });

  it('covers every endpoint of the spec table', () => {
    expect(Object.keys(CALLS).sort()).toEqual(Object.keys(RATE_LIMITS).sort());
  });

  for (const [endpoint, limit] of Object.entries(RATE_LIMITS)) {
    it(`${endpoint}: ${limit} per minute and client, then 429 with Retry-After; the window slides on the simulated clock`, async () => {
      const [method, path, body] = CALLS[endpoint]!;
      for (let i = 0; i < limit; i++) {
        const r = await a(method, path, body);
        expect(r.status, `${endpoint} call ${i + 1}: ${JSON.stringify(r.body)}`).not.toBe(429);
        // A missing route would answer 404 before the limiter; the endpoint must exist.
        expect((r.body as ErrorBody | undefined)?.error?.message ?? '').not.toMatch(/^No endpoint/);
        expect(r.headers.get('x-ratelimit-limit')).toBe(String(limit));
        expect(r.headers.get('x-ratelimit-remaining')).toBe(String(limit - i - 1));
      }
      const over = await a<ErrorBody>(method, path, body);
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('rate_limited');
      const retry = Number(over.headers.get('retry-after'));
      expect(Number.isInteger(retry)).toBe(true);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);

      // Another client has its own allowance.
      expect((await b(method, path, body)).status).not.toBe(429);

      // Just before Retry-After: still limited; after it: allowed again.
      await advance(sb, { ms: retry * 1000 - 1500 });
      expect((await a(method, path, body)).status).toBe(429);
      await advance(sb, { ms: 1500 });
      expect((await a(method, path, body)).status).not.toBe(429);
      // Leave a clean minute for the next endpoint's test.
      await advance(sb, { minutes: 2 });
    });
  }

  it('does not limit endpoints outside the table (the spec does not show their limits)', async () => {
    for (let i = 0; i < 120; i++) {
      const r = await a('GET', '/shipments?per_page=1');
      expect(r.status).toBe(200);
    }
    for (let i = 0; i < 80; i++) expect((await a('GET', '/carriers')).status).toBe(200);
  });

  it('refuses without counting: a client hammering a limited endpoint recovers one minute after its last counted call', async () => {
    for (let i = 0; i < 5; i++) expect((await a('POST', '/manifests', {})).status).not.toBe(429);
    await advance(sb, { seconds: 30 });
    for (let i = 0; i < 20; i++) expect((await a('POST', '/manifests', {})).status).toBe(429);
    await advance(sb, { seconds: 31 });
    expect((await a('POST', '/manifests', {})).status).not.toBe(429);
    await advance(sb, { minutes: 2 });
  });

  it('counts legitimate calls: 30 shipments in a minute, the 31st is refused and nothing is created or charged', async () => {
    const before = (await a<{ balance: number }>('GET', '/credit')).body.balance;
    const body = { recipient: recipient(), packages: [pkg(1)], serviceType: 'BRT-EXP-NAZ' };
    let spent = 0;
    for (let i = 0; i < 30; i++) {
      const r = await a<{ cost: { total: number } }>('POST', '/shipments', { ...body, reference: `RL-${i}` });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      spent += r.body.cost.total;
    }
    const over = await a<ErrorBody>('POST', '/shipments', { ...body, reference: 'RL-30' });
    expect(over.status).toBe(429);
    const list = await a<{ meta: { total: number } }>('GET', '/shipments?reference=RL-30');
    expect(list.body.meta.total).toBe(0);
    const after = (await a<{ balance: number }>('GET', '/credit')).body.balance;
    expect(after).toBeCloseTo(before - spent, 2);
    await advance(sb, { minutes: 2 });
  });

  it('can be switched off and on through the admin prefix', async () => {
    expect((await admin(sb, 'POST', '/rate-limits', { enabled: false })).status).toBe(200);
    for (let i = 0; i < 8; i++) expect((await a('POST', '/manifests', {})).status).not.toBe(429);
    const on = await admin<{ enabled: boolean; limits: Record<string, number> }>(sb, 'POST', '/rate-limits', { enabled: true });
    expect(on.body).toEqual({ enabled: true, limits: RATE_LIMITS });
    for (let i = 0; i < 5; i++) expect((await a('POST', '/manifests', {})).status).not.toBe(429);
    expect((await a('POST', '/manifests', {})).status).toBe(429);
    await advance(sb, { minutes: 2 });
  });
});

/** Every paginated list of the spec, with what it needs (a webhook id for deliveries). */
function lists(webhookId: number): string[] {
  return [
    '/shipments',
    '/manifests',
    '/pickups',
    '/stocks',
    `/webhooks/${webhookId}/deliveries`,
    '/invoices',
    '/credit/movements',
    '/cod-lists',
    '/returns',
  ];
}

describe('pagination bounds on every list (per_page 1..200, default 50; page >= 1)', () => {
  let sb: Sandbox;
  let a: Caller;
  let webhookId = 0;
  beforeAll(async () => {
    ({ sb, a } = await start({ clock: MONDAY_2026_09_14 }));
    const w = await a<{ id: number }>('POST', '/webhooks', { url: 'https://receiver.example/hooks', events: ['tracking.update'] });
    expect(w.status, JSON.stringify(w.body)).toBe(201);
    webhookId = w.body.id;
  });
  afterAll(async () => {
    await sb.close();
  });

  it('answers the envelope with per_page 50 by default and the given per_page within bounds', async () => {
    for (const path of lists(webhookId)) {
      const d = await a<{ data: unknown[]; links: Record<string, unknown>; meta: Record<string, unknown> }>('GET', path);
      expect(d.status, `${path}: ${JSON.stringify(d.body)}`).toBe(200);
      expect(Array.isArray(d.body.data), path).toBe(true);
      expect(Object.keys(d.body.links).sort(), path).toEqual(['first', 'last', 'next', 'prev']);
      expect(d.body.meta, path).toMatchObject({ current_page: 1, per_page: 50 });
      for (const perPage of [1, 200]) {
        const r = await a<{ meta: { per_page: number } }>('GET', `${path}?per_page=${perPage}`);
        expect(r.status, path).toBe(200);
        expect(r.body.meta.per_page, path).toBe(perPage);
      }
    }
  });

  it('answers 422 validation_failed on per_page out of 1..200 or page < 1', async () => {
    for (const path of lists(webhookId)) {
      for (const [q, key] of [
        ['per_page=0', 'per_page'],
        ['per_page=201', 'per_page'],
        ['per_page=abc', 'per_page'],
        ['page=0', 'page'],
      ] as const) {
        const r = await a<ErrorBody>('GET', `${path}?${q}`);
        expect(r.status, `${path}?${q}`).toBe(422);
        expect(r.body.error.code).toBe('validation_failed');
        expect(Object.keys(r.body.error.details ?? {}), `${path}?${q}`).toContain(key);
      }
    }
  });
});

describe('default periods (shipment and pickup lists: last 30 days)', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb, a } = await start({ clock: MONDAY_2026_09_14 }));
  });
  afterAll(async () => {
    await sb.close();
  });

  it('leaves out shipments and pickups older than 30 days unless the period asks for them', async () => {
    const s = await a<{ trackingNumber: string }>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'OLD-1' });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    const p = await a<{ id: number }>('POST', '/pickups', { serviceType: 'BRT-EXP-NAZ', pickupDate: '2026-09-15', packages: [pkg(2)] });
    expect(p.status, JSON.stringify(p.body)).toBe(201);

    await advance(sb, { days: 30 });
    // Days pass between the reads: each read takes a fresh token.
    const get = async (path: string) => {
      const r = await caller(sb, await tokenFor(sb, 0))<{ meta: { total: number } }>('GET', path);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };
    // 2026-10-14: the shipment of 2026-09-14 is exactly 30 days old -> still in.
    expect((await get('/shipments?reference=OLD-1')).meta.total).toBe(1);
    await advance(sb, { days: 1 });
    expect((await get('/shipments?reference=OLD-1')).meta.total).toBe(0);
    expect((await get('/shipments?reference=OLD-1&from=2026-09-01')).meta.total).toBe(1);
    // Pickups filter on the pickup date (2026-09-15): in on 2026-10-15, out the day after.
    expect((await get('/pickups')).meta.total).toBe(1);
    await advance(sb, { days: 1 });
    expect((await get('/pickups')).meta.total).toBe(0);
    expect((await get('/pickups?from=2026-09-15&to=2026-09-15')).meta.total).toBe(1);
  });
});
