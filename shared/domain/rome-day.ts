/**
 * Days and hours at the bench, in Europe/Rome (the zone of the labels, the
 * manifests and the platform, spec: Conventions > Dates): which day an
 * instant belongs to, the UTC bounds of a day (23, 24 or 25 hours long across
 * a daylight-saving change) and the hour of an instant. Pure `Intl`, usable by
 * the core and the screens alike.
 */

/** The bench's time zone. */
const BENCH_TIME_ZONE = 'Europe/Rome';

const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: BENCH_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** Wall-clock fields of `ms` (epoch milliseconds) in Europe/Rome. */
function wall(ms: number): { y: number; m: number; d: number; h: number; min: number; s: number } {
  const f: Record<string, number> = {};
  for (const p of parts.formatToParts(new Date(ms))) if (p.type !== 'literal') f[p.type] = Number(p.value);
  return { y: f.year ?? 0, m: f.month ?? 0, d: f.day ?? 0, h: f.hour ?? 0, min: f.minute ?? 0, s: f.second ?? 0 };
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The Europe/Rome day `YYYY-MM-DD` of `ms` (epoch milliseconds). */
export function romeDay(ms: number): string {
  const w = wall(ms);
  return `${w.y}-${pad(w.m)}-${pad(w.d)}`;
}

/** The Europe/Rome hour (0-23) of `ms` (epoch milliseconds). */
export function romeHour(ms: number): number {
  return wall(ms).h;
}

/** Europe/Rome `HH:MM` of `ms` (epoch milliseconds): a time said to the packer ("since 10:41"). */
export function romeClock(ms: number): string {
  const w = wall(ms);
  return `${pad(w.h)}:${pad(w.min)}`;
}

/** Europe/Rome `HH:MM:SS` of `ms` (epoch milliseconds). */
export function romeTime(ms: number): string {
  const w = wall(ms);
  return `${pad(w.h)}:${pad(w.min)}:${pad(w.s)}`;
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `day` is a real calendar date written `YYYY-MM-DD`. */
export function isDay(day: string): boolean {
  const m = DAY_PATTERN.exec(day);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === day;
}

/** Epoch ms of 00:00 Europe/Rome on `day`. @throws RangeError when `day` is not `YYYY-MM-DD`. */
export function romeMidnight(day: string): number {
  if (!isDay(day)) throw new RangeError(`day must be YYYY-MM-DD, got "${day}"`);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const utcGuess = Date.UTC(y, m - 1, d);
  // Rome is UTC+1 or UTC+2: correct the guess by the offset seen at it, twice for a DST edge.
  let t = utcGuess;
  for (let i = 0; i < 2; i++) {
    const w = wall(t);
    const shown = Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, w.s);
    t = t - (shown - utcGuess);
  }
  return t;
}

/** `day` plus `n` calendar days (`n` may be negative), `YYYY-MM-DD`. @throws RangeError for a bad day. */
export function addDays(day: string, n: number): string {
  if (!isDay(day)) throw new RangeError(`day must be YYYY-MM-DD, got "${day}"`);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** UTC ISO bounds `[from, to)` of the Europe/Rome days `first`..`last` inclusive. */
export function romeRange(first: string, last: string): { fromIso: string; toIso: string } {
  return { fromIso: new Date(romeMidnight(first)).toISOString(), toIso: new Date(romeMidnight(addDays(last, 1))).toISOString() };
}
