/**
 * Issue 10 "Account" in Chromium, against the training sandbox's seeded
 * history: F10 shows the lists page by page; "Details" opens an invoice's
 * lines and a COD list's and a return list's shipments (GET /invoices/{id},
 * /cod-lists/{id}, /returns/{id}); Esc closes and the focus goes back to the
 * list chooser. Screenshot: test-results/screens/31-account-detail.png.
 */
import path from 'node:path';
import { expect, SHOTS, test } from './fixture';

test.use({ stationOptions: { name: 'account', labelPrinter: 'folder' } });

test('account: invoice lines, COD list and return list shipments, from the keyboard', async ({ page, station }) => {
  await page.goto(station.url);
  await expect(page.getByTestId('connection')).toHaveText('online');
  await page.keyboard.press('F10');
  const show = page.getByLabel('Show');
  await expect(show).toBeFocused();

  await show.selectOption('invoices');
  const list = page.getByTestId('account-list');
  const first = list.getByRole('button', { name: /^Details of invoice / }).first();
  await expect(first).toBeVisible();
  const number = ((await first.getAttribute('aria-label')) ?? '').replace('Details of invoice ', '');
  await first.focus();
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('account-detail');
  await expect(detail.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();
  const lines = detail.getByRole('table', { name: `Lines of invoice ${number}` });
  await expect(lines.locator('tbody tr').first()).toBeVisible();
  await expect(lines.locator('tfoot')).toContainText('€');
  await expect(detail.getByRole('button', { name: /Close/ })).toBeFocused();
  await page.screenshot({ path: path.join(SHOTS, '31-account-detail.png'), fullPage: true });
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await expect(show).toBeFocused();

  for (const [value, label] of [
    ['codLists', 'cash on delivery list'],
    ['returns', 'return list'],
  ] as const) {
    await show.selectOption(value);
    const open = list.getByRole('button', { name: new RegExp(`^Details of ${label} `) }).first();
    await expect(open).toBeVisible();
    const n = ((await open.getAttribute('aria-label')) ?? '').replace(`Details of ${label} `, '');
    await open.click();
    const shipments = page.getByTestId('account-detail').getByRole('table', { name: `Shipments of ${label} ${n}` });
    await expect(shipments.locator('tbody tr').first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('account-detail')).toHaveCount(0);
  }
});
