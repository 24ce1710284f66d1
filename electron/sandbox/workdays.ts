/**
 * Carrier calendar of the sandbox (Europe/Rome): working days and local
 * times, used by the simulated carrier to place collections, deliveries and
 * stock deadlines. Working days are Monday to Friday except Italian national
 * public holidays (1 Jan, 6 Jan, Easter Monday, 25 Apr, 1 May, 2 Jun, 15 Aug,
 * 1 Nov, 8 Dec, 25 and 26 Dec), when Italian carriers do not deliver.
 */
import { addDays, dayOfWeek, localIso } from './time';

/** Fixed-date national holidays, `MM-DD`. */
const FIXED_HOLIDAYS: ReadonlySet<string> = new Set(['01-01', '01-06', '04-25', '05-01', '06-02', '08-15', '11-01', '12-08', '12-25', '12-26']);

/** Easter Sunday of a Gregorian year, `YYYY-MM-DD` (anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** true for an Italian national public holiday (`date` is `YYYY-MM-DD`). */
export function isItalianHoliday(date: string): boolean {
  if (FIXED_HOLIDAYS.has(date.slice(5))) return true;
  return date === addDays(easterSunday(Number(date.slice(0, 4))), 1);
}

/** true for a carrier working day: Monday–Friday and not a national holiday. */
export function isWorkingDay(date: string): boolean {
  const dow = dayOfWeek(date);
  return dow !== 0 && dow !== 6 && !isItalianHoliday(date);
}

/** The first working day strictly after `date`. */
export function nextWorkingDay(date: string): string {
  let d = addDays(date, 1);
  while (!isWorkingDay(d)) d = addDays(d, 1);
  return d;
}

/**
 * `date` moved forward by `n` working days (n >= 0). With n = 0 the answer is
 * `date` itself when it is a working day, else the next working day.
 * @throws RangeError for a negative or non-integer `n`.
 */
export function addWorkingDays(date: string, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`addWorkingDays: n must be a whole number >= 0, got ${n}`);
  let d = isWorkingDay(date) ? date : nextWorkingDay(date);
  for (let i = 0; i < n; i++) d = nextWorkingDay(d);
  return d;
}

/** UTC offset of Europe/Rome at an instant, in minutes (+60 in winter, +120 in summer). */
function offsetMinutes(at: number): number {
  const iso = localIso(new Date(at));
  const m = /([+-])(\d{2}):(\d{2})$/.exec(iso);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/**
 * The instant of local (Europe/Rome) wall time `date` `hour`:`minute`.
 * Minutes beyond 59 (or hours beyond 23) roll over into the next hour or day.
 * Times inside the spring-forward gap resolve one hour later.
 */
export function localInstant(date: string, hour: number, minute = 0): Date {
  const [y, mo, d] = date.split('-').map(Number);
  const wall = Date.UTC(y ?? 1970, (mo ?? 1) - 1, d ?? 1, hour, minute);
  const first = wall - offsetMinutes(wall) * 60_000;
  const second = wall - offsetMinutes(first) * 60_000;
  return new Date(second);
}

/** Minutes since local (Europe/Rome) midnight of an instant. */
export function localMinutes(at: Date): number {
  const iso = localIso(at);
  return Number(iso.slice(11, 13)) * 60 + Number(iso.slice(14, 16));
}

/** Legacy tracking date `dd/mm/yyyy HH:MM` in Europe/Rome local time (spec: tracking.update `Data`). */
export function legacyDateTime(at: Date): string {
  const iso = localIso(at);
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 16)}`;
}
