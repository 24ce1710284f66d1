/**
 * Issue 24's bench flow in Chromium, "one scan, one label": shipping rules
 * and product data imported from files in Settings, a serial scale on a
 * pseudo-terminal (pty-scale.ts) and the fake Zebra on TCP as the label
 * printer. Every keyboard action the test makes after the scan's Enter is
 * counted (the scanner's characters and its Enter are not):
 * - the scale's stable weight: the countdown with the rule's name, then the
 *   label reaches the printer with 0 key actions;
 * - Esc during the countdown: nothing is shipped (credit, order and printer unchanged);
 * - a Livigno order (customs) with known SKUs: shipped with ≤ 8 key actions;
 * - a typed weight and Enter: shipped by itself with ≤ 2 key actions;
 * - a Swiss order under a rule that does not ship by itself: the declaration
 *   comes filled from product data, the focus visits only the missing field
 *   (made in), Enter moves on to Ship: ≤ 8 key actions.
 * The waits are on states (the countdown element, the Print screen, the label
 * at the printer), never on time; the countdown is seen by a MutationObserver
 * so a short one is never missed.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { Invoke } from '../support/commands';
import { shopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { order } from '../fixtures/shopify/warehouse-order';
import { expect, SHOTS, test } from './fixture';
import { countdownTexts, watchCountdown } from './flows';
import { startPtyScale, type PtyScale } from './pty-scale';

test.use({ stationOptions: { name: 'autoship', labelPrinter: 'listener' } });

const created = '2026-11-20 10:00:00 +0000';
const milano = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
const livigno = { name: 'Marco Rossi', a1: 'Via Saroch 12', city: 'Livigno', zip: '23041', prov: 'SO', country: 'IT' };
const zurich = { name: 'Anna Muster', a1: 'Bahnhofstrasse 1', city: 'Zürich', zip: '8001', prov: 'ZH', country: 'CH' };

const RULES = {
  version: 1,
  rules: [
    { name: 'Livigno dogana', when: { territories: ['livigno'] }, then: { rate: 'cheapest', customs: { contentType: 'MERCHANDISE' }, shipByItself: true } },
    { name: 'Italia fino a 5 kg', when: { countries: ['IT'], weightKg: { max: 5 } }, then: { rate: 'cheapest', shipByItself: true } },
    { name: 'Svizzera', when: { countries: ['CH'] }, then: { rate: 'cheapest' } },
  ],
};
// TAZ and OLIO are fully known; VASO has its size but no weight (the scale or the packer gives it); CIOC has no origin.
const PRODUCTS = ['sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description', 'TAZ,0.35,10,10,12,691200,IT,Tazza in ceramica', 'OLIO,1.2,8,8,30,150920,IT,Olio extravergine', 'VASO,,12,12,10,691390,IT,Vaso in ceramica', 'CIOC,0.5,10,10,5,180632,,Cioccolato fondente'].join('\n');

let scale: PtyScale;

/** The packer's keyboard after the scan: every press and every typed text is one key action. */
function packerKeys(page: Page) {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async press(key: string) {
      count++;
      await page.keyboard.press(key);
    },
    async type(text: string) {
      count++;
      await page.keyboard.type(text);
    },
  };
}

/** The scanner: the order number's characters and Enter (not key actions of the packer). */
async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

const orderOf = async (rpc: Invoke, n: string) => (await rpc('orders.page', { q: n, view: 'all' })).orders.find((o) => o.orderNumber === n)!;

