/**
 * The bench's side of the warehouse's labels ahead (issue 43 items 3 and 5; schema 8, schema-ahead.ts): the
 * supervisor's settings, the buyer's lease, the orders that may get a label ahead, reserving, storing, using
 * and ending a label ahead, and the batch prints a bench is asked to print. Each call is one statement on the
 * link's pool through the schema's SECURITY DEFINER functions (the bench's own login, checked there).
 */
import type { Pool } from 'pg';
import type { StationOrder } from '../../../shared/domain/order';
import type { AheadStored, LabelAhead, LabelAheadState, LabelBatch, LabelsAheadStore } from '../common/labels-ahead';
import type { WarehouseBench } from './claims';

/** A row of `labels_ahead` as pg returns it. */
interface LabelAheadRow {
  id: string;
  order_key: string;
  state: LabelAheadState;
  reference: string;
  fingerprint: string;
  rule_name: string | null;
  weight_kg: string | null;
  sku: string | null;
  bin: string | null;
  bought_by: string;
  reserved_at: Date;
  tracking_number: string | null;
  platform_id: string | null;
  contract_code: string | null;
  carrier_code: string | null;
  cost: string | null;
  currency: string | null;
  shipment: unknown;
  label_zpl: string | null;
  label_pdf: string | null;
  batch_id: string | null;
  batch_pos: number | null;
  printed_by: string | null;
  printed_at: Date | null;
  used_by: string | null;
  used_at: Date | null;
}

const num = (v: string | null): number | null => (v === null ? null : Number(v));
const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

function labelAheadOfRow(r: LabelAheadRow): LabelAhead {
  return {
    id: Number(r.id),
    orderKey: r.order_key,
    state: r.state,
    reference: r.reference,
    fingerprint: r.fingerprint,
    ruleName: r.rule_name,
    weightKg: num(r.weight_kg),
    sku: r.sku,
    bin: r.bin,
    boughtBy: r.bought_by,
    reservedAt: r.reserved_at.toISOString(),
    trackingNumber: r.tracking_number,
    platformId: num(r.platform_id),
    contractCode: r.contract_code,
    carrierCode: r.carrier_code,
    cost: num(r.cost),
    currency: r.currency,
    shipment: r.shipment,
    labelZpl: r.label_zpl,
    labelPdf: r.label_pdf,
    batchId: num(r.batch_id),
    batchPos: r.batch_pos,
    printedBy: r.printed_by,
    printedAt: iso(r.printed_at),
    usedBy: r.used_by,
    usedAt: iso(r.used_at),
  };
}

