/**
 * Date helpers of the sandbox. The demo account is Italian, so calendar dates
 * (list periods `from`/`to`, pickup dates) and the offsets of `createdAt` are
 * in Europe/Rome local time (spec: Formats — date-time with offset, date YYYY-MM-DD).
 */

/** Time zone of the demo platform. */
const PLATFORM_TIME_ZONE = 'Europe/Rome';

const partsFormatter = new Intl.DateTimeFormat('en-US', {
  timeZone: PLATFORM_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(d: Date): LocalParts {
  const out: Record<string, number> = {};
  for (const p of partsFormatter.formatToParts(d)) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return {
    year: out.year ?? 1970,
    month: out.month ?? 1,
    day: out.day ?? 1,
    hour: out.hour ?? 0,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Calendar date `YYYY-MM-DD` of an instant in Europe/Rome. */
export function localDate(d: Date): string {
  const p = localParts(d);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** ISO 8601 date-time with the Europe/Rome offset, seconds precision, e.g. `2026-09-14T10:22:05+02:00`. */
export function localIso(d: Date): string {
  const p = localParts(d);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const offsetMin = Math.round((asUtc - Math.floor(d.getTime() / 1000) * 1000) / 60000);
  const sign = offsetMin >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMin);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** true when `s` is a real calendar date `YYYY-MM-DD` (rejects 2026-02-30). */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** `YYYY-MM-DD` plus `days` calendar days (negative goes back). Input must be a calendar date. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Day of week of a calendar date: 0 Sunday .. 6 Saturday. */
export function dayOfWeek(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).getUTCDay();
}

/** `YYYYMMDD` compact form of a calendar date, used in carrier identifiers. */
export function compactDate(date: string): string {
  return date.replace(/-/g, '');
}
