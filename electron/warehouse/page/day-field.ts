/**
 * The day of the report as the supervisor's page shows and reads it (issue 42 item 5), in the page's own
 * language whatever the browser's: Italian `07/12/2026` (day first), English `2026-12-07` (the server's
 * form, which no reader takes the wrong way round). Days are `YYYY-MM-DD` Europe/Rome days to the server.
 */
import { isDay } from '../../../shared/domain/rome-day';
import type { Language } from './words';

/** `day` (`YYYY-MM-DD`) as the page's field writes it in `language`: `07/12/2026` in Italian, `2026-12-07` in English. */
export function dayText(day: string, language: Language): string {
  if (language === 'en') return day;
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
}

/** `day` (`YYYY-MM-DD`) in words, with its weekday: "lunedì 7 dicembre 2026", "Monday 7 December 2026". */
export function dayInWords(day: string, language: Language): string {
  return new Intl.DateTimeFormat(language === 'it' ? 'it-IT' : 'en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

/** What {@link parseDayText} made of the field: a day, or why not. */
export type ParsedDay = { day: string } | { error: 'format' | 'no_such_day' | 'after_today' };

/**
 * The day typed in the field, as `YYYY-MM-DD`. Italian: `d/m/yyyy` (also with `.` or `-` between), English:
 * `YYYY-MM-DD`; both take `YYYY-MM-DD` (a day pasted from elsewhere). Spaces around are ignored.
 * @param today `YYYY-MM-DD`, the last day there can be a report of
 * @returns the day, or `format` (not written as asked), `no_such_day` (31/02/2026), `after_today`
 */
export function parseDayText(text: string, language: Language, today: string): ParsedDay {
  const t = text.trim();
  const pad = (s: string) => s.padStart(2, '0');
  let day: string | null = null;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (iso) day = `${iso[1]}-${pad(iso[2]!)}-${pad(iso[3]!)}`;
  const italian = language === 'it' ? /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/.exec(t) : null;
  if (italian) day = `${italian[4]}-${pad(italian[3]!)}-${pad(italian[1]!)}`;
  if (day === null) return { error: 'format' };
  if (!isDay(day)) return { error: 'no_such_day' };
  return day > today ? { error: 'after_today' } : { day };
}
