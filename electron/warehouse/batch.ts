/**
 * Batch prints of labels ahead (issue 43 item 5), made by the supervisor's page: a selection (single-item
 * orders, a SKU, a shop, or all) printed at one live bench. {@link createBatch} takes, in ONE transaction, the
 * labels ahead in state `bought` of unshipped orders no live bench has claimed that match the selection, sorts
 * them by SKU, then bin, then order key (reversed when the printer stacks face down: the last label printed
 * first lies at the bottom, so the stack reads first to last), inserts the `label_batches` row (its trigger
 * tells the bench, which prints them) and marks the labels `batched` with their batch and position (1: printed
 * first). {@link batchPickRows} gives the batch's labels in that same order with what the pick list shows.
 */
import type { Pool } from 'pg';
import { OFFLINE_AFTER_S } from './floor';

/** What the supervisor chose. */
export type BatchSelection = { kind: 'single' } | { kind: 'all' } | { kind: 'sku'; value: string } | { kind: 'shop'; value: string };

/** A batch as the page lists it. */
export interface BatchView {
  id: number;
  benchId: string;
  bench: string;
  selection: BatchSelection;
  faceDown: boolean;
  labels: number;
  /** Labels of the batch its bench has printed so far (or used since). */
  printed: number;
  state: 'waiting' | 'printing' | 'printed' | 'failed';
  error: string | null;
  createdAt: string;
  printedAt: string | null;
}

/** One line of a batch's pick list: a label in print order. */
export interface PickRow {
  position: number;
  sku: string;
  bin: string;
  name: string;
  quantity: number;
  orderNumber: string;
  shop: string;
  trackingNumber: string;
}

/** Why a batch was not made. */
export type BatchRefusal = { code: 'invalid_input'; field: string; message: string } | { code: 'bench_offline' | 'nothing_to_print'; message: string };

/** Reads a selection from a request body, or says which field is wrong. */
export function parseSelection(body: unknown): BatchSelection | BatchRefusal {
  const s = (body as { selection?: { kind?: unknown; value?: unknown } } | null)?.selection;
  const kind = s?.kind;
  if (kind === 'single' || kind === 'all') return { kind };
  if (kind === 'sku' || kind === 'shop') {
    const value = typeof s?.value === 'string' ? s.value.trim() : '';
    if (value === '' || value.length > 200) return { code: 'invalid_input', field: 'selection.value', message: `selection.value: give the ${kind === 'sku' ? 'SKU' : 'shop'} (1 to 200 characters)` };
    return { kind, value };
  }
  return { code: 'invalid_input', field: 'selection.kind', message: 'selection.kind must be single, sku, shop or all' };
}

/** SKUs and bins compared as people read them: `A-9` before `A-10`. */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The print order of labels: SKU, then bin, then order key (no SKU or bin last); reversed face down. */
function printOrder<T extends { sku: string | null; bin: string | null; orderKey: string }>(labels: readonly T[], faceDown: boolean): T[] {
  const cmp = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : collator.compare(a, b) || (a < b ? -1 : 1));
  const sorted = [...labels].sort((a, b) => cmp(a.sku, b.sku) || cmp(a.bin, b.bin) || cmp(a.orderKey, b.orderKey));
  return faceDown ? sorted.reverse() : sorted;
}

/** The SQL condition of a selection on `o` (orders) and `la` (labels_ahead), its value as $1. */
function selectionSql(s: BatchSelection): { where: string; params: unknown[] } {
  if (s.kind === 'single')
    return {
      where: `jsonb_array_length(coalesce(o.value->'items', '[]'::jsonb)) = 1 AND coalesce((o.value->'items'->0->>'quantity')::numeric, 1) = 1`,
      params: [],
    };
  if (s.kind === 'sku') return { where: `(la.sku = $1 OR EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(o.value->'items', '[]'::jsonb)) i WHERE i->>'sku' = $1))`, params: [s.value] };
  if (s.kind === 'shop') return { where: `o.value->>'shop' = $1`, params: [s.value] };
  return { where: 'true', params: [] };
}

/**
 * Makes a batch print of `selection` at bench `benchId` (see the module doc), in one transaction.
 * @returns the batch, or why none was made (the bench offline or unknown, nothing to print)
 * @throws the database's error (the transaction rolled back)
 */
