/**
 * Issue 35 in Chromium: two benches on one warehouse (a real PostgreSQL, test/support/postgres.ts), each a
 * station process as `npm run host` runs it with `--warehouse`, and the supervisor's page of
 * `npm run warehouse`. A rule imported at Bench 1 is used at Bench 2 within 2 s; Bench 2 scanning the order
 * open at Bench 1 is told who has it and ships nothing; the supervisor's page shows both benches'
 * shipments and charts. Screenshots in English and Italian go to test-results/screens/.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import readline from 'node:readline';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import pg from 'pg';
import { warehouseClientConfig } from '../../electron/core/warehouse/connection';
import { recipientToParty } from '../../shared/domain/order';
import { romeDay } from '../../shared/domain/rome-day';
import { startTestPostgres, type TestPostgres } from '../support/postgres';
import { benchLogin, createWarehouse } from '../support/warehouse';
import { expect, SHOTS, test } from './fixture';
import { shipFromKeyboard } from './flows';
import { shopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { order } from '../fixtures/shopify/warehouse-order';
import { rpcFor } from './rpc';
import { startStationProcess, type StationProcess } from './station-process';

test.describe.configure({ mode: 'serial' });
test.use({ stationOptions: { name: 'warehouse', labelPrinter: 'folder' } });

const CSV = path.join(import.meta.dirname, 'fixtures', 'shopify-orders.csv');
const RULES = { version: 1, rules: [{ name: 'Italia dal magazzino', when: { countries: ['IT'] }, then: { rate: 'cheapest' } }] };

let server: TestPostgres;
let url = '';
let workDir = '';
const benches: StationProcess[] = [];
const ROOT = path.resolve(import.meta.dirname, '..', '..');
let supervisor: ChildProcess | null = null;
const pgPasswordBefore = process.env.PGPASSWORD;

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** A bench: a station process joined to the warehouse on its own login `bench<n>` in warehouse_bench (README), its labels to a folder. */
async function startBench(n: number): Promise<StationProcess> {
  const dir = path.join(workDir, `bench-${n}`);
  const login = await benchLogin(server, url, `bench${n}`);
  const proc = await startStationProcess(['--data-dir', dir, '--printer', `file://${dir}/labels`, '--warehouse', login]);
  benches.push(proc);
  return proc;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startTestPostgres();
  url = await createWarehouse(server, 'floor');
  // The benches' password as libpq's PGPASSWORD (never in the URL); the station processes inherit it.
  process.env.PGPASSWORD = server.password;
  workDir = mkdtempSync(path.join(os.tmpdir(), 'station-e2e-warehouse-'));
});

test.afterAll(async () => {
  // Each process below gets 30 s to exit after SIGTERM, then is killed and named.
  test.setTimeout(240_000);
  if (supervisor && supervisor.exitCode === null) {
    const child = supervisor;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    // A program still running 30 s later is named and killed: a shutdown that hangs is seen, not waited on.
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([exited.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), 30_000)))]);
    clearTimeout(timer);
    if (late) {
      process.stderr.write(`warehouse.spec: the supervisor's program (pid ${child.pid}) did not exit within 30 s of SIGTERM; killed\n`);
      child.kill('SIGKILL');
      await exited;
    }
  }
  for (const b of benches) await b.stop();
  server?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD;
  else process.env.PGPASSWORD = pgPasswordBefore;
});

