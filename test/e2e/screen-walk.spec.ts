/**
 * The screen walk (issue 25 item 5): every screen F1–F10 and the close-day
 * dialog, on an Italian bench (Chromium locale it-IT, Europe/Rome) and on an
 * English one, after one shipment was made. It fails on
 * - a locale key shown raw (a text missing from the locale files: i18next
 *   shows the key itself, `slips.title`);
 * - a word of the other language in the visible text: English joining words
 *   and the station's own English names ("Folder", "Ready", "Small", ...) on
 *   the Italian bench, Italian joining words on the English one (text the
 *   station draws from elsewhere than the locale files shows this way);
 * - a number written with a decimal point in a form field of the Italian bench.
 * A screenshot of each screen in each language is attached to the test
 * (Playwright report) and saved in test-results/screens/walk-<lang>-<screen>.png.
 */
import path from 'node:path';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { recipientToParty } from '../../shared/domain/order';
import { en } from '../../renderer/src/lib/locales/en';
import { expect, SHOTS, test } from './fixture';

test.describe.configure({ mode: 'serial' });
test.use({ stationOptions: { name: 'walk', labelPrinter: 'folder' } });

const SCREENS = ['F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10'] as const;

/** A locale key shown raw: one of the locale files' top-level sections, a dot, more of the key. */
const RAW_KEY = new RegExp(`\\b(?:${Object.keys(en).join('|')})\\.[a-z][A-Za-z_]*(?:\\.[A-Za-z_]+)*\\b`);

/** English on an Italian bench: joining words of running text and the names the station used to make in English. */
const ENGLISH = /\b(?:the|and|of|with|from|is|are|not|to|your|Folder|Ready|Small|Medium|Large|Client id|Packing slip|Print queue|Network printer|USB printer|labels are saved)\b/;
/** Italian on an English bench: words of running text (not ones an Italian address holds: `Via dei …`), and the platform's Italian texts. */
const ITALIAN = /\b(?:il|nessun|nessuna|sono|Spedizione|Addebito|Ricarica)\b/;

/** The visible text of the page, one line per text line, without the values of fields. */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => document.body.innerText);
}

/** Values of the page's visible text fields (`id: value`). */
async function fieldValues(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('input:not([type=checkbox]):not([type=radio]):not([type=hidden]), textarea')]
      .filter((i) => i.offsetParent !== null)
      .map((i) => `${i.id || i.name}: ${i.value}`),
  );
}

/** Problems of one screen in one language (empty when it is clean). */
async function problems(page: Page, lang: 'it' | 'en'): Promise<string[]> {
  const out: string[] = [];
  const text = await visibleText(page);
  for (const line of text.split('\n')) {
    const raw = RAW_KEY.exec(line);
    if (raw) out.push(`raw locale key "${raw[0]}" in "${line}"`);
    const other = (lang === 'it' ? ENGLISH : ITALIAN).exec(line);
    if (other) out.push(`${lang === 'it' ? 'English' : 'Italian'} "${other[0]}" in "${line.slice(0, 160)}"`);
  }
  if (lang === 'it') {
    for (const f of await fieldValues(page)) {
      if (/(?:^|[^\d.])\d+\.\d+(?![\d.])/.test(f.slice(f.indexOf(': ') + 2))) out.push(`decimal point in field ${f}`);
    }
  }
  return out;
}

/** Saves and attaches a screenshot of the page. */
async function shoot(page: Page, info: TestInfo, name: string): Promise<void> {
  const file = path.join(SHOTS, `walk-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await info.attach(name, { path: file, contentType: 'image/png' });
}

/** A page on a bench of that language: Chromium's locale and the bench's time zone. */
async function benchPage(browser: Browser, lang: 'it' | 'en'): Promise<Page> {
  const context = await browser.newContext({ locale: lang === 'it' ? 'it-IT' : 'en-GB', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 1000 } });
  return context.newPage();
}

test('one shipment made, to be seen on the screens', async ({ rpc }) => {
  const order = await rpc('orders.create', {
    recipient: { name: 'Giulia Bianchi', street: 'Via Roma 10', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' },
    items: [{ name: 'Vaso', quantity: 1, unitPrice: 19.5 }],
  });
  await rpc('shipments.create', {
    orderId: order.id,
    request: { recipient: recipientToParty(order.recipient), packages: [{ weight: { value: 1.5, units: 'KG' }, dimensions: { length: 20, width: 15, height: 10, units: 'CM' } }] },
  });
  await expect.poll(async () => (await rpc('shipments.recent', { limit: 10 })).length).toBeGreaterThan(0);
});

for (const lang of ['it', 'en'] as const) {
  test(`every screen and the close-day dialog speak ${lang === 'it' ? 'Italian' : 'English'} only`, async ({ browser, station }, info) => {
    const page = await benchPage(browser, lang);
    await page.goto(station.url);
    await expect(page.getByTestId('connection')).toHaveText(lang === 'it' ? 'in linea' : 'online');
    const found: string[] = [];
    for (const key of SCREENS) {
      await page.keyboard.press(key);
      await expect(page.locator('main h2, main h1').first()).toBeVisible();
      // Lists of the screen loaded: no "loading" line left.
      await expect(page.getByText(/^(Loading|Caricamento)…?$/)).toHaveCount(0);
      await shoot(page, info, `${lang}-${key}`);
      found.push(...(await problems(page, lang)).map((p) => `${key}: ${p}`));
    }
    // The close-day confirmation (F6): asked, looked at, cancelled.
    await page.keyboard.press('F6');
    const close = page.getByRole('button', { name: lang === 'it' ? 'Chiudi la giornata' : 'Close the day', exact: true });
    if (await close.isEnabled()) {
      await close.click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await shoot(page, info, `${lang}-F6-close-dialog`);
      found.push(...(await problems(page, lang)).map((p) => `F6 dialog: ${p}`));
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
    await page.context().close();
    expect(found, found.join('\n')).toEqual([]);
  });
}
