/**
 * Bench ergonomics (issue 14), in Chromium against the embedded sandbox:
 * one press, one platform call (a double Enter on the Pickup form, a double
 * Y on the close-of-day confirmation), the form blank again after a booking,
 * a repeat pickup for the same contract, date and pickup point asks once
 * naming the booking already made, and the focus after each action lands
 * where the renderer's focus map says (renderer/README.md).
 * Platform calls are counted on the sandbox itself (GET /pickups and
 * GET /manifests through the station), not on the screen.
 */
import { recipientToParty } from '../../shared/domain/order';
import { expect, test } from './fixture';
import { scanWeighAndChooseRate } from './flows';

test.describe.configure({ mode: 'serial' });
test.use({ stationOptions: { name: 'ergo', labelPrinter: 'listener' } });

test('pickup: a double Enter books once, the form resets, a repeat asks once naming the booking', async ({ page, station, rpc }) => {
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  const before = (await rpc('pickups.list')).length;

  await page.keyboard.press('F5');
  await expect(page.getByRole('heading', { name: 'Pickup booking' })).toBeVisible();
  const contract = page.getByLabel('Contract');
  await expect(contract.locator('option')).not.toHaveCount(1);
  await expect(contract.locator('option').first()).toHaveText('Choose a contract…'); // lists loaded
  const code = (await contract.locator('option').nth(1).getAttribute('value'))!;
  await contract.selectOption(code);
  // The date in the bench's format, not the browser's (item 4): dd/mm/yyyy.
  await expect(page.getByLabel('Pickup date')).toHaveValue(/^\d{2}\/\d{2}\/\d{4}$/);
  const weight = page.getByLabel('Total weight (kg)');
  await weight.fill('4');
  await expect(contract).toHaveValue(code);
  // Two Enters in a row, as a heavy thumb does.
  await weight.press('Enter');
  await weight.press('Enter');
  // The banner may already show the second Enter landing on the blank form ("fix the marked fields"): fine, nothing is booked by it.
  await expect(page.getByRole('button', { name: 'Book pickup' })).toBeEnabled();
  // Exactly one booking reached the platform.
  await expect.poll(async () => (await rpc('pickups.list')).length).toBe(before + 1);
  const booked = (await rpc('pickups.list')).find((p) => p.serviceType === code)!;
  expect(booked).toBeDefined();

  // The form is blank again (focus after a booking is asserted below, after the confirmed repeat): a third Enter books nothing.
  await expect(weight).toHaveValue('');
  await weight.press('Enter');
  await expect(page.getByTestId('banner')).toContainText('Pickup not booked: fix the marked fields');
  expect((await rpc('pickups.list')).length).toBe(before + 1);

  // The same contract, date and pickup point again: one question naming the existing booking.
  await contract.selectOption(code);
  await weight.fill('2');
  await weight.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'A pickup is already booked' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(booked.pickupId);
  // The safe choice has the focus: Enter keeps the one booked, nothing is sent.
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  expect((await rpc('pickups.list')).length).toBe(before + 1);
  await expect(contract).toBeFocused();

  // Asked again, the packer says yes (twice, quickly): exactly one more booking.
  await weight.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('y');
  await page.keyboard.press('y');
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await rpc('pickups.list')).length).toBe(before + 2);
  await expect(contract).toBeFocused();
  await page.waitForTimeout(300);
  expect((await rpc('pickups.list')).length).toBe(before + 2);
});

