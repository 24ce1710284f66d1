/**
 * The pieces of the day in pictures (issue 26) that need no station: Europe/Rome
 * days across daylight-saving changes, the week and month ranges, the CSV's
 * quoting and formula defusing, and the chart options shared by the screen
 * and the report (accessible, colour-blind safe, same figures as the tables).
 */
import { describe, expect, it } from 'vitest';
import { csvField, dayCsv } from '../../../../electron/core/reports/csv';
import { rangeOf } from '../../../../electron/core/reports/day-stats';
import type { ParcelRow } from '../../../../electron/core/store';
import type { DayStatsView } from '../../../../shared/contract/reports';
import { addDays, isDay, romeDay, romeHour, romeMidnight, romeRange } from '../../../../shared/domain/rome-day';
import { CHART_COLOURS, dayCharts } from '../../../../shared/reports/charts';
import { chartFormats } from '../../../../shared/reports/formats';
import { reportText } from '../../../../shared/reports/text';

describe('Europe/Rome days', () => {
  it('midnight is 23:00 UTC in winter and 22:00 UTC in summer', () => {
    expect(new Date(romeMidnight('2026-01-15')).toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(new Date(romeMidnight('2026-07-15')).toISOString()).toBe('2026-07-14T22:00:00.000Z');
  });

  it('the spring-forward day is 23 hours, the fall-back day 25', () => {
    const spring = romeRange('2026-03-29', '2026-03-29');
    expect((Date.parse(spring.toIso) - Date.parse(spring.fromIso)) / 3_600_000).toBe(23);
    const autumn = romeRange('2026-10-25', '2026-10-25');
    expect((Date.parse(autumn.toIso) - Date.parse(autumn.fromIso)) / 3_600_000).toBe(25);
  });

  it('an instant late in the UTC evening is already the next Rome day', () => {
    expect(romeDay(Date.parse('2026-11-26T23:30:00Z'))).toBe('2026-11-27');
    expect(romeHour(Date.parse('2026-11-26T23:30:00Z'))).toBe(0);
  });

  it('refuses a day that is not a date', () => {
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2028-02-29')).toBe(true);
    expect(() => romeMidnight('26/11/2026')).toThrow(/YYYY-MM-DD/);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('a week runs Monday to Sunday, a month from the 1st to its last day', () => {
    expect(rangeOf('2026-11-26', 'week')).toEqual({ firstDay: '2026-11-23', lastDay: '2026-11-29' });
    expect(rangeOf('2026-11-23', 'week')).toEqual({ firstDay: '2026-11-23', lastDay: '2026-11-29' });
    expect(rangeOf('2026-11-29', 'week')).toEqual({ firstDay: '2026-11-23', lastDay: '2026-11-29' });
    expect(rangeOf('2026-02-10', 'month')).toEqual({ firstDay: '2026-02-01', lastDay: '2026-02-28' });
    expect(rangeOf('2026-12-31', 'month')).toEqual({ firstDay: '2026-12-01', lastDay: '2026-12-31' });
  });
});

describe('the day report CSV', () => {
  it('quotes commas, quotes and line breaks, and defuses formulas', () => {
    expect(csvField('Rossi, Mario')).toBe('"Rossi, Mario"');
    expect(csvField('Rossi; Mario')).toBe('"Rossi; Mario"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('-5')).toBe("'-5");
    expect(csvField(null)).toBe('');
    expect(csvField(1.5)).toBe('1.5');
  });

  it('writes one row per shipment, time in Europe/Rome, with a BOM and CRLF', () => {
    const row: ParcelRow = {
      trackingNumber: 'LDV1',
      createdAt: '2026-07-01T08:05:09.000Z',
      shop: 'main',
      orderNumber: '#1001',
      carrier: 'BRT',
      contract: 'Express',
      parcels: 1,
      weightKg: 2.5,
      cost: 6.9,
      currency: 'EUR',
      status: 'created',
      voided: false,
    };
    const csv = dayCsv([row], new Map([['LDV1', 'Anna']]), reportText('it'));
    expect(csv.startsWith('\uFEFFOra (Europa/Roma),Operatore,')).toBe(true);
    expect(csv.split('\r\n')[1]).toBe('10:05:09,Anna,main,#1001,BRT,Express,LDV1,2.5,6.90,created');
  });
});

describe('chart options shared by End of day and the report', () => {
  const stats: DayStatsView = {
    day: '2026-11-26',
    range: 'day',
    firstDay: '2026-11-26',
    lastDay: '2026-11-26',
    hourly: Array.from({ length: 24 }, (_, hour) => ({ hour, parcels: hour === 10 ? 5 : hour === 11 ? 2 : 0, usual: hour === 10 ? 3.5 : 0 })),
    byContract: [{ carrier: 'BRT', contract: 'Express', shipments: 6, parcels: 7, cost: 41.4 }],
    byPacker: [
      { packerId: 1, packer: 'Anna', shipments: 4, parcels: 5, medianScanToLabelS: 31.5, verifyMismatches: 1, reprints: 0 },
      { packerId: null, packer: null, shipments: 2, parcels: 2, medianScanToLabelS: null, verifyMismatches: 0, reprints: 1 },
    ],
    costPerDay: [{ day: '2026-11-26', cost: 41.4 }],
    exceptions: { needsAttention: 1, held: 0, voided: 2 },
    totals: { shipments: 6, parcels: 7, cost: 41.4, currency: 'EUR' },
  };

  it('every chart has ARIA, decals, the Okabe-Ito colours and no animation', () => {
    for (const c of dayCharts(stats, reportText('en'), chartFormats('en'))) {
      expect(c.option.aria).toEqual({ enabled: true, label: { description: c.summary }, decal: { show: true } });
      expect(c.option.animation).toBe(false);
      expect(c.option.color).toEqual([...CHART_COLOURS]);
      expect(c.summary.length).toBeGreaterThan(20);
    }
  });

  it('says what it shows in the bench language, and the table holds the same figures', () => {
    const [hourly, , packers, , exceptions] = dayCharts(stats, reportText('it'), chartFormats('it'));
    expect(hourly?.summary).toContain('7 in tutto');
    expect(hourly?.summary).toContain('10:00 con 5');
    expect(hourly?.table.rows[10]).toEqual(['10:00', 5, 3.5]);
    expect(packers?.table.rows).toEqual([
      ['Anna', 4, 5, 31.5, 1, 0],
      ['(nessun operatore)', 2, 2, '—', 0, 1],
    ]);
    expect(exceptions?.summary).toContain('2 annullate');
    expect(exceptions?.table.rows.map((r) => r[1])).toEqual([1, 0, 2]);
  });

  it('writes days dd/mm/yyyy on the cost axis, its table and the summaries, in both languages (issue 25)', () => {
    for (const lang of ['it', 'en'] as const) {
      const fmt = chartFormats(lang);
      expect(fmt.day('2026-11-26')).toBe('26/11/2026');
      expect(fmt.day('2027-01-05')).toBe('05/01/2027');
      const cost = dayCharts(stats, reportText(lang), fmt).find((c) => c.id === 'cost');
      const xAxis = cost?.option.xAxis as { data?: unknown[] } | undefined;
      expect(xAxis?.data).toEqual(['26/11/2026']);
      expect(cost?.table.rows.map((r) => r[0])).toEqual(['26/11/2026']);
      expect(cost?.summary).not.toMatch(/nov/i);
    }
  });
});