test.beforeAll(async ({ rpc }) => {
  scale = await startPtyScale();
  await rpc('scales.set', { config: { kind: 'serial', path: scale.path, baudRate: 9600, protocol: 'continuous' }, requoteOnStable: true });
  await rpc('orders.importCsv', {
    fileName: 'autoship.csv',
    content: shopifyCsv([
      ...order({ name: '#9001', id: '7700000009001', created, email: 'a@example.it', ship: milano, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' }),
      ...order({ name: '#9002', id: '7700000009002', created, email: 'b@example.it', ship: milano, items: [{ q: '2', n: 'Tazza', p: '12.00', sku: 'TAZ' }], total: '24.00' }),
      ...order({ name: '#9003', id: '7700000009003', created, email: 'c@example.it', ship: livigno, items: [{ q: '3', n: 'Tazza', p: '12.00', sku: 'TAZ' }, { q: '2', n: 'Olio', p: '15.00', sku: 'OLIO' }], total: '66.00' }),
      ...order({ name: '#9004', id: '7700000009004', created, email: 'd@example.it', ship: milano, items: [{ q: '1', n: 'Brocca', p: '30.00', sku: 'BROCCA' }], total: '30.00' }),
      ...order({ name: '#9005', id: '7700000009005', created, email: 'e@example.it', ship: zurich, items: [{ q: '2', n: 'Cioccolato', p: '8.00', sku: 'CIOC' }, { q: '1', n: 'Tazza', p: '12.00', sku: 'TAZ' }], total: '28.00' }),
    ]),
  });
});

test.afterAll(async ({ station }) => {
  await station.stop();
  scale?.close();
});

test.beforeEach(async ({ page }) => {
  // Every text the countdown shows, however short it runs.
  await watchCountdown(page);
});


test('rules and product data imported from files in Settings; the countdown is a setting', async ({ page, station, rpc }) => {
  const rulesFile = path.join(station.workDir, 'rules.json');
  const productsFile = path.join(station.workDir, 'products.csv');
  fs.writeFileSync(rulesFile, JSON.stringify(RULES));
  fs.writeFileSync(productsFile, PRODUCTS);
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  await page.keyboard.press('F8');
  await page.locator('input[type="file"][accept*="json"]').setInputFiles(rulesFile);
  await expect(page.getByTestId('banner')).toContainText('3 rules imported');
  expect((await rpc('rules.list', {})).rules.map((r) => r.name)).toEqual(['Livigno dogana', 'Italia fino a 5 kg', 'Svizzera']);
  await page.locator('input[type="file"][accept*="csv"]').setInputFiles(productsFile);
  await expect(page.getByTestId('banner')).toContainText('4 new');
  expect((await rpc('products.list', {})).map((p) => p.sku).sort()).toEqual(['CIOC', 'OLIO', 'TAZ', 'VASO']);

  const countdown = page.getByLabel('Countdown before shipping by itself (seconds)');
  await expect(countdown).toHaveValue('1.5');
  await countdown.fill('0');
  await countdown.press('Enter');
  await expect(page.getByText('Countdown must be at least 100 ms', { exact: true })).toBeVisible();
  expect((await rpc('shipping.settings.get', {})).countdownMs).toBe(1500);
  await countdown.fill('0.3');
  await countdown.press('Enter');
  await expect(page.getByTestId('banner')).toContainText('Countdown saved');
  expect((await rpc('shipping.settings.get', {})).countdownMs).toBe(300);
});

test('the scale reports a stable weight: countdown with the rule, then the label, with 0 key actions', async ({ page, station, rpc, labelPrinter }) => {
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  const keys = packerKeys(page);
  await scan(page, '#9001');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  // VASO's weight is not known: nothing ships until the scale settles.
  expect(await countdownTexts(page)).toEqual([]);
  scale.send('US,GS,+  0.800kg');
  for (let i = 0; i < 3; i++) scale.send('ST,GS,+  1.230kg');
  await expect(page.getByRole('heading', { name: 'Print', exact: true })).toBeVisible();
  await expect(page.getByTestId('banner')).toContainText(/Shipped [A-Z0-9]+/);
  await expect(page.getByTestId('print-state')).toHaveAttribute('data-state', 'printed');
  const o = await orderOf(rpc, '#9001');
  expect(o.status).toBe('shipped');
  // VASO's weight, not known before, is learnt from this parcel (the weight less the box's tare).
  const vaso = (await rpc('products.list', { q: 'VASO' })).find((p) => p.sku === 'VASO');
  expect(vaso?.unitWeightKg).toBeGreaterThan(0);
  expect(vaso?.unitWeightKg).toBeLessThan(1.23);
  await expect.poll(() => labelPrinter.labels().length).toBe(1);
  expect(keys.count).toBe(0);
  const seen = await countdownTexts(page);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen[0]).toContain("Rule 2 'Italia fino a 5 kg' ships this order by itself in 0.3 s");
  expect(seen[0]).toContain('Esc stops');
});

test('Esc during the countdown stops it: nothing is shipped', async ({ page, station, rpc, labelPrinter }) => {
  await rpc('shipping.settings.set', { countdownMs: 10_000 });
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  const creditBefore = (await rpc('app.info', {})).credit;
  const labelsBefore = labelPrinter.labels().length;
  const keys = packerKeys(page);
  // TAZ's weight is known from product data: the countdown starts on the scan.
  await scan(page, '#9002');
  const timer = page.getByRole('timer');
  await expect(timer).toContainText("Rule 2 'Italia fino a 5 kg' ships this order by itself in 10 s");
  await expect(timer).toContainText('Esc stops');
  // The field shows the weight that ships, from product data (TAZ's and the box's), marked so.
  const weight = page.getByLabel('Weight (kg)');
  await expect(weight).toHaveAttribute('data-weight-source', 'products');
  await expect(weight).not.toHaveValue('');
  await expect(page.getByText('From product data (box included): weigh or type to change')).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, '40-ships-by-itself.png'), fullPage: true });
  await keys.press('Escape');
  await expect(timer).toHaveCount(0);
  await expect(page.getByTestId('banner')).toContainText('Stopped: the order does not ship by itself');
  expect(keys.count).toBe(1);
  const o = await orderOf(rpc, '#9002');
  expect(o.status).toBe('open');
  expect(o.shipmentTrackingNumber ?? null).toBeNull();
  expect((await rpc('app.info', {})).credit?.balance).toBe(creditBefore?.balance);
  expect(labelPrinter.labels()).toHaveLength(labelsBefore);
  // The same order does not start again on a weight and Enter: the packer quotes as usual.
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  await keys.type('0,8');
  // Typed over the product-data weight: a typed weight, no longer marked.
  await expect(weight).toHaveValue('0,8');
  await expect(weight).not.toHaveAttribute('data-weight-source', 'products');
  await keys.press('Enter');
  await expect(page.getByTestId('rate').first()).toBeVisible();
  await expect(timer).toHaveCount(0);
  expect((await orderOf(rpc, '#9002')).status).toBe('open');
});

