/**
 * State persistence of the sandbox (persist.ts; `createSandbox({stateFile})`,
 * CLI `--state-file`): a training station keeps its sandbox history across
 * restarts. The round-trip test walks a state populated over HTTP by every
 * kind of call and fails when any field of the state does not come back
 * equal, or when a new field holds something that cannot be saved and is not
 * on the short list of live-only parts below.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, demoSeed, SandboxState, SimClock, type Sandbox } from '../../../electron/sandbox/index';
import { applySnapshot, snapshotState } from '../../../electron/sandbox/persist';
import { encodeState } from '../../../electron/sandbox/state-codec';
import { MONDAY_2026_09_14, pkg, recipient } from '../sandbox/helpers';
import { advance, renewingCaller } from './admin-client';

/**
 * Parts of the state that are live by design (functions inside: listener sets,
 * settings with callbacks, unsubscribe handles). Anything else that cannot be
 * saved fails the round-trip test.
 */
const LIVE_ONLY = new Set([
  'clock.changeListeners',
  'events.listeners',
  'webhooks.settings',
  'webhooks.unsubscribe',
  'webhooks.dispatcher.opts',
  'webhooks.dispatcher.inFlight',
]);

const dirs: string[] = [];
const open: Sandbox[] = [];
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
  dirs.push(d);
  return d;
}

async function sandbox(stateFile?: string): Promise<Sandbox> {
  const sb = await createSandbox({ port: 0, clock: MONDAY_2026_09_14, seed: { ...demoSeed(), randomSeed: 5 }, ...(stateFile ? { stateFile } : {}) });
  open.push(sb);
  return sb;
}

/** Fills a sandbox through the API: shipments (COD, multi-parcel, cancelled), manifest, pickup, webhook, orders, days of carrier progress. */
async function populate(sb: Sandbox): Promise<void> {
  const a = renewingCaller(sb, 0);
  const b = renewingCaller(sb, 1);
  const ok = async (p: Promise<{ status: number; body: unknown }>, status: number) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return r.body as Record<string, unknown>;
  };
  const s1 = await ok(a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1), pkg(2)], reference: 'P-1', options: { cod: { amount: 25 } } }), 201);
  await ok(a('POST', '/shipments', { recipient: recipient({ city: 'Roma', province: 'RM', postalCode: '00184' }), packages: [pkg(3)], reference: 'P-2' }), 201);
  const s3 = await ok(a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'P-3' }), 201);
  await ok(a('DELETE', `/shipments/${String(s3.trackingNumber)}`), 200);
  await ok(b('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'B-1' }), 201);
  await ok(a('POST', '/manifests', { trackingNumbers: [s1.trackingNumber] }), 201);
  await ok(a('POST', '/pickups', { serviceType: 'BRT-EXP-NAZ', pickupDate: '2026-09-15', packages: [pkg(2)] }), 201);
  await ok(a('POST', '/webhooks', { url: 'https://receiver.example/hooks', events: ['tracking.update', 'shipment.created'] }), 201);
  const orders = await a('POST', '/orders', { orders: [{ orderNumber: 'ORD-1', recipient: { name: 'Anna Neri', address: { street: 'Via Po 1', city: 'Torino', postalCode: '10124' } } }] });
  expect([201, 404]).toContain(orders.status);
  await advance(sb, { days: 3 });
  await ok(a('GET', `/shipments/${String(s1.trackingNumber)}/tracking`), 200);
}

type J = ReturnType<typeof encodeState>['json'];

/** `json` (an encoded state) restricted, holder by holder, to the fields `like` has. */
function savedPart(json: J, like: J): J {
  const isObj = (v: J): v is Record<string, J> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(json) || !isObj(like)) return json;
  const out: Record<string, J> = {};
  for (const [k, v] of Object.entries(like)) {
    const mine = json[k];
    if (mine === undefined) continue;
    const isHolder = (x: J) => isObj(x) && x.$t === 'Instance';
    out[k] = isHolder(v) && isHolder(mine) ? { $t: 'Instance', v: savedPart((mine as Record<string, J>).v ?? null, (v as Record<string, J>).v ?? null) } : mine;
  }
  return out;
}

