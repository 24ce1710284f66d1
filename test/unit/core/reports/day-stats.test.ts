/**
 * End of day's figures (electron/core/reports/day-stats.ts) made from the
 * store's rows, with the store's reads stubbed: which UTC spans a Rome day
 * asks for, parcels per Rome hour against the four weeks before, contracts,
 * packers, cost per day, exceptions and totals; voided shipments only as
 * exceptions.
 */
import { describe, expect, it } from 'vitest';
import { dayParcels, dayStats } from '../../../../electron/core/reports/day-stats';
import type { ParcelRow, Store } from '../../../../electron/core/store';
import { romeRange } from '../../../../shared/domain/rome-day';

type Activity = ReturnType<Store['activity']['listDays']>[number];

const row = (over: Partial<ParcelRow> & Pick<ParcelRow, 'trackingNumber' | 'createdAt'>): ParcelRow => ({
  shop: 'main',
  orderNumber: null,
  carrier: 'BRT',
  contract: 'Standard',
  parcels: 1,
  weightKg: null,
  cost: 0,
  currency: 'EUR',
  status: 'in_transit',
  voided: false,
  ...over,
});

const act = (id: number, at: string, over: Partial<Activity> & Pick<Activity, 'action'>): Activity => ({
  id,
  day: '2026-11-26',
  at,
  packerId: 1,
  packerName: 'Anna',
  stationName: 'Banco 3',
  trackingNumber: null,
  orderId: null,
  subject: null,
  ...over,
});

/** The store's reads of 26 November 2026 (Rome = UTC+1), answering by span, and the calls they got. */
function stubStore() {
  const calls: Array<[string, string, { weights?: boolean } | undefined]> = [];
  const rows = [
    row({ trackingNumber: 'TN-A', createdAt: '2026-11-26T09:10:00.000Z', orderNumber: '#1001', parcels: 2, cost: 10.5 }),
    row({ trackingNumber: 'TN-B', createdAt: '2026-11-26T15:00:00.000Z', carrier: 'GLS', contract: 'Eco', cost: 7.25, status: 'held_at_depot' }),
    row({ trackingNumber: 'TN-C', createdAt: '2026-11-26T16:00:00.000Z', carrier: 'GLS', contract: 'Eco', cost: 7, status: 'voided', voided: true }),
  ];
  const hours: Record<string, Array<{ hour: string; parcels: number }>> = {
    [romeRange('2026-11-26', '2026-11-26').fromIso]: [
      { hour: '2026-11-26T09', parcels: 2 },
      { hour: '2026-11-26T15', parcels: 1 },
    ],
    [romeRange('2026-11-19', '2026-11-19').fromIso]: [{ hour: '2026-11-19T09', parcels: 4 }],
  };
  const store: Pick<Store, 'dayStats' | 'activity'> = {
    dayStats: {
      parcels: (fromIso, toIso, opts) => {
        calls.push([fromIso, toIso, opts]);
        return rows;
      },
      parcelsPerHour: (fromIso) => hours[fromIso] ?? [],
      needsAttention: () => 3,
    },
    activity: {
      record: () => 0,
      listAfter: () => [],
      shippersOf: () => new Map(),
      listDays: () => [
        act(1, '2026-11-26T09:00:00.000Z', { action: 'scan', orderId: 7 }),
        act(2, '2026-11-26T09:10:00.000Z', { action: 'ship', orderId: 7, trackingNumber: 'TN-A' }),
        act(3, '2026-11-26T10:00:00.000Z', { action: 'verify', packerId: 2, packerName: 'Marco' }),
        act(4, '2026-11-26T11:00:00.000Z', { action: 'reprint', trackingNumber: 'TN-A' }),
      ],
    },
  };
  return { store, calls };
}

describe("End of day's figures from the store's rows", () => {
  it('reads the Rome day as its UTC span, with weights for the CSV and without for the figures', () => {
    const { store, calls } = stubStore();
    const { fromIso, toIso } = romeRange('2026-11-26', '2026-11-26');
    expect(fromIso).toBe('2026-11-25T23:00:00.000Z');
    expect(dayParcels(store, '2026-11-26', '2026-11-26').map((r) => r.trackingNumber)).toEqual(['TN-A', 'TN-B', 'TN-C']);
    dayStats(store, '2026-11-26', 'day');
    expect(calls).toEqual([
      [fromIso, toIso, { weights: true }],
      [fromIso, toIso, { weights: false }],
    ]);
  });

  it('counts live shipments per Rome hour, contract, packer and day; voided ones only as exceptions', () => {
    const { store } = stubStore();
    const stats = dayStats(store, '2026-11-26', 'day');
    expect(stats).toMatchObject({ day: '2026-11-26', range: 'day', firstDay: '2026-11-26', lastDay: '2026-11-26' });
    expect(stats.hourly).toHaveLength(24);
    expect(stats.hourly[10]).toEqual({ hour: 10, parcels: 2, usual: 1 }); // 4 parcels four weeks ago / 4
    expect(stats.hourly[16]).toEqual({ hour: 16, parcels: 1, usual: 0 });
    expect(stats.hourly.reduce((a, h) => a + h.parcels, 0)).toBe(3);
    expect(stats.byContract).toEqual([
      { carrier: 'BRT', contract: 'Standard', shipments: 1, parcels: 2, cost: 10.5 },
      { carrier: 'GLS', contract: 'Eco', shipments: 1, parcels: 1, cost: 7.25 },
    ]);
    expect(stats.byPacker).toEqual([
      { packerId: 1, packer: 'Anna', shipments: 1, parcels: 2, medianScanToLabelS: 600, verifyMismatches: 0, reprints: 1 },
      { packerId: null, packer: null, shipments: 1, parcels: 1, medianScanToLabelS: null, verifyMismatches: 0, reprints: 0 },
      { packerId: 2, packer: 'Marco', shipments: 0, parcels: 0, medianScanToLabelS: null, verifyMismatches: 1, reprints: 0 },
    ]);
    expect(stats.costPerDay).toEqual([{ day: '2026-11-26', cost: 17.75 }]);
    expect(stats.exceptions).toEqual({ needsAttention: 3, held: 1, voided: 1 });
    expect(stats.totals).toEqual({ shipments: 2, parcels: 3, cost: 17.75, currency: 'EUR' });
  });

  it('a week has a cost for each of its seven days', () => {
    const { store } = stubStore();
    const week = dayStats(store, '2026-11-26', 'week');
    expect(week.costPerDay.map((d) => d.day)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(week.costPerDay.find((d) => d.day === '2026-11-26')?.cost).toBe(17.75);
    expect(week.costPerDay.reduce((a, d) => a + d.cost, 0)).toBe(17.75);
  });
});
