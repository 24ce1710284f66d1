/** Keyboard flows of the bench that several e2e specs walk through. */
import { expect, type Page } from '@playwright/test';

/**
 * From the Scan screen to the Ship screen with the keyboard only: scan `orderNumber`, type the
 * parcel weight (kg) + Enter, Enter on the highlighted (cheapest) rate. Asserts the focus at each step.
 */
export async function scanWeighAndChooseRate(page: Page, orderNumber: string, weightKg = '1'): Promise<void> {
  await page.keyboard.type(orderNumber);
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Weight (kg)')).toBeFocused();
  await page.keyboard.type(weightKg);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: /^Ship/ })).toBeVisible();
}

/**
 * Scan (F1), weigh 1 kg, the cheapest rate and Ctrl+Enter, from the keyboard, in English or Italian; asserts the
 * focus at each step, not the outcome (the caller checks the Print screen).
 */
export async function shipFromKeyboard(page: Page, orderNumber: string): Promise<void> {
  await page.keyboard.press('F1');
  await expect(page.locator('#scan-input')).toBeFocused();
  await page.keyboard.type(orderNumber);
  await page.keyboard.press('Enter');
  await expect(page.getByLabel(/^(Weight|Peso) \(kg\)$/)).toBeFocused();
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox', { name: /Rates, cheapest first|Tariffe, dalla più economica/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Enter');
}

/** Records every text the ship-by-itself countdown shows, however short it runs (an init script: call before `page.goto`). */
export async function watchCountdown(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { autoshipSeen: string[] }).autoshipSeen = seen;
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="autoship-countdown"]');
      if (el?.textContent && seen[seen.length - 1] !== el.textContent) seen.push(el.textContent);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

/** The countdown's texts {@link watchCountdown} recorded on this page, in order. */
export const countdownTexts = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { autoshipSeen: string[] }).autoshipSeen);
