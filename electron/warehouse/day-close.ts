/**
 * The day closed once for the whole warehouse (issue 43 item 4), from the supervisor's page:
 *
 * 1. The benches offline now (no heartbeat for 30 s) are named; their shipments wait for the next close.
 * 2. Every label ahead no bench has printed (state `bought`: not batched, printed or used) is cancelled first, and
 *    so is a late purchase a packer's press stopped waiting for (`abandoned`, reason `late`) and a label printed
 *    in a batch whose order shipped with another label (reason `unused`):
 *    `DELETE /shipments/{ldv}` through the warehouse's platform caller, each under its row's lock (a bench that
 *    wants it meanwhile waits, then finds it cancelled and buys its own): `cancelled` with reason `day_closed`
 *    and its refund (EUR); a 409 `invalid_state` is `cancel_refused` and named with what to do; a 404 too.
 * 3. One `POST /manifests` per contract with the tracking numbers of the printed shipments of the online benches
 *    (activity `ship` rows and labels ahead `used`, of the last 7 days) not voided, not in an earlier close, and
 *    never a label ahead that was not used. A 429 waits its `Retry-After` (5 manifests a minute) and tries again;
 *    a 404 (every one already in a manifest) counts them closed.
 * 4. The close is recorded: `warehouse_closes` and `closed_shipments` (a shipment goes in one close only).
 *
 * One close at a time (a PostgreSQL advisory lock, held for the whole close).
 */
import type { Pool } from 'pg';
import { z } from 'zod';
import { OFFLINE_AFTER_S } from './floor';
import type { CloseManifest, CloseResult, OfflineBench, RefusedCancel } from './ahead-types';
import { PlatformCallError, type WarehousePlatform } from './platform';

/** The advisory lock key of the day's close (the benches' close takes the same). */
const CLOSE_LOCK = "hashtext('warehouse_day_close')";
/** How many 429s a manifest waits out before giving up for this close. */
const MAX_WAITS = 10;

const Cancelled = z.looseObject({ trackingNumber: z.string().optional(), cancelled: z.boolean(), refunded: z.number() });
const Manifests = z.looseObject({ data: z.array(z.looseObject({ id: z.number(), totalShipments: z.number().optional() })) });

