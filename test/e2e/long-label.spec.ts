/**
 * Issue 36 item 2 in Chromium: the sandbox's 4 × 6 in label on a printer
 * whose profile says 4 × 4 in stock is loaded (its barcodes run to the end,
 * so no shrink keeps them at 90 %). The Print screen says the label is held
 * and what to load; Alt+F prints it shrunk anyway and the job says so; in
 * Italian, saving the profile for 4 × 6 in labels prints the held label by
 * itself, at its size. Screenshots: test-results/screens/36-held-en.png,
 * 36-printed-shrunk-en.png, 36-held-it.png.
 */
import path from 'node:path';
import { expect, SHOTS, test } from './fixture';
import { shipFromKeyboard } from './flows';

test.use({ stationOptions: { name: 'long-label', labelPrinter: 'listener' } });

const FOUR_BY_FOUR = { dpi: 203, widthMm: 101.6, heightMm: 101.6, darkness: 20, speedIps: 4, media: 'direct_thermal', topOffsetDots: 0 } as const;
const recipient = { name: 'Elena Galli', street: 'Via Dante 5', city: 'Bergamo', province: 'BG', postalCode: '24121', countryCode: 'IT' };

test('a label longer than the labels loaded is held with what to load; Alt+F prints it shrunk, noted', async ({ page, station, rpc, labelPrinter }) => {
  await rpc('printers.profile.set', { uri: station.printerUri, profile: FOUR_BY_FOUR });
  const order = await rpc('orders.create', { recipient, items: [{ name: 'Cornice', quantity: 1, unitPrice: 18 }] });
  const before = labelPrinter.labels().length;
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  await shipFromKeyboard(page, order.orderNumber);

  const state = page.getByTestId('print-state');
  await expect(state).toHaveAttribute('data-state', 'held');
  await expect(state).toContainText('HELD: longer than the labels loaded');
  await expect(page.getByTestId('print-error')).toHaveText('This label is 4 × 6 in: load 4 × 6 in labels, or choose a printer profile for them');
  await expect(page.getByTestId('banner')).toContainText('label HELD');
  await expect(page.getByTestId('waiting-jobs').locator('li[data-state="held"]')).toHaveCount(1);
  expect(labelPrinter.labels()).toHaveLength(before);
  await page.screenshot({ path: path.join(SHOTS, '36-held-en.png'), fullPage: true });

  await page.keyboard.press('Alt+f');
  await expect(state).toHaveAttribute('data-state', 'printed');
  await expect(page.getByTestId('print-note')).toHaveText(/^Printed shrunk to \d\d % at the packer’s word: the label is 4 × 6 in, longer than the labels loaded$/);
  await expect.poll(() => labelPrinter.labels().length).toBe(before + 1);
  // Shrunk onto the 4 × 4 in stock loaded.
  expect(labelPrinter.labels().at(-1)).toMatch(/\^PW812\^LL812/);
  await expect(page.getByTestId('waiting-jobs-empty')).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, '36-printed-shrunk-en.png'), fullPage: true });
});

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' });

  test('held in Italian, then the profile for 4 × 6 in labels prints it by itself, at its size', async ({ page, station, rpc, labelPrinter }) => {
    await rpc('printers.profile.set', { uri: station.printerUri, profile: FOUR_BY_FOUR });
    const order = await rpc('orders.create', { recipient, items: [{ name: 'Cornice', quantity: 1, unitPrice: 18 }] });
    const before = labelPrinter.labels().length;
    await page.goto(station.url);
    await expect(page.getByTestId('connection')).toHaveText('in linea');
    await shipFromKeyboard(page, order.orderNumber);

    const state = page.getByTestId('print-state');
    await expect(state).toHaveAttribute('data-state', 'held');
    await expect(state).toContainText('TRATTENUTA: più lunga delle etichette caricate');
    await expect(page.getByTestId('print-error')).toHaveText('Questa etichetta misura 4 × 6 in: carica etichette 4 × 6 in, o scegli un profilo di stampante adatto');
    await expect(page.getByTestId('print-shrunk')).toContainText('Stampa ridotta comunque');
    await page.screenshot({ path: path.join(SHOTS, '36-held-it.png'), fullPage: true });

    // The packer loads 4 × 6 in labels and says so in the printer's profile, from the keyboard.
    const profile = page.getByTestId('printer-profile');
    await profile.getByLabel(/Altezza/).fill('152.4');
    await profile.getByLabel(/Altezza/).press('Enter');
    await expect(state).toHaveAttribute('data-state', 'printed');
    await expect.poll(() => labelPrinter.labels().length).toBe(before + 1);
    expect(labelPrinter.labels().at(-1)).toMatch(/\^PW812\^LL1218/);
    await expect(page.getByTestId('print-note')).toHaveCount(0);
  });
});
