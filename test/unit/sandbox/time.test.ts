/**
 * The sandbox's Europe/Rome clock (electron/sandbox/time.ts) computes the
 * offset from the EU summer-time rule instead of asking Intl (issue 15, cold
 * start). Checked here against Intl's own tz data hour by hour, and around
 * every change of offset, for the years the sandbox can reach.
 */
import { describe, expect, it } from 'vitest';
import { localDate, localIso, romeOffsetMinutes } from '../../../electron/sandbox/time';

const intl = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Rome',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `YYYY-MM-DDTHH:MM:SS` of `ms` in Europe/Rome, by Intl. */
function intlLocal(ms: number): string {
  const p = Object.fromEntries(intl.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

describe('Europe/Rome without Intl', () => {
  it('matches Intl at every hour (and a few odd seconds) from 2000 to 2040', () => {
    const from = Date.UTC(2000, 0, 1);
    const to = Date.UTC(2041, 0, 1);
    let mismatches = 0;
    for (let ms = from; ms < to; ms += 3_600_000 + 1_777) {
      if (localIso(new Date(ms)).slice(0, 19) !== intlLocal(ms)) mismatches++;
    }
    expect(mismatches).toBe(0);
    // 360,000 Intl formats: about 2 s on a quiet machine, over 5 s on a busy CI one.
  }, 60_000);

  it('changes offset exactly at 01:00 UTC on the last Sundays of March and October', () => {
    // 2026: summer time from Sunday 29 March, winter time from Sunday 25 October.
    const spring = Date.UTC(2026, 2, 29, 1);
    const autumn = Date.UTC(2026, 9, 25, 1);
    expect(romeOffsetMinutes(spring - 1)).toBe(60);
    expect(romeOffsetMinutes(spring)).toBe(120);
    expect(romeOffsetMinutes(autumn - 1)).toBe(120);
    expect(romeOffsetMinutes(autumn)).toBe(60);
    expect(localIso(new Date(spring - 1000))).toBe('2026-03-29T01:59:59+01:00');
    expect(localIso(new Date(spring))).toBe('2026-03-29T03:00:00+02:00');
    expect(localIso(new Date(autumn - 1000))).toBe('2026-10-25T02:59:59+02:00');
    expect(localIso(new Date(autumn))).toBe('2026-10-25T02:00:00+01:00');
  });

  it('gives the Rome calendar date across midnight UTC', () => {
    expect(localDate(new Date(Date.UTC(2026, 11, 31, 23, 30)))).toBe('2027-01-01');
    expect(localDate(new Date(Date.UTC(2026, 6, 31, 21, 59, 59)))).toBe('2026-07-31');
    expect(localDate(new Date(Date.UTC(2026, 6, 31, 22)))).toBe('2026-08-01');
  });
});
