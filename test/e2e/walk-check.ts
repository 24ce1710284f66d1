/**
 * The checks of the screen walk (issue 25 item 5, screen-walk.spec.ts), on a page in the test
 * mode of renderer/src/lib/i18n.ts (`localStorage['station.pseudo'] = '1'`): every text of the
 * locale files is wrapped in invisible markers, so
 * - a visible text outside the markers did not come from the locale files. It passes only when it
 *   is data, by this rule: once the bench's data (values the station's commands answer with for
 *   orders, shipments, carriers, pickup points: `benchData`), URIs, paths and e-mail addresses are
 *   taken out, no word is left but codes (`BRT`, `IT`, `A4`, `#1001`, `LDV…`: capitals or digits;
 *   error codes in snake_case, `validation_failed`),
 *   numbers, dates, money and unit symbols (kg, cm, mm, …). Text in `<kbd>` (key names) and under
 *   `translate="no"` is data by HTML's own rule;
 * - a key the screens asked for and the locales lack is listed by i18next's missing-key handler;
 * - a number with a decimal point in a form field of an Italian bench is a problem.
 */
import type { Page } from '@playwright/test';
import type { Invoke } from '../support/commands';

/** The markers of renderer/src/lib/i18n.ts (`PSEUDO_START`, `PSEUDO_END`). */
const START = '\u2062';
const END = '\u2064';

/** A visible text not (wholly) from the locale files: what is left outside the markers, the whole text and where it is. */
interface Unwrapped {
  rest: string;
  whole: string;
  where: string;
}

/** Unit symbols, the same in every language. */
const UNITS = new Set(['kg', 'g', 'cm', 'mm', 'm', 'ms', 's', 'h', 'min', 'dpi', 'px', 'KB', 'MB', 'GB', 'KiB', 'MiB', 'x', 'HTTP', 'TCP', 'USB', 'ZPL', 'PDF', 'CSV', 'ID']);

/** Keys of command answers whose string values are the bench's data (names and addresses, numbers, codes). */
const DATA_KEYS = new Set([
  'orderNumber', 'shop', 'name', 'company', 'street', 'street2', 'city', 'province', 'postalCode', 'countryCode', 'phone', 'email',
  'sku', 'trackingNumber', 'reference', 'contractName', 'contractCode', 'code', 'shippingMethod', 'notes', 'address',
]);

/** String values under {@link DATA_KEYS} anywhere in `v` (2 characters or more). */
function dataStrings(v: unknown, key = '', out = new Set<string>()): Set<string> {
  if (typeof v === 'string') {
    if (DATA_KEYS.has(key) && v.trim().length >= 2) out.add(v.trim());
  } else if (Array.isArray(v)) {
    for (const x of v) dataStrings(x, key, out);
  } else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) dataStrings(x, k, out);
  }
  return out;
}

/** The bench's data: what the station answers for orders, shipments, carriers, pickup points and pickups. */
export async function benchData(rpc: Invoke): Promise<string[]> {
  const answers = await Promise.all([
    rpc('orders.page', { view: 'all', limit: 500 }).then((p) => p.orders),
    rpc('shipments.recent', { limit: 100 }),
    rpc('carriers.list', {}),
    rpc('warehouses.list', {}),
    rpc('pickups.list', {}),
  ]);
  return [...dataStrings(answers)].sort((a, b) => b.length - a.length);
}

