import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../electron/sandbox/cli-args';
import { SimClock } from '../../../electron/sandbox/clock';
import { RouteTable } from '../../../electron/sandbox/http';
import { demoSeed } from '../../../electron/sandbox/seed';
import { SandboxState, mod10CheckDigit } from '../../../electron/sandbox/state';
import { addDays, dayOfWeek, isCalendarDate, localDate, localIso } from '../../../electron/sandbox/time';

describe('sandbox support modules', () => {
  it('SimClock advances and sets over its base source', () => {
    const c = new SimClock(() => new Date('2026-09-14T08:00:00Z'));
    c.advance(90_000);
    expect(c.now().toISOString()).toBe('2026-09-14T08:01:30.000Z');
    c.set(new Date('2027-01-01T00:00:00Z'));
    expect(c.nowMs()).toBe(Date.parse('2027-01-01T00:00:00Z'));
    expect(() => c.advance(Number.NaN)).toThrow(RangeError);
  });

  it('formats Europe/Rome dates with the right offset across DST', () => {
    expect(localIso(new Date('2026-09-14T08:00:00Z'))).toBe('2026-09-14T10:00:00+02:00');
    expect(localIso(new Date('2026-12-01T23:30:00Z'))).toBe('2026-12-02T00:30:00+01:00');
    expect(localDate(new Date('2026-09-13T22:30:00Z'))).toBe('2026-09-14');
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(dayOfWeek('2026-09-20')).toBe(0);
  });

  it('makes unique 12-character tracking numbers with a check digit, reproducible with a seed', () => {
    const mk = () => new SandboxState({ ...demoSeed(), randomSeed: 42 }, new SimClock());
    const s1 = mk();
    const s2 = mk();
    const a = Array.from({ length: 500 }, () => s1.newTrackingNumber('BR'));
    const b = Array.from({ length: 500 }, () => s2.newTrackingNumber('BR'));
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(500);
    for (const n of a) {
      expect(n).toMatch(/^BR\d{10}$/);
      expect(Number(n[11])).toBe(mod10CheckDigit(n.slice(2, 11)));
    }
    expect(() => s1.newTrackingNumber('b')).toThrow(/2 uppercase letters/);
  });

  it('records credit movements with the balance after each', () => {
    const st = new SandboxState(demoSeed(), new SimClock());
    const acc = st.accounts[0]!;
    const start = acc.credit.balance;
    st.moveCredit(acc, -12.34, 'x', { shipmentId: 1 });
    const m = st.moveCredit(acc, 12.34, 'y', { shipmentId: 1 });
    expect(m).toMatchObject({ type: 'credit', amount: 12.34, balance: start });
    expect(acc.movements.map((x) => x.type)).toEqual(['debit', 'credit']);
  });

  it('refuses a seed with a warehouse id used twice', () => {
    const seed = demoSeed();
    seed.accounts[1]!.warehouses[0]!.id = 1;
    expect(() => new SandboxState(seed, new SimClock())).toThrow(/warehouse id 1/);
  });

  it('RouteTable tells allowed methods of a concrete path', () => {
    const t = new RouteTable();
    t.add('GET', '/api/shipments/:ldv');
    t.add('DELETE', '/api/shipments/:ldv');
    expect(t.allowed('/api/shipments/BR1').sort()).toEqual(['DELETE', 'GET', 'HEAD']);
    expect(t.allowed('/api/shipments/BR1/x')).toEqual([]);
  });

  it('parses CLI options and names a bad one', () => {
    expect(parseArgs(['--port', '8080', '--seed=7', '--log'])).toEqual({ port: 8080, host: '127.0.0.1', randomSeed: 7, log: true });
    expect(() => parseArgs(['--port', '70000'])).toThrow(/--port/);
    expect(() => parseArgs(['--port'])).toThrow(/--port needs a value/);
    expect(() => parseArgs(['--verbose'])).toThrow(/Unknown option "--verbose"/);
  });
});
