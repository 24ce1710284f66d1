/**
 * `npm run warehouse -- --public-url …` (issue 44 item 1) as a child process, against a real PostgreSQL owned by
 * the supervisor and the sandbox (loopback http receivers allowed, real clock): it registers one endpoint for the
 * four events, prints it in its JSON line, keeps the secret in the warehouse (never on stdout or stderr, never
 * readable by a bench login), receives the sandbox's signed events; started again, it replaces the endpoint (one
 * left, a new id) and the new secret is the one checked. Bad options are refused by name (exit 2).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../../electron/sandbox/index';
import { warehouseClientConfig } from '../../../electron/core/warehouse/connection';
import { freePort, startTestPostgres, type TestPostgres } from '../../support/postgres';
import { benchLogin, createWarehouse } from '../../support/warehouse';
import { pkg, recipient } from '../sandbox/helpers';
import { renewingCaller } from '../conformance/admin-client';

const ROOT = path.resolve(__dirname, '../../..');
let server: TestPostgres;
let url: string;
let sb: Sandbox;
let owner: pg.Pool;
const children: ChildProcessWithoutNullStreams[] = [];

/** The warehouse program's environment: the test cluster's password, the demo account's secret. */
const env = () => ({ ...process.env, PGPASSWORD: server.password, STATION_WAREHOUSE_URL: '', STATION_CLIENT_SECRET: sb.clients[0]!.clientSecret, STATION_PLATFORM_URL: '', STATION_CLIENT_ID: '' });
const args = (port: number) => ['--warehouse', url, '--port', String(port), '--platform-url', sb.baseUrl, '--client-id', sb.clients[0]!.clientId, '--public-url', `http://127.0.0.1:${port}`];

/** Starts the program; resolves with its JSON line and a reader of its stderr so far. */
async function start(port: number): Promise<{ child: ChildProcessWithoutNullStreams; line: { url: string; webhook?: { id: number; url: string } }; stderr: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/warehouse/cli.ts'), ...args(port)], { cwd: ROOT, env: env() });
  children.push(child);
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { child, line: JSON.parse(first) as { url: string; webhook?: { id: number; url: string } }, stderr: () => err };
}

/** Stops a child with SIGTERM and waits for it. */
const stop = (child: ChildProcessWithoutNullStreams) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM'))));

beforeAll(async () => {
  server = await startTestPostgres();
  url = await createWarehouse(server, 'registered');
  owner = new pg.Pool(warehouseClientConfig(url, server.password).config);
  sb = await createSandbox({ port: 0, webhookLoopbackHttp: true });
}, 60_000);

afterAll(async () => {
  for (const c of children) await stop(c);
  await sb?.close();
  await owner?.end();
  server?.stop();
});

describe('npm run warehouse -- --public-url', () => {
  it('registers one endpoint for the four events, keeps its secret unseen, receives; again: replaced', async () => {
    const port = await freePort();
    const one = await start(port);
    expect(one.line.webhook).toEqual({ id: expect.any(Number), url: `http://127.0.0.1:${port}/platform/events` });
    const eps = sb.state.webhooks.endpoints;
    expect(eps.map((e) => ({ id: e.id, events: e.events, active: e.isActive }))).toEqual([{ id: one.line.webhook!.id, events: ['tracking.update', 'shipment.created', 'stock.opened', 'stock.closed'], active: true }]);
    const firstSecret = eps[0]!.secret;

    // A shipment's event is delivered, signed, and stored.
    const call = renewingCaller(sb, 0);
    const made = await call<{ trackingNumber: string }>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'REG-1' });
    await sb.state.webhooks.dispatcher.idle();
    expect(sb.state.webhooks.deliveries.map((d) => d.responseCode)).toEqual([200]);
    expect((await owner.query('SELECT tracking_number FROM platform_events')).rows).toEqual([{ tracking_number: made.body.trackingNumber }]);
    // A bench login cannot read the secret.
    const benchUrl = await benchLogin(server, url, 'bench1');
    const bench = new pg.Client(warehouseClientConfig(benchUrl, server.password).config);
    await bench.connect();
    await expect(bench.query('SELECT secret FROM webhook_endpoint')).rejects.toThrow(/permission denied/);
    await bench.end();
    await stop(one.child);

    // Started again: the old endpoint is gone, one new one, its new secret the one checked.
    const two = await start(port);
    expect(sb.state.webhooks.endpoints.map((e) => e.id)).toEqual([two.line.webhook!.id]);
    expect(two.line.webhook!.id).not.toBe(one.line.webhook!.id);
    await call('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'REG-2' });
    await sb.state.webhooks.dispatcher.idle();
    expect(sb.state.webhooks.deliveries.filter((d) => d.webhookId === two.line.webhook!.id).map((d) => d.responseCode)).toEqual([200]);
    const secondSecret = sb.state.webhooks.endpoints[0]!.secret;
    for (const text of [one.stderr(), two.stderr(), JSON.stringify(one.line), JSON.stringify(two.line)]) {
      expect(text).not.toContain(firstSecret);
      expect(text).not.toContain(secondSecret);
    }
    await stop(two.child);
  }, 60_000);

  it('refuses a public URL that is not https, and one without the platform account, by name', () => {
    const run = (extra: string[], e: Record<string, string> = {}) =>
      spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/warehouse/cli.ts'), '--warehouse', url, ...extra], { cwd: ROOT, encoding: 'utf8', env: { ...env(), ...e }, timeout: 60_000 });
    const notHttps = run(['--platform-url', sb.baseUrl, '--client-id', 'x', '--public-url', 'http://warehouse.example.com']);
    expect(notHttps.status).toBe(2);
    expect(notHttps.stderr).toContain('--public-url must use https');
    const noAccount = run(['--public-url', 'https://warehouse.example.com']);
    expect(noAccount.status).toBe(2);
    expect(noAccount.stderr).toContain('--public-url needs the platform account');
    const noSecret = run(['--platform-url', sb.baseUrl, '--client-id', 'x'], { STATION_CLIENT_SECRET: '' });
    expect(noSecret.status).toBe(2);
    expect(noSecret.stderr).toContain('STATION_CLIENT_SECRET');
  }, 60_000);
});
