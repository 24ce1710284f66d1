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

const preferred: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];

void i18next.init({
  resources: { en: { translation: en }, it: { translation: it } },
  lng: initialLanguage(readSaved(), preferred),
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  showSupportNotice: false, // no advertisement in the console of the bench or the tests
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
  const key = p.detailText ? `printerDetail.${p.detailText.key}` : '';
  return p.detailText && hasText(key) ? t(key, p.detailText.values ?? {}) : p.detail;
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
