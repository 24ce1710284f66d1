/**
 * Print on the last verified item (issue 37 item 4), in Chromium: with scan
 * to verify on, a "ship by itself" rule and product data for every SKU, the
 * scan of an order's last item starts the countdown and the order ships and
 * prints with 0 key actions after the scans (the scanner's characters and
 * its Enter are not the packer's key actions; every other key press is
 * counted). A wrong item does not start it, nor does an order still missing
 * an item; Esc stops the countdown and nothing ships. The waits are on states
 * (the progress, the countdown element, the Print screen, the label at the
 * fake Zebra), never on time; a MutationObserver sees every countdown text,
 * however short it runs.
 * Screenshots: test-results/screens/37-verify-autoship-en.png and -it.png.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { Invoke } from '../support/commands';
import { shopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { order } from '../fixtures/shopify/warehouse-order';
import { expect, SHOTS, test } from './fixture';
import { countdownTexts, watchCountdown } from './flows';

test.use({ stationOptions: { name: 'verify-autoship', labelPrinter: 'listener' } });

const RULES = { version: 1, rules: [{ name: 'Italia fino a 5 kg', when: { countries: ['IT'], weightKg: { max: 5 } }, then: { rate: 'cheapest', shipByItself: true } }] };
const PRODUCTS = ['sku,weightKg,lengthCm,widthCm,heightCm,description', 'TAZ-1,0.35,10,10,12,Tazza', 'PIA-2,0.2,15,15,2,Piattino', 'VASO-3,0.8,12,12,10,Vaso'].join('\n');

/** Keys the scanner typed since {@link packerKeys} began counting (its characters and Enter). */
let scannerKeys = 0;

/**
 * The packer's key actions from now on, as the page saw them: every keydown the page got, less the
 * scanner's (a page-level listener, so a key the station needed and the test pressed would count).
 */
async function packerKeys(page: Page) {
  scannerKeys = 0;
  await page.evaluate(() => {
    const w = window as unknown as { keysSeen: number; keysListening?: boolean };
    w.keysSeen = 0;
    if (!w.keysListening) window.addEventListener('keydown', () => (w.keysSeen += 1), true);
    w.keysListening = true;
  });
  return { count: async () => (await page.evaluate(() => (window as unknown as { keysSeen: number }).keysSeen)) - scannerKeys };
}

/** The scanner: a code's characters and Enter (not the packer's key actions), once the scan field has the focus. */
async function scan(page: Page, code: string): Promise<void> {
  await expect(page.locator('#scan-input')).toBeFocused();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  scannerKeys += code.length + 1;
}

const orderOf = async (rpc: Invoke, n: string) => (await rpc('orders.page', { q: n, view: 'all' })).orders.find((o) => o.orderNumber === n)!;