describe('state persistence', () => {
  it('round-trips every field of a populated state (identity kept); only the known live-only parts are left out', async () => {
    const sb = await sandbox();
    await populate(sb);
    const snap = JSON.parse(JSON.stringify(snapshotState(sb.state))) as ReturnType<typeof snapshotState>;
    const unexpected = snap.kept.filter((p) => !LIVE_ONLY.has(p));
    expect(unexpected, 'fields that hold functions or class instances inside data and therefore are not saved').toEqual([]);

    const restored = new SandboxState(demoSeed(), new SimClock(MONDAY_2026_09_14));
    expect(applySnapshot(restored, snap)).toEqual([]);
    const before = encodeState(sb.state);
    const after = encodeState(restored);
    // The restored state was never started: compare the saved fields only (not its empty listener sets or timers).
    expect(savedPart(after.json, before.json)).toEqual(before.json);
    // Every own field of the state is either saved or on the lists above.
    const saved = Object.keys(before.json as Record<string, unknown>);
    for (const key of Object.keys(sb.state)) {
      const v = (sb.state as unknown as Record<string, unknown>)[key];
      if (key === 'tokens' || typeof v === 'function') continue;
      expect(saved, `state.${key} is neither saved nor known live-only`).toContain(key);
    }
  });

  it('keeps history across a restart: same shipments, credit, details, tracking and time; numbering goes on', async () => {
    const file = join(tempDir(), 'nested', 'sandbox-state.json');
    const first = await sandbox(file);
    await populate(first);
    const a1 = renewingCaller(first, 0);
    // Links carry the port, which changes with the restart: compare data and meta.
    const list1 = (await a1<{ data: Array<{ id: number; trackingNumber: string }>; meta: unknown }>('GET', '/shipments')).body;
    const credit1 = (await a1('GET', '/credit')).body;
    const ldv = list1.data[list1.data.length - 1]!.trackingNumber;
    const detail1 = (await a1('GET', `/shipments/${ldv}`)).body;
    const tracking1 = (await a1('GET', `/shipments/${ldv}/tracking`)).body;
    const now1 = first.clock.now().getTime();
    await first.close();
    open.splice(open.indexOf(first), 1);
    expect(readdirSync(join(file, '..'))).toEqual(['sandbox-state.json']);

    const second = await sandbox(file);
    const a2 = renewingCaller(second, 0);
    const list2 = (await a2<{ data: unknown[]; meta: unknown }>('GET', '/shipments')).body;
    expect(list2.data).toEqual(list1.data);
    expect(list2.meta).toEqual(list1.meta);
    expect((await a2('GET', '/credit')).body).toEqual(credit1);
    expect((await a2('GET', `/shipments/${ldv}`)).body).toEqual(detail1);
    expect((await a2('GET', `/shipments/${ldv}/tracking`)).body).toEqual(tracking1);
    expect(second.clock.now().getTime() - now1).toBeLessThan(5_000);
    expect(second.clock.now().getTime()).toBeGreaterThanOrEqual(now1);
    const next = await a2<{ id: number; trackingNumber: string }>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'AFTER' });
    expect(next.status).toBe(201);
    expect(next.body.id).toBeGreaterThan(Math.max(...list1.data.map((s) => s.id)));
    expect(list1.data.map((s) => s.trackingNumber)).not.toContain(next.body.trackingNumber);
  });

  it('saves after a call without waiting for close (flushState), atomically, as a marked JSON file', async () => {
    const file = join(tempDir(), 'state.json');
    const sb = await sandbox(file);
    const a = renewingCaller(sb, 0);
    const r = await a<{ trackingNumber: string }>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'SAVED' });
    expect(r.status).toBe(201);
    await sb.flushState();
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { format: string; version: number; fields: Record<string, unknown> };
    expect(saved.format).toBe('shipping-station-sandbox-state');
    expect(saved.version).toBe(1);
    expect(JSON.stringify(saved.fields)).toContain(r.body.trackingNumber);
    expect(readdirSync(join(file, '..')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Tokens are not saved.
    expect(Object.keys(saved.fields)).not.toContain('tokens');
  });

  it('refuses to start on a damaged state file and leaves it untouched', async () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(file, '{"format": "shipping-station-sandbox-state", "version": 1, "fields": {"shipments": {"$ref": 4}}}');
    await expect(sandbox(file)).rejects.toThrow(/state\.json is not usable/);
    writeFileSync(file, 'not json');
    await expect(sandbox(file)).rejects.toThrow(/state\.json is not usable/);
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });
});

describe('state persistence from the command line', () => {
  it('--state-file: a shipment made before SIGTERM is there after the restart', async () => {
    const file = join(tempDir(), 'training.json');
    const run = async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'electron/sandbox/cli.ts', '--port', '0', '--state-file', file], {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`CLI exited early with ${code}`)));
      });
      const ready = JSON.parse(line) as { baseUrl: string; authUrl: string; clients: Array<{ clientId: string; clientSecret: string }> };
      const c = ready.clients[0]!;
      const tok = await fetch(`${ready.authUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret }),
      });
      const { access_token } = (await tok.json()) as { access_token: string };
      const call = (method: string, path: string, body?: unknown) =>
        fetch(ready.baseUrl + path, {
          method,
          headers: { authorization: `Bearer ${access_token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      const stop = async () => {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const [code] = (await exited) as [number | null];
        expect(code).toBe(0);
      };
      return { call, stop };
    };
    const first = await run();
    const created = await first.call('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'CLI-KEEP' });
    expect(created.status).toBe(201);
    const ldv = ((await created.json()) as { trackingNumber: string }).trackingNumber;
    await first.stop();

    const second = await run();
    try {
      const found = await second.call('GET', `/shipments/${ldv}`);
      expect(found.status).toBe(200);
      expect(((await found.json()) as { reference: string }).reference).toBe('CLI-KEEP');
    } finally {
      await second.stop();
    }
  });
});
