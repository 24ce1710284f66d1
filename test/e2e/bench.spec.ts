/**
 * One bench day, end to end, keyboard first: import a Shopify CSV, scan an
 * order, quote, choose a rate with a key, ship (a refusal shows in the
 * Queue), see the label reach the printer (a TCP listener) carrying the
 * tracking number shown on screen, scan that tracking number (shipment and
 * tracking), book a pickup, close the day; later the sandbox clock moves the
 * parcel and the tracking timeline follows.
 * Screenshots of every screen go to test-results/screens/.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startFakePrinter } from './fake-printer';
import { unnamedControls } from './a11y';
import { expect, SHOTS, test } from './fixture';
import { sandboxAdmin } from './sandbox-admin';

const CSV = path.join(import.meta.dirname, 'fixtures', 'shopify-orders.csv');

test.describe.configure({ mode: 'serial' });
// The station core on the embedded training sandbox, printing to the listener, behind the headless host.
test.use({ stationOptions: { name: 'bench', labelPrinter: 'listener' } });

/** Tracking number shipped by the first test (order #1002), looked at again by the last one. */
let firstLdv = '';

test.beforeAll(({ station }) => {
  expect(station.readyLine).toContain('(training mode: embedded sandbox)');
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const banner = (page: Page) => page.getByTestId('banner');

test('a bench day: import, scan, quote, ship and print, pickup, close the day', async ({ page, station, labelPrinter: printer }) => {
  await page.goto(station.url);

  // Header: training mode is unmissable; the token left the address bar.
  await expect(page.getByText('TRAINING MODE — sandbox')).toBeVisible();
  await expect(page.getByTestId('connection')).toHaveText('online');
  await expect(page.getByTestId('printer-state')).toContainText('ready');
  expect(page.url()).not.toContain('token=');

  const scan = page.getByLabel('Scan an order number or a tracking number');
  await expect(scan).toBeFocused();

  // --- Orders: import the Shopify export and read the report.
  await page.getByLabel('Shopify “Export orders” CSV file').setInputFiles(CSV);
  // #1005 has no postal code: imported as an order to fix (issue 12), not a problem.
  await expect(page.getByTestId('import-imported')).toHaveText('5');
  await expect(page.getByTestId('import-errors')).toHaveText('0');
  const toFix = page.getByRole('table', { name: 'Orders to fix' });
  await expect(toFix.getByRole('row').nth(1)).toContainText('#1005');
  await expect(toFix.getByRole('row').nth(1)).toContainText('Shipping Zip');
  const openOrders = page.getByRole('table', { name: 'Open orders' });
  await expect(openOrders.getByRole('row')).toHaveCount(6); // header + 5 orders
  await expect(openOrders).toContainText('#1002');
  await expect(openOrders.getByRole('row', { name: /#1005/ })).toContainText('needs fix');
  await shot(page, '01-scan-orders-imported');
  expect(await unnamedControls(page), '01-scan-orders-imported').toEqual([]);

  // --- Scan: an unknown code fails loudly, and focus stays in the scan field.
  await scan.focus();
  await page.keyboard.type('NOPE-12345');
  await page.keyboard.press('Enter');
  await expect(banner(page)).toHaveAttribute('data-kind', 'error');
  await expect(banner(page)).toContainText('UNKNOWN CODE: NOPE-12345');
  await expect(scan).toBeFocused();
  await shot(page, '02-scan-unknown-code');
  expect(await unnamedControls(page), '02-scan-unknown-code').toEqual([]);

  // A scanner types the order number and Enter.
  await page.keyboard.type('#1002');
  await page.keyboard.press('Enter');
  await expect(banner(page)).toContainText('Order #1002 — Marco Rossi');
  await expect(page.getByRole('heading', { name: /^Quote/ })).toBeVisible();

  // --- Quote: weigh (decimal comma), Enter, all rates side by side, cheapest first.
  const weight = page.getByLabel('Weight (kg)');
  await expect(weight).toBeFocused();
  await page.keyboard.type('2,4');
  await page.keyboard.press('Enter');
  const rates = page.getByTestId('rate');
  await expect(rates.first()).toBeVisible();
  const count = await rates.count();
  expect(count).toBeGreaterThan(0);
  const totals = await page.locator('.rate-total').allInnerTexts();
  const amounts = totals.map((t) => Number(t.replace(/[^\d.,]/g, '').replace(/,/g, '')));
  expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeFocused();
  await shot(page, '03-quote');
  expect(await unnamedControls(page), '03-quote').toEqual([]);

  // Choose with the keyboard: ArrowDown/ArrowUp move the highlight, a digit chooses.
  const pick = count > 1 ? 2 : 1;
  if (count > 1) {
    await page.keyboard.press('ArrowDown');
    await expect(rates.nth(1)).toHaveAttribute('aria-selected', 'true');
  }
  const chosenCarrier = await rates.nth(pick - 1).locator('.rate-contract').innerText();
  await page.keyboard.press(String(pick));

  // --- Ship: prefilled from the order; field errors come from the platform schema on blur.
  await expect(page.getByRole('heading', { name: /^Ship/ })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Chosen rate' })).toContainText(chosenCarrier);
  await expect(page.getByLabel('Recipient name')).toHaveValue('Marco Rossi');
  await expect(page.getByLabel('Postal code')).toHaveValue('00184');
  await expect(page.getByLabel('Reference (order number)')).toHaveValue('#1002');
  const shipButton = page.getByRole('button', { name: /Ship & print label/ });
  await expect(shipButton).toBeFocused();

  const postal = page.getByLabel('Postal code');
  await postal.fill('');
  await postal.blur();
  await expect(page.locator('#ship-postalCode-err')).toHaveText('Postal code is required');
  await expect(postal).toHaveAttribute('aria-invalid', 'true');
  await shot(page, '04-ship-field-error');
  expect(await unnamedControls(page), '04-ship-field-error').toEqual([]);
  await postal.fill('00184');
  await expect(page.locator('#ship-postalCode-err')).toHaveCount(0);

  // Cash on delivery, collected as one of the chosen contract's methods.
  await page.getByLabel('Cash on delivery').check();
  await page.getByLabel('COD amount (EUR)').fill('48,60');
  const method = page.getByLabel('Collected as');
  const methods = await method.locator('option').allInnerTexts();
  expect(methods.length).toBeGreaterThan(1);
  await method.selectOption({ label: methods[1]! });

  // A rule only the platform checks (Italian province = 2 letters): its `details` land on the field.
  const province = page.getByLabel('Province');
  await province.fill('Roma');
  await province.focus();
  await page.keyboard.press('Control+Enter');
  await expect(banner(page)).toHaveAttribute('data-kind', 'error');
  await expect(banner(page)).toContainText('The platform refused the shipment');
  await expect(page.locator('#ship-province-err')).toHaveText('Italian province must be the 2-letter code (e.g. MI)');
  await expect(province).toHaveAttribute('aria-invalid', 'true');
  await shot(page, '05-ship-platform-error');
  expect(await unnamedControls(page), '05-ship-platform-error').toEqual([]);

  // The refused request waits in the Queue; the header's count leads there.
  const pendingPill = page.getByTestId('pending-outbox');
  await expect(pendingPill).toHaveText('1');
  await pendingPill.click();
  await expect(page.getByRole('heading', { name: 'Queue', exact: true })).toBeVisible();
  const refusedRow = page.getByTestId('queue-row');
  await expect(refusedRow).toHaveCount(1);
  await expect(refusedRow).toHaveAttribute('data-state', 'needs_attention');
  await expect(refusedRow).toContainText('Ship order #1002');
  await expect(refusedRow).toContainText('Needs attention');
  await expect(refusedRow).toContainText('HTTP 422 validation_failed');
  await expect(page.getByRole('button', { name: 'Send again: Ship order #1002' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Dismiss: Ship order #1002' })).toBeVisible();
  await shot(page, '05c-queue-needs-attention');
  expect(await unnamedControls(page), '05c-queue-needs-attention').toEqual([]);
  await page.keyboard.press('F3');
  await expect(page.getByRole('heading', { name: /^Ship/ })).toBeVisible();

  await province.fill('RM');
  await expect(page.locator('#ship-province-err')).toHaveCount(0);
  await shot(page, '05b-ship');
  expect(await unnamedControls(page), '05b-ship').toEqual([]);

  // Ctrl+Enter ships.
  await page.keyboard.press('Control+Enter');

  // --- Print: the label is printed at once, on the TCP printer, with the tracking number shown.
  const ldvEl = page.getByTestId('tracking-number');
  await expect(ldvEl).toBeVisible();
  const ldv = (await ldvEl.innerText()).trim();
  expect(ldv.length).toBeGreaterThan(5);
  await expect(banner(page)).toContainText(`Shipped ${ldv}`);
  await expect(page.getByTestId('print-state')).toHaveAttribute('data-state', 'printed');
  const label = await printer.waitForLabel(ldv);
  expect(label).toContain('^XA');
  expect(label).toContain('^XZ');
  expect(label).toContain(ldv);
  await expect(page.getByTestId('printer-uri')).toHaveText(`socket://127.0.0.1:${printer.port}`);
  // The refused request was settled by the shipment that went through.
  await expect(page.getByTestId('pending-outbox')).toHaveCount(0);
  firstLdv = ldv;
  await shot(page, '06-print');
  expect(await unnamedControls(page), '06-print').toEqual([]);

  // --- Scan the tracking number: shipment detail with reprint and cancel.
  await page.keyboard.press('F1');
  await expect(scan).toBeFocused();
  await page.keyboard.type(ldv);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shipment-tracking-number')).toHaveText(ldv);
  await expect(page.getByRole('button', { name: /Cancel shipment/ })).toBeEnabled();
  await expect(page.getByRole('article', { name: /Shipment/ })).toContainText('€48.60');
  await expect(page.getByRole('table', { name: 'Open orders' })).not.toContainText('#1002');
  // Its tracking: shipped, nothing from the carrier until it collects the parcel.
  const trackingSection = page.getByRole('region', { name: 'Tracking' });
  await expect(trackingSection.getByTestId('tracking-status')).toHaveText('Shipped');
  await expect(trackingSection.getByTestId('tracking-summary')).toContainText('No carrier events yet');
  await expect(trackingSection.getByRole('button', { name: /Refresh tracking/ })).toBeVisible();
  await shot(page, '07-scan-shipment');
  expect(await unnamedControls(page), '07-scan-shipment').toEqual([]);

  // --- Pickup booking.
  await page.keyboard.press('F5');
  await expect(page.getByRole('heading', { name: 'Pickup booking' })).toBeVisible();
  const contract = page.getByLabel('Contract');
  await expect(contract.locator('option')).not.toHaveCount(1);
  const firstContract = await contract.locator('option').nth(1).getAttribute('value');
  await contract.selectOption(firstContract!);
  await page.getByLabel('Afternoon (PM)').check();
  await page.getByLabel('Parcels').fill('3');
  await page.getByLabel('Total weight (kg)').fill('7,5');
  await page.getByRole('button', { name: 'Book pickup' }).click();
  await expect(banner(page)).toHaveAttribute('data-kind', 'ok');
  await expect(banner(page)).toContainText('Pickup booked');
  await expect(page.getByTestId('pickups').getByRole('row')).toHaveCount(2);
  await expect(page.getByTestId('pickups')).toContainText('PM');
  await shot(page, '08-pickup');
  expect(await unnamedControls(page), '08-pickup').toEqual([]);

  // --- End of day: the shipment waits for a manifest; close the day with the keyboard.
  await page.keyboard.press('F6');
  await expect(page.getByTestId('unmanifested-count')).toHaveText('1');
  await expect(page.getByRole('table', { name: 'Shipments not yet in a manifest' })).toContainText(ldv);
  await shot(page, '09-end-of-day-before');
  expect(await unnamedControls(page), '09-end-of-day-before').toEqual([]);
  const closeBtn = page.getByRole('button', { name: 'Close the day' });
  await expect(closeBtn).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Close the day?' })).toBeVisible();
  await page.keyboard.press('y');
  await expect(banner(page)).toContainText('Day closed: 1 manifest');
  await expect(page.getByTestId('unmanifested-count')).toHaveText('0');
  await expect(page.getByTestId('unmanifested-empty')).toBeVisible();
  const manifests = page.getByTestId('manifests');
  await expect(manifests.getByRole('row')).toHaveCount(2);

  // Save the manifest PDF through the blob download link.
  const [download] = await Promise.all([page.waitForEvent('download'), manifests.getByRole('button', { name: /Save manifest .* PDF/ }).click()]);
  const saved = path.join(station.workDir, 'manifest-download.pdf');
  await download.saveAs(saved);
  expect(readFileSync(saved).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await shot(page, '10-end-of-day-closed');
  expect(await unnamedControls(page), '10-end-of-day-closed').toEqual([]);

  // The cancelled-after-manifest rule shows on the scan screen: cancel is no longer offered.
  await page.keyboard.press('F1');
  await page.keyboard.type(ldv);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shipment-tracking-number')).toHaveText(ldv);
  await expect(page.getByRole('button', { name: /Cancel shipment/ })).toBeDisabled();
});

test('printer down: the shipment exists, the label waits; another printer and a reprint put it on paper', async ({ page, station, labelPrinter: printer }) => {
  await page.goto(station.url);
  await expect(page.getByText('TRAINING MODE — sandbox')).toBeVisible();

  // A port nobody listens on: a printer that is switched off.
  const dead = await startFakePrinter();
  const deadUri = `socket://127.0.0.1:${dead.port}`;
  await dead.close();

  // Printer settings: choose the (dead) printer by device URI.
  await page.keyboard.press('F4');
  await expect(page.getByRole('heading', { name: 'Print', exact: true })).toBeVisible();
  const uriInput = page.getByLabel('Use another printer (device URI)');
  await uriInput.fill(deadUri);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('printer-uri')).toHaveText(deadUri);
  await expect(page.getByTestId('printer-state')).not.toContainText('ready');

  // Ship order #1001 with the keyboard only: scan, weight + Enter, Enter on the highlighted rate, Enter on Ship.
  await page.keyboard.press('F1');
  await page.keyboard.type('#1001');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: /Ship & print label/ })).toBeFocused();
  await page.keyboard.press('Enter');

  const ldvEl = page.getByTestId('tracking-number');
  await expect(ldvEl).toBeVisible();
  const ldv = (await ldvEl.innerText()).trim();
  await expect(banner(page)).toHaveAttribute('data-kind', 'warn');
  await expect(banner(page)).toContainText(`Shipped ${ldv} — label NOT printed`);
  await expect(page.getByTestId('print-state')).not.toHaveAttribute('data-state', 'printed');
  await shot(page, '11-print-printer-down');
  expect(await unnamedControls(page), '11-print-printer-down').toEqual([]);

  // Back to the working printer, then reprint with Alt+R.
  await uriInput.fill(`socket://127.0.0.1:${printer.port}`);
  await page.getByRole('button', { name: 'Use this printer' }).click();
  await expect(page.getByTestId('printer-uri')).toHaveText(`socket://127.0.0.1:${printer.port}`);
  await page.keyboard.press('Alt+r');
  const label = await printer.waitForLabel(ldv);
  expect(label).toContain(ldv);
  await expect(page.getByTestId('print-state')).toHaveAttribute('data-state', 'printed');
  await shot(page, '12-print-reprinted');
});

test('manual order: the station schema marks the fields, then the order is listed and scannable', async ({ page, station }) => {
  await page.goto(station.url);
  await expect(page.getByText('TRAINING MODE — sandbox')).toBeVisible();
  const form = page.locator('details', { hasText: 'New order by hand' });
  await form.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(form.getByRole('button', { name: 'Create order' })).toBeVisible();

  await form.getByLabel('Postal code').fill('184');
  await form.getByLabel('Province (e.g. MI)').fill('Roma');
  await form.getByRole('button', { name: 'Create order' }).click();
  await expect(banner(page)).toHaveAttribute('data-kind', 'error');
  await expect(page.locator('#mo-name-err')).toHaveText('Recipient name is required');
  await expect(page.locator('#mo-street-err')).toHaveText('Street is required');
  await expect(page.locator('#mo-province-err')).toHaveText('Italian province must be 2 letters, like RM or MI');
  await shot(page, '13-manual-order-errors');
  expect(await unnamedControls(page), '13-manual-order-errors').toEqual([]);

  await form.getByLabel('Order number (blank: assigned)').fill('TEL-0042');
  await form.getByLabel('Recipient name').fill('Elena Greco');
  await form.getByLabel('Street and number').fill('Via Garibaldi 7');
  await form.getByLabel('City').fill('Roma');
  await form.getByLabel('Province (e.g. MI)').fill('rm');
  await form.getByLabel('Item', { exact: true }).fill('Tazza in ceramica - Blu');
  await form.getByLabel('Quantity').fill('2');
  await form.getByLabel('Unit price (EUR)').fill('12,50');
  await form.getByRole('button', { name: 'Create order' }).click();
  await expect(banner(page)).toContainText('Order TEL-0042 created');
  const row = page.getByRole('table', { name: 'Open orders' }).getByRole('row', { name: /TEL-0042/ });
  // The Italian postal code lost its leading zeros; the station restored them.
  await expect(row).toContainText('00184 Roma (IT)');

  const scan = page.getByLabel('Scan an order number or a tracking number');
  await scan.focus();
  await page.keyboard.type('TEL-0042');
  await page.keyboard.press('Enter');
  await expect(banner(page)).toContainText('Order TEL-0042 — Elena Greco');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();

  // Alt+letters switch screens like the F-keys.
  await page.keyboard.press('Alt+s');
  await expect(scan).toBeFocused();
  await page.keyboard.press('Alt+c');
  await expect(page.getByRole('heading', { name: 'End of day' })).toBeVisible();
  await page.keyboard.press('Alt+q');
  await expect(page.getByRole('heading', { name: /^Quote/ })).toBeVisible();
});

test('cancel a shipment from its scan, only after confirming; the order opens again', async ({ page, station, labelPrinter: printer }) => {
  await page.goto(station.url);
  await expect(page.getByText('TRAINING MODE — sandbox')).toBeVisible();
  const scan = page.getByLabel('Scan an order number or a tracking number');
  await expect(scan).toBeFocused();

  // Ship #1003 with the keyboard. It is not paid yet (Financial Status pending): the station asks first (issue 12).
  await page.keyboard.type('#1003');
  await page.keyboard.press('Enter');
  const unpaid = page.getByRole('dialog', { name: 'Order #1003 is not paid' });
  await expect(unpaid).toBeVisible();
  await expect(unpaid.getByRole('button', { name: /No, wait for the payment/ })).toBeFocused();
  await shot(page, '13b-unpaid-confirm');
  await page.keyboard.press('y');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeFocused();
  await page.keyboard.press('1');
  await expect(page.getByRole('button', { name: /Ship & print label/ })).toBeFocused();
  await page.keyboard.press('Enter');
  const ldv = (await page.getByTestId('tracking-number').innerText()).trim();
  await printer.waitForLabel(ldv);

  // Still on the Print screen, the scanner reads the parcel's label: the scan starts there at once.
  await expect(page.getByRole('button', { name: /Next order/ })).toBeFocused();
  await page.keyboard.type(ldv);
  await expect(scan).toBeFocused();
  await expect(scan).toHaveValue(ldv);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shipment-tracking-number')).toHaveText(ldv);

  // Alt+X asks; N (the focused, safe choice) keeps the shipment.
  await page.keyboard.press('Alt+x');
  const dialog = page.getByRole('dialog', { name: `Cancel shipment ${ldv}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: /No, keep it/ })).toBeFocused();
  await shot(page, '14-cancel-confirm');
  await page.keyboard.press('n');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: /Shipment/ })).not.toContainText('CANCELLED');

  // Alt+X again, Y cancels and refunds.
  await page.keyboard.press('Alt+x');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('y');
  await expect(banner(page)).toContainText(`Shipment ${ldv} cancelled`);
  await expect(page.getByRole('article', { name: /Shipment/ })).toContainText('CANCELLED');
  await expect(page.getByRole('button', { name: /Reprint label/ })).toBeDisabled();
  await expect(page.getByRole('table', { name: 'Open orders' })).toContainText('#1003');
  await expect(scan).toBeFocused();
  await shot(page, '15-cancelled');
  expect(await unnamedControls(page), '15-cancelled').toEqual([]);
});

test('tracking follows the sandbox clock, says when it cannot be read, and the Queue shows what was sent', async ({ page, station, rpc }) => {
  expect(firstLdv).not.toBe('');
  await page.goto(station.url);
  await expect(page.getByText('TRAINING MODE — sandbox')).toBeVisible();

  // A week later on the simulated clock the carrier has collected the manifested parcel and moved it on.
  await sandboxAdmin({ station, rpc }, 'POST', '/clock/advance', { days: 7 });
  const scan = page.getByLabel('Scan an order number or a tracking number');
  await expect(scan).toBeFocused();
  await page.keyboard.type(firstLdv);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shipment-tracking-number')).toHaveText(firstLdv);
  const tracking = page.getByRole('region', { name: 'Tracking' });
  const events = tracking.getByRole('list', { name: 'Carrier events, newest first' }).getByRole('listitem');
  await expect.poll(() => events.count()).toBeGreaterThanOrEqual(2);
  await expect(tracking.getByTestId('tracking-status')).not.toHaveText('Shipped');
  // The newest event comes first and carries the current status; times are shown in local time.
  const status = (await tracking.getByTestId('tracking-status').textContent()) ?? '';
  await expect(events.first().locator('.timeline-status')).toHaveText(status);
  await expect(events.last()).toContainText('Spedizione ritirata dal corriere');
  const iso = await events.first().locator('time').getAttribute('datetime');
  expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  await expect(events.first().locator('time')).toHaveText(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/);
  // The shipment card took the tracked status too.
  await expect(page.getByRole('article', { name: /Shipment/ })).toContainText(status, { ignoreCase: true });
  await shot(page, '16-tracking-timeline');
  expect(await unnamedControls(page), '16-tracking-timeline').toEqual([]);

  // The platform failing: Alt+T reads again and the screen says so, with the last known status.
  await sandboxAdmin({ station, rpc }, 'POST', '/faults', { serverErrorShare: 1 });
  try {
    await page.keyboard.press('Alt+t');
    await expect(tracking.getByTestId('tracking-unavailable')).toContainText('Tracking unavailable');
    await expect(tracking.getByTestId('tracking-status')).toHaveText(status);
    await expect(tracking.getByTestId('tracking-summary')).toContainText('Last tracking read');
    await expect(events.first().locator('.timeline-status')).toHaveText(status); // the timeline already read stays
    await shot(page, '17-tracking-unavailable');
  } finally {
    await sandboxAdmin({ station, rpc }, 'DELETE', '/faults');
  }
  await tracking.getByRole('button', { name: /Refresh tracking/ }).click();
  await expect(tracking.getByTestId('tracking-unavailable')).toHaveCount(0);
  await expect(events.first()).toBeVisible();

  // F7: the Queue lists what went to the platform today. The refused first try of #1002 was
  // sent again in its own row (one row per order, issue 7), so #1002 has one done row.
  await page.keyboard.press('F7');
  await expect(page.getByRole('heading', { name: 'Queue', exact: true })).toBeVisible();
  await expect(page.getByTestId('queue-pending-count')).toHaveText('0');
  await expect(page.getByTestId('queue-empty')).toBeVisible();
  const done = page.getByRole('table', { name: 'Requests done' });
  await expect(done.getByRole('row', { name: /Ship order #1002/ }).filter({ hasText: 'Replaced by a later request' })).toHaveCount(0);
  await expect(done.getByRole('row', { name: /Ship order #1002/ }).filter({ hasText: firstLdv })).toHaveCount(1);
  await expect(done.getByRole('row', { name: /Close the day: 1 shipment/ })).toContainText('Sent');
  await expect(done).toContainText('Book pickup');
  await shot(page, '18-queue-done');
  expect(await unnamedControls(page), '18-queue-done').toEqual([]);

  // A refused shipment the packer gives up on: dismissed from the Queue with a note, never sent.
  await page.keyboard.press('F1');
  await page.keyboard.type('TEL-0042');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeFocused();
  await page.keyboard.press('1');
  await page.getByLabel('Province').fill('Roma');
  await page.keyboard.press('Control+Enter');
  await expect(banner(page)).toContainText('The platform refused the shipment');
  await page.keyboard.press('F7');
  const row = page.getByTestId('queue-row').filter({ hasText: 'Ship order TEL-0042' });
  await expect(row).toHaveAttribute('data-state', 'needs_attention');
  await row.getByRole('button', { name: 'Dismiss: Ship order TEL-0042' }).click();
  const dialog = page.getByRole('dialog', { name: 'Dismiss “Ship order TEL-0042”?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Note (why it is dismissed)')).toBeFocused();
  await page.keyboard.type('Customer collects at the shop');
  await shot(page, '19-queue-dismiss');
  expect(await unnamedControls(page), '19-queue-dismiss').toEqual([]);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(banner(page)).toContainText('Dismissed: Ship order TEL-0042');
  await expect(page.getByTestId('queue-pending-count')).toHaveText('0');
  await expect(done.getByRole('row', { name: /Ship order TEL-0042/ })).toContainText('Dismissed: Customer collects at the shop');
  await expect(page.getByTestId('pending-outbox')).toHaveCount(0);
});