/** Options of {@link closeDay}. */
export interface CloseOptions {
  db: Pool;
  platform: WarehousePlatform;
  /** The supervisor who closed it. */
  packer: string | null;
  /** Where: 'page' (default) or the id of the bench it was asked at with the supervisor's PIN (./close-requests.ts). */
  place?: string;
  /** Waits `ms` (a 429's Retry-After); default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

/** Why the close did not run. */
export type CloseRefusal = { code: 'closing'; message: string };

/** Reads close `id` (or the newest) as {@link CloseResult}; null when none. @throws the database's error */
export async function readClose(db: Pool, id?: number): Promise<CloseResult | null> {
  const res = await db.query<CloseResult & { refunded: string }>(
    `SELECT id::int AS id, to_char(closed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "closedAt", closed_at_place AS place, packer,
            cancelled, refunded::text AS refunded, cancel_refused AS "cancelRefused", manifests, offline_benches AS "offlineBenches"
       FROM warehouse_closes WHERE $1::bigint IS NULL OR id = $1 ORDER BY id DESC LIMIT 1`,
    [id ?? null],
  );
  const r = res.rows[0];
  return r ? { ...r, refunded: Number(r.refunded) } : null;
}

/** Cancels every label ahead no bench will use (step 2): bought and not held, abandoned, or printed for an order shipped otherwise. */
async function cancelUnused(db: Pool, platform: WarehousePlatform): Promise<{ cancelled: number; refunded: number; refused: RefusedCancel[] }> {
  // A label ahead a bench shipped without the warehouse's word (it was away, and the bench adopted the shipment by
  // its reference) is the order's shipment: used, never cancelled. Its order says so (shipped by a bench: an order the
  // platform's events took for shipped from the web panel by the label's own reference was shipped by nobody), or the
  // bench's ship activity.
  await db.query(
    `UPDATE labels_ahead a SET state = 'used', used_by = coalesce(o.shipped_by, x.bench_id, a.bought_by), used_at = coalesce(o.shipped_at, x.at, now())
       FROM orders o LEFT JOIN LATERAL (SELECT bench_id, at FROM activity WHERE action = 'ship' AND tracking_number = o.tracking_number LIMIT 1) x ON true
      WHERE a.state = 'bought' AND o.order_key = a.order_key AND o.tracking_number = a.tracking_number AND o.shipped_by IS NOT NULL`,
  );
  await db.query(
    `UPDATE labels_ahead a SET state = 'used', used_by = x.bench_id, used_at = x.at
       FROM activity x WHERE a.state = 'bought' AND x.action = 'ship' AND x.tracking_number = a.tracking_number`,
  );
  // An order a bench holds (claimed, even by a bench gone silent) may be shipping with its label ahead now: kept.
  // Also cancelled: a late purchase a packer's press stopped waiting for whose cancel did not go through yet
  // (abandoned, schema 9), and a label printed in a batch whose order shipped with another label.
  const ids = (
    await db.query<{ id: string }>(
      `SELECT id::text AS id FROM labels_ahead a
        WHERE (a.state = 'bought' AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.order_key = a.order_key))
           OR (a.state = 'abandoned' AND a.tracking_number IS NOT NULL)
           OR (a.state = 'printed' AND EXISTS (SELECT 1 FROM orders o WHERE o.order_key = a.order_key AND o.shipped_at IS NOT NULL AND o.tracking_number IS DISTINCT FROM a.tracking_number))
        ORDER BY id`,
    )
  ).rows.map((r) => r.id);
  let cancelled = 0;
  let refundedCents = 0;
  const refused: RefusedCancel[] = [];
  for (const id of ids) {
    const client = await db.connect();
    try {
      await client.query('BEGIN');
      const row = (
        await client.query<{ tn: string | null; key: string; reason: string }>(
          `SELECT tracking_number AS tn, order_key AS key, CASE state WHEN 'abandoned' THEN 'late' WHEN 'printed' THEN 'unused' ELSE 'day_closed' END AS reason
             FROM labels_ahead WHERE id = $1 AND state IN ('bought', 'abandoned', 'printed') FOR UPDATE SKIP LOCKED`,
          [id],
        )
      ).rows[0];
      if (!row?.tn) {
        await client.query('ROLLBACK');
        continue;
      }
      try {
        const out = await platform.call('DELETE', `/shipments/${encodeURIComponent(row.tn)}`, Cancelled);
        if (out && !out.cancelled) throw new PlatformCallError(409, 'invalid_state', `DELETE /shipments: the platform did not cancel ${row.tn}`);
        const refund = Math.round((out?.refunded ?? 0) * 100);
        await client.query(`UPDATE labels_ahead SET state = 'cancelled', cancel_reason = $3, refund = $2, cancelled_at = now(), error = NULL WHERE id = $1`, [id, refund / 100, row.reason]);
        cancelled += 1;
        refundedCents += refund;
      } catch (e) {
        const err = e instanceof PlatformCallError ? e : new PlatformCallError(0, 'error', (e as Error).message);
        const reason: RefusedCancel['reason'] = err.status === 409 ? 'invalid_state' : err.status === 404 ? 'not_found' : 'error';
        if (reason !== 'error') {
          await client.query(`UPDATE labels_ahead SET state = 'cancel_refused', cancel_reason = $3, error = $2 WHERE id = $1`, [id, err.message, row.reason]);
        }
        refused.push({ trackingNumber: row.tn, orderKey: row.key, reason, message: err.message });
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }
  return { cancelled, refunded: refundedCents / 100, refused };
}

/** A shipment to close: its tracking number, bench and contract. */
interface OpenShipment {
  tn: string;
  bench: string;
  contract: string | null;
  contractName: string | null;
}

/** The printed shipments not closed yet (step 3's list, every bench). */
async function openShipments(db: Pool): Promise<OpenShipment[]> {
  const res = await db.query<OpenShipment>(
    `WITH ships AS (
       SELECT a.tracking_number AS tn, a.bench_id AS bench, a.shipment->>'contractCode' AS contract, a.shipment->>'contractName' AS "contractName"
         FROM activity a WHERE a.action = 'ship' AND a.tracking_number IS NOT NULL AND a.at > now() - interval '7 days'
       UNION ALL
       SELECT la.tracking_number, la.used_by, la.contract_code, la.shipment->>'contractName'
         FROM labels_ahead la WHERE la.state = 'used' AND la.tracking_number IS NOT NULL AND la.used_by IS NOT NULL AND la.used_at > now() - interval '7 days')
     SELECT DISTINCT ON (s.tn) s.tn, s.bench, s.contract, s."contractName" FROM ships s
      WHERE NOT EXISTS (SELECT 1 FROM closed_shipments c WHERE c.tracking_number = s.tn)
        AND NOT EXISTS (SELECT 1 FROM activity v WHERE v.action = 'void' AND v.tracking_number = s.tn)
        AND NOT EXISTS (SELECT 1 FROM labels_ahead x WHERE x.tracking_number = s.tn AND x.state <> 'used')
      ORDER BY s.tn, s.contract NULLS LAST`,
  );
  return res.rows;
}

/** One POST /manifests for a contract's tracking numbers, waiting out 429s. */
async function manifestOf(db: Pool, platform: WarehousePlatform, trackingNumbers: string[], sleep: (ms: number) => Promise<void>): Promise<Pick<CloseManifest, 'manifestId' | 'already' | 'error'>> {
  for (let waits = 0; ; waits++) {
    try {
      const out = await platform.call('POST', '/manifests', Manifests, { trackingNumbers });
      return { manifestId: out?.data[0]?.id ?? null };
    } catch (e) {
      if (!(e instanceof PlatformCallError)) return { manifestId: null, error: (e as Error).message };
      if (e.status === 404) return { manifestId: null, already: true };
      if (e.status === 429 && waits < MAX_WAITS) {
        const s = e.retryAfterS ?? 12;
        await db.query(`INSERT INTO rate_refusals (route, retry_after_ms) VALUES ('POST /manifests', $1)`, [s * 1000]);
        await sleep(s * 1000);
        continue;
      }
      return { manifestId: null, error: e.message };
    }
  }
}

/**
 * Closes the day for the warehouse (see the module doc).
 * @returns the close, or a refusal when another close is under way
 * @throws the database's error
 */
export async function closeDay(options: CloseOptions): Promise<{ ok: true; close: CloseResult } | { ok: false; refusal: CloseRefusal }> {
  const { db, platform } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const lock = await db.connect();
  try {
    const got = (await lock.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${CLOSE_LOCK}) AS ok`)).rows[0]?.ok;
    if (!got) return { ok: false, refusal: { code: 'closing', message: 'The day is being closed already: wait for that close to end' } };
    try {
      const benches = await db.query<{ id: string; name: string; online: boolean; lastSeen: string; today: boolean }>(
        `SELECT id, name, heartbeat_at > now() - make_interval(secs => $1) AS online,
                to_char(heartbeat_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastSeen",
                (heartbeat_at AT TIME ZONE 'Europe/Rome')::date = (now() AT TIME ZONE 'Europe/Rome')::date AS today
           FROM benches ORDER BY name, id`,
        [OFFLINE_AFTER_S],
      );
      const online = new Set(benches.rows.filter((b) => b.online).map((b) => b.id));
      const cancels = await cancelUnused(db, platform);
      const open = await openShipments(db);
      const offlineBenches: OfflineBench[] = benches.rows
        .filter((b) => !b.online)
        .map((b) => ({ id: b.id, name: b.name, lastSeen: b.lastSeen, waiting: open.filter((s) => s.bench === b.id).length, today: b.today }))
        .filter((b) => b.today || b.waiting > 0)
        .map(({ today: _today, ...b }) => b);
      const byContract = new Map<string, OpenShipment[]>();
      for (const s of open.filter((x) => online.has(x.bench))) byContract.set(s.contract ?? '', [...(byContract.get(s.contract ?? '') ?? []), s]);
      const manifests: CloseManifest[] = [];
      const closed: Array<{ s: OpenShipment; m: CloseManifest }> = [];
      for (const [contract, list] of [...byContract].sort((a, b) => a[0].localeCompare(b[0]))) {
        const out = await manifestOf(db, platform, list.map((s) => s.tn), sleep);
        const m: CloseManifest = { contractCode: contract, contractName: list.find((s) => s.contractName)?.contractName ?? null, shipments: list.length, ...out };
        manifests.push(m);
        if (!m.error) closed.push(...list.map((s) => ({ s, m })));
      }
      const client = await db.connect();
      try {
        await client.query('BEGIN');
        const id = (
          await client.query<{ id: string }>(
            `INSERT INTO warehouse_closes (closed_at_place, packer, manifests, offline_benches, cancel_refused, cancelled, refunded)
             VALUES ($7, $1, $2::jsonb, $3::jsonb, $4::jsonb, $5, $6) RETURNING id::text AS id`,
            [options.packer, JSON.stringify(manifests), JSON.stringify(offlineBenches), JSON.stringify(cancels.refused), cancels.cancelled, cancels.refunded, options.place ?? 'page'],
          )
        ).rows[0]!.id;
        await client.query(
          `INSERT INTO closed_shipments (tracking_number, close_id, bench_id, contract_code)
           SELECT tn, $1, bench, nullif(contract, '') FROM unnest($2::text[], $3::text[], $4::text[]) AS x(tn, bench, contract) ON CONFLICT DO NOTHING`,
          [id, closed.map((c) => c.s.tn), closed.map((c) => c.s.bench), closed.map((c) => c.m.contractCode)],
        );
        await client.query('COMMIT');
        return { ok: true, close: (await readClose(db, Number(id)))! };
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    } finally {
      await lock.query(`SELECT pg_advisory_unlock(${CLOSE_LOCK})`).catch(() => undefined);
    }
  } finally {
    lock.release();
  }
}