test('a Livigno order with known SKUs ships with its customs declaration in ≤ 8 key actions', async ({ page, station, rpc, labelPrinter }) => {
  await rpc('shipping.settings.set', { countdownMs: 300 });
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  const labelsBefore = labelPrinter.labels().length;
  const keys = packerKeys(page);
  await scan(page, '#9003');
  await expect(page.getByRole('heading', { name: 'Print', exact: true })).toBeVisible();
  await expect(page.getByTestId('print-state')).toHaveAttribute('data-state', 'printed');
  const o = await orderOf(rpc, '#9003');
  expect(o.status).toBe('shipped');
  // Some carriers' labels reach the printer as a raster (^GFA), without the number as text: count labels.
  await expect.poll(() => labelPrinter.labels().length).toBe(labelsBefore + 1);
  expect(labelPrinter.labels().at(-1)).toContain('^XA');
  const shipment = await rpc('shipments.get', { trackingNumber: o.shipmentTrackingNumber! });
  expect(shipment.reference).toBe('#9003');
  expect((await countdownTexts(page))[0]).toContain("Rule 1 'Livigno dogana'");
  expect(keys.count).toBeLessThanOrEqual(8);
});

test('a typed weight and Enter ships by itself with ≤ 2 key actions', async ({ page, station, rpc, labelPrinter }) => {
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  const labelsBefore = labelPrinter.labels().length;
  const keys = packerKeys(page);
  await scan(page, '#9004');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  await keys.type('1,4');
  await keys.press('Enter');
  await expect(page.getByRole('heading', { name: 'Print', exact: true })).toBeVisible();
  await expect(page.getByTestId('print-state')).toHaveAttribute('data-state', 'printed');
  const o = await orderOf(rpc, '#9004');
  expect(o.status).toBe('shipped');
  await expect.poll(() => labelPrinter.labels().length).toBe(labelsBefore + 1);
  expect((await countdownTexts(page))[0]).toContain("Rule 2 'Italia fino a 5 kg'");
  expect(keys.count).toBeLessThanOrEqual(2);
});

test('Switzerland: the declaration from product data, the focus only on what is missing, Enter to Ship (≤ 8 key actions)', async ({ page, station, rpc, labelPrinter }) => {
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  const labelsBefore = labelPrinter.labels().length;
  const keys = packerKeys(page);
  await scan(page, '#9005');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  await keys.type('1,6');
  await keys.press('Enter');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeFocused();
  await keys.press('Enter');
  await expect(page.getByRole('heading', { name: /^Ship/ })).toBeVisible();
  // Known from product data: descriptions, HS codes, weights (kg per line), value; only CIOC's origin is missing.
  await expect(page.locator('#customs-0-originCountry')).toBeFocused();
  await expect(page.locator('#customs-0-hsCode')).toHaveValue('180632');
  await expect(page.locator('#customs-0-weight')).toHaveValue('1');
  await expect(page.locator('#customs-1-originCountry')).toHaveValue('IT');
  await expect(page.locator('#customs-1-hsCode')).toHaveValue('691200');
  await expect(page.locator('#customs-1-weight')).toHaveValue('0.35');
  await keys.type('IT');
  await keys.press('Enter');
  await expect(page.getByRole('button', { name: /^Ship & print label/ })).toBeFocused();
  await keys.press('Enter');
  await expect(page.getByTestId('print-state')).toHaveAttribute('data-state', 'printed');
  expect((await orderOf(rpc, '#9005')).status).toBe('shipped');
  await expect.poll(() => labelPrinter.labels().length).toBe(labelsBefore + 1);
  expect(keys.count).toBeLessThanOrEqual(8);
  expect(await countdownTexts(page)).toEqual([]);
});
