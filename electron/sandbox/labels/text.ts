/**
 * Text helpers shared by the ZPL and PDF label renderers: clean user text
 * (addresses come from shop exports and scanners), format dates and amounts the
 * Italian way, as carriers print them.
 */
import { printableText } from '../../../shared/print/text';

// Typographic characters that shop exports carry and label fonts may lack.
const REPLACEMENTS: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00A0': ' ',
};

/**
 * Normalises a field for printing: the station's control rule
 * ({@link printableText}, shared/print/text.ts: NFC, line breaks and tabs to
 * spaces, other control characters to `?`, bidi and zero-width marks
 * removed), typographic quotes/dashes to ASCII, runs of spaces collapsed,
 * trimmed. Characters a label font cannot show (beyond Latin Extended-A,
 * except €) become `?` so a missing glyph is visible instead of silently blank.
 */
export function cleanText(s: string | undefined | null): string {
  if (!s) return '';
  let out = '';
  for (const ch of printableText(s)) {
    const r = REPLACEMENTS[ch];
    if (r !== undefined) out += r;
    else if ((ch.codePointAt(0) ?? 0) <= 0x24f || ch === '€') out += ch;
    else out += '?';
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Upper-cases with Italian rules (keeps accents: "Forlì" -> "FORLÌ"). */
export function upper(s: string): string {
  return s.toLocaleUpperCase('it-IT');
}

// Made on first use: the first time-zone formatter of a process loads ICU's zone data (≈20 ms),
// which a launch need not pay before its ready line (issue 15).
let dateFormat: Intl.DateTimeFormat | undefined;
const dateFormatter = (): Intl.DateTimeFormat =>
  (dateFormat ??= new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
}));

/** ISO 8601 -> `dd/mm/yyyy HH:MM` in Europe/Rome time (the platform's local time). */
export function formatDateTime(iso: string): string {
  const parts = dateFormatter().formatToParts(new Date(iso));
  const get = (t: string): string => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')}`;
}

/** Amount with two decimals and a decimal comma: 1234.5 -> `1.234,50`. */
export function formatAmount(n: number): string {
  const [int = '0', dec = '00'] = Math.abs(n).toFixed(2).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${n < 0 ? '-' : ''}${grouped},${dec}`;
}

/** Weight in kg with two decimals and a decimal comma: 2.5 -> `2,50 kg`. */
export function formatKg(n: number): string {
  return `${formatAmount(n)} kg`;
}

/** Money as carriers print it: `45,00 EUR`. */
export function formatMoney(n: number, currency: string): string {
  return `${formatAmount(n)} ${currency.toUpperCase()}`;
}

/** `postalCode city (PROV)` on one line, e.g. `00184 ROMA (RM)`. */
export function cityLine(a: { postalCode: string; city: string; province?: string }): string {
  const prov = cleanText(a.province);
  return `${cleanText(a.postalCode)} ${cleanText(a.city)}${prov ? ` (${prov})` : ''}`;
}
