/**
 * Issue 43 items 3–6 in Chromium: the supervisor's page of a warehouse (a real PostgreSQL) with the platform
 * account (the sandbox, in this process) and two benches on (their heartbeats kept by this test; the benches'
 * own printing is the bench side's). Labels bought ahead on the sandbox are seeded as a bench's buyer stores them.
 * - The budget panel: labels ahead waiting, batched, bought, printed, used, cancelled and refunded today, and the
 *   packers' label wait today, in English and Italian.
 * - The settings saved, and a refusal said with its field.
 * - A batch print of a SKU at Bench 1, its pick list downloaded and read back in print order.
 * - The day closed for the warehouse (in Italian, then read in English): the unused labels ahead cancelled with
 *   their refund, one manifest, the offline bench named.
 * Screenshots to test-results/screens/warehouse-43-*.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { randomBytes, scryptSync } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import pg from 'pg';
import { heartbeat } from '../../electron/core/warehouse/claims';
import { warehouseClientConfig } from '../../electron/core/warehouse/connection';
import { createWarehousePlatform } from '../../electron/warehouse/platform';
import { startSupervisorPage, type RunningPage } from '../../electron/warehouse/server';
import { pdfTextItems } from '../support/pdf-text';
import { startTestPostgres, type TestPostgres } from '../support/postgres';
import { benchLogin, createWarehouse } from '../support/warehouse';
import { unnamedControls } from './a11y';
import { expect, SHOTS, test } from './fixture';

test.describe.configure({ mode: 'serial' });

let server: TestPostgres;
let db: pg.Pool;
const ROOT = path.resolve(import.meta.dirname, '..', '..');
let sandbox: ChildProcess | null = null;
let sb: { baseUrl: string; authUrl: string; clients: Array<{ clientId: string; clientSecret: string }> };
let token = '';
let page: RunningPage;
let beat: NodeJS.Timeout | null = null;
const benchPools: pg.Pool[] = [];
/** The refund expected at the close (the labels ahead left unused), EUR. */
let unusedCost = 0;

async function shot(p: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const pageIn = async (browser: Browser, locale: string) => (await browser.newContext({ locale, timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 1100 }, acceptDownloads: true })).newPage();

