/**
 * The station's file buttons from the keyboard (issue 37 item 5): the
 * Shopify CSV import on the Scan screen (F1) and the rules (JSON) and product
 * data (CSV) imports in Settings (F8). Each is reached with Tab and opens the
 * file chooser at the first Space, and again at the first Enter. Before the
 * fix, Space on the Scan screen's button went to the scan field (the
 * screen's scanner catcher moved the focus on keydown) and no chooser opened.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixture';

test.use({ stationOptions: { name: 'file-buttons', labelPrinter: 'folder' } });

/** Presses Tab until `target` has the focus (at most 200 presses): the packer's way to a button. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

/** One press of `key` on the focused button opens the file chooser, whose `accept` names `accept`. */
async function opensChooser(page: Page, button: Locator, key: 'Space' | 'Enter', accept: RegExp): Promise<void> {
  await tabTo(page, button);
  await expect(button).toBeFocused();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 3000 }), page.keyboard.press(key)]);
  expect(chooser.isMultiple()).toBe(false);
  expect(await chooser.element().getAttribute('accept')).toMatch(accept);
}

const BUTTONS = [
  { screen: 'F1', name: 'Choose the file…', accept: /\.csv/ },
  { screen: 'F8', name: 'Import JSON…', accept: /json/ },
  { screen: 'F8', name: 'Import CSV…', accept: /csv/ },
] as const;

for (const b of BUTTONS) {
  test(`${b.screen} "${b.name}": Space opens the file chooser at the first press, and so does Enter`, async ({ page, station }) => {
    await page.goto(station.url);
    await expect(page.getByTestId('connection')).toHaveText('online');
    await page.keyboard.press(b.screen);
    const button = page.getByRole('button', { name: b.name, exact: true });
    await expect(button).toBeVisible();
    await opensChooser(page, button, 'Space', b.accept);
    await opensChooser(page, button, 'Enter', b.accept);
  });
}