/** True when `text` is data by the file comment's rule. */
export function isData(text: string, data: readonly string[]): boolean {
  let rest = ` ${text} `;
  for (const d of data) rest = rest.split(d).join(' ');
  // URIs, paths, e-mail addresses, host:port.
  rest = rest.replace(/\S*(?::\/\/|\/|\\|@)\S*/g, ' ');
  for (const token of rest.split(/[\s()[\]{},;:·•—–\-|"'«»“”‘’!?…+=*<>]+/)) {
    if (token === '' || !/\p{L}/u.test(token)) continue; // numbers, money, dates, marks
    if (/^#?[\p{Lu}\d][\p{Lu}\d._]*$/u.test(token) && /[\p{Lu}\d]/u.test(token) && (token.length >= 2 || /\d/.test(token))) continue; // codes
    if (/\d/.test(token)) continue; // numbers with units or codes in lower case (1,5kg, 4x6)
    if (/^[a-z]+(?:_[a-z]+)+$/.test(token)) continue; // the station's and the platform's error codes (validation_failed)
    if (UNITS.has(token) || UNITS.has(token.replace(/\.$/, ''))) continue;
    return false;
  }
  return true;
}

/**
 * Visible texts of the page (of the open dialog when one is open: the page behind is inert) that
 * are not wholly from the locale files, and visible placeholders that are not from them at all.
 */
async function unwrapped(page: Page): Promise<Unwrapped[]> {
  return page.evaluate(
    ([S, E]) => {
      const out: Array<{ rest: string; whole: string; where: string }> = [];
      const where = (el: Element): string => {
        const tid = el.closest('[data-testid]')?.getAttribute('data-testid');
        return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${tid ? ` in [data-testid=${tid}]` : ''}`;
      };
      const shown = (el: Element): boolean => el.checkVisibility({ visibilityProperty: true }) && !el.closest('dialog:not([open]), script, style, template, noscript');
      const strip = (s: string): string => {
        let depth = 0;
        let rest = '';
        for (const ch of s) {
          if (ch === S) depth++;
          else if (ch === E) depth = Math.max(0, depth - 1);
          else if (depth === 0) rest += ch;
        }
        return rest.trim();
      };
      const clean = (s: string): string => s.split(S).join('').split(E).join('').trim();
      const root = document.querySelector('dialog[open]') ?? document.body;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || el.closest('kbd, [translate="no"], option') || !shown(el)) continue;
        const rest = strip(n.textContent ?? '');
        if (rest) out.push({ rest, whole: clean(n.textContent ?? ''), where: where(el) });
      }
      // A select shows its chosen option only.
      for (const sel of root.querySelectorAll('select')) {
        const o = sel.selectedOptions[0];
        if (!o || !shown(sel) || o.closest('[translate="no"]')) continue;
        const rest = strip(o.textContent ?? '');
        if (rest) out.push({ rest, whole: clean(o.textContent ?? ''), where: where(sel) });
      }
      for (const el of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]')) {
        if (shown(el) && el.placeholder.trim() !== '' && !el.placeholder.includes(S)) out.push({ rest: el.placeholder, whole: el.placeholder, where: `placeholder of ${where(el)}` });
      }
      return out;
    },
    [START, END] as const,
  );
}

/** Keys the screens asked for that the locales lack, since the page loaded (i18next's missing-key handler). */
async function missingKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as { stationMissingKeys?: string[] }).stationMissingKeys ?? []);
}

/** Values of the visible text fields (`id: value`), markers removed. */
async function fieldValues(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.querySelector('dialog[open]') ?? document.body;
    return [...root.querySelectorAll<HTMLInputElement>('input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=file]), textarea')]
      .filter((i) => i.checkVisibility())
      .map((i) => `${i.id || i.name}: ${i.value}`);
  });
}

/** Problems of what the page shows now, on a bench of `lang` (empty when it is clean). */
export async function problems(page: Page, lang: 'it' | 'en', data: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const u of await unwrapped(page)) {
    if (!isData(u.rest, data)) out.push(`not from the locale files: "${u.rest.slice(0, 120)}" (in "${u.whole.slice(0, 160)}", ${u.where})`);
  }
  for (const key of new Set(await missingKeys(page))) out.push(`locale key missing: ${key}`);
  if (lang === 'it') {
    for (const f of await fieldValues(page)) {
      if (/(?:^|[^\d.])\d+\.\d+(?![\d.])/.test(f.slice(f.indexOf(': ') + 2))) out.push(`decimal point in field ${f}`);
    }
  }
  return out;
}