/** A shipment bought on the sandbox for order `key`, stored as a label ahead of SKU `sku` in bin `bin`. */
async function labelAhead(key: string, sku: string, bin: string, state: 'bought' | 'used' = 'bought'): Promise<number> {
  const res = await fetch(`${sb.baseUrl}/shipments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      // Not the order's own reference, as a buyer sends it: the warehouse's catch-up (schema-events.ts
      // apply_platform_events) takes a shipment.created of the order's reference that no bench shipped for one
      // shipped from the web panel, labels ahead included; that is the bench side's to settle, not this page's.
      reference: `ahead-${key}`,
      recipient: { name: 'Giulia Verdi', phone: '+39 333 1234567', address: { street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT' } },
      packages: [{ weight: { value: 1, units: 'KG' }, dimensions: { length: 30, width: 20, height: 10, units: 'CM' } }],
    }),
  });
  const s = (await res.json()) as { trackingNumber: string; id: number; cost: { total: number }; carrier: { contractCode: string } };
  expect(res.status, JSON.stringify(s)).toBe(201);
  const value = { orderNumber: key.split('#')[1], shop: 'Bottega', items: [{ sku, name: `Tazza ${sku}`, quantity: 1 }] };
  await db.query(`INSERT INTO orders (order_key, value) VALUES ($1, $2::jsonb)`, [key, JSON.stringify(value)]);
  await db.query(
    `INSERT INTO labels_ahead (order_key, state, reference, fingerprint, sku, bin, bought_by, tracking_number, platform_id, contract_code, cost, currency, bought_at, used_at, used_by)
     VALUES ($1, $2, $1, 'fp', $3, $4, 'b1', $5, $6, $7, $8, 'EUR', now(), CASE WHEN $2 = 'used' THEN now() END, CASE WHEN $2 = 'used' THEN 'b1' END)`,
    [key, state, sku, bin, s.trackingNumber, s.id, s.carrier.contractCode, s.cost.total],
  );
  return s.cost.total;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startTestPostgres();
  const url = await createWarehouse(server, 'ahead');
  db = new pg.Pool({ ...warehouseClientConfig(url, server.password).config, max: 6 });
  const salt = randomBytes(16);
  const anna = { uid: 'u-anna', name: 'Anna', badge: 'BADGE-ANNA', pinHash: `scrypt$${salt.toString('hex')}$${scryptSync('4711', salt, 32).toString('hex')}`, role: 'supervisor' };
  await db.query(`INSERT INTO shared (key, value, revision) VALUES ('packer:u-anna', $1::jsonb, nextval('shared_revision'))`, [JSON.stringify(anna)]);
  const rules = { version: 1, rules: [{ name: 'Tazze con BRT', then: { rate: 'cheapest', shipByItself: true } }, { name: 'Fragile', then: { rate: 'cheapest' } }] };
  await db.query(`INSERT INTO shared (key, value, revision) VALUES ('setting:rules.document', $1::jsonb, nextval('shared_revision'))`, [JSON.stringify(rules)]);
  for (const [id, name] of [['b1', 'Bench 1'], ['b2', 'Bench 2'], ['b3', 'Bench 3']] as const) {
    const pool = new pg.Pool({ ...warehouseClientConfig(await benchLogin(server, url, `ahead${id}`), server.password).config, max: 1 });
    benchPools.push(pool);
    await heartbeat(pool, { id, name }, {});
  }
  // Bench 3 went away an hour ago; Benches 1 and 2 beat every 5 s.
  await db.query(`UPDATE benches SET heartbeat_at = now() - interval '1 hour' WHERE id = 'b3'`);
  beat = setInterval(() => void Promise.all(benchPools.slice(0, 2).map((p, i) => heartbeat(p, { id: `b${i + 1}`, name: `Bench ${i + 1}` }, {}))).catch(() => undefined), 5000);
  // The sandbox as `npm run sandbox` runs it (its limits off: this test is about the page, not the budget).
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron', 'sandbox', 'cli.ts'), '--port', '0', '--no-rate-limits'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  sandbox = child;
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`npm run sandbox exited ${code}: ${err}`)));
  });
  sb = JSON.parse(line) as typeof sb;
  const client = sb.clients[0]!;
  const platform = createWarehousePlatform({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: client.clientId, clientSecret: client.clientSecret });
  page = await startSupervisorPage({ db, platform, events: { secret: () => null, log: () => undefined, catchUpEveryMs: 3_600_000 } });
  const tokenRes = await fetch(`${sb.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'client-api' }),
  });
  token = ((await tokenRes.json()) as { access_token: string }).access_token;
  // Three mugs of SKU TZ-2 in three bins, one TZ-1, one used by Bench 1 (it goes in the manifest).
  await labelAhead('Bottega#1003', 'TZ-2', 'B-10');
  await labelAhead('Bottega#1001', 'TZ-2', 'B-2');
  await labelAhead('Bottega#1002', 'TZ-2', 'A-7');
  unusedCost = await labelAhead('Bottega#1004', 'TZ-1', 'C-1');
  await labelAhead('Bottega#1005', 'TZ-1', 'C-1', 'used');
  await db.query(`INSERT INTO rate_waits (route, at, bench_id, waited_ms) SELECT 'POST /shipments', now(), 'b1', g * 200 FROM generate_series(1, 10) g`);
});

test.afterAll(async () => {
  if (beat) clearInterval(beat);
  await page?.close();
  if (sandbox && sandbox.exitCode === null) {
    const exited = new Promise((r) => sandbox!.once('exit', r));
    sandbox.kill('SIGTERM');
    await exited;
  }
  for (const p of benchPools) await p.end();
  await db?.end();
  server?.stop();
});

