/**
 * What a bench did, sent to the warehouse (issue 35 item 4): the bench's own
 * activity rows (store `activity`: scans, shipments, prints, reprints, voids,
 * verify mismatches, pickups, manifests, sign-ins and sign-outs) are its
 * queue. Each row goes up keyed by (bench id, row id); the bench notes the last
 * row sent only after the warehouse took the batch, and the warehouse keeps a
 * key once (`ON CONFLICT DO NOTHING`): a bench offline for a day sends
 * everything when it is back, and one killed between the two steps sends the
 * batch again without a duplicate.
 */
import type { Pool } from 'pg';
import { z } from 'zod';
import { Shipment } from '../../../shared/platform/resources';
import { defineSetting, type Store } from '../store';
import type { WarehouseBench } from './claims';
import { isRefusal } from './orders';

/** The last activity row the warehouse has taken (0: none yet). */
const ActivitySentSetting = defineSetting('warehouse.activitySent', z.number().int().min(0), 0);

/** Rows sent in one statement. */
const BATCH = 500;

/** A shipment's facts as the supervisor's page shows them: contract code and name, carrier name, cost EUR, weight kg, parcels. */
interface ShipmentFacts {
  contractCode: string | null;
  /** The contract's name as the platform gives it ("GLS Economy"): the day report names contracts by it (issue 42 item 4). */
  contractName: string | null;
  carrierName: string | null;
  cost: number | null;
  currency: string | null;
  weightKg: number | null;
  parcels: number | null;
}

/** The facts of the stored shipment `trackingNumber`, or null when the station has none. */
function shipmentFacts(store: Store, trackingNumber: string): ShipmentFacts | null {
  const rec = store.shipments.getByTrackingNumber(trackingNumber);
  if (!rec) return null;
  const p = Shipment.safeParse(rec.platform);
  const packages = p.success ? p.data.packages : [];
  const kg = packages.length && packages.every((x) => x.weight) ? packages.reduce((sum, x) => sum + (x.weight!.units === 'G' ? x.weight!.value / 1000 : x.weight!.value), 0) : null;
  return {
    contractCode: rec.contractCode,
    contractName: p.success ? p.data.carrier.contractName : null,
    carrierName: p.success ? p.data.carrier.name : null,
    cost: rec.costTotal,
    currency: rec.currency,
    weightKg: kg === null ? null : Math.round(kg * 1000) / 1000,
    parcels: p.success ? (p.data.parcels ?? packages.length) : null,
  };
}

/**
 * Sends the bench's activity rows the warehouse does not have yet, in batches, until none is left. A batch the
 * database refuses (a refusal, not a lost connection: see orders.ts `isRefusal`) is sent one row at a time;
 * a row refused alone is passed to `onRefused` and left behind, so it never holds back the rows after it.
 * @returns how many rows were sent (some may have been there already: they are kept once)
 * @throws the database's error when it is not a refusal (the rows stay to send: nothing is noted as sent)
 */
export async function sendActivity(pool: Pool, store: Store, bench: WarehouseBench, onRefused: (seq: number, error: Error & { code: string }) => void = () => undefined): Promise<number> {
  let sent = 0;
  for (;;) {
    const after = store.settings.get(ActivitySentSetting);
    const rows = store.activity.listAfter(after, BATCH);
    const last = rows[rows.length - 1];
    if (!last) return sent;
    const insert = async (batch: typeof rows): Promise<void> => {
      const values: unknown[] = [];
      const tuples = batch.map((r, i) => {
        const facts = r.action === 'ship' && r.trackingNumber ? shipmentFacts(store, r.trackingNumber) : null;
        values.push(bench.id, r.id, r.at, r.action, r.packerName, r.trackingNumber, r.subject, facts === null ? null : JSON.stringify(facts));
        const b = i * 8;
        return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${b + 8}::jsonb)`;
      });
      await pool.query(
        `INSERT INTO activity (bench_id, seq, at, action, packer, tracking_number, subject, shipment) VALUES ${tuples.join(', ')} ON CONFLICT (bench_id, seq) DO NOTHING`,
        values,
      );
    };
    try {
      await insert(rows);
    } catch (e) {
      if (!isRefusal(e)) throw e;
      for (const r of rows) {
        try {
          await insert([r]);
        } catch (one) {
          if (!isRefusal(one)) throw one;
          onRefused(r.id, one);
        }
      }
    }
    store.settings.set(ActivitySentSetting, last.id);
    sent += rows.length;
  }
}