test('two benches on one warehouse: shared rules, the order packed once; five shipments are five on the page; a stopped bench offline within 30 s', async ({ browser }) => {
  test.setTimeout(180_000);
  const one = await startBench(1);
  const two = await startBench(2);
  const at1 = rpcFor(() => one);
  const at2 = rpcFor(() => two);
  for (const at of [at1, at2]) await expect.poll(async () => (await at('warehouse.status', {})).connected, { timeout: 15_000 }).toBe(true);
  await at1('packers.setStation', { stationName: 'Bench 1', idleMinutes: 30 });
  await at2('packers.setStation', { stationName: 'Bench 2', idleMinutes: 30 });
  // Anna, a supervisor, is added at Bench 1: she is a packer of the whole warehouse.
  await at1('packers.save', { name: 'Anna', badge: 'BADGE-ANNA', pin: '4821', role: 'supervisor' });
  await expect.poll(async () => (await at2('packers.list', {})).map((p) => p.name), { timeout: 2000 }).toEqual(['Anna']);
  await at1('packers.signIn', { pin: '4821' });

  // A rule imported at Bench 1 is Bench 2's within 2 s.
  const t0 = Date.now();
  await at1('rules.import', { content: JSON.stringify(RULES) });
  await expect.poll(async () => (await at2('rules.list', {})).rules.map((r) => r.name), { timeout: 2000, intervals: [20] }).toEqual(['Italia dal magazzino']);
  expect(Date.now() - t0).toBeLessThan(2000);

  const context = (locale: string) => browser.newContext({ locale, timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 1000 } });
  const page1 = await (await context('en-GB')).newPage();
  const page2 = await (await context('en-GB')).newPage();
  await page1.goto(one.url);
  await page2.goto(two.url);
  // The shop's export imported at Bench 1 is the warehouse's: Bench 2's list shows the same orders.
  await page1.getByLabel('Shopify “Export orders” CSV file').setInputFiles(CSV);
  await expect(page1.getByTestId('import-imported')).toHaveText('5');
  await expect(page2.getByRole('table', { name: 'Open orders' })).toContainText('#1002', { timeout: 5000 });
  await expect(page2.getByRole('table', { name: 'Open orders' }).getByRole('row')).toHaveCount(6);
  // The rule imported at Bench 1 is the one Bench 2 uses for an Italian order.
  const italian = (await at2('orders.page', { view: 'to_ship', q: '#1001', limit: 5 })).orders.find((o) => o.orderNumber === '#1001');
  expect((await at2('rules.test', { orderId: italian!.id, weightKg: 1 })).decision.rule?.name).toBe('Italia dal magazzino');
  // The header says the bench is in the warehouse.
  await expect(page1.getByTestId('warehouse-state')).toHaveText('connected');
  await expect(page1.getByTestId('warehouse-state')).toHaveAttribute('title', 'Bench 1');

  // Anna opens #1002 at Bench 1.
  const scan1 = page1.getByLabel('Scan an order number or a tracking number');
  await scan1.focus();
  await page1.keyboard.type('#1002');
  await page1.keyboard.press('Enter');
  await expect(page1.getByRole('heading', { name: /^Quote/ })).toBeVisible();

  // Bench 2 scans #1002: told who has it and since when; the order does not open.
  const scan2 = page2.getByLabel('Scan an order number or a tracking number');
  await scan2.focus();
  await page2.keyboard.type('#1002');
  await page2.keyboard.press('Enter');
  await expect(page2.getByTestId('banner')).toContainText(/Order #1002 is being packed at Bench 1 by Anna since \d\d:\d\d/);
  await expect(page2.getByRole('heading', { name: /^Quote/ })).toHaveCount(0);
  await shot(page2, 'warehouse-01-claimed-en');
  // Nor is it shipped there by a command: 409 `claimed`, naming the bench and the packer.
  const orderAt = async (at: typeof at1, number: string) => {
    const found = (await at('orders.page', { view: 'to_ship', q: number, limit: 5 })).orders.find((o) => o.orderNumber === number);
    if (!found) throw new Error(`order ${number} not at the bench`);
    return found;
  };
  const request = (o: Awaited<ReturnType<typeof orderAt>>) => ({
    recipient: recipientToParty({ ...o.recipient, province: o.recipient.province ?? 'RM' }),
    packages: [{ weight: { value: 1.2, units: 'KG' as const }, dimensions: { length: 30, width: 20, height: 10, units: 'CM' as const } }],
  });
  const o1002 = await orderAt(at2, '#1002');
  const refused = await at2('shipping.shipOrder', { orderId: o1002.id, request: request(o1002) }).then(
    () => '',
    (e: unknown) => (e as Error).message,
  );
  // The host's answer: 409 with the error's code and a message naming the bench and the packer.
  expect(refused).toMatch(/^shipping\.shipOrder: HTTP 409 .*"code":"claimed".*"message":"Order #1002 is being packed at Bench 1 by Anna since \d\d:\d\d"/);
  expect(await at2('shipments.recent', {})).toEqual([]);

  // At a bench in Italian the same refusal is said in Italian.
  const pageIt = await (await context('it-IT')).newPage();
  await pageIt.goto(two.url);
  const scanIt = pageIt.getByLabel('Leggi un numero d’ordine o un numero di spedizione');
  await expect(scanIt).toBeFocused();
  await pageIt.keyboard.type('#1002');
  await pageIt.keyboard.press('Enter');
  await expect(pageIt.getByTestId('banner')).toContainText(/L’ordine #1002 è in imballaggio al Bench 1, operatore Anna, dalle \d\d:\d\d/);
  await shot(pageIt, 'warehouse-02-claimed-it');

  // Anna lets #1002 go at Bench 1 (F1, Esc): Bench 2 may open it now; it lets it go again.
  await page1.keyboard.press('F1');
  await expect(scan1).toBeFocused();
  await page1.keyboard.press('Escape');
  await expect(page1.getByTestId('banner')).toContainText('Order #1002 let go');
  expect(await at2('scan.open', { orderId: o1002.id })).not.toHaveProperty('claimedBy');
  expect(await at2('scan.release', {})).toEqual({ released: true });

  // Bench 1 ships #1002 and Bench 2 ships #1003: both shipments go to the warehouse.
  const shipped1 = await at1('shipping.shipOrder', { orderId: (await orderAt(at1, '#1002')).id, request: request(await orderAt(at1, '#1002')) });
  const o1003 = await orderAt(at2, '#1003');
  const shipped2 = await at2('shipping.shipOrder', { orderId: o1003.id, request: request(o1003) });
  expect(shipped1.shipment.trackingNumber).toBeTruthy();
  expect(shipped2.shipment.trackingNumber).toBeTruthy();
  const db = new pg.Client(warehouseClientConfig(url, server.password).config);
  await db.connect();
  try {
    await expect
      .poll(async () => (await db.query<{ tracking_number: string }>(`SELECT tracking_number FROM activity WHERE action = 'ship' ORDER BY tracking_number`)).rows.map((r) => r.tracking_number), { timeout: 5000 })
      .toEqual([shipped1.shipment.trackingNumber, shipped2.shipment.trackingNumber].sort());
  } finally {
    await db.end();
  }

  // Settings at Bench 2 follow the warehouse: the claim timeout Anna sets at Bench 1 shows there without a reload.
  await pageIt.keyboard.press('F8');
  const timeoutField = pageIt.locator('#warehouse-claim-timeout');
  await expect(timeoutField).toHaveValue('120');
  await at1('warehouse.settings.set', { claimTimeoutS: 300 });
  await expect(timeoutField).toHaveValue('300', { timeout: 2000 });
  await pageIt.locator('#warehouse-settings-title').scrollIntoViewIfNeeded();
  await pageIt.screenshot({ path: path.join(SHOTS, 'warehouse-06-settings-it.png') });

  // The supervisor's page (npm run warehouse): Anna signs in with her PIN and sees both benches, their
  // shipments in the charts, live (the second shipment of Bench 2 appears without a reload).
  const floor = await startSupervisorPage();
  const sup = await (await context('en-GB')).newPage();
  await sup.goto(floor);
  await sup.locator('#pin').fill('4821');
  await sup.locator('#sign-in-button').click();
  await expect(sup.locator('#who')).toHaveText('Signed in: Anna');
  await expect(sup.locator('article[data-bench="Bench 1"]')).toContainText(shipped1.shipment.trackingNumber);
  await expect(sup.locator('article[data-bench="Bench 2"]')).toContainText(shipped2.shipment.trackingNumber);
  await expect(sup.locator('#chart-benches')).toHaveAttribute('data-total', '2');
  await expect(sup.locator('#chart-packers')).toHaveAttribute('data-total', '2');
  await expect(sup.locator('#chart-benches svg')).toBeVisible();
  const o1001 = await orderAt(at2, '#1001');
  const shipped3 = await at2('shipping.shipOrder', { orderId: o1001.id, request: request(o1001) });
  await expect(sup.locator('article[data-bench="Bench 2"]')).toContainText(shipped3.shipment.trackingNumber, { timeout: 5000 });
  await expect(sup.locator('#chart-benches')).toHaveAttribute('data-total', '3');
  await shot(sup, 'warehouse-04-supervisor-en');
  await sup.locator('#lang-it').click();
  await expect(sup.locator('#who')).toContainText('Anna');
  await expect(sup.locator('#title')).not.toHaveText('Warehouse floor');
  await shot(sup, 'warehouse-05-supervisor-it');

  // Issue 42: five shipments on two benches, every order imported at Bench 1 (Bench 2 shipped two of them on its
  // own login), are five in both charts and in the day report.
  const open = (await at1('orders.page', { view: 'to_ship', limit: 10 })).orders.filter((o) => o.recipient.countryCode === 'IT');
  expect(open.length).toBeGreaterThanOrEqual(2);
  for (const o of open.slice(0, 2)) {
    // An export row without a postcode: the packer types it on the Ship screen (here: the request carries it).
    const fixed = { ...o, recipient: { ...o.recipient, postalCode: o.recipient.postalCode || '00184' } };
    expect((await at1('shipping.shipOrder', { orderId: o.id, request: request(fixed) })).shipment.trackingNumber).toBeTruthy();
  }
  await expect(sup.locator('#chart-benches')).toHaveAttribute('data-total', '5', { timeout: 5000 });
  await expect(sup.locator('#chart-packers')).toHaveAttribute('data-total', '5');
  const day = romeDay(Date.now());
  const csv = await sup.request.get(new URL(`/api/report.csv?day=${day}&lang=it`, floor).toString());
  expect(csv.status()).toBe(200);
  const rows = (await csv.text()).replace(/^\uFEFF/, '').trim().split(/\r?\n/);
  expect(rows).toHaveLength(1 + 5);
  // Italian: the day dd/mm/yyyy on each row, `;` between fields, the contract's name (never an opaque code).
  const [dd, mm, yyyy] = [day.slice(8, 10), day.slice(5, 7), day.slice(0, 4)];
  for (const row of rows.slice(1)) expect(row.startsWith(`${dd}/${mm}/${yyyy};`)).toBe(true);
  expect(rows.join('\n')).not.toMatch(/eyJ/);
  const pdf = await sup.request.get(new URL(`/api/report.pdf?day=${day}&lang=it`, floor).toString());
  expect(pdf.status()).toBe(200);
  const pdfPath = path.join(SHOTS, 'warehouse-07-report-it.pdf');
  writeFileSync(pdfPath, await pdf.body());
  // Read back with poppler's pdftotext (an independent reader), and drawn to PNG to be looked at.
  const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
  expect(text).toContain(`${dd}/${mm}/${yyyy}`);
  expect(text).toMatch(/\d+,\d\d/);
  expect(text).not.toMatch(/eyJ/);
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', pdfPath, path.join(SHOTS, 'warehouse-07-report-it')]);

  // A bench that stops is offline on the page within 30 s of its last heartbeat (it says it is alive every 10 s).
  const stoppedAt = Date.now();
  await two.stop();
  await expect(sup.locator('article[data-bench="Bench 2"]')).toHaveClass(/offline/, { timeout: 35_000 });
  expect(Date.now() - stoppedAt).toBeLessThanOrEqual(31_500);
  await expect(sup.locator('article[data-bench="Bench 2"] .last-known')).toBeVisible();
  await shot(sup, 'warehouse-08-offline-it');
  await sup.locator('#lang-en').click();
  await expect(sup.locator('article[data-bench="Bench 2"] .last-known')).toContainText(/\d\d:\d\d/);
  await shot(sup, 'warehouse-09-offline-en');
});

/** Starts `npm run warehouse` on the test warehouse (it migrates, prints its JSON line, serves); returns the page's URL. */
async function startSupervisorPage(): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron', 'warehouse', 'cli.ts'), '--warehouse', url], { cwd: ROOT, env: { ...process.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  supervisor = child;
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`npm run warehouse exited ${code}: ${err}`)));
  });
  return (JSON.parse(line) as { url: string }).url;
}