test('close the day: a double Y closes once and the focus lands on the first manifest PDF', async ({ page, station, rpc }) => {
  // One shipment waiting for a manifest, made through the station.
  const order = await rpc('orders.create', {
    recipient: { name: 'Anna Rossi', street: 'Via Po 3', city: 'Torino', province: 'TO', postalCode: '10123', countryCode: 'IT' },
    items: [{ name: 'Tazza', quantity: 1, unitPrice: 9.5 }],
  });
  await rpc('shipping.shipOrder', {
    orderId: order.id,
    request: { recipient: recipientToParty(order.recipient), packages: [{ weight: { value: 1, units: 'KG' }, dimensions: { length: 20, width: 15, height: 10, units: 'CM' } }] },
  });
  const before = (await rpc('manifests.list')).length;

  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  await page.keyboard.press('F6');
  await expect(page.getByTestId('unmanifested-count')).toHaveText('1');
  await expect(page.getByRole('button', { name: 'Close the day' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Close the day?' })).toBeVisible();
  await page.keyboard.press('y');
  await page.keyboard.press('y');
  await expect(page.getByTestId('banner')).toContainText('Day closed: 1 manifest');
  await expect.poll(async () => (await rpc('manifests.list')).length).toBe(before + 1);
  const created = (await rpc('manifests.list')).sort((a, b) => b.id - a.id)[0]!;
  // Focus map: after close day, the first new manifest's PDF button.
  await expect(page.getByRole('button', { name: `Save manifest ${created.id} PDF` })).toBeFocused();
  await page.waitForTimeout(300);
  expect((await rpc('manifests.list')).length).toBe(before + 1);
});

test('the page has a real icon: /favicon.ico is an ICO with 16, 32 and 48 px images, linked from the page', async ({ page, station }) => {
  const origin = new URL(station.url).origin;
  const res = await fetch(`${origin}/favicon.ico`);
  expect(res.status).toBe(200);
  const ico = Buffer.from(await res.arrayBuffer());
  // ICONDIR: reserved 0, type 1 (icon), 3 entries; each entry's width byte.
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 3]);
  expect([0, 1, 2].map((k) => ico.readUInt8(6 + 16 * k))).toEqual([16, 32, 48]);
  await page.goto(station.url);
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(new URL(href!, page.url()).pathname).toBe('/favicon.ico');
});

test('ship: a double Ctrl+Enter ships and pays once', async ({ page, station, rpc }) => {
  const order = await rpc('orders.create', {
    recipient: { name: 'Marta Neri', street: 'Via Garibaldi 8', city: 'Genova', province: 'GE', postalCode: '16124', countryCode: 'IT' },
    items: [{ name: 'Tovaglia', quantity: 1, unitPrice: 30 }],
  });
  const creditBefore = (await rpc('credit.get')).balance;
  const shippedBefore = (await rpc('shipments.recent', { limit: 500 })).length;

  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  await scanWeighAndChooseRate(page, order.orderNumber);
  // Two Ctrl+Enters in a row, as a heavy thumb does.
  await page.keyboard.press('Control+Enter');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('button', { name: 'Next order' })).toBeFocused();
  await page.waitForTimeout(500);

  // On the platform: exactly one shipment, paid once.
  const mine = (await rpc('shipments.recent', { limit: 500 })).filter((s) => s.reference?.includes(order.orderNumber));
  expect(mine).toHaveLength(1);
  expect((await rpc('shipments.recent', { limit: 500 })).length).toBe(shippedBefore + 1);
  const paid = Math.round((creditBefore - (await rpc('credit.get')).balance) * 100) / 100;
  expect(paid).toBe(mine[0]!.cost.amount);

  // Feedback from a metre away (item 6): the shipped outcome has its own colour and sound, and it
  // holds on the Scan screen until the next scan.
  const banner = page.getByTestId('banner');
  await expect(banner).toHaveAttribute('data-outcome', 'shipped');
  await expect(page.locator('html')).toHaveAttribute('data-last-sound', 'shipped');
  await page.keyboard.press('Enter'); // Next order
  await expect(page.locator('#scan-input')).toBeFocused();
  await expect(banner).toHaveAttribute('data-outcome', 'shipped');
  await page.keyboard.type('NOPE-404');
  await page.keyboard.press('Enter');
  await expect(banner).toContainText('UNKNOWN CODE: NOPE-404');
  await expect(banner).not.toHaveAttribute('data-outcome', /.+/);
  await expect(page.locator('html')).toHaveAttribute('data-last-sound', 'error');

  // Sounds off (Settings): nothing is played any more, the colours stay.
  await page.keyboard.press('F8');
  const sounds = page.getByLabel(/Sounds for each outcome|Suoni per ogni esito/);
  await expect(sounds).toBeChecked();
  await sounds.uncheck();
  await page.evaluate(() => (document.documentElement.dataset.lastSound = 'none'));
  await page.keyboard.press('F1');
  await page.keyboard.type('NOPE-405');
  await page.keyboard.press('Enter');
  await expect(banner).toContainText('UNKNOWN CODE: NOPE-405');
  await expect(page.locator('html')).toHaveAttribute('data-last-sound', 'none');
  await page.keyboard.press('F8');
  await sounds.check();
});

test('send orders to the platform: a double press sends one batch', async ({ page, station, rpc }) => {
  const order = await rpc('orders.create', {
    recipient: { name: 'Paolo Verdi', street: 'Corso Italia 2', city: 'Pisa', province: 'PI', postalCode: '56125', countryCode: 'IT' },
    items: [{ name: 'Brocca', quantity: 2, unitPrice: 12 }],
  });
  const rowsOf = async () => {
    const list = await rpc('outbox.list', { doneLimit: 200 });
    return [...list.pending, ...list.done].filter((r) => r.kind === 'orders.submit');
  };
  const before = (await rowsOf()).length;
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  await page.getByLabel('Search').fill(order.orderNumber);
  await expect(page.getByTestId('orders-total')).toHaveText('1');
  await page.getByRole('checkbox', { name: `Select order ${order.orderNumber} of ${order.shop}` }).check();
  // Every call the page makes to the station, counted at the page's own boundary.
  let submits = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/rpc/orders.submit') submits++;
  });
  const send = page.getByRole('button', { name: /Send 1 to platform/ });
  // Two presses inside one task, before the first call is answered (a key repeat or a bouncing
  // scanner trigger is that fast): only the in-flight guard stands between them and a second call.
  await send.evaluate((el: HTMLElement) => {
    el.click();
    el.click();
  });
  await expect(page.getByTestId('banner')).toContainText('1 order queued for the platform');
  await page.waitForTimeout(500);
  expect(submits).toBe(1);
  expect((await rowsOf()).length).toBe(before + 1);
});

test('after a refused submit the focus goes to the field the error names', async ({ page, station, rpc }) => {
  const order = await rpc('orders.create', {
    recipient: { name: 'Luca Sala', street: 'Via Verdi 3', city: 'Roma', province: 'RM', postalCode: '00184', countryCode: 'IT' },
    items: [{ name: 'Lampada', quantity: 1, unitPrice: 40 }],
  });
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  await page.keyboard.type(order.orderNumber);
  await page.keyboard.press('Enter');
  const weight = page.getByLabel('Weight (kg)');
  await expect(weight).toBeFocused();
  // Quote with no weight: refused by the station, the focus stays on (and selects) the weight.
  await page.getByLabel('Length (cm)').focus();
  await page.getByLabel('Length (cm)').press('Enter');
  await expect(weight).toBeFocused();
  await weight.fill('1');
  await weight.press('Enter');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeFocused();
  await page.keyboard.press('Enter');
  // A rule only the platform checks (province = 2 letters): Ship is pressed from the Ship button.
  await page.getByLabel('Province').fill('Roma');
  const ship = page.getByRole('button', { name: /Ship & print label/ });
  await ship.focus();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('banner')).toContainText('fix the marked fields');
  await expect(page.getByLabel('Province')).toBeFocused();
});
