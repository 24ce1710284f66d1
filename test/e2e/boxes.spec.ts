/**
 * Box presets in Chromium (issue 11 "Box presets", issue 14 item 3): a box is
 * added in Settings (a bad size is refused naming its field), a new parcel
 * starts in the default box, the rate says when the volume sets the price,
 * a scanned box barcode in the Box field and Alt+1..9 choose a box, and the
 * next order starts in the box used last. Keyboard only after the page opens.
 * Screenshots: test-results/screens/30-box-settings.png, 31-quote-volumetric.png.
 */
import path from 'node:path';
import { shopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { order } from '../fixtures/shopify/warehouse-order';
import { expect, SHOTS, test } from './fixture';

test.use({ stationOptions: { name: 'boxes', labelPrinter: 'folder' } });

test.beforeAll(async ({ rpc }) => {
  const created = '2026-11-20 10:00:00 +0000';
  const ship = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
  await rpc('orders.importCsv', {
    fileName: 'boxes.csv',
    content: shopifyCsv([
      ...order({ name: '#5001', id: '5500000005001', created, email: 'a@example.it', ship, items: [{ q: '1', n: 'Poster', p: '30.00', sku: 'POSTER' }], total: '30.00' }),
      ...order({ name: '#5002', id: '5500000005002', created, email: 'b@example.it', ship, items: [{ q: '1', n: 'Poster', p: '30.00', sku: 'POSTER' }], total: '30.00' }),
    ]),
  });
});

test('boxes: added in Settings, chosen by barcode and Alt+digit, volumetric pricing shown, the last box kept', async ({ page, station, rpc }) => {
  await page.goto(station.url);
  await expect(page.getByText('TRAINING MODE — sandbox')).toBeVisible();

  // Settings: the training boxes, then a fourth one; a zero length is refused on its field.
  await page.keyboard.press('F8');
  await expect(page.getByLabel('Name #2')).toHaveValue('Medium');
  await page.getByRole('button', { name: '+ Add box' }).click();
  await page.getByLabel('Name #4').fill('Flat');
  await page.getByLabel('Length (cm) #4').fill('0');
  await page.getByLabel('Width (cm) #4').fill('25');
  await page.getByLabel('Height (cm) #4').fill('3');
  await page.getByLabel('Tare (kg) #4').fill('0,05');
  await page.getByLabel('Barcode #4').fill('FLAT');
  await page.getByLabel('Barcode #4').press('Control+Enter');
  await expect(page.getByTestId('banner')).toContainText('Boxes not saved');
  await expect(page.locator('#box-3-lengthCm-err')).toHaveText('Length must be above 0 cm');
  expect((await rpc('boxes.settings.get')).presets).toHaveLength(3); // nothing saved is lost or half-saved
  await page.getByLabel('Length (cm) #4').fill('35');
  await page.getByLabel('Length (cm) #4').press('Enter');
  await expect(page.getByTestId('banner')).toContainText('Boxes saved');
  expect((await rpc('boxes.settings.get')).presets[3]).toEqual({ name: 'Flat', lengthCm: 35, widthCm: 25, heightCm: 3, tareKg: 0.05, barcode: 'FLAT' });
  await page.screenshot({ path: path.join(SHOTS, '30-box-settings.png'), fullPage: true });

  // A new parcel starts in the default box (Medium 30×20×15), shown, not silent.
  await page.keyboard.press('F1');
  await page.keyboard.type('#5001');
  await page.keyboard.press('Enter');
  const weight = page.getByLabel('Weight (kg)');
  await expect(weight).toBeFocused();
  await expect(page.getByLabel('Box', { exact: true })).toHaveValue('Medium');
  await expect(page.getByLabel('Length (cm)')).toHaveValue('30');
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  const rates = page.getByTestId('rate');
  await expect(rates.first()).toBeVisible();
  // 30×20×15 cm weighs more by volume than 1 kg: every rate says so.
  await expect(rates.first().getByTestId('volumetric')).toContainText(/Billed on volume: [\d.]+ kg for 1 kg real/);
  await page.screenshot({ path: path.join(SHOTS, '31-quote-volumetric.png'), fullPage: true });

  // Scanning the flat box's barcode in the Box field (Tab from the weight), Enter quotes again in that box.
  await weight.focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Box', { exact: true })).toBeFocused();
  await page.keyboard.type('FLAT');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Length (cm)')).toHaveValue('35');
  await expect(page.getByLabel('Height (cm)')).toHaveValue('3');
  await expect(page.getByLabel('Box', { exact: true })).toHaveValue('Flat');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeFocused();
  await expect(rates.first()).toBeVisible();
  await expect(page.getByTestId('volumetric')).toHaveCount(0);

  // Alt+2 with the rate list focused: one action, the second box; no rate is chosen with it (issue 24 item 7).
  await page.keyboard.press('Alt+2');
  await expect(page.getByLabel('Box', { exact: true })).toHaveValue('Medium');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Ship/ })).toHaveCount(0);

  // Alt+1 from the weight field: the small box.
  await weight.focus();
  await page.keyboard.press('Alt+1');
  await expect(page.getByLabel('Box', { exact: true })).toHaveValue('Small');
  await expect(page.getByLabel('Length (cm)')).toHaveValue('25');
  await expect(page.getByTestId('banner')).toContainText('Parcel 1: box Small 25×20×10 cm');
  await expect(page.getByText('Parcels changed since the quote: quote again.')).toBeVisible();
  // A dimension typed by hand: the parcel is no longer that box.
  await page.getByLabel('Height (cm)').fill('12');
  await expect(page.getByLabel('Box', { exact: true })).toHaveValue('');
  // An unknown code is refused on the field, the dimensions stay.
  await page.getByLabel('Box', { exact: true }).fill('BOX-XX');
  await page.getByLabel('Box', { exact: true }).press('Enter');
  await expect(page.locator('#pkg-0-box-err')).toHaveText('No box "BOX-XX": type its number, name or barcode');
  await expect(page.getByLabel('Height (cm)')).toHaveValue('12');

  // The next order starts in the box quoted last (Flat).
  await page.keyboard.press('Alt+n');
  await page.keyboard.type('#5002');
  await page.keyboard.press('Enter');
  await expect(weight).toBeFocused();
  await expect(page.getByLabel('Box', { exact: true })).toHaveValue('Flat');
  await expect(page.getByLabel('Length (cm)')).toHaveValue('35');
});

