/**
 * Conformance of the sandbox's admin prefix `/__sandbox/` (sandbox feature,
 * not part of the platform spec; routes/admin.ts, faults.ts): simulated
 * clock, injected faults (latency, 500/503, 502 carrier_error, answer lost
 * after commit), reset with a seed, state summary, loopback only, no OAuth.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxApp, demoSeed, SandboxState, SimClock, type Sandbox } from '../../../electron/sandbox/index';
import { MONDAY_2026_09_14, caller, pkg, recipient, start, tokenFor, type Caller, type ErrorBody } from '../sandbox/helpers';
import { admin, renewingCaller } from './admin-client';

const body = (reference: string) => ({ recipient: recipient(), packages: [pkg(1)], reference });

describe('admin prefix', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb } = await start({ clock: MONDAY_2026_09_14 }));
    a = renewingCaller(sb, 0);
  });
  afterAll(async () => {
    await sb.close();
  });
  afterEach(async () => {
    expect((await admin(sb, 'DELETE', '/faults')).status).toBe(200);
  });

  describe('clock', () => {
    it('reads, advances (units summed) and sets the simulated clock, which the API follows', async () => {
      const token = await tokenFor(sb, 0);
      const t0 = await admin<{ now: string; local: string }>(sb, 'GET', '/clock');
      expect(t0.status).toBe(200);
      expect(t0.body).toEqual({ now: '2026-09-14T08:00:00.000Z', local: '2026-09-14T10:00:00+02:00' });
      const adv = await admin<{ now: string }>(sb, 'POST', '/clock/advance', { hours: 1, minutes: 30, seconds: 15, ms: 500 });
      expect(adv.body.now).toBe('2026-09-14T09:30:15.500Z');
      // A token issued at 08:00 lasts one hour.
      const r = await caller(sb, token)<ErrorBody>('GET', '/carriers');
      expect(r.status).toBe(401);
      const set = await admin<{ now: string; local: string }>(sb, 'POST', '/clock/set', { at: '2026-09-14T10:00:00+02:00' });
      expect(set.body).toEqual({ now: '2026-09-14T08:00:00.000Z', local: '2026-09-14T10:00:00+02:00' });
      expect((await a('GET', '/carriers')).status).toBe(200);
      await admin(sb, 'POST', '/clock/advance', { days: 1 });
      expect((await admin<{ local: string }>(sb, 'GET', '/clock')).body.local).toBe('2026-09-15T10:00:00+02:00');
      await admin(sb, 'POST', '/clock/set', { at: '2026-09-14T08:00:00Z' });
    });

    it('validates the bodies with the API envelope', async () => {
      for (const [path, b, key] of [
        ['/clock/advance', {}, '_'],
        ['/clock/advance', { hours: -1 }, 'hours'],
        ['/clock/advance', { weeks: 1 }, '_'],
        ['/clock/set', { at: 'tomorrow' }, 'at'],
        ['/clock/set', {}, 'at'],
      ] as const) {
        const r = await admin<ErrorBody>(sb, 'POST', path, b);
        expect(r.status, `${path} ${JSON.stringify(b)}`).toBe(422);
        expect(r.body.error.code).toBe('validation_failed');
        expect(Object.keys(r.body.error.details ?? {}), JSON.stringify(r.body)).toContain(key);
      }
    });

    it('answers 405 for a wrong method and needs no OAuth token', async () => {
      const r = await admin<ErrorBody>(sb, 'DELETE', '/clock');
      expect(r.status).toBe(405);
      expect(r.body.error.code).toBe('method_not_allowed');
      expect((await admin(sb, 'GET', '/state')).status).toBe(200);
    });
  });

  describe('faults', () => {
    it('carrierError next N: 502 carrier_error on POST /shipments, nothing created or charged, then normal again', async () => {
      const before = (await a<{ balance: number }>('GET', '/credit')).body.balance;
      const set = await admin<{ carrierError: { next: number; share: number; endpoints: string[] } }>(sb, 'POST', '/faults', { carrierError: { next: 2 } });
      expect(set.status).toBe(200);
      expect(set.body.carrierError).toMatchObject({ next: 2, share: 0 });
      expect(set.body.carrierError.endpoints).toContain('POST /shipments');
      for (let i = 0; i < 2; i++) {
        const r = await a<ErrorBody>('POST', '/shipments', body('CE-1'));
        expect(r.status).toBe(502);
        expect(r.body.error.code).toBe('carrier_error');
      }
      expect((await a<{ meta: { total: number } }>('GET', '/shipments?reference=CE-1')).body.meta.total).toBe(0);
      expect((await a<{ balance: number }>('GET', '/credit')).body.balance).toBe(before);
      // Endpoints not listed are untouched.
      expect((await a('POST', '/rates', { recipient: { address: { postalCode: '20123', countryCode: 'IT' } }, packages: [pkg(1)] })).status).toBe(200);
      expect((await a('POST', '/shipments', body('CE-1'))).status).toBe(201);
    });

    it('carrierError share 1 on chosen endpoints, until DELETE /faults', async () => {
      await admin(sb, 'POST', '/faults', { carrierError: { share: 1, endpoints: ['POST /rates'] } });
      const quote = { recipient: { address: { postalCode: '20123', countryCode: 'IT' } }, packages: [pkg(1)] };
      for (let i = 0; i < 3; i++) expect((await a('POST', '/rates', quote)).status).toBe(502);
      expect((await a('POST', '/shipments', body('CE-2'))).status).toBe(201);
      const cleared = await admin(sb, 'DELETE', '/faults');
      expect(cleared.body).toEqual({ latencyMs: 0, serverErrorShare: 0, carrierError: null, dropAfterCommit: null });
      expect((await a('POST', '/rates', quote)).status).toBe(200);
    });

    it('serverErrorShare: that share of API calls answers 500/503 internal_error, reproducibly with a seed', async () => {
      await admin(sb, 'POST', '/faults', { serverErrorShare: 1 });
      const seen = new Set<number>();
      for (let i = 0; i < 20; i++) {
        const r = await a<ErrorBody>('GET', '/carriers');
        expect([500, 503]).toContain(r.status);
        expect(r.body.error.code).toBe('internal_error');
        seen.add(r.status);
      }
      expect([...seen].sort()).toEqual([500, 503]);
      const run = async () => {
        await admin(sb, 'POST', '/faults', { serverErrorShare: 0.5, seed: 42 });
        const out: number[] = [];
        for (let i = 0; i < 30; i++) out.push((await a('GET', '/carriers')).status);
        return out;
      };
      const first = await run();
      const second = await run();
      expect(second).toEqual(first);
      const failures = first.filter((s) => s !== 200).length;
      expect(failures).toBeGreaterThan(5);
      expect(failures).toBeLessThan(25);
      // The token endpoint and the admin prefix are not affected.
      expect(await tokenFor(sb, 0)).toMatch(/.+/);
      expect((await admin(sb, 'GET', '/state')).status).toBe(200);
    });

    it('latencyMs delays every API call by that much real time', async () => {
      await admin(sb, 'POST', '/faults', { latencyMs: 250 });
      const t = performance.now();
      expect((await a('GET', '/carriers')).status).toBe(200);
      expect(performance.now() - t).toBeGreaterThanOrEqual(240);
      await admin(sb, 'POST', '/faults', { latencyMs: null });
      expect((await admin<{ latencyMs: number }>(sb, 'GET', '/faults')).body.latencyMs).toBe(0);
    });

    it('dropAfterCommit: the shipment is created and charged, the connection dies without an answer', async () => {
      const before = (await a<{ balance: number }>('GET', '/credit')).body.balance;
      await admin(sb, 'POST', '/faults', { dropAfterCommit: { next: 1 } });
      await expect(a('POST', '/shipments', body('DROP-1'))).rejects.toThrow();
      const found = await a<{ data: Array<{ reference: string; cost: { total: number } }> }>('GET', '/shipments?reference=DROP-1');
      expect(found.body.data).toHaveLength(1);
      const after = (await a<{ balance: number }>('GET', '/credit')).body.balance;
      expect(after).toBeCloseTo(before - found.body.data[0]!.cost.total, 2);
      // Used up: the next one answers.
      expect((await admin<{ dropAfterCommit: unknown }>(sb, 'GET', '/faults')).body.dropAfterCommit).toBeNull();
      expect((await a('POST', '/shipments', body('DROP-2'))).status).toBe(201);
    });

    it('validates the faults body', async () => {
      for (const [b, key] of [
        [{ serverErrorShare: 2 }, 'serverErrorShare'],
        [{ carrierError: {} }, 'carrierError'],
        [{ carrierError: { next: 1, endpoints: ['shipments'] } }, 'carrierError.endpoints.0'],
        [{ dropAfterCommit: { next: 0 } }, 'dropAfterCommit.next'],
        [{ latencyMs: -5 }, 'latencyMs'],
      ] as const) {
        const r = await admin<ErrorBody>(sb, 'POST', '/faults', b);
        expect(r.status, JSON.stringify(b)).toBe(422);
        expect(Object.keys(r.body.error.details ?? {}), JSON.stringify(r.body)).toContain(key);
      }
    });
  });

  describe('reset and state', () => {
    it('summarises the state: clock, faults, accounts, size of every collection', async () => {
      const r = await admin<{ clock: { now: string }; collections: Record<string, number>; accounts: Array<{ clientId: string; shipmentsThisMonth: number }>; rateLimits: boolean }>(
        sb,
        'GET',
        '/state',
      );
      expect(r.status).toBe(200);
      expect(r.body.collections.shipments).toBeGreaterThan(0);
      expect(r.body.collections).toHaveProperty('manifests');
      expect(r.body.collections).toHaveProperty('pickups');
      expect(r.body.accounts.map((x) => x.clientId)).toEqual(sb.clients.map((c) => c.clientId));
      expect(r.body.accounts[0]!.shipmentsThisMonth).toBe(r.body.collections.shipments);
      expect(r.body.rateLimits).toBe(false);
    });

    it('reset: fresh data from the seed, tokens and clock kept, the same seed gives the same tracking numbers', async () => {
      const token = await tokenFor(sb, 0);
      const clockBefore = (await admin<{ now: string }>(sb, 'GET', '/clock')).body.now;
      await a('POST', '/shipments', body('BEFORE-RESET'));
      const first = await admin<{ collections: Record<string, number>; accounts: Array<{ credit: { balance: number } }> }>(sb, 'POST', '/reset', { seed: 7 });
      expect(first.status).toBe(200);
      expect(first.body.collections.shipments).toBe(0);
      expect(first.body.accounts[0]!.credit.balance).toBe(500);
      expect((await admin<{ now: string }>(sb, 'GET', '/clock')).body.now).toBe(clockBefore);
      // Tokens survive a reset.
      expect((await caller(sb, token)('GET', '/carriers')).status).toBe(200);
      expect((await a<{ meta: { total: number } }>('GET', '/shipments')).body.meta.total).toBe(0);
      const one = await a<{ trackingNumber: string }>('POST', '/shipments', body('AFTER-RESET'));
      expect(one.status).toBe(201);
      await admin(sb, 'POST', '/reset', { seed: 7 });
      const again = await a<{ trackingNumber: string }>('POST', '/shipments', body('AFTER-RESET'));
      expect(again.body.trackingNumber).toBe(one.body.trackingNumber);
      // Live changes to an account do not survive a reset.
      sb.state.accounts[0]!.credit.balance = 1;
      await admin(sb, 'POST', '/reset', {});
      expect((await a<{ balance: number }>('GET', '/credit')).body.balance).toBe(500);
      const bad = await admin<ErrorBody>(sb, 'POST', '/reset', { seed: 'x' });
      expect(bad.status).toBe(422);
    });
  });
});

describe('admin prefix: loopback only', () => {
  it('answers 404 to a peer that is not on the loopback interface', async () => {
    const app = buildSandboxApp(new SandboxState(demoSeed(), new SimClock(MONDAY_2026_09_14)));
    try {
      const remote = await app.inject({ method: 'GET', url: '/__sandbox/state', remoteAddress: '192.0.2.10' });
      expect(remote.statusCode).toBe(404);
      expect((JSON.parse(remote.body) as ErrorBody).error.code).toBe('not_found');
      const local = await app.inject({ method: 'GET', url: '/__sandbox/clock', remoteAddress: '127.0.0.1' });
      expect(local.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is not reachable under the API prefix nor with a token', async () => {
    const { sb, a } = await start({ clock: MONDAY_2026_09_14 });
    try {
      expect((await a('GET', '/__sandbox/state')).status).toBe(404);
      expect((await caller(sb, undefined)('POST', '/__sandbox/reset', {})).status).toBe(404);
    } finally {
      await sb.close();
    }
  });
});
