/**
 * Issue 12 items 3 and 4 in Chromium, from the Settings screen (F8): a shop's
 * store-pickup method names keep its collect-in-store orders off the to-ship
 * list (they show under "Store pickup"), and with unpaid orders forbidden an
 * unpaid order cannot be opened for shipping; after the import the focus is
 * back in the scan field (issue 14 item 2). Driven from the keyboard.
 * Screenshot: test-results/screens/25-order-settings.png.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { shopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { order } from '../fixtures/shopify/warehouse-order';
import { expect, SHOTS, test } from './fixture';

test.use({ stationOptions: { name: 'order-settings', labelPrinter: 'folder' } });

test('store pickup names per shop and unpaid orders forbidden, set on the Settings screen', async ({ page, station }) => {
  await page.goto(station.url);
  await expect(page.getByText('TRAINING MODE — sandbox')).toBeVisible();

  await page.keyboard.press('F8');
  const unpaid = page.getByLabel(/Unpaid orders may ship|Gli ordini non pagati possono partire/);
  await expect(unpaid).toBeChecked();
  await unpaid.focus();
  await page.keyboard.press('Space');
  await expect(unpaid).not.toBeChecked();
  await page.getByLabel(/^(Another shop|Un altro negozio)$/).fill('Bottega');
  await page.getByLabel(/^(Its pickup method names|I suoi metodi di ritiro)$/).fill('Ritiro in negozio\nCollect from Via Roma store');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('banner')).toContainText(/Order settings saved|Impostazioni ordini salvate/);
  // Saved, and shown again as the shop's own list.
  await expect(page.getByLabel(/(Pickup method names of|Metodi di ritiro di) Bottega/)).toHaveValue('Ritiro in negozio\nCollect from Via Roma store');
  await page.screenshot({ path: path.join(SHOTS, '25-order-settings.png'), fullPage: true });

  const created = '2026-11-20 10:00:00 +0000';
  const ship = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
  const csv = path.join(station.workDir, 'bottega.csv');
  writeFileSync(
    csv,
    shopifyCsv([
      ...order({ name: '#4001', id: '4400000004001', created, email: 'a@example.it', method: 'Collect from Via Roma store', ship, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' }),
      ...order({ name: '#4002', id: '4400000004002', created, email: 'b@example.it', financial: 'pending', method: 'Spedizione standard', ship, items: [{ q: '1', n: 'Piatto', p: '20.00', sku: 'PIATTO' }], total: '20.00' }),
      ...order({ name: '#4003', id: '4400000004003', created, email: 'c@example.it', method: 'Spedizione standard', ship, items: [{ q: '1', n: 'Tazza', p: '10.00', sku: 'TAZZA' }], total: '10.00' }),
    ]),
  );
  await page.keyboard.press('F1');
  await page.getByLabel('Shop (every shop numbers from #1001)').fill('Bottega');
  await page.getByLabel('Shopify “Export orders” CSV file').setInputFiles(csv);
  await expect(page.getByTestId('import-imported')).toHaveText('3');
  // After the import the focus is back where the next scan goes.
  await expect(page.locator('#scan-input')).toBeFocused();

  const list = page.getByRole('table', { name: 'Open orders' });
  await expect(page.getByTestId('orders-total')).toHaveText('2');
  await expect(list.getByRole('row', { name: /#4001/ })).toHaveCount(0);
  await page.getByLabel('Show').selectOption('pickup');
  await expect(page.getByTestId('orders-total')).toHaveText('1');
  await expect(page.getByRole('row', { name: /#4001/ })).toBeVisible();
  await page.getByLabel('Show').selectOption('to_ship');

  // The unpaid order is refused by the screen, and nothing opens for shipping.
  await list.getByRole('button', { name: 'Ship order #4002 of Bottega' }).click();
  await expect(page.getByTestId('banner')).toContainText('Order #4002 is not paid');
  await expect(page.getByRole('heading', { name: 'Scan' })).toBeVisible();
});
