/**
 * The day in pictures and who packed it, in Chromium (issue 26), in English
 * then in Italian on one station (one bench's day): two packers sign in by
 * scanning their badges on the Scan screen and ship in training mode; End of
 * day (F6) shows the charts (each an `img` named by what it shows, its table
 * on demand), the per-packer figures match the shipments, a shipment made
 * meanwhile updates the charts live; the day report button gives a PDF (its
 * text read back with pdf.js, its images counted from its drawing operators) and
 * a CSV (parsed with csv-parse). Screenshot: test-results/screens/40-day-charts.png.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { recipientToParty, type StationOrder } from '../../shared/domain/order';
import { pdfImageCounts, pdfTextItems } from '../support/pdf-text';
import { expect, SHOTS, test } from './fixture';
import { shipFromKeyboard } from './flows';

test.use({ stationOptions: { name: 'day-report', labelPrinter: 'folder' } });

const recipient = { name: 'Elena Galli', street: 'Via Dante 5', city: 'Bergamo', province: 'BG', postalCode: '24121', countryCode: 'IT' };
let orders: StationOrder[] = [];

test.beforeAll(async ({ rpc }) => {
  // With no packers set the first one is saved freely; she is the supervisor whose PIN unlocks the rest.
  await rpc('packers.save', { name: 'Anna', badge: 'BADGE-ANNA', pin: '1234', role: 'supervisor' });
  await rpc('packers.unlock', { pin: '1234' });
  await rpc('packers.save', { name: 'Marco', badge: 'BADGE-MARCO', pin: '5678', role: 'packer' });
  await rpc('packers.setStation', { stationName: 'Banco 3', idleMinutes: 30 });
  orders = [];
  for (let i = 0; i < 6; i++) orders.push(await rpc('orders.create', { recipient, items: [{ name: 'Cornice', quantity: 1, unitPrice: 18 }] }));
});

/** Types a code into the Scan screen's scanner input, as the scanner does. */
async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.press('F1');
  await expect(page.locator('#scan-input')).toBeFocused();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

/** Scan, weigh, cheapest rate, ship, printed: from the keyboard, in either language. */
async function ship(page: Page, orderNumber: string): Promise<void> {
  await shipFromKeyboard(page, orderNumber);
  await expect(page.getByTestId('print-state')).toHaveAttribute('data-state', 'printed');
}

/** The report button's two downloads, saved under `dir`. */
async function report(page: Page, name: RegExp, dir: string): Promise<{ pdf: Uint8Array; csv: string }> {
  const files = new Map<string, string>();
  const done = new Promise<void>((resolve) => {
    page.on('download', (d) => {
      const to = path.join(dir, d.suggestedFilename());
      void d.saveAs(to).then(() => {
        files.set(path.extname(to), to);
        if (files.size === 2) resolve();
      });
    });
  });
  await page.getByRole('button', { name }).click();
  await done;
  const pdfPath = files.get('.pdf')!;
  return { pdf: new Uint8Array(readFileSync(pdfPath)), csv: readFileSync(files.get('.csv')!, 'utf8') };
}

