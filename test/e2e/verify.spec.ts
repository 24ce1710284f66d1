/**
 * Scan to verify in Chromium (issue 14 item 5), from the keyboard: turned on
 * in Settings with an item's EAN; an order's items scanned on the Scan
 * screen ("2 of 3 items"), a wrong item and one too many are loud
 * `wrong_item` outcomes; with an item missing Ship is refused and the
 * platform gets nothing; Alt+Y skips with a reason and the order ships; an
 * order whose items are all scanned goes on to Quote by itself.
 * Screenshot: test-results/screens/33-verify.png.
 */
import path from 'node:path';
import { shopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { order } from '../fixtures/shopify/warehouse-order';
import { expect, SHOTS, test } from './fixture';

test.use({ stationOptions: { name: 'verify', labelPrinter: 'folder' } });

test.beforeAll(async ({ rpc }) => {
  const created = '2026-11-20 10:00:00 +0000';
  const ship = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
  await rpc('orders.importCsv', {
    fileName: 'verify.csv',
    content: shopifyCsv([
      ...order({ name: '#9001', id: '9900000009001', created, email: 'a@example.it', ship, items: [{ q: '2', n: 'Tazza', p: '12.00', sku: 'TAZ-1' }, { q: '1', n: 'Piattino', p: '5.00', sku: 'PIA-2' }], total: '29.00' }),
      ...order({ name: '#9002', id: '9900000009002', created, email: 'b@example.it', ship, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO-3' }], total: '30.00' }),
    ]),
  });
});

test('scan to verify: wrong item, one too many, a missing item refused at Ship, a skip with a reason, a complete order', async ({ page, station, rpc }) => {
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  const banner = page.getByTestId('banner');
  const sound = page.locator('html');

  // Settings (F8): on, and the mug's EAN.
  await page.keyboard.press('F8');
  await page.getByLabel('Scan each item before shipping').check();
  await page.getByRole('button', { name: 'Save scan to verify' }).click();
  await expect(banner).toContainText('Scan-to-verify settings saved');
  await page.getByLabel('SKU', { exact: true }).fill('TAZ-1');
  await page.getByLabel('Barcodes (EAN/UPC, space between)').fill('8001234567890');
  await page.getByLabel('Unit weight (kg)').fill('0,3');
  await page.getByLabel('Unit weight (kg)').press('Enter');
  await expect(banner).toContainText('Item TAZ-1 saved');
  await expect(page.getByRole('table', { name: 'Items: barcodes and weights' })).toContainText('8001234567890');

  // The order: its items to scan, on the Scan screen.
  await page.keyboard.press('F1');
  const scan = page.locator('#scan-input');
  const scanCode = async (code: string) => {
    await expect(scan).toBeFocused();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
  };
  await scanCode('#9001');
  const progress = page.getByTestId('verify-progress');
  await expect(progress).toHaveText('0 of 3 items');
  await expect(page.getByRole('heading', { name: 'Scan' })).toBeVisible();

  // A wrong item: loud, nothing counted.
  await scanCode('4006381333931');
  await expect(banner).toContainText('WRONG ITEM: 4006381333931 is not in order #9001');
  await expect(banner).toHaveAttribute('data-outcome', 'wrong_item');
  await expect(sound).toHaveAttribute('data-last-sound', 'wrong_item');
  await expect(progress).toHaveText('0 of 3 items');

  // The mugs: by SKU, then by the EAN known for it; a third one is one too many.
  await scanCode('taz-1');
  await expect(progress).toHaveText('1 of 3 items');
  await scanCode('8001234567890');
  await expect(progress).toHaveText('2 of 3 items');
  await scanCode('TAZ-1');
  await expect(banner).toContainText('ONE TOO MANY: Tazza — the order has 2');
  await expect(banner).toHaveAttribute('data-outcome', 'wrong_item');
  await expect(progress).toHaveText('2 of 3 items');
  await page.screenshot({ path: path.join(SHOTS, '33-verify.png'), fullPage: true });

  // The saucer is missing: Esc stops verifying, and Ship is refused; the platform gets nothing.
  const before = (await rpc('shipments.recent', { limit: 500 })).length;
  await page.keyboard.press('Escape');
  await expect(banner).toContainText('Verification of #9001 stopped');
  await page.keyboard.press('F2');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  await page.keyboard.type('1.2');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: /^Ship/ })).toBeVisible();
  await page.keyboard.press('Control+Enter');
  await expect(banner).toContainText('ITEMS NOT VERIFIED: 2 of 3 scanned');
  await expect(banner).toHaveAttribute('data-outcome', 'wrong_item');
  expect((await rpc('shipments.recent', { limit: 500 })).length).toBe(before);

  // Scanned again: its progress is kept (issue 24 item 7); skip with Alt+Y and a reason; then it ships.
  await page.keyboard.press('F1');
  await scanCode('#9001');
  await expect(progress).toHaveText('2 of 3 items');
  await page.keyboard.press('Alt+y');
  const reason = page.getByLabel('Why are the items not scanned?');
  await expect(reason).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#verify-reason-err')).toHaveText('Say why (3 characters or more)');
  await page.keyboard.type('Piattino out of stock, sent later');
  await page.keyboard.press('Enter');
  await expect(banner).toContainText('Items of #9001 not scanned: skipped');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  await page.keyboard.type('1.2');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Enter');
  await expect(banner).toHaveAttribute('data-outcome', 'shipped');
  expect((await rpc('shipments.recent', { limit: 500 })).filter((s) => s.reference?.includes('#9001'))).toHaveLength(1);

  // A complete order: its only item scanned, Quote comes by itself with the weight in focus.
  await page.keyboard.press('Enter'); // Next order
  await scanCode('#9002');
  await expect(progress).toHaveText('0 of 1 item');
  await scanCode('VASO-3');
  await expect(banner).toContainText('The item is scanned');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
});