test('a label waiting for the account’s 30 labels a minute counts down on the banner, in English and Italian (issue 43)', async ({ browser }) => {
  test.setTimeout(120_000);
  const one = benches[0]!;
  const at1 = rpcFor(() => one);
  const csv = shopifyCsv(
    ['#2001', '#2002'].flatMap((name, i) =>
      order({ name, id: `99000000200${i}`, created: '2026-12-07 08:00:00 +0000', email: `w${i}@example.it`, ship: { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' }, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' }),
    ),
  );
  expect((await at1('orders.importCsv', { fileName: 'budget.csv', content: csv })).imported).toBe(2);
  // The other benches of the account have taken the minute's 30 labels (as the warehouse's budget records them).
  const benchId = (await at1('warehouse.status', {})).bench.id;
  const db = new pg.Client(warehouseClientConfig(url, server.password).config);
  await db.connect();
  try {
    await db.query(`INSERT INTO rate_slots (route, at, bench_id, priority) SELECT 'POST /shipments', now() - interval '20 seconds' + i * interval '1 ms', $1, 0 FROM generate_series(1, 30) AS i`, [benchId]);
  } finally {
    await db.end();
  }
  const context = (locale: string) => browser.newContext({ locale, timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
  const en = await (await context('en-GB')).newPage();
  await en.goto(one.url);
  await shipFromKeyboard(en, '#2001');
  const countdown = en.getByTestId('label-countdown');
  await expect(countdown).toHaveText(/^Label in (\d+) s: the account’s 30 labels a minute are in use \(0 before you\)$/, { timeout: 10_000 });
  const first = Number(await countdown.getAttribute('data-seconds'));
  expect(first).toBeGreaterThan(20);
  expect(first).toBeLessThanOrEqual(62);
  // It counts down, second by second.
  await expect.poll(async () => Number(await countdown.getAttribute('data-seconds')), { timeout: 5000 }).toBeLessThan(first);
  await expect(en.getByTestId('banner')).toContainText('go on with the next order');
  await shot(en, 'warehouse-10-label-countdown-en');

  const it = await (await context('it-IT')).newPage();
  await it.goto(one.url);
  await shipFromKeyboard(it, '#2002');
  await expect(it.getByTestId('label-countdown')).toHaveText(/^Etichetta tra \d+ s: le 30 etichette al minuto dell’account sono in uso \(1 prima di te\)$/, { timeout: 10_000 });
  await shot(it, 'warehouse-11-label-countdown-it');
});

test('End of day at a bench in a warehouse: where the day closes, and a close asked here with the supervisor’s PIN, in English and Italian (issue 43)', async ({ browser }) => {
  test.setTimeout(120_000);
  const one = benches[0]!;
  const context = (locale: string) => browser.newContext({ locale, timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
  const en = await (await context('en-GB')).newPage();
  await en.goto(one.url);
  await en.keyboard.press('F6');
  const card = en.getByTestId('warehouse-day');
  await expect(card).toContainText('In a warehouse the day closes once for every bench: on the supervisor’s page, or here with the supervisor’s PIN.');
  // The supervisor's program of this floor runs without the platform account: it answers, and says why it cannot close.
  await card.getByLabel('Supervisor’s PIN').fill('4821');
  await card.getByRole('button', { name: 'Close the day for the warehouse' }).click();
  await expect(en.getByTestId('banner')).toContainText('The warehouse’s day was not closed', { timeout: 20_000 });
  await expect(en.getByTestId('banner')).toContainText('The day is not closed: the supervisor’s program runs without the platform account');
  // The bench's own close is not offered in a warehouse.
  await expect(en.getByRole('button', { name: 'Close the day', exact: true })).toHaveCount(0);
  await shot(en, 'warehouse-12-day-closes-for-warehouse-en');

  const it = await (await context('it-IT')).newPage();
  await it.goto(one.url);
  await it.keyboard.press('F6');
  await expect(it.getByTestId('warehouse-day')).toContainText('In un magazzino la giornata si chiude una volta per tutti i banchi');
  await expect(it.getByTestId('warehouse-day').getByRole('button', { name: 'Chiudi la giornata del magazzino' })).toBeVisible();
  await it.getByTestId('warehouse-day').getByLabel('PIN del supervisore').fill('4821');
  await it.getByTestId('warehouse-day').getByRole('button', { name: 'Chiudi la giornata del magazzino' }).click();
  await expect(it.getByTestId('banner')).toContainText('La giornata non è chiusa: il programma del supervisore è avviato senza l’account della piattaforma', { timeout: 20_000 });
  await shot(it, 'warehouse-13-day-closes-for-warehouse-it');
});
