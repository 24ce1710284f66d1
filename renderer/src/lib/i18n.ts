/**
 * Language of the bench screens (i18next, https://www.i18next.com): Italian
 * and English. Italian is the default when the system/browser language is
 * Italian (`navigator.languages`), English otherwise; the packer's choice
 * (`setLanguage`) is kept in localStorage. Plurals use i18next's `_one` /
 * `_other` keys, chosen by `Intl.PluralRules` for the language:
 * `t('shipments.count', { count: 2 })` -> "2 spedizioni".
 */
import i18next from 'i18next';
import { en } from './locales/en';
import { it } from './locales/it';

/** Languages of the bench. */
export type Language = 'it' | 'en';

const LANG_KEY = 'station.lang';

/** The language to start in: the saved choice, else Italian for an Italian system, else English. */
export function initialLanguage(saved: string | null, preferred: readonly string[]): Language {
  if (saved === 'it' || saved === 'en') return saved;
  const first = preferred[0]?.toLowerCase() ?? '';
  return first.startsWith('it') ? 'it' : 'en';
}

function readSaved(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(LANG_KEY);
  } catch {
    return null;
  }
}

/**
 * The screen walk's test mode (issue 25 item 5, test/e2e/screen-walk.spec.ts): with
 * `localStorage['station.pseudo'] = '1'` every text from the locale files comes out wrapped in
 * {@link PSEUDO_START} … {@link PSEUDO_END} (invisible: screenshots look as on a bench), so a visible
 * text without them did not come from the locale files; and each key the screens ask for that the
 * locales lack is listed in `globalThis.stationMissingKeys` (i18next's missing-key handler).
 * Off on a bench: nothing is wrapped or listed.
 */
const PSEUDO_START = '\u2062';
/** End of a wrapped text, see {@link PSEUDO_START}. */
const PSEUDO_END = '\u2064';

function pseudoMode(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem('station.pseudo') === '1';
  } catch {
    return false;
  }
}

const pseudo = pseudoMode();
if (pseudo) {
  i18next.use({ type: 'postProcessor', name: 'pseudo', process: (value: string) => `${PSEUDO_START}${value}${PSEUDO_END}` });
}

/** Records a key the locales lack (test mode only), for the screen walk to read. */
function recordMissing(key: string): void {
  const g = globalThis as { stationMissingKeys?: string[] };
  (g.stationMissingKeys ??= []).push(key);
}

/** One text of the station's own tables that is not an i18next key (lib/messages.ts), marked as a locale text in the test mode. */
export function localeText(text: string): string {
  return pseudo ? `${PSEUDO_START}${text}${PSEUDO_END}` : text;
}

/**
 * Texts of the station's own tables that are not i18next keys (the day report's words, shared with
 * the core: shared/reports/text.ts) marked as locale texts in the test mode; unchanged on a bench.
 */
export function localeTexts<T extends object>(texts: T): T {
  if (!pseudo) return texts;
  return Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, typeof v === 'string' ? `${PSEUDO_START}${v}${PSEUDO_END}` : v])) as T;
}

const preferred: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];

void i18next.init({
  resources: { en: { translation: en }, it: { translation: it } },
  lng: initialLanguage(readSaved(), preferred),
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  showSupportNotice: false, // no advertisement in the console of the bench or the tests
  ...(pseudo ? { postProcess: ['pseudo'], saveMissing: true, missingKeyHandler: (_lngs: readonly string[], _ns: string, key: string) => recordMissing(key) } : {}),
});

/** Translates `key` with values (`{{name}}` placeholders; `count` picks the plural form). */
export function t(key: string, values?: Record<string, string | number>): string {
  return values ? i18next.t(key, values) : i18next.t(key);
}

/** The language in use. */
export function language(): Language {
  return i18next.resolvedLanguage === 'it' ? 'it' : 'en';
}

/** BCP 47 locale for Intl formats: `it-IT` or `en-GB` (day-month-year dates, 24-hour clock). */
export function locale(): string {
  return language() === 'it' ? 'it-IT' : 'en-GB';
}

/** Switches the language and remembers it; the caller re-renders (App reloads the screens). */
export async function setLanguage(lang: Language): Promise<void> {
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    // storage unavailable: the choice lasts for this session only
  }
  await i18next.changeLanguage(lang);
}

/** Whether `key` has a text (used to fall back to a raw code only when nothing names it). */
export function hasText(key: string): boolean {
  return i18next.exists(key);
}

/** A printer's name in the bench's language (`Cartella /tmp/labels`), from its parts; the station's own name when it has none. */
export function printerNameText(p: { name: string; nameParts?: { kind: string; what: string } }): string {
  const key = p.nameParts ? `printerName.${p.nameParts.kind}` : '';
  return p.nameParts && hasText(key) ? t(key, { what: p.nameParts.what }) : p.name;
}

/** A printer's detail in the bench's language when the station worded it (`detailText`), else as the printer said it. */
export function printerDetailText(p: { detail: string; detailText?: { key: string; values?: Record<string, string | number> } }): string {
  if (!p.detailText) return p.detail;
  // The station's own printer details, then the core's texts (a printer error as the detail: shared/contract/core-text.ts).
  for (const key of [`printerDetail.${p.detailText.key}`, `coreText.${p.detailText.key}`]) {
    if (hasText(key)) return t(key, p.detailText.values ?? {});
  }
  return p.detail;
}

/** A printer state in words (`paper_out` -> "PAPER OUT" / "CARTA FINITA"); an unknown state as the station sent it. */
export function printerStateText(state: string): string {
  const key = `printerState.${state}`;
  return hasText(key) ? t(key) : state;
}

/**
 * A platform `details` path in words: `customsDetail.commodities.0.harmonizedCode`
 * -> "Customs line 1: HS code"; `recipient.address.postalCode` -> "Recipient:
 * postal code". Unknown segments stay as they are.
 */
export function fieldName(path: string): string {
  const parts = path.replace(/^request\./, '').split('.');
  const words: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const next = parts[i + 1];
    if (next !== undefined && /^\d+$/.test(next)) {
      const key = `field.list.${p}`;
      words.push(hasText(key) ? t(key, { n: Number(next) + 1 }) : `${p} ${Number(next) + 1}`);
      i++;
      continue;
    }
    const key = `field.${p}`;
    if (p === 'address' || p === 'amount' || p === 'value') continue;
    words.push(hasText(key) ? t(key) : p);
  }
  return words.join(' › ') || path;
}
