/**
 * How End of day's charts and the day report write money and days in the
 * bench's language (issue 26): `it-IT` or `en-GB`, days in Europe/Rome.
 */
import type { ReportLanguage } from '../contract/reports';
import type { ChartFormats } from './charts';

/** The {@link ChartFormats} of `language`; `currency` is an ISO 4217 code (EUR). */
export function chartFormats(language: ReportLanguage, currency = 'EUR'): ChartFormats {
  const locale = language === 'it' ? 'it-IT' : 'en-GB';
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return {
    money: (amount) => money.format(amount),
    day: (d) => day.format(new Date(`${d}T00:00:00Z`)),
  };
}
