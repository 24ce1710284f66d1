/**
 * Issue 9 in Chromium: the packer sets the label printer's profile on the
 * Print screen from the keyboard (300 dpi, 100 x 150 mm) and Alt+V shows
 * what the printer will print: the job's own ZPL, adapted to the profile,
 * rendered back at 300 dpi (1181 x 1772 dots). A bad value is refused
 * naming its field, and the saved profile stays. Screenshot:
 * test-results/screens/30-print-profile-preview.png.
 */
import path from 'node:path';
import { expect, SHOTS, test } from './fixture';
import { scanWeighAndChooseRate } from './flows';

test.use({ stationOptions: { name: 'printing', labelPrinter: 'listener' } });

test('printer profile from the keyboard, then a preview of what the printer will print', async ({ page, station, rpc, labelPrinter: printer }) => {
  const order = await rpc('orders.create', {
    recipient: { name: 'Elena Galli', street: 'Via Dante 5', city: 'Bergamo', province: 'BG', postalCode: '24121', countryCode: 'IT' },
    items: [{ name: 'Cornice', quantity: 1, unitPrice: 18 }],
  });
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  await scanWeighAndChooseRate(page, order.orderNumber);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('print-state')).toHaveAttribute('data-state', 'printed');
  const ldv = (await page.getByTestId('tracking-number').textContent())!.trim();

  // The profile, field by field with the keyboard.
  const profile = page.getByTestId('printer-profile');
  await profile.getByLabel(/Resolution|Risoluzione/).selectOption('300');
  const width = profile.getByLabel(/Label width|Larghezza/);
  await width.fill('abc');
  await width.press('Enter');
  await expect(profile.locator('#profile-widthMm-err')).toContainText('widthMm');
  expect((await rpc('printers.profile.get', {})).profile).toBeNull(); // nothing saved by a refused form
  await width.fill('100');
  await profile.getByLabel(/Label height|Altezza/).fill('150');
  await profile.getByLabel(/Darkness|Intensità/).fill('22');
  await profile.getByLabel(/Top offset|Spostamento/).fill('-12');
  await profile.getByLabel(/Top offset|Spostamento/).press('Enter');
  await expect(page.getByTestId('banner')).toContainText(/Printer profile saved|Profilo della stampante salvato/);
  expect((await rpc('printers.profile.get', {})).profile).toMatchObject({ dpi: 300, widthMm: 100, heightMm: 150, darkness: 22, topOffsetDots: -12 });

  // Alt+V: the job's bytes for this printer, rendered back at its resolution and size.
  await page.keyboard.press('Alt+v');
  const img = page.getByTestId('label-preview').getByRole('img', { name: new RegExp(ldv) });
  await expect(img).toBeVisible();
  const size = await img.evaluate((el: HTMLImageElement) => ({ w: el.naturalWidth, h: el.naturalHeight }));
  expect(size).toEqual({ w: 1181, h: 1772 });
  await expect(page.getByTestId('label-preview')).toContainText('300 dpi, 100 × 150 mm');
  await page.screenshot({ path: path.join(SHOTS, '30-print-profile-preview.png'), fullPage: true });

  // The reprint goes out with the same profile.
  const before = printer.labels().length;
  await page.keyboard.press('Alt+r');
  await expect.poll(() => printer.labels().length).toBe(before + 1);
  expect(printer.labels().at(-1)).toContain('^PW1181');
});