test('scale settings: a serial scale without its port is refused naming the field, then saved', async ({ page, station, rpc }) => {
  await page.goto(station.url);
  await page.keyboard.press('F8');
  await page.getByLabel('Which scale').selectOption('serial');
  await page.getByLabel('Serial port').fill('');
  await page.getByLabel('Baud rate').fill('9600');
  await page.getByRole('button', { name: 'Save scale' }).click();
  await expect(page.getByTestId('banner')).toContainText('Scale not saved');
  await expect(page.locator('#scale-port-err')).toContainText('Serial port is required');
  expect((await rpc('scales.get')).config.kind).not.toBe('serial');

  await page.getByLabel('Serial port').fill('/dev/ttyNOSUCH0');
  await page.getByLabel('Protocol').selectOption('continuous');
  await page.getByLabel('A stable weight on Quote asks for rates at once').uncheck();
  await page.getByRole('button', { name: 'Save scale' }).click();
  await expect(page.getByTestId('banner')).toContainText('Scale saved');
  const saved = await rpc('scales.get');
  expect(saved.config).toEqual({ kind: 'serial', path: '/dev/ttyNOSUCH0', baudRate: 9600, protocol: 'continuous' });
  expect(saved.requoteOnStable).toBe(false);
  await expect(page.getByTestId('scale-now')).toContainText('No scale connected');
  await page.getByLabel('Which scale').selectOption('none');
  await page.getByRole('button', { name: 'Save scale' }).click();
  await expect(page.getByTestId('banner')).toContainText('Scale saved');
  expect((await rpc('scales.get')).config).toEqual({ kind: 'none' });
});
