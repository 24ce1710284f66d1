/**
 * Texts of the tracking section (Scan screen): event times in Europe/Rome
 * local time, the delivery date, the one-line summary, and what to say when
 * the platform could not be asked.
 */
import type { TrackingView } from '../../../shared/contract';
import { dateTime } from './format';
import { hasText, locale, t as text } from './i18n';

/** `YYYY-MM-DD` (a calendar day, no time zone) -> `mar 24/11/2026` / `Tue, 24/11/2026` (dd/mm/yyyy, issue 25); the input when it does not parse. */
export function calendarDay(ymd: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!m) return ymd;
  // A local date: `new Date('2026-11-24')` would be UTC midnight, the day before west of Greenwich.
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(d.getTime())) return ymd;
  return d.toLocaleDateString(locale(), { weekday: 'short', day: '2-digit', month: '2-digit', year: 'numeric' });
}

/** A shipment status in the bench's language by its key (`shipped` -> "Spedita"); a key the locales do not know by the platform's label. */
export function statusText(status: { key: string; label: string }): string {
  const key = `shipmentStatus.${status.key}`;
  return hasText(key) ? text(key) : status.label;
}

/** An event's ISO 8601 timestamp (any offset) in Europe/Rome, like the labels: `24 Nov 2026, 08:40`. */
export function eventTime(iso: string): string {
  return dateTime(iso);
}

/**
 * One line under the status: delivered when, next delivery attempt, or why
 * nothing moves yet.
 */
export function trackingSummary(t: TrackingView): string {
  if (t.source === 'local') {
    const what = text(t.events.length ? 'tracking.lastRead' : 'tracking.lastKnown', { time: eventTime(t.asOf) });
    return `${what}${t.deliveredAt ? ` ${text('tracking.delivered', { time: eventTime(t.deliveredAt) })}` : ''}`;
  }
  if (t.cancelled) return text('tracking.cancelled');
  if (t.deliveredAt) return text('tracking.delivered', { time: eventTime(t.deliveredAt) });
  const parts: string[] = [];
  if (t.events.length === 0) parts.push(text('tracking.noEvents'));
  if (t.estimatedDelivery) parts.push(text('tracking.expected', { day: calendarDay(t.estimatedDelivery) }));
  if (t.stockId !== null) parts.push(text('tracking.held'));
  return parts.join(' ') || text('tracking.checked', { time: eventTime(t.asOf) });
}

/** Why the platform could not be asked, in words (`tracking.reason.<code>`); null for a code without words. */
function reasonText(code: string): string | null {
  const key = `tracking.reason.${code}`;
  return hasText(key) ? text(key) : null;
}

/** The clear message of a tracking view answered from the station's own record (null when live). */
export function unavailableText(t: TrackingView): string | null {
  if (t.source !== 'local') return null;
  const code = t.unavailable?.code ?? 'offline';
  const reason = reasonText(code) ?? text('tracking.reason.other', { code });
  return text(t.events.length ? 'tracking.unavailableRead' : 'tracking.unavailableKnown', { reason });
}
