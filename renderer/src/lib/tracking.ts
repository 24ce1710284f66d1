/**
 * Texts of the tracking section (Scan screen): event times in Europe/Rome
 * local time, the delivery date, the one-line summary, and what to say when
 * the platform could not be asked.
 */
import type { TrackingView } from '../../../shared/contract';
import { dateTime } from './format';
import { locale } from './i18n';

/** `YYYY-MM-DD` (a calendar day, no time zone) -> `Tue 24 Nov 2026`; the input when it does not parse. */
export function calendarDay(ymd: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!m) return ymd;
  // A local date: `new Date('2026-11-24')` would be UTC midnight, the day before west of Greenwich.
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(d.getTime())) return ymd;
  return d.toLocaleDateString(locale(), { weekday: 'short', day: '2-digit', month: 'short', year: 'numeric' });
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
    const what = t.events.length ? 'Last tracking read' : 'Last known status, recorded';
    return `${what} ${eventTime(t.asOf)}.${t.deliveredAt ? ` Delivered ${eventTime(t.deliveredAt)}.` : ''}`;
  }
  if (t.cancelled) return 'Cancelled: the carrier will not move it.';
  if (t.deliveredAt) return `Delivered ${eventTime(t.deliveredAt)}.`;
  const parts: string[] = [];
  if (t.events.length === 0) parts.push('No carrier events yet: the carrier has not collected the parcel.');
  if (t.estimatedDelivery) parts.push(`Expected delivery ${calendarDay(t.estimatedDelivery)}.`);
  if (t.stockId !== null) parts.push('Held at the depot: the stock needs instructions.');
  return parts.join(' ') || `Checked ${eventTime(t.asOf)}.`;
}

const REASONS: Record<string, string> = {
  offline: 'the platform cannot be reached (no network)',
  timeout: 'the platform did not answer in time',
  rate_limited: 'the platform asks to slow down',
  carrier_error: 'the carrier is not answering the platform',
  internal_error: 'the platform has a problem',
};

/** The clear message of a tracking view answered from the station's own record (null when live). */
export function unavailableText(t: TrackingView): string | null {
  if (t.source !== 'local') return null;
  const code = t.unavailable?.code ?? 'offline';
  const shown = t.events.length ? 'the last tracking read' : 'the last known status';
  return `Tracking unavailable: ${REASONS[code] ?? `the platform could not be asked (${code})`}. Showing ${shown}; press Alt+T to try again.`;
}