export async function createBatch(db: Pool, benchId: string, selection: BatchSelection): Promise<{ ok: true; batch: BatchView } | { ok: false; refusal: BatchRefusal }> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const bench = await client.query<{ name: string; online: boolean }>(`SELECT name, heartbeat_at > now() - make_interval(secs => $2) AS online FROM benches WHERE id = $1`, [benchId, OFFLINE_AFTER_S]);
    const b = bench.rows[0];
    if (!b || !b.online) {
      await client.query('ROLLBACK');
      return { ok: false, refusal: { code: 'bench_offline', message: b ? `${b.name} is offline: choose a bench that is on` : `No bench ${benchId} in this warehouse` } };
    }
    const faceDown = (await client.query<{ face_down: boolean }>('SELECT face_down FROM ahead_settings')).rows[0]?.face_down ?? false;
    const { where, params } = selectionSql(selection);
    const labels = await client.query<{ id: string; sku: string | null; bin: string | null; orderKey: string }>(
      `SELECT la.id::text AS id, la.sku, la.bin, la.order_key AS "orderKey"
         FROM labels_ahead la JOIN orders o ON o.order_key = la.order_key
        WHERE la.state = 'bought' AND o.shipped_at IS NULL AND ${where}
          AND NOT EXISTS (SELECT 1 FROM claims c JOIN benches cb ON cb.id = c.bench_id
                           WHERE c.order_key = la.order_key AND cb.heartbeat_at > now() - make_interval(secs => ${OFFLINE_AFTER_S}))
        FOR UPDATE OF la SKIP LOCKED`,
      params,
    );
    if (labels.rows.length === 0) {
      await client.query('ROLLBACK');
      return { ok: false, refusal: { code: 'nothing_to_print', message: 'No label bought ahead waits for an order of that selection' } };
    }
    const ordered = printOrder(labels.rows, faceDown);
    const batch = await client.query<{ id: string }>(`INSERT INTO label_batches (bench_id, selection, face_down, labels) VALUES ($1, $2::jsonb, $3, $4) RETURNING id::text AS id`, [
      benchId,
      JSON.stringify(selection),
      faceDown,
      ordered.length,
    ]);
    const id = Number(batch.rows[0]!.id);
    await client.query(
      `UPDATE labels_ahead la SET state = 'batched', batch_id = $1, batch_pos = p.pos
         FROM unnest($2::bigint[]) WITH ORDINALITY AS p(label_id, pos) WHERE la.id = p.label_id`,
      [id, ordered.map((l) => l.id)],
    );
    await client.query('COMMIT');
    const view = (await readBatches(db, id))[0]!;
    return { ok: true, batch: view };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** The last 20 batches, newest first (or the one of `id`). @throws the database's error */
export async function readBatches(db: Pool, id?: number): Promise<BatchView[]> {
  const res = await db.query<BatchView>(
    `SELECT lb.id::int AS id, lb.bench_id AS "benchId", coalesce(b.name, lb.bench_id) AS bench, lb.selection, lb.face_down AS "faceDown", lb.labels,
            (SELECT count(*)::int FROM labels_ahead la WHERE la.batch_id = lb.id AND la.printed_at IS NOT NULL) AS printed,
            lb.state, lb.error,
            to_char(lb.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
            to_char(lb.printed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "printedAt"
       FROM label_batches lb LEFT JOIN benches b ON b.id = lb.bench_id
      WHERE $1::bigint IS NULL OR lb.id = $1 ORDER BY lb.id DESC LIMIT 20`,
    [id ?? null],
  );
  return res.rows;
}

/**
 * The pick list of batch `id`: its labels in print order (position 1 first off the printer), each with the SKU,
 * bin, product name and quantity of its item (the item of the label's SKU, else the order's first; further
 * items of the order follow its name after `+`), the order number, shop and tracking number.
 * @returns null when there is no such batch
 * @throws the database's error
 */
export async function batchPickRows(db: Pool, id: number): Promise<{ batch: BatchView; rows: PickRow[] } | null> {
  const batch = (await readBatches(db, id))[0];
  if (!batch) return null;
  const res = await db.query<{ pos: number; sku: string | null; bin: string | null; tn: string | null; key: string; value: { items?: Array<{ sku?: string; name?: string; quantity?: number }>; shop?: string; orderNumber?: string | number } }>(
    `SELECT la.batch_pos AS pos, la.sku, la.bin, la.tracking_number AS tn, la.order_key AS key, o.value
       FROM labels_ahead la JOIN orders o ON o.order_key = la.order_key WHERE la.batch_id = $1 ORDER BY la.batch_pos`,
    [id],
  );
  const rows = res.rows.map((r): PickRow => {
    const items = Array.isArray(r.value.items) ? r.value.items : [];
    const item = items.find((i) => r.sku !== null && i.sku === r.sku) ?? items[0];
    const others = items.filter((i) => i !== item);
    const name = [item?.name ?? '', ...others.map((o) => `${o.quantity ?? 1} × ${o.name ?? o.sku ?? ''}`)].filter(Boolean).join(' + ');
    return {
      position: r.pos,
      sku: r.sku ?? item?.sku ?? '',
      bin: r.bin ?? '',
      name,
      quantity: item?.quantity ?? 1,
      orderNumber: r.value.orderNumber !== undefined ? String(r.value.orderNumber) : r.key,
      shop: r.value.shop ?? '',
      trackingNumber: r.tn ?? '',
    };
  });
  return { batch, rows };
}
