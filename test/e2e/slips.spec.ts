/**
 * Issue 11's bench flow in Chromium: scan the order, choose the box, the
 * scale (a serial scale on a pseudo-terminal, continuous output) reports
 * 1.23 kg stable, the rates come by themselves with billable weight 1.23 kg,
 * Enter, Ctrl+Enter: one label reaches the label printer and one packing
 * slip (ESC/POS, decoded) reaches the receipt printer. Alt+K prints another.
 * Screenshot: test-results/screens/32-label-and-slip.png.
 */
import net from 'node:net';
import path from 'node:path';
import { shopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { order } from '../fixtures/shopify/warehouse-order';
import { decodeEscPos, escPosText } from '../support/escpos';
import { expect, SHOTS, test } from './fixture';
import { startPtyScale, type PtyScale } from './pty-scale';

test.use({ stationOptions: { name: 'slips', labelPrinter: 'listener' } });

let scale: PtyScale;
let receipt: { port: number; slips: Buffer[]; server: net.Server };

test.beforeAll(async ({ rpc }) => {
  const slips: Buffer[] = [];
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (chunks.length) slips.push(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receipt = { port: (server.address() as net.AddressInfo).port, slips, server };
  scale = await startPtyScale();
  await rpc('slips.settings.set', { printerUri: `socket://127.0.0.1:${receipt.port}`, format: 'escpos', paperWidthMm: 80, when: 'with_label', shopName: 'Bottega Verdi' });
  await rpc('scales.set', { config: { kind: 'serial', path: scale.path, baudRate: 9600, protocol: 'continuous' }, requoteOnStable: true });
  const created = '2026-11-20 10:00:00 +0000';
  await rpc('orders.importCsv', {
    fileName: 'slips.csv',
    content: shopifyCsv(
      order({ name: '#7001', id: '7700000007001', created, email: 'a@example.it', ship: { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' }, items: [{ q: '2', n: 'Tazza', p: '12.00', sku: 'TAZ-1' }], total: '24.00' }),
    ),
  });
});

test.afterAll(async ({ station }) => {
  // The station lets go of the scale and the receipt printer first (the fixture checks its exit code).
  await station.stop();
  scale?.close();
  await new Promise<void>((resolve) => (receipt ? receipt.server.close(() => resolve()) : resolve()));
});

test('scan, box, the scale says 1.23 kg, rates, ship: one label and one packing slip', async ({ page, station, rpc, labelPrinter }) => {
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  await page.keyboard.type('#7001');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  // The small box (25×20×10 cm weighs 1 kg by volume): the scale's 1.23 kg decides the price.
  await page.keyboard.press('Alt+1');
  await expect(page.getByLabel('Box', { exact: true })).toHaveValue('Small');

  // A box put on the scale: moving, then settled.
  scale.send('US,GS,+  0.870kg');
  scale.send('US,GS,+  1.190kg');
  await expect(page.getByLabel('Weight (kg)')).toHaveValue('');
  for (let i = 0; i < 3; i++) scale.send('ST,GS,+  1.230kg');
  await expect(page.getByLabel('Weight (kg)')).toHaveValue('1.230');
  // A stable weight asks for rates by itself.
  const rates = page.getByTestId('rate');
  await expect(rates.first()).toBeVisible();
  await expect(rates.first()).toContainText('Billable1.23 kg');
  await expect(rates.first().getByTestId('volumetric')).toHaveCount(0);
  await page.getByRole('listbox', { name: /Rates, cheapest first/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: /^Ship/ })).toBeVisible();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('banner')).toContainText(/Shipped [A-Z0-9]+/);
  await expect(page.getByTestId('slip-job')).toHaveAttribute('data-state', 'printed');
  const o = (await rpc('orders.page', { q: '#7001', view: 'all' })).orders[0]!;
  const [slip] = await rpc('slips.list', { orderId: o.id });
  const ldv = slip!.trackingNumber!;
  await expect(page.getByTestId('banner')).toContainText(`Shipped ${ldv}`);

  // One label at the label printer, one slip at the receipt printer.
  await labelPrinter.waitForLabel(ldv);
  expect(labelPrinter.labels().filter((l) => l.includes(ldv))).toHaveLength(1);
  await expect.poll(() => receipt.slips.length).toBe(1);
  const ops = decodeEscPos(receipt.slips[0]!);
  expect(ops.find((o) => o.op === 'barcode')).toMatchObject({ type: 'code128', data: '#7001' });
  const text = escPosText(ops);
  expect(text).toContain('Bottega Verdi');
  expect(text).toContain('2 x Tazza');
  expect(text).toContain(`Tracking ${ldv}`);
  expect(ops.filter((o) => o.op === 'cut')).toHaveLength(1);
  expect(await rpc('slips.list', { orderId: o.id })).toHaveLength(1);
  await page.screenshot({ path: path.join(SHOTS, '32-label-and-slip.png'), fullPage: true });

  // Alt+K: one more slip, asked for.
  await page.keyboard.press('Alt+k');
  await expect(page.getByTestId('slip-job')).toHaveCount(2);
  await expect.poll(() => receipt.slips.length).toBe(2);
  await expect(page.getByTestId('slip-job').first()).toHaveAttribute('data-state', 'printed');
});
