/**
 * End of day's figures and the day report's rows (issue 26): which days a
 * report covers, and the figures made of the store's rows (shipments,
 * `store/day-stats-repo.ts`; the packers' `activity`). Days are Europe/Rome
 * days; a shipment's time is when the station stored it. Voided shipments
 * are counted apart (exceptions) and left out of parcels and cost.
 */
import type { DayStatsView, PackerFigures, ReportRange } from '../../../shared/contract/reports';
import { addDays, romeHour, romeRange } from '../../../shared/domain/rome-day';
import type { ParcelRow, Store } from '../store';

/** First and last day of `range` around `day`: the day itself, its Monday-Sunday week, or its calendar month. */
export function rangeOf(day: string, range: ReportRange): { firstDay: string; lastDay: string } {
  if (range === 'day') return { firstDay: day, lastDay: day };
  if (range === 'week') {
    const dow = (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
    const firstDay = addDays(day, -dow);
    return { firstDay, lastDay: addDays(firstDay, 6) };
  }
  const firstDay = `${day.slice(0, 7)}-01`;
  return { firstDay, lastDay: addDays(addDays(firstDay, 31).slice(0, 7) + '-01', -1) };
}

/** The median of `xs`, null when empty. */
const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

/** `n` rounded to the cent. */
const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * Shipments stored during Europe/Rome days `firstDay`..`lastDay` (YYYY-MM-DD),
 * oldest first; `weights` false leaves the weights out (null), for the charts.
 */
export function dayParcels(store: Pick<Store, 'dayStats'>, firstDay: string, lastDay: string, weights = true): ParcelRow[] {
  const { fromIso, toIso } = romeRange(firstDay, lastDay);
  return store.dayStats.parcels(fromIso, toIso, { weights });
}

/** Parcels per Rome hour of `day`. */
function hoursOf(store: Pick<Store, 'dayStats'>, day: string): number[] {
  const out = new Array<number>(24).fill(0);
  const { fromIso, toIso } = romeRange(day, day);
  for (const r of store.dayStats.parcelsPerHour(fromIso, toIso)) {
    const h = romeHour(Date.parse(`${r.hour}:00:00Z`));
    out[h] = (out[h] ?? 0) + r.parcels;
  }
  return out;
}

/**
 * Figures per packer over the days: shipments and parcels of the live `rows`
 * by the packer whose `ship` activity names them (others count for nobody,
 * packerId null), the median seconds from the order's last scan to its label,
 * verify mismatches and reprints; most parcels first.
 */
function packerFigures(store: Pick<Store, 'activity'>, firstDay: string, lastDay: string, rows: readonly ParcelRow[]): PackerFigures[] {
  const parcelsOf = new Map(rows.filter((r) => !r.voided).map((r) => [r.trackingNumber, r.parcels]));
  const acts = store.activity.listDays(firstDay, lastDay);
  const lastScan = new Map<number, number>();
  const figures = new Map<number | null, PackerFigures & { times: number[] }>();
  const of = (id: number | null, name: string | null) => {
    let f = figures.get(id);
    if (!f) {
      f = { packerId: id, packer: name, shipments: 0, parcels: 0, medianScanToLabelS: null, verifyMismatches: 0, reprints: 0, times: [] };
      figures.set(id, f);
    }
    return f;
  };
  const attributed = new Set<string>();
  for (const a of acts) {
    const at = Date.parse(a.at);
    if (a.action === 'scan' && a.orderId !== null) lastScan.set(a.orderId, at);
    else if (a.action === 'ship' && a.trackingNumber !== null && parcelsOf.has(a.trackingNumber) && !attributed.has(a.trackingNumber)) {
      attributed.add(a.trackingNumber);
      const f = of(a.packerId, a.packerName);
      f.shipments += 1;
      f.parcels += parcelsOf.get(a.trackingNumber) ?? 1;
      const scanned = a.orderId !== null ? lastScan.get(a.orderId) : undefined;
      if (scanned !== undefined && at >= scanned) f.times.push((at - scanned) / 1000);
    } else if (a.action === 'verify') of(a.packerId, a.packerName).verifyMismatches += 1;
    else if (a.action === 'reprint') of(a.packerId, a.packerName).reprints += 1;
  }
  // Shipments no `ship` row names (made before packers, or by another path) count for nobody.
  for (const [tn, n] of parcelsOf) {
    if (attributed.has(tn)) continue;
    const f = of(null, null);
    f.shipments += 1;
    f.parcels += n;
  }
  return [...figures.values()]
    .map(({ times, ...f }) => ({ ...f, medianScanToLabelS: times.length ? round2(median(times) ?? 0) : null }))
    .filter((f) => f.packerId !== null || f.shipments + f.verifyMismatches + f.reprints > 0)
    .sort((a, b) => b.parcels - a.parcels || (a.packer ?? '').localeCompare(b.packer ?? ''));
}

/**
 * End of day's figures for `day` over `range` (see {@link rangeOf}): parcels
 * per Rome hour of `day` against the mean of the same weekday's four weeks
 * before (`usual`), shipments, parcels and cost per carrier contract and per
 * packer, cost per day, the exceptions (queue rows needing attention, held at
 * a depot, voided) and the totals. Voided shipments count only as exceptions.
 * Amounts rounded to the cent, in the first shipment's currency (EUR when none).
 */
export function dayStats(store: Pick<Store, 'dayStats' | 'activity'>, day: string, range: ReportRange): DayStatsView {
  const { firstDay, lastDay } = rangeOf(day, range);
  const rows = dayParcels(store, firstDay, lastDay, false);
  const live = rows.filter((r) => !r.voided);

  const today = hoursOf(store, day);
  const usualSum = new Array<number>(24).fill(0);
  for (let w = 1; w <= 4; w++) hoursOf(store, addDays(day, -7 * w)).forEach((n, h) => (usualSum[h] = (usualSum[h] ?? 0) + n));
  const hourly = today.map((parcels, hour) => ({ hour, parcels, usual: round2((usualSum[hour] ?? 0) / 4) }));

  const contracts = new Map<string, DayStatsView['byContract'][number]>();
  for (const r of live) {
    const k = `${r.carrier}\u0000${r.contract}`;
    const c = contracts.get(k) ?? { carrier: r.carrier, contract: r.contract, shipments: 0, parcels: 0, cost: 0 };
    c.shipments += 1;
    c.parcels += r.parcels;
    c.cost = round2(c.cost + r.cost);
    contracts.set(k, c);
  }

  const costByDay = new Map<string, number>();
  for (let d = firstDay; d <= lastDay; d = addDays(d, 1)) costByDay.set(d, 0);
  if (live.length) {
    // Each row's Rome day: the range's days are few, so compare against their UTC bounds.
    const bounds = [...costByDay.keys()].map((d) => ({ d, to: romeRange(d, d).toIso }));
    let i = 0;
    for (const r of live) {
      while (i < bounds.length - 1 && r.createdAt >= (bounds[i]?.to ?? '')) i++;
      const d = bounds[i]?.d;
      if (d !== undefined) costByDay.set(d, round2((costByDay.get(d) ?? 0) + r.cost));
    }
  }

  return {
    day,
    range,
    firstDay,
    lastDay,
    hourly,
    byContract: [...contracts.values()].sort((a, b) => b.parcels - a.parcels || a.carrier.localeCompare(b.carrier)),
    byPacker: packerFigures(store, firstDay, lastDay, rows),
    costPerDay: [...costByDay].map(([d, cost]) => ({ day: d, cost })),
    exceptions: {
      needsAttention: store.dayStats.needsAttention(),
      held: live.filter((r) => r.status === 'held_at_depot').length,
      voided: rows.length - live.length,
    },
    totals: {
      shipments: live.length,
      parcels: live.reduce((a, r) => a + r.parcels, 0),
      cost: round2(live.reduce((a, r) => a + r.cost, 0)),
      currency: live[0]?.currency ?? 'EUR',
    },
  };
}
