/**
 * End of day's figures and the day report's rows (issue 26), read from
 * `shipments` (by `shipments_created`), `activity` (by `activity_day`) and
 * the queue. Days are Europe/Rome days; a shipment's time is when the
 * station stored it (`created_at`). Voided shipments are counted apart
 * (exceptions) and left out of parcels and cost.
 */
import type Database from 'better-sqlite3';
import type { DayStatsView, PackerFigures, ReportRange } from '../../../shared/contract/reports';
import { addDays, romeHour, romeRange } from '../../../shared/domain/rome-day';
import type { ActivityRepo } from './activity-repo';

/** One shipment of the range, as the report and the charts use it. */
export interface ParcelRow {
  trackingNumber: string;
  createdAt: string;
  shop: string | null;
  orderNumber: string | null;
  carrier: string;
  contract: string;
  parcels: number;
  /** Total weight in kg, null when a package has none. */
  weightKg: number | null;
  cost: number;
  currency: string;
  status: string;
  voided: boolean;
}

/** Queries of End of day and the day report. */
export interface DayStatsRepo {
  /** Shipments stored during Europe/Rome days `firstDay`..`lastDay`, oldest first. */
  parcels(firstDay: string, lastDay: string): ParcelRow[];
  /** End of day's figures for `day` over `range` (see {@link rangeOf}). */
  stats(day: string, range: ReportRange): DayStatsView;
}

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

interface ParcelSql {
  tracking_number: string;
  created_at: string;
  shop: string | null;
  order_number: string | null;
  carrier: string | null;
  contract: string | null;
  parcels: number | null;
  weight_kg: number | null;
  missing_weight: number;
  cost: number | null;
  currency: string | null;
  status_key: string | null;
  cancelled_at: string | null;
}

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Builds the queries on an open database and the activity repository. */
export function createDayStatsRepo(db: Database.Database, activity: ActivityRepo): DayStatsRepo {
  /** The rows' SQL; `weights` false leaves the package weights out (the charts do not need them, the CSV does). */
  const parcelsSql = (weights: boolean) => `
    SELECT s.tracking_number, s.created_at, o.shop, o.order_number,
      coalesce(json_extract(s.platform, '$.carrier.name'), s.carrier_code) AS carrier,
      coalesce(nullif(json_extract(s.platform, '$.carrier.contractName'), ''), s.contract_code) AS contract,
      coalesce(json_extract(s.platform, '$.parcels'), json_array_length(s.platform, '$.packages'), 1) AS parcels,
      ${weights ? `(SELECT sum(CASE json_extract(p.value, '$.weight.units') WHEN 'G' THEN json_extract(p.value, '$.weight.value') / 1000.0
                  ELSE json_extract(p.value, '$.weight.value') END) FROM json_each(s.platform, '$.packages') p) AS weight_kg,
      (SELECT count(*) FROM json_each(s.platform, '$.packages') p WHERE json_extract(p.value, '$.weight.value') IS NULL) AS missing_weight,` : 'NULL AS weight_kg, 1 AS missing_weight,'}
      coalesce(s.cost_total, json_extract(s.platform, '$.cost.total')) AS cost,
      coalesce(s.currency, json_extract(s.platform, '$.cost.currency')) AS currency,
      s.status_key, s.cancelled_at
    FROM shipments s LEFT JOIN orders o ON o.id = s.order_id
    WHERE s.created_at >= ? AND s.created_at < ? AND s.tracking_number IS NOT NULL
    ORDER BY s.created_at, s.id`;
  const selectParcels = db.prepare<[string, string], ParcelSql>(parcelsSql(true));
  const selectParcelsLight = db.prepare<[string, string], ParcelSql>(parcelsSql(false));
  // Parcels per UTC hour (Rome's offset is whole hours, so each maps to one Rome hour).
  const selectHours = db.prepare<[string, string], { hour: string; parcels: number }>(`
    SELECT substr(created_at, 1, 13) AS hour,
      sum(coalesce(json_extract(platform, '$.parcels'), json_array_length(platform, '$.packages'), 1)) AS parcels
    FROM shipments WHERE created_at >= ? AND created_at < ? AND tracking_number IS NOT NULL AND cancelled_at IS NULL
    GROUP BY hour`);
  const needsAttention = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM outbox WHERE state = 'needs_attention'");

  const parcels = (firstDay: string, lastDay: string, weights = true): ParcelRow[] => {
    const { fromIso, toIso } = romeRange(firstDay, lastDay);
    return (weights ? selectParcels : selectParcelsLight).all(fromIso, toIso).map((r) => ({
      trackingNumber: r.tracking_number,
      createdAt: r.created_at,
      shop: r.shop,
      orderNumber: r.order_number,
      carrier: r.carrier ?? '',
      contract: r.contract ?? '',
      parcels: r.parcels ?? 1,
      weightKg: r.missing_weight > 0 || r.weight_kg === null ? null : Math.round(r.weight_kg * 1000) / 1000,
      cost: r.cost ?? 0,
      currency: r.currency ?? 'EUR',
      status: r.cancelled_at !== null ? 'voided' : (r.status_key ?? 'created'),
      voided: r.cancelled_at !== null,
    }));
  };

  /** Parcels per Rome hour of `day`. */
  const hoursOf = (day: string): number[] => {
    const out = new Array<number>(24).fill(0);
    const { fromIso, toIso } = romeRange(day, day);
    for (const r of selectHours.all(fromIso, toIso)) {
      const h = romeHour(Date.parse(`${r.hour}:00:00Z`));
      out[h] = (out[h] ?? 0) + r.parcels;
    }
    return out;
  };

  const packerFigures = (firstDay: string, lastDay: string, rows: ParcelRow[]): PackerFigures[] => {
    const parcelsOf = new Map(rows.filter((r) => !r.voided).map((r) => [r.trackingNumber, r.parcels]));
    const acts = activity.listDays(firstDay, lastDay);
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
  };

  return {
    parcels: (firstDay, lastDay) => parcels(firstDay, lastDay),
    stats(day, range) {
      const { firstDay, lastDay } = rangeOf(day, range);
      const rows = parcels(firstDay, lastDay, false);
      const live = rows.filter((r) => !r.voided);

      const today = hoursOf(day);
      const usualSum = new Array<number>(24).fill(0);
      for (let w = 1; w <= 4; w++) hoursOf(addDays(day, -7 * w)).forEach((n, h) => (usualSum[h] = (usualSum[h] ?? 0) + n));
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
        byPacker: packerFigures(firstDay, lastDay, rows),
        costPerDay: [...costByDay].map(([d, cost]) => ({ day: d, cost })),
        exceptions: {
          needsAttention: needsAttention.get()?.n ?? 0,
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
    },
  };
}
