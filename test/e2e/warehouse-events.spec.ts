/**
 * Issue 44 in Chromium: the platform's events reach a bench and the supervisor's page. One sandbox (`npm run
 * sandbox -- --webhook-loopback-http`: its dispatcher may deliver to loopback receivers) is the account of the
 * warehouse and of its bench; the bench is a station process as `npm run host` runs it with `--warehouse` (its own login in
 * `warehouse_bench`) and `--platform-url` the sandbox; the supervisor's page is the warehouse program's server
 * (electron/warehouse/server.ts, as `npm run warehouse` starts it) in this process, so that it judges the
 * signatures' freshness by the sandbox's simulated clock (moved days ahead here through its admin prefix, the
 * offset kept); its endpoint is registered as `--public-url` does.
 *
 * A parcel shipped on the account with the sandbox's `sandbox:held` aid: its stock.opened reaches the warehouse,
 * the bench's Held shipments screen and the page's Needs attention (order, carrier, days held) and exceptions
 * panel, in English and Italian; the packer instructs it from the bench (Italian); the carrier closes the stock:
 * it leaves the page and the bench's open list. Screenshots to test-results/screens/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Browser, Page } from '@playwright/test';
import pg from 'pg';
import { z } from 'zod';
import { warehouseClientConfig } from '../../electron/core/warehouse/connection';
import { registerEndpoint } from '../../electron/warehouse/endpoint';
import { createWarehousePlatform, type WarehousePlatform } from '../../electron/warehouse/platform';
import { startSupervisorPage, type RunningPage } from '../../electron/warehouse/server';
import { startTestPostgres, type TestPostgres } from '../support/postgres';
import { benchLogin, createWarehouse } from '../support/warehouse';
import { expect, SHOTS, test } from './fixture';
import { rpcFor } from './rpc';
import type { StationProcess } from './station-process';

test.describe.configure({ mode: 'serial' });

const MIN = 60_000;
const ROOT = path.resolve(import.meta.dirname, '..', '..');
let server: TestPostgres;
let sandbox: ChildProcess | null = null;
let sb: { baseUrl: string; authUrl: string; clients: Array<{ clientId: string; clientSecret: string }> };
let platform: WarehousePlatform;
/** How far the sandbox's clock was moved ahead of the real one, ms. */
let ahead = 0;
let db: pg.Pool;
let supervisorPage: RunningPage | null = null;
let bench: StationProcess | null = null;
let workDir = '';
let secret: string | null = null;
const pgPasswordBefore = process.env.PGPASSWORD;

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * A bench as `npm run host` runs it (electron/host/cli.ts) with `args` and the account's secret in
 * `STATION_CLIENT_SECRET` (never on the command line), resolved at its ready line.
 */
function startBench(args: string[], clientSecret: string): Promise<StationProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, STATION_CLIENT_SECRET: clientSecret };
  for (const k of Object.keys(env)) if (k.startsWith('STATION_') && k !== 'STATION_CLIENT_SECRET') delete env[k];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron', 'host', 'cli.ts'), ...args, '--port', '0'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^(Shipping Station ready .* open (http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+))$/m.exec(out);
      if (m) resolve({ url: m[2]!, readyLine: m[1]!, output: () => out, stop: () => (child.exitCode === null && child.kill('SIGTERM'), exited) });
    });
    void exited.then((code) => reject(new Error(`station exited (${code}) before it was ready:\n${out}`)));
  });
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startTestPostgres();
  const url = await createWarehouse(server, 'events');
  process.env.PGPASSWORD = server.password;
  workDir = mkdtempSync(path.join(os.tmpdir(), 'station-e2e-warehouse-events-'));
  db = new pg.Pool({ ...warehouseClientConfig(url, server.password).config, max: 4 });
  // The sandbox's clock starts at the real now; it runs ahead by days as the carrier's journey needs.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron', 'sandbox', 'cli.ts'), '--port', '0', '--webhook-loopback-http', '--no-rate-limits'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  sandbox = child;
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`npm run sandbox exited ${code}: ${err}`)));
  });
  sb = JSON.parse(line) as typeof sb;
  const client = sb.clients[0]!;
  platform = createWarehousePlatform({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: client.clientId, clientSecret: client.clientSecret });
  supervisorPage = await startSupervisorPage({ db, platform, events: { secret: () => secret, now: () => Date.now() + ahead, log: () => undefined, settleS: 1 } });
  secret = (await registerEndpoint(platform, db, supervisorPage.url)).secret;
  const dir = path.join(workDir, 'bench-1');
  const login = await benchLogin(server, url, 'bench1');
  bench = await startBench(['--data-dir', dir, '--printer', `file://${dir}/labels`, '--warehouse', login, '--platform-url', sb.baseUrl, '--auth-url', sb.authUrl, '--client-id', client.clientId], client.clientSecret);
});