/** Builds the bench's {@link LabelsAheadStore} on the link's pool. */
export function createLabelsAheadStore(pool: Pool, bench: () => WarehouseBench): LabelsAheadStore {
  const one = async (sql: string, params: unknown[]): Promise<LabelAhead | null> => {
    const res = await pool.query<LabelAheadRow>(sql, params);
    return res.rows[0] ? labelAheadOfRow(res.rows[0]) : null;
  };
  return {
    async settings() {
      const res = await pool.query<{ enabled: boolean; rules: string[] | null; horizon_hours: number | null; headroom: number; face_down: boolean }>(
        'SELECT enabled, rules, horizon_hours, headroom, face_down FROM ahead_settings',
      );
      const r = res.rows[0];
      if (!r) return { enabled: false, rules: null, horizonHours: null, headroom: 5, faceDown: false };
      return { enabled: r.enabled, rules: r.rules, horizonHours: r.horizon_hours, headroom: r.headroom, faceDown: r.face_down };
    },
    async lead(leaseS) {
      const res = await pool.query<{ won: boolean }>('SELECT lead_labels_ahead($1, $2) AS won', [bench().id, leaseS]);
      return res.rows[0]?.won === true;
    },
    async candidates(since, limit) {
      const res = await pool.query<{ order_key: string; value: StationOrder; imported_at: Date }>(
        `SELECT o.order_key, o.value, o.imported_at FROM orders o
          WHERE o.shipped_at IS NULL AND o.imported_at >= $1
            AND NOT EXISTS (SELECT 1 FROM labels_ahead a WHERE a.order_key = o.order_key)
            AND NOT EXISTS (SELECT 1 FROM claims c JOIN benches b ON b.id = c.bench_id WHERE c.order_key = o.order_key AND b.heartbeat_at > now() - interval '30 seconds')
          ORDER BY o.imported_at, o.order_key LIMIT $2`,
        [since, limit],
      );
      return res.rows.map((r) => ({ orderKey: r.order_key, order: r.value, importedAt: r.imported_at.toISOString() }));
    },
    async staleReservations(olderThanS) {
      const res = await pool.query<LabelAheadRow>(
        `SELECT a.* FROM labels_ahead a JOIN benches b ON b.id = a.bought_by
          WHERE a.state IN ('buying', 'abandoned') AND a.reserved_at < now() - make_interval(secs => $1)
            AND (a.bought_by = $2 OR b.heartbeat_at < now() - interval '30 seconds')
          ORDER BY a.reserved_at`,
        [olderThanS, bench().id],
      );
      return res.rows.map(labelAheadOfRow);
    },
    async reserve(r) {
      const res = await pool.query<{ id: string | null }>('SELECT reserve_label_ahead($1, $2, $3, $4, $5, $6, $7, $8) AS id', [
        bench().id,
        r.orderKey,
        r.reference,
        r.fingerprint,
        r.ruleName,
        r.weightKg,
        r.sku,
        r.bin,
      ]);
      const id = res.rows[0]?.id;
      return id == null ? null : Number(id);
    },
    async store(id, p) {
      const res = await pool.query<{ stored: AheadStored }>('SELECT store_label_ahead($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) AS stored', [
        bench().id,
        id,
        p.trackingNumber,
        p.platformId,
        p.contractCode,
        p.carrierCode,
        p.cost,
        p.currency,
        JSON.stringify(p.shipment ?? null),
        p.labelZpl,
        p.labelPdf,
      ]);
      return res.rows[0]?.stored ?? 'gone';
    },
    async abandon(id) {
      const res = await pool.query<{ ok: boolean }>('SELECT abandon_label_ahead($1, $2) AS ok', [bench().id, id]);
      return res.rows[0]?.ok === true;
    },
    async drop(id) {
      const res = await pool.query<{ ok: boolean }>('SELECT drop_label_ahead_reservation($1, $2) AS ok', [bench().id, id]);
      return res.rows[0]?.ok === true;
    },
    async end(id, state, reason, refund, error) {
      await pool.query('SELECT end_label_ahead($1, $2, $3, $4, $5, $6)', [bench().id, id, state, reason, refund, error]);
    },
    ofOrder: (orderKey) => one(`SELECT * FROM labels_ahead WHERE order_key = $1 AND state IN ('buying', 'bought', 'batched', 'printed', 'used', 'abandoned') ORDER BY id DESC LIMIT 1`, [orderKey]),
    byTrackingNumber: (trackingNumber) => one('SELECT * FROM labels_ahead WHERE tracking_number = $1', [trackingNumber]),
    use: (id, packer) => one('SELECT * FROM use_label_ahead($1, $2, $3)', [bench().id, id, packer]),
    async waitingBatches() {
      const batches = await pool.query<{ id: string; face_down: boolean }>(`SELECT id, face_down FROM label_batches WHERE bench_id = $1 AND state = 'waiting' ORDER BY id`, [bench().id]);
      const out: LabelBatch[] = [];
      for (const b of batches.rows) {
        const labels = await pool.query<LabelAheadRow>(`SELECT * FROM labels_ahead WHERE batch_id = $1 AND state = 'batched' ORDER BY batch_pos`, [b.id]);
        out.push({ id: Number(b.id), faceDown: b.face_down, labels: labels.rows.map(labelAheadOfRow) });
      }
      return out;
    },
    async batchPrinted(batchId, printedIds, error) {
      await pool.query('SELECT batch_printed($1, $2, $3, $4)', [bench().id, batchId, printedIds, error]);
    },
  };
}
