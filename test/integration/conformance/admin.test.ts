/**
 * Conformance of the sandbox's admin prefix `/__sandbox/` (sandbox feature,
 * not part of the platform spec; routes/admin.ts, faults.ts): simulated
 * clock, injected faults (latency, 500/503, 502 carrier_error, answer lost
 * after commit), reset with a seed, state summary, loopback only, no OAuth.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../electron/core/config';
import { startStation } from '../../../electron/shell/start';
import { startHost } from '../../../electron/host/server';
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
      expect(cleared.body).toEqual({ latencyMs: 0, serverErrorShare: 0, carrierError: null, dropAfterCommit: null, hold: null });
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

/**
 * Issue 15 item 6: a web page in the packer's browser is a loopback peer too.
 * Raw requests (node:http lets a test set Host and Origin as an attacker's
 * page or a rebinding DNS name would); every refusal leaves the state as it
 * was (the clock does not move, the day is not reset).
 */
describe('admin prefix: Host, Origin, JSON only, the station token when embedded', () => {
  interface Raw {
    status: number;
    body: ErrorBody;
  }
  function raw(sb: Sandbox, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
    const u = new URL(sb.authUrl);
    return new Promise((resolve, reject) => {
      const req = http.request({ host: u.hostname, port: Number(u.port), method, path, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : undefined) as ErrorBody }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  let sb: Sandbox;
  let own: string;
  beforeAll(async () => {
    ({ sb } = await start({ clock: MONDAY_2026_09_14 }));
    own = new URL(sb.authUrl).host;
  });
  afterAll(async () => {
    await sb.close();
  });

  const advance = JSON.stringify({ days: 1 });

  it('refuses a foreign Host (DNS rebinding) with 403, the clock unmoved', async () => {
    const before = sb.clock.nowMs();
    for (const host of ['evil.example', `evil.example:${new URL(sb.authUrl).port}`, `127.0.0.1:${Number(new URL(sb.authUrl).port) + 1}`, `${own}.evil.example`]) {
      const r = await raw(sb, 'POST', '/__sandbox/clock/advance', { host, 'content-type': 'application/json' }, advance);
      expect(r.status, host).toBe(403);
      expect(r.body.error.code).toBe('forbidden');
    }
    expect(sb.clock.nowMs()).toBe(before);
  });

  it('refuses a cross-site Origin (403), even with its own Host: the verified POST /__sandbox/reset from a foreign page', async () => {
    const shipments = sb.state.shipments.length;
    const a = caller(sb, await tokenFor(sb, 0));
    expect((await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)] })).status).toBe(201);
    for (const origin of ['http://evil.example', 'null', `https://${own}`, `http://${own}.evil.example`]) {
      const r = await raw(sb, 'POST', '/__sandbox/reset', { host: own, origin, 'content-type': 'application/json' }, '{}');
      expect(r.status, origin).toBe(403);
      expect(r.body.error.message).toMatch(/^Origin not allowed/);
    }
    const both = await raw(sb, 'POST', '/__sandbox/reset', { host: 'evil.example', origin: 'http://evil.example', 'content-type': 'application/json' }, '{}');
    expect(both.status).toBe(403);
    expect(sb.state.shipments.length).toBe(shipments + 1);
    // Its own origin is fine (a page served by the sandbox itself, or a tool).
    const same = await raw(sb, 'GET', '/__sandbox/clock', { host: own, origin: `http://${own}` });
    expect(same.status).toBe(200);
  });

  it('accepts JSON bodies only: a form post or text/plain (no CORS preflight needed) is 415', async () => {
    const before = sb.clock.nowMs();
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', 'days=1'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="days"\r\n\r\n1\r\n--x--\r\n'],
      ['text/plain', advance],
    ] as const) {
      const r = await raw(sb, 'POST', '/__sandbox/clock/advance', { host: own, 'content-type': type }, body);
      expect(r.status, type).toBe(415);
      expect(r.body.error.details).toEqual({ _body: [`Unsupported Content-Type "${type}": send application/json`] });
    }
    const noType = await raw(sb, 'POST', '/__sandbox/clock/advance', { host: own }, advance);
    expect(noType.status).toBe(415);
    expect(sb.clock.nowMs()).toBe(before);
    const json = await raw(sb, 'POST', '/__sandbox/clock/advance', { host: own, 'content-type': 'application/json; charset=utf-8' }, JSON.stringify({ minutes: 1 }));
    expect(json.status).toBe(200);
  });

  it('the checks hold for every spelling that routes to an admin route', async () => {
    const before = sb.clock.nowMs();
    const r = await raw(sb, 'POST', '/__sandbox/clock/%61dvance', { host: 'evil.example', 'content-type': 'application/json' }, advance);
    expect(r.status).toBe(403);
    expect(sb.clock.nowMs()).toBe(before);
  });

  it('embedded (adminToken): every admin call needs the station token in x-station-token', async () => {
    const { sb: embedded } = await start({ clock: MONDAY_2026_09_14, adminToken: 'station-token-0123456789abcdef' });
    try {
      const host = new URL(embedded.authUrl).host;
      for (const headers of [{}, { 'x-station-token': 'wrong' }, { 'x-station-token': 'station-token-0123456789abcdeF' }] as Array<Record<string, string>>) {
        const r = await raw(embedded, 'POST', '/__sandbox/reset', { host, 'content-type': 'application/json', ...headers }, '{}');
        expect(r.status).toBe(401);
        expect(r.body.error.code).toBe('unauthenticated');
        expect((await raw(embedded, 'GET', '/__sandbox/state', { host, ...headers })).status).toBe(401);
      }
      const ok = await raw(embedded, 'POST', '/__sandbox/reset', { host, 'content-type': 'application/json', 'x-station-token': 'station-token-0123456789abcdef' }, '{}');
      expect(ok.status).toBe(200);
      // The API itself is unaffected (OAuth as usual).
      expect((await caller(embedded, await tokenFor(embedded, 0))('GET', '/credit')).status).toBe(200);
    } finally {
      await embedded.close();
    }
  });

  it('a training station passes its per-launch token to its sandbox, and the host uses the same one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-embedded-'));
    const station = await startStation(resolveConfig(['--data-dir', dir], {}));
    const host = await startHost({ station, port: 0, rendererDir: dir, token: station.token });
    try {
      const origin = new URL(station.info.baseUrl).origin;
      const hostHeader = new URL(origin).host;
      const u = new URL(origin);
      const call = (headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          const req = http.request({ host: u.hostname, port: Number(u.port), method: 'POST', path: '/__sandbox/reset', headers: { host: hostHeader, 'content-type': 'application/json', 'content-length': '2', ...headers } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end('{}');
        });
      expect(await call({})).toBe(401);
      expect(await call({ origin: 'http://evil.example', 'x-station-token': station.token })).toBe(403);
      expect(host.token).toBe(station.token);
      expect(await call({ 'x-station-token': host.token })).toBe(200);
    } finally {
      await host.close();
      await station.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