test.afterAll(async () => {
  await bench?.stop();
  await supervisorPage?.close();
  if (sandbox && sandbox.exitCode === null) {
    const exited = new Promise((r) => sandbox!.once('exit', r));
    sandbox.kill('SIGTERM');
    await exited;
  }
  await db?.end();
  server?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD;
  else process.env.PGPASSWORD = pgPasswordBefore;
});

/** A page of `browser` in `locale`, Europe/Rome. */
const pageIn = async (browser: Browser, locale: string) => (await browser.newContext({ locale, timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 1000 } })).newPage();

/** Moves the sandbox's clock 30 minutes at a time (its dispatcher delivering to the page) until `done`, at most `days`. */
async function runClockUntil(done: () => Promise<boolean>, days: number): Promise<void> {
  for (let i = 0; i < days * 48 && !(await done()); i++) {
    const res = await fetch(`${new URL(sb.authUrl).origin}/__sandbox/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ minutes: 30 }) });
    expect(res.status, await res.clone().text()).toBe(200);
    ahead += 30 * MIN;
    // The dispatcher sends what came due: a moment for it to reach the page and be applied.
    await new Promise((r) => setTimeout(r, 60));
  }
}

/** The held stock of `ldv` as the warehouse has it (open, instructed, closed), or undefined. */
const heldStatus = async (ldv: string): Promise<string | undefined> => (await db.query<{ status: string }>(`SELECT status FROM held_stocks WHERE tracking_number = $1`, [ldv])).rows[0]?.status;

test('a stock opened by the sandbox shows on the bench and on the page, is instructed from the bench, and leaves both when closed (English and Italian)', async ({ browser }) => {
  test.setTimeout(240_000);
  const at = rpcFor(() => bench!);
  await expect.poll(async () => (await at('warehouse.status', {})).connected, { timeout: 15_000 }).toBe(true);
  await at('packers.setStation', { stationName: 'Bench 1', idleMinutes: 30 });
  await at('packers.save', { name: 'Anna', badge: 'BADGE-ANNA', pin: '4821', role: 'supervisor' });
  await expect.poll(async () => (await db.query(`SELECT 1 FROM shared WHERE key LIKE 'packer:%'`)).rowCount, { timeout: 5000 }).toBe(1);

  // An order of the warehouse shipped on the account (the web panel's way), with the sandbox's aid: held at the depot.
  await db.query(`INSERT INTO orders (order_key, value) VALUES ('Bottega#4401', '{}'::jsonb)`);
  const shipment = {
    recipient: { name: 'Giulia Bianchi', phone: '+39 333 1234567', address: { street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT' } },
    packages: [{ weight: { value: 2, units: 'KG' }, dimensions: { length: 30, width: 20, height: 10, units: 'CM' } }],
    reference: 'Bottega#4401',
    options: { notes: 'sandbox:held' },
  };
  const ldv = (await platform.call('POST', '/shipments', z.object({ trackingNumber: z.string() }), shipment))!.trackingNumber;
  await runClockUntil(async () => (await heldStatus(ldv)) === 'open', 10);
  await expect.poll(() => heldStatus(ldv), { timeout: 5000 }).toBe('open');

  // The bench, in English: the held parcel on its Held shipments screen.
  const benchEn = await pageIn(browser, 'en-GB');
  await benchEn.goto(bench!.url);
  await benchEn.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /Held$/ }).click();
  await expect(benchEn.getByRole('heading', { name: /^Held shipments/ })).toBeVisible();
  await expect(benchEn.getByTestId('stock-row').filter({ hasText: ldv })).toContainText('Open', { timeout: 5000 });
  await shot(benchEn, 'warehouse-events-01-bench-held-en');

  // The supervisor's page, in English: under Needs attention with its order, carrier, days held; in the exceptions.
  const sup = await pageIn(browser, 'en-GB');
  await sup.goto(supervisorPage!.url);
  await sup.getByLabel('PIN').fill('4821');
  await sup.getByRole('button', { name: 'Sign in' }).click();
  const held = sup.locator('#attention li.held').filter({ hasText: ldv });
  await expect(held).toContainText('Bottega#4401', { timeout: 5000 });
  await expect(held).toContainText(/held (since today|\d+ days?)/);
  await expect(sup.locator('#attention h3', { hasText: 'Parcels held at the depot' })).toBeVisible();
  await expect(sup.getByRole('table', { name: 'Begun per day and carrier (last 7 days)' })).toBeVisible();
  await expect(sup.locator('#exceptions li').filter({ hasText: ldv })).toContainText('Bottega#4401');
  await expect(sup.locator('#endpoint')).toContainText('/platform/events');
  await expect(sup.locator('#endpoint dd', { hasText: 'active' })).toBeVisible();
  await expect(sup.locator('#budget')).toContainText('0 of 30');
  await shot(sup, 'warehouse-events-02-page-held-en');

  // In Italian: the page's own words.
  await sup.getByRole('button', { name: 'IT' }).click();
  await expect(sup.locator('#attention h3', { hasText: 'Colli in giacenza' })).toBeVisible();
  await expect(held).toContainText(/in giacenza da (oggi|\d+ giorn[oi])/);
  await expect(sup.getByRole('table', { name: 'Iniziate per giorno e corriere (ultimi 7 giorni)' })).toBeVisible();
  await expect(sup.locator('#budget')).toContainText('0 su 30');
  await shot(sup, 'warehouse-events-03-page-held-it');

  // The packer instructs it from the bench, in Italian.
  const benchIt = await pageIn(browser, 'it-IT');
  await benchIt.goto(bench!.url);
  await benchIt.getByRole('navigation', { name: 'Schermate' }).getByRole('button', { name: /Giacenze$/ }).click();
  const rowIt = benchIt.getByTestId('stock-row').filter({ hasText: ldv });
  await expect(rowIt).toBeVisible({ timeout: 5000 });
  await shot(benchIt, 'warehouse-events-04-bench-held-it');
  await benchIt.getByRole('group', { name: `Istruzioni per ${ldv}` }).getByRole('button', { name: 'Riconsegna' }).click();
  await expect.poll(async () => (await at('outbox.list', {})).done.find((r) => r.kind === 'stock.instruct')?.outcome, { timeout: 10_000 }).toBe('sent');

  // The carrier delivers again and closes the stock: it leaves the page and the bench's open list.
  await runClockUntil(async () => (await heldStatus(ldv)) === 'closed', 10);
  await expect.poll(() => heldStatus(ldv), { timeout: 5000 }).toBe('closed');
  await expect(held).toHaveCount(0, { timeout: 5000 });
  await shot(sup, 'warehouse-events-05-page-closed-it');
  await benchEn.getByLabel('Show').selectOption('open');
  await expect(benchEn.getByTestId('stock-row').filter({ hasText: ldv })).toHaveCount(0, { timeout: 5000 });
  await shot(benchEn, 'warehouse-events-06-bench-closed-en');
});
