/**
 * The reads behind End of day's figures and the day report (issue 26), from
 * `shipments` (by `shipments_created`, joined to `orders`) and the queue:
 * rows and counts over a span of UTC instants. A shipment's time is when the
 * station stored it (`created_at`). Which days a span covers (Europe/Rome
 * days), the figures and their rules are the reports domain's
 * (electron/core/reports/day-stats.ts).
 */
import type Database from 'better-sqlite3';

/** One shipment of the range, as the report and the charts use it. */
export interface ParcelRow {
  trackingNumber: string;
  /** When the station stored it, ISO 8601 (UTC). */
  createdAt: string;
  shop: string | null;
  orderNumber: string | null;
  /** Carrier's name as the platform gave it, else its code; '' when neither is known. */
  carrier: string;
  /** Contract's name, else its code; '' when neither is known. */
  contract: string;
  parcels: number;
  /** Total weight in kg (to the gram), null when a package has none (or when read without weights). */
  weightKg: number | null;
  /** Total cost in `currency` (0 when not known). */
  cost: number;
  currency: string;
  /** Tracking status key, `voided` when the shipment was voided, `created` when none yet. */
  status: string;
  voided: boolean;
}

/** Parcels of the live (not voided) shipments stored in one UTC hour. */
interface HourParcels {
  /** The UTC hour, `YYYY-MM-DDTHH`. */
  hour: string;
  parcels: number;
}

/** Reads of End of day and the day report. Spans are `[fromIso, toIso)`, ISO 8601 UTC instants. */
export interface DayStatsRepo {
  /**
   * Shipments with a tracking number stored within the span, oldest first.
   * `weights` false (default true) leaves the package weights out (`weightKg`
   * null): the charts do not need them, the CSV does.
   */
  parcels(fromIso: string, toIso: string, opts?: { weights?: boolean }): ParcelRow[];
  /** Parcels of live shipments per UTC hour within the span (hours without any absent), in no set order. */
  parcelsPerHour(fromIso: string, toIso: string): HourParcels[];
  /** Outbox rows in `needs_attention` now. */
  needsAttention(): number;
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

/** Builds the reads on an open database. */
export function createDayStatsRepo(db: Database.Database): DayStatsRepo {
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

  return {
    parcels(fromIso, toIso, opts = {}) {
      return (opts.weights === false ? selectParcelsLight : selectParcels).all(fromIso, toIso).map((r) => ({
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
    },
    parcelsPerHour: (fromIso, toIso) => selectHours.all(fromIso, toIso),
    needsAttention: () => needsAttention.get()?.n ?? 0,
  };
}