test.beforeAll(async ({ rpc }) => {
  const created = '2026-11-20 10:00:00 +0000';
  const ship = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
  await rpc('orders.importCsv', {
    fileName: 'verify-autoship.csv',
    content: shopifyCsv([
      ...order({ name: '#9101', id: '9910000009101', created, email: 'a@example.it', ship, items: [{ q: '2', n: 'Tazza', p: '12.00', sku: 'TAZ-1' }, { q: '1', n: 'Piattino', p: '5.00', sku: 'PIA-2' }], total: '29.00' }),
      ...order({ name: '#9102', id: '9910000009102', created, email: 'b@example.it', ship, items: [{ q: '1', n: 'Tazza', p: '12.00', sku: 'TAZ-1' }, { q: '1', n: 'Vaso', p: '30.00', sku: 'VASO-3' }], total: '42.00' }),
      ...order({ name: '#9103', id: '9910000009103', created, email: 'c@example.it', ship, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO-3' }, { q: '1', n: 'Piattino', p: '5.00', sku: 'PIA-2' }], total: '35.00' }),
    ]),
  });
  await rpc('verify.settings.set', { enabled: true, tolerancePct: 10, toleranceKg: 0.05 });
  await rpc('rules.import', { content: JSON.stringify(RULES) });
  await rpc('products.importCsv', { content: PRODUCTS });
});

test.beforeEach(async ({ page }) => {
  // Every text the countdown shows, however short it runs.
  await watchCountdown(page);
});

test('the last item’s scan ships the verified order by itself: the label printed, 0 key actions; a wrong item does not start it', async ({ page, station, rpc, labelPrinter }) => {
  await rpc('shipping.settings.set', { countdownMs: 300 });
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  const keys = await packerKeys(page);
  const banner = page.getByTestId('banner');
  const progress = page.getByTestId('verify-progress');
  const labelsBefore = labelPrinter.labels().length;

  await scan(page, '#9101');
  await expect(progress).toHaveText('0 of 3 items');
  await scan(page, 'TAZ-1');
  await expect(progress).toHaveText('1 of 3 items');
  // A wrong item: loud, and no countdown.
  await scan(page, '4006381333931');
  await expect(banner).toHaveAttribute('data-outcome', 'wrong_item');
  await scan(page, 'TAZ-1');
  await expect(progress).toHaveText('2 of 3 items');
  expect(await countdownTexts(page)).toEqual([]);
  expect((await orderOf(rpc, '#9101')).status).toBe('open');

  // The last item: the countdown with the rule, then the shipment and its label.
  await scan(page, 'PIA-2');
  await expect(page.getByRole('heading', { name: 'Print', exact: true })).toBeVisible();
  await expect(banner).toContainText(/Shipped [A-Z0-9]+/);
  await expect(page.getByTestId('print-state')).toHaveAttribute('data-state', 'printed');
  const o = await orderOf(rpc, '#9101');
  expect(o.status).toBe('shipped');
  expect((await rpc('shipments.get', { trackingNumber: o.shipmentTrackingNumber! })).reference).toBe('#9101');
  await expect.poll(() => labelPrinter.labels().length).toBe(labelsBefore + 1);
  expect(labelPrinter.labels().at(-1)).toContain('^XA');
  const seen = await countdownTexts(page);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen[0]).toContain("Rule 1 'Italia fino a 5 kg' ships this order by itself in 0.3 s");
  expect(await keys.count()).toBe(0);
});

test('an order still missing an item never starts it; the last item does, and Esc stops it: nothing ships', async ({ page, station, rpc, labelPrinter }) => {
  await rpc('shipping.settings.set', { countdownMs: 10_000 });
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  const keys = await packerKeys(page);
  const progress = page.getByTestId('verify-progress');
  const labelsBefore = labelPrinter.labels().length;
  const creditBefore = (await rpc('app.info', {})).credit;

  await scan(page, '#9102');
  await scan(page, 'VASO-3');
  await expect(progress).toHaveText('1 of 2 items');
  // Ship stays refused while an item is missing: no countdown, however long the bench waits for the next scan.
  await expect(page.getByRole('heading', { name: 'Scan' })).toBeVisible();
  expect(await countdownTexts(page)).toEqual([]);

  await scan(page, 'TAZ-1');
  const timer = page.getByRole('timer');
  await expect(timer).toContainText("Rule 1 'Italia fino a 5 kg' ships this order by itself in 10 s");
  await expect(timer).toContainText('Esc stops');
  await expect(page.getByTestId('banner')).toContainText('All 2 items scanned');
  await expect(page.getByTestId('banner')).toContainText('Nothing to press: it ships by itself when the countdown ends.');
  await page.screenshot({ path: path.join(SHOTS, '37-verify-autoship-en.png'), fullPage: true });
  await page.keyboard.press('Escape');
  await expect(timer).toHaveCount(0);
  await expect(page.getByTestId('banner')).toContainText('Stopped: the order does not ship by itself');
  expect(await keys.count()).toBe(1);
  const o = await orderOf(rpc, '#9102');
  expect(o.status).toBe('open');
  expect(o.shipmentTrackingNumber ?? null).toBeNull();
  expect((await rpc('app.info', {})).credit?.balance).toBe(creditBefore?.balance);
  expect(labelPrinter.labels()).toHaveLength(labelsBefore);
});

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' });

  test('the countdown started by the last item, in Italian; Esc stops it', async ({ page, station, rpc }) => {
    await rpc('shipping.settings.set', { countdownMs: 10_000 });
    await page.goto(station.url);
    await expect(page.getByTestId('connection')).toHaveText('in linea');
    const progress = page.getByTestId('verify-progress');
    await scan(page, '#9103');
    await scan(page, 'PIA-2');
    await expect(progress).toHaveText('1 di 2 articoli');
    await scan(page, 'VASO-3');
    const timer = page.getByRole('timer');
    await expect(timer).toContainText("Regola 1 'Italia fino a 5 kg' spedisce da sola questo ordine tra 10 s");
    await expect(timer).toContainText('Esc ferma');
    await expect(page.getByTestId('banner')).toContainText('Niente da premere: parte da solo alla fine del conto alla rovescia.');
    await page.screenshot({ path: path.join(SHOTS, '37-verify-autoship-it.png'), fullPage: true });
    await page.keyboard.press('Escape');
    await expect(timer).toHaveCount(0);
    expect((await orderOf(rpc, '#9103')).status).toBe('open');
  });
});
