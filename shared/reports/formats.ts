/**
 * How End of day's charts and the day report write money and days in the
 * bench's language (issue 26): `it-IT` or `en-GB`, days in Europe/Rome.
 * Days are written `dd/mm/yyyy` in both (issue 25: `26/11/2026`, never
 * `26 nov 2026`), on the screen's chart axes and tables and in the report PDF.
 */
import type { ReportLanguage } from '../contract/reports';
import type { ChartFormats } from './charts';

/** The {@link ChartFormats} of `language`; `currency` is an ISO 4217 code (EUR); `day('2026-11-26')` -> `26/11/2026`. */
export function chartFormats(language: ReportLanguage, currency = 'EUR'): ChartFormats {
  const locale = language === 'it' ? 'it-IT' : 'en-GB';
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const day = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
  return {
    money: (amount) => money.format(amount),
    day: (d) => day.format(new Date(`${d}T00:00:00Z`)),
  };
}
