/**
 * Display formats of the bench, in the screen language's locale (lib/i18n.ts:
 * `it-IT` or `en-GB`): money with the currency sign (Intl), kg, and every
 * time in Europe/Rome, the zone of the labels, manifests and the platform,
 * whatever the PC's own zone.
 */
import type { StationText } from '../../../shared/contract/views';
import { parseDecimal } from '../../../shared/domain/decimal';
import { hasText, locale, t } from './i18n';

export { parseDecimal };

/** Time zone of every time on screen (labels and the platform use Italian time). */
const BENCH_TIME_ZONE = 'Europe/Rome';

/** `12.5, 'EUR'` -> `€12.50` (English) or `12,50 €` (Italian). Unknown currency codes fall back to `12.50 XYZ`. */
export function money(amount: number, currency = 'EUR'): string {
  try {
    const lang = locale();
    // English screens keep the sign in front, as packers read it (`€12.50`), with Irish euro conventions.
    return new Intl.NumberFormat(lang === 'en-GB' ? 'en-IE' : lang, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** Weight in kg with up to 3 decimals, in the language's decimal mark: `1.25 kg` (English), `1,25 kg` (Italian). Grams are converted. */
export function kg(value: number, units: 'KG' | 'G' = 'KG'): string {
  const v = units === 'G' ? value / 1000 : value;
  return `${Number(v.toFixed(3)).toLocaleString(locale(), { maximumFractionDigits: 3, useGrouping: false })} kg`;
}

/** ISO date-time -> Europe/Rome `21/11/2026, 14:05` (dd/mm/yyyy in both languages, 24-hour); the input when it does not parse. */
export function dateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(locale(), { timeZone: BENCH_TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** ISO date-time -> Europe/Rome `14:05` (24-hour); the input when it does not parse. */
export function clockTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleTimeString(locale(), { timeZone: BENCH_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** A calendar date `YYYY-MM-DD` in the locale's format (`24/11/2026`); the input when it does not parse. */
export function calendarDate(ymd: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!m) return ymd;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12));
  return d.toLocaleDateString(locale(), { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' });
}

/** Today's date `YYYY-MM-DD` in Europe/Rome at `now`. */
export function romeToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: BENCH_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** Next working day (Mon-Fri) after the Europe/Rome day of `from`, as `YYYY-MM-DD`: the default pickup date. */
export function nextWorkingDay(from: Date): string {
  const [y, m, day] = romeToday(from).split('-').map(Number) as [number, number, number];
  const d = new Date(Date.UTC(y, m - 1, day + 1));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * A number as a form field shows it, the bench's way: decimal comma in
 * Italian (`1,5`, `101,6`), point in English (`1.5`), no thousands separator
 * (a field must parse back with {@link parseDecimal}), at most
 * `maxFractionDigits` decimals (default 3, trailing zeros dropped beyond
 * `minFractionDigits`, default 0: a scale's `1,250`, money's `12,50`). Every
 * numeric field (label sizes, weights, dimensions, money, tare) is filled
 * through this; a non-finite number gives `''`.
 */
export function decimalText(n: number, maxFractionDigits = 3, minFractionDigits = 0): string {
  if (!Number.isFinite(n)) return '';
  return n.toLocaleString(locale(), { minimumFractionDigits: minFractionDigits, maximumFractionDigits: Math.max(minFractionDigits, maxFractionDigits), useGrouping: false });
}

/**
 * What a numeric field shows after the packer leaves it: a parseable number
 * written the bench's way (`1.5` -> `1,5` on an Italian bench), anything else
 * (blank, junk the form will name) exactly as typed.
 */
export function tidyDecimalText(text: string): string {
  const n = parseDecimal(text);
  return n === undefined || Number.isNaN(n) ? text : decimalText(n, 10);
}


/**
 * A text the station made (`StationText`) in the bench's language: `t(prefix + key, values)` with every
 * number but `count` (which picks the plural form) written the bench's way (`101,6`, `1,48`); null when the
 * locale files have no such key.
 */
export function stationText(prefix: string, text: StationText): string | null {
  const key = `${prefix}.${text.key}`;
  // A plural text exists as its `_one` / `_other` forms.
  if (!hasText(key) && !hasText(`${key}_other`)) return null;
  const values: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(text.values ?? {})) values[k] = typeof v === 'number' && k !== 'count' ? decimalText(v, 2) : v;
  return t(key, values);
}
