/**
 * Date helpers of the sandbox. The demo account is Italian, so calendar dates
 * (list periods `from`/`to`, pickup dates) and the offsets of `createdAt` are
 * in Europe/Rome local time (spec: Formats — date-time with offset, date YYYY-MM-DD).
 */

/**
 * Offset of Europe/Rome (the demo platform's time zone) from UTC at instant
 * `ms`, in minutes: +120 (CEST) from the last Sunday of March 01:00 UTC to the
 * last Sunday of October 01:00 UTC, +60 (CET) otherwise — the EU rule in force
 * since 1996 (Directive 2000/84/EC), so exact for every date the sandbox
 * makes. Computed rather than asked of `Intl.DateTimeFormat`: the first
 * time-zone formatter of a process loads ICU's zone data (≈20 ms), which
 * every launch of the training station would pay before its ready line
 * (issue 15); test/unit/sandbox/time.test.ts checks it against Intl hour by hour.
 */
export function romeOffsetMinutes(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  const summerStarts = lastSundayUtc(year, 2) + HOUR_MS;
  const summerEnds = lastSundayUtc(year, 9) + HOUR_MS;
  return ms >= summerStarts && ms < summerEnds ? 120 : 60;
}

/** One minute, ms. */
export const MINUTE = 60_000;

const HOUR_MS = 60 * MINUTE;

/** 00:00 UTC of the last Sunday of month `monthIndex` (0 = January) of `year`, epoch ms. */
function lastSundayUtc(year: number, monthIndex: number): number {
  const lastDay = new Date(Date.UTC(year, monthIndex + 1, 0));
  return lastDay.getTime() - lastDay.getUTCDay() * 24 * HOUR_MS;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Wall-clock fields of instant `d` in Europe/Rome, to the second (milliseconds dropped). */
function localParts(d: Date): LocalParts {
  const ms = d.getTime();
  const local = new Date(ms + romeOffsetMinutes(ms) * 60_000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
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
