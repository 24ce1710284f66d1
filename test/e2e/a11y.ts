/** Accessibility checks that several e2e steps run on the page as it is. */
import type { Page } from '@playwright/test';

/** Every visible control has an accessible name (label, aria-label/-labelledby, or text). Returns the unnamed ones. */
export async function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bad: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('input, select, textarea, button, [role="listbox"], [role="option"]'))) {
      if (el.offsetParent === null && el.getAttribute('role') !== 'listbox') continue; // hidden
      const labelled =
        (el.getAttribute('aria-label') ?? '').trim() !== '' ||
        (el.getAttribute('aria-labelledby') ?? '').trim() !== '' ||
        ((el as HTMLInputElement).labels?.length ?? 0) > 0 ||
        ((el.tagName === 'BUTTON' || el.getAttribute('role') === 'option') && (el.textContent ?? '').trim() !== '');
      if (!labelled) bad.push(el.outerHTML.slice(0, 120));
    }
    return bad;
  });
}
