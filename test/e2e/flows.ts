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
