/**
 * Issue 37 items 1-2 in Chromium, "every order ships by itself": boxes Small
 * 25 × 20 × 10, Medium 30 × 20 × 15 (the default) and Large 40 × 30 × 20 cm,
 * a rule that ships Italian orders by itself, and product data with every
 * SKU's size and weight. The three orders that stopped at the default box
 * (issue 37's table) now ship by themselves after the scan with 0 key
 * actions, and the Print screen names the box the station chose and why; the
 * plates, bowls and tureen go in two parcels of one shipment. The fake Zebra
 * on TCP is the label printer; waits are on states, never on time.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { Invoke } from '../support/commands';
import { shopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { order } from '../fixtures/shopify/warehouse-order';
import { expect, SHOTS, test } from './fixture';
import { ISSUE_37_BOXES, ISSUE_37_PRODUCT_ROWS } from '../fixtures/boxes/issue-37';

test.use({ stationOptions: { name: 'box-fits', labelPrinter: 'listener' } });

const created = '2026-11-20 10:00:00 +0000';
const milano = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };

const RULES = { version: 1, rules: [{ name: 'Italia', when: { countries: ['IT'] }, then: { rate: 'cheapest', shipByItself: true } }] };
const PRODUCTS = [
  'sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description',
  ...ISSUE_37_PRODUCT_ROWS,
].join('\n');

/** The scanner: the order number's characters and Enter (not key actions of the packer). */
async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

const orderOf = async (rpc: Invoke, n: string) => (await rpc('orders.page', { q: n, view: 'all' })).orders.find((o) => o.orderNumber === n)!;

test.beforeAll(async ({ rpc }) => {
  await rpc('boxes.settings.set', ISSUE_37_BOXES);
  await rpc('rules.import', { content: JSON.stringify(RULES) });
  await rpc('products.importCsv', { content: PRODUCTS });
  await rpc('shipping.settings.set', { countdownMs: 300 });
  const item = (sku: string, q: number) => ({ q: String(q), n: sku, p: '10.00', sku });
  await rpc('orders.importCsv', {
    fileName: 'ceramiche.csv',
    content: shopifyCsv([
      ...order({ name: '#3701', id: '7700000003701', created, email: 'a@example.it', ship: milano, items: [item('CUP', 2), item('TE-1L', 1)], total: '30.00' }),
      ...order({ name: '#3702', id: '7700000003702', created, email: 'b@example.it', ship: milano, items: [item('PP-27', 3), item('BW-14', 3), item('TU-30', 1)], total: '70.00' }),
      ...order({ name: '#3703', id: '7700000003703', created, email: 'c@example.it', ship: milano, items: [item('VS-DEC', 1)], total: '10.00' }),
    ]),
  });
});

test.afterAll(async ({ station }) => {
  await station.stop();
});

const CASES = [
  { order: '#3701', box: 'Box Large: TE-1L 22 × 18 × 16 cm does not fit Medium', parcels: 1 },
  { order: '#3702', box: '2 boxes: no single box holds the items (Large is the largest)', parcels: 2 },
  { order: '#3703', box: 'Box Large: VS-DEC 20 × 20 × 30 cm does not fit Medium', parcels: 1 },
];

for (const c of CASES) {
  test(`${c.order} ships by itself after the scan with 0 key actions, its box named on the Print screen`, async ({ page, station, rpc, labelPrinter }) => {
    await page.goto(station.url);
    await expect(page.getByTestId('connection')).toHaveText('online');
    const labelsBefore = labelPrinter.labels().length;
    // Every key the page gets from here on: the scan's characters and its Enter, then none (0 key actions).
    await page.evaluate(() => {
      const w = window as unknown as { keysSeen: number };
      w.keysSeen = 0;
      window.addEventListener('keydown', () => (w.keysSeen += 1), true);
    });
    await scan(page, c.order);
    await expect(page.getByRole('heading', { name: 'Print', exact: true })).toBeVisible();
    await expect(page.getByTestId('banner')).toContainText(/Shipped [A-Z0-9]+/);
    await expect(page.getByTestId('shipped-box')).toHaveText(c.box);
    await expect(page.getByTestId('shipped-box')).toHaveAttribute('data-parcels', String(c.parcels));
    await expect(page.getByText(c.parcels === 1 ? '1 parcel' : `${c.parcels} parcels`, { exact: false }).first()).toBeVisible();
    const o = await orderOf(rpc, c.order);
    expect(o.status).toBe('shipped');
    await expect.poll(() => labelPrinter.labels().length).toBeGreaterThan(labelsBefore);
    const keysAfterScan = (await page.evaluate(() => (window as unknown as { keysSeen: number }).keysSeen)) - (c.order.length + 1);
    expect(keysAfterScan).toBe(0);
    if (c.parcels > 1) await page.screenshot({ path: path.join(SHOTS, '37-box-split-en.png'), fullPage: true });
  });
}