/** Rows of the per-packer table as [name, shipments, parcels]. */
async function packerRows(page: Page): Promise<string[][]> {
  const rows = page.getByTestId('table-packers').locator('tbody tr');
  return (await rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')))).map((r) => r.slice(0, 3));
}

test.describe('in English', () => {
  test.use({ locale: 'en-GB' });

  test('two packers by badge, End of day charts, per-packer figures, the report read back', async ({ page, station }) => {
    await page.goto(station.url);
    await expect(page.getByTestId('connection')).toHaveText('online');
    await expect(page.getByTestId('packer')).toHaveText('nobody signed in');

    await scan(page, 'BADGE-MARCO');
    await expect(page.getByTestId('banner')).toContainText('Marco is signed in');
    await expect(page.getByTestId('packer')).toContainText('Marco');
    await ship(page, orders[0]!.orderNumber);

    await scan(page, 'BADGE-ANNA');
    await expect(page.getByTestId('packer')).toContainText('Anna');
    await ship(page, orders[1]!.orderNumber);
    await ship(page, orders[2]!.orderNumber);

    await page.keyboard.press('F6');
    const charts = page.getByRole('img');
    await expect(page.getByTestId('chart-hourly')).toHaveAttribute('aria-label', /^Parcels per hour on .*: 3 in total/);
    for (const id of ['hourly', 'contracts', 'packers', 'cost', 'exceptions']) await expect(page.getByTestId(`chart-${id}`)).toHaveAttribute('role', 'img');
    expect(await charts.count()).toBeGreaterThanOrEqual(5);
    // Drawn by ECharts, as SVG.
    await expect(page.getByTestId('chart-hourly').locator('svg')).toHaveCount(1);
    await page.getByRole('button', { name: 'Show the table of “Per packer”' }).click();
    expect(await packerRows(page)).toEqual([
      ['Anna', '2', '2'],
      ['Marco', '1', '1'],
    ]);
    await page.screenshot({ path: path.join(SHOTS, '40-day-charts.png'), fullPage: true });

    const r = await report(page, /^Day report \(PDF and CSV\)$/, station.workDir);
    const text = (await pdfTextItems(r.pdf)).flat().join(' ');
    expect(text).toContain('Day report');
    expect(text).toContain('Station: Banco 3');
    expect(text).toContain('Totals per packer');
    // The charts are in it as images: every chart but the cost per day (one bar for a single day).
    expect((await pdfImageCounts(r.pdf)).reduce((a, n) => a + n, 0)).toBe(4);
    const rows = parse(r.csv, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows.map((x) => x['Packer'])).toEqual(['Marco', 'Anna', 'Anna']);
    expect(rows.map((x) => x['Order'])).toEqual(orders.slice(0, 3).map((o) => o.orderNumber));
  });
});

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' });

  test('badge switch, live update of the charts, the report in Italian', async ({ page, station, rpc }) => {
    await page.goto(station.url);
    await expect(page.getByTestId('connection')).toHaveText('in linea');
    await scan(page, 'BADGE-MARCO');
    await expect(page.getByTestId('banner')).toContainText('Marco ha iniziato il turno');
    await ship(page, orders[3]!.orderNumber);
    await scan(page, 'BADGE-ANNA');
    await expect(page.getByTestId('packer')).toContainText('Anna');
    await ship(page, orders[4]!.orderNumber);

    await page.keyboard.press('F6');
    await expect(page.getByTestId('chart-hourly')).toHaveAttribute('aria-label', /^Colli per ora il .*: 5 in tutto/);
    // A parcel shipped while End of day is open: the charts follow (shipments.changed).
    const order = orders[5]!;
    await rpc('shipping.shipOrder', { orderId: order.id, request: { recipient: recipientToParty(order.recipient), packages: [{ weight: { value: 1, units: 'KG' }, dimensions: { length: 30, width: 20, height: 10, units: 'CM' } }] } });
    await expect(page.getByTestId('chart-hourly')).toHaveAttribute('aria-label', /: 6 in tutto/);
    await page.getByRole('button', { name: 'Mostra la tabella di “Per operatore”' }).click();
    expect(await packerRows(page)).toEqual([
      ['Anna', '4', '4'],
      ['Marco', '2', '2'],
    ]);

    const r = await report(page, /^Rapporto del giorno \(PDF e CSV\)$/, station.workDir);
    const text = (await pdfTextItems(r.pdf)).flat().join(' ');
    expect(text).toContain('Rapporto del giorno');
    expect(text).toContain('Banco: Banco 3');
    expect(text).toContain('Totali per operatore');
    expect((await pdfImageCounts(r.pdf)).reduce((a, n) => a + n, 0)).toBe(4);
    const rows = parse(r.csv, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(6);
    expect(rows.map((x) => x['Operatore'])).toEqual(['Marco', 'Anna', 'Anna', 'Marco', 'Anna', 'Anna']);
    for (const x of rows) expect(x['Lettera di vettura']).toMatch(/^\S+$/);
  });
});