test('labels ahead on the page: the budget, the settings, a batch print with its pick list, the day closed once', async ({ browser }) => {
  test.setTimeout(120_000);
  const sup = await pageIn(browser, 'en-GB');
  await sup.goto(page.url);
  await sup.getByLabel('PIN').fill('4711');
  await sup.getByRole('button', { name: 'Sign in' }).click();

  // The budget panel: labels ahead and today's wait.
  const budget = sup.locator('#budget');
  await expect(budget.locator('[data-figure="ahead-now"]')).toHaveText('4 bought and waiting · 0 in batches to print');
  await expect(budget.locator('[data-figure="ahead-today"]')).toHaveText('5 bought · 0 printed · 1 used');
  await expect(budget.locator('[data-figure="ahead-cancelled"]')).toHaveText('0 cancelled · €0.00 refunded');
  await expect(budget.locator('[data-figure="label-wait-today"]')).toHaveText('p50 1.1 s · p95 1.9 s (10 labels)');

  // The settings: on, for one rule, the last 6 hours, 8 a minute left to the packers, face down off.
  const settings = sup.locator('#ahead-settings');
  await settings.getByLabel('Buy labels ahead in quiet minutes').check();
  await settings.getByLabel('Only the rules chosen').check();
  await settings.getByLabel('Tazze con BRT (ships by itself)').check();
  await settings.getByRole('radio', { name: 'Orders imported in the last' }).check();
  await settings.locator('#ahead-hours').fill('6');
  await settings.getByLabel('Labels a minute left to packers').fill('40');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings.locator('#ahead-settings-notice')).toHaveText(/^Not saved: headroom must be between 0 and 29 labels a minute/);
  await settings.getByLabel('Labels a minute left to packers').fill('8');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings.locator('#ahead-settings-notice')).toHaveText('Saved');
  expect((await db.query('SELECT enabled, rules, horizon_hours, headroom, face_down FROM ahead_settings')).rows[0]).toEqual({ enabled: true, rules: ['Tazze con BRT'], horizon_hours: 6, headroom: 8, face_down: false });

  // A batch of SKU TZ-2 at Bench 1 (Bench 3 is offline: not offered).
  const batch = sup.locator('#batch');
  await expect(batch).toContainText('4 labels bought ahead are waiting (4 of single-item orders)');
  await batch.getByLabel('Which labels').selectOption('sku');
  await batch.getByLabel('A SKU').selectOption('TZ-2');
  await expect(batch.getByLabel('At bench').locator('option[disabled]')).toHaveText('Bench 3 (offline)');
  await batch.getByLabel('At bench').selectOption('b1');
  await batch.getByRole('button', { name: 'Print' }).click();
  await expect(batch.locator('.batch-notice')).toHaveText('Batch 1: 3 labels sent to Bench 1');
  await expect(batch.locator('li[data-batch="1"]')).toContainText('Batch 1 · SKU TZ-2 · Bench 1 · 0 of 3 printed · waiting for the bench');
  await expect(budget.locator('[data-figure="ahead-now"]')).toHaveText('1 bought and waiting · 3 in batches to print');
  const download = sup.waitForEvent('download');
  await batch.locator('li[data-batch="1"]').getByRole('link', { name: 'Pick list (PDF)' }).click();
  const file = await (await download).path();
  const text = (await pdfTextItems(new Uint8Array(readFileSync(file)))).flat().join(' ').replace(/\s+/g, ' ');
  expect(text).toMatch(/Pick list: batch 1/);
  expect(text).toMatch(/1 TZ-2 A-7 Tazza TZ-2 1 1002 Bottega \S+ 2 TZ-2 B-2 Tazza TZ-2 1 1001 Bottega \S+ 3 TZ-2 B-10 Tazza TZ-2 1 1003 Bottega/);
  expect(await unnamedControls(sup)).toEqual([]);
  await shot(sup, 'warehouse-43-ahead-en');

  // In Italian: the budget and the panels; the day closed here.
  await sup.getByRole('button', { name: 'IT', exact: true }).click();
  await expect(budget.locator('[data-figure="label-wait-today"]')).toHaveText('p50 1,1 s · p95 1,9 s (10 etichette)');
  await expect(budget.locator('[data-figure="ahead-cancelled"]')).toHaveText('0 annullate · 0,00 € rimborsati');
  // What the last save and batch said, now in Italian.
  await expect(settings.locator('#ahead-settings-notice')).toHaveText('Salvato');
  await expect(batch.locator('.batch-notice')).toHaveText('Lotto 1: 3 etichette inviate a Bench 1');
  await expect(batch).toContainText('1 etichetta comprata in anticipo in attesa (1 di ordini di un solo articolo)');
  const close = sup.locator('#close');
  await close.getByRole('button', { name: 'Chiudi la giornata del magazzino' }).click();
  await expect(close).toContainText('Chiudere ora la giornata per tutti i banchi?');
  await close.getByRole('button', { name: 'Chiudi la giornata del magazzino' }).click();
  const euro = unusedCost.toFixed(2).replace('.', ',');
  await expect(close.locator('#close-said')).toContainText(`1 etichetta comprata in anticipo non è stata usata: annullata, ${euro}\u00a0€ rimborsati`, { timeout: 15_000 });
  await expect(close.locator('#close-said')).toContainText(/Distinta \d+ · .+: 1 spedizione/);
  await expect(close.locator('#close-said')).toContainText(/Bench 3 non è in linea \(visto l’ultima volta \d\d\/\d\d, \d\d:\d\d\): ciò che ha spedito e non ha ancora inviato va nella prossima chiusura/);
  await expect(budget.locator('[data-figure="ahead-cancelled"]')).toHaveText(`1 annullata · ${euro}\u00a0€ rimborsati`);
  const manifests = (await (await fetch(`${sb.baseUrl}/manifests`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: Array<{ totalShipments: number }> };
  expect(manifests.data.map((m) => m.totalShipments)).toEqual([1]);
  await shot(sup, 'warehouse-43-ahead-it');

  // Back in English: the last close in English words.
  await sup.getByRole('button', { name: 'EN', exact: true }).click();
  await expect(close.locator('#close-said')).toContainText(`1 label bought ahead was not used: cancelled, €${unusedCost.toFixed(2)} refunded`);
  await expect(close.locator('#close-said')).toContainText('Last close:');
  await shot(sup, 'warehouse-43-close-en');
});
