/**
 * The warehouse's last close of the day as a bench reads it (issue 43 item 4): in a warehouse the day closes once
 * for every bench (on the supervisor's page), so a bench's End of day says where and when it was last closed.
 */
import type { Pool } from 'pg';
import type { WarehouseClose, WarehouseCloseDone } from '../common/services';

/** The newest row of `warehouse_closes` with the number of shipments it closed, or null when the day was never closed. */
export async function lastWarehouseClose(pool: Pool): Promise<WarehouseClose | null> {
  const res = await pool.query<{ closed_at: Date; shipments: number }>(
    `SELECT w.closed_at, (SELECT count(*)::int FROM closed_shipments c WHERE c.close_id = w.id) AS shipments
       FROM warehouse_closes w ORDER BY w.id DESC LIMIT 1`,
  );
  const r = res.rows[0];
  return r ? { at: r.closed_at.toISOString(), shipments: r.shipments } : null;
}

/** How often a bench looks at its close request while the supervisor's program works on it, ms. */
const REQUEST_POLL_MS = 250;

/** What the supervisor's program answered a close request: the close, or its refusal's words. */
export type CloseRequestAnswer = { done: WarehouseCloseDone } | { refused: string } | { waiting: true };

/**
 * Asks for the warehouse's close of the day as bench `benchId` (`request_warehouse_close`, schema 8) and polls
 * `close_requests` until the supervisor's program answers or `timeoutMs` passes.
 * @returns the close, its refusal, or `waiting` when no answer came in time
 * @throws the database's error
 */
export async function requestWarehouseClose(pool: Pool, benchId: string, packer: string | null, timeoutMs: number): Promise<CloseRequestAnswer> {
  const asked = await pool.query<{ id: string }>('SELECT request_warehouse_close($1, $2) AS id', [benchId, packer]);
  const id = asked.rows[0]?.id;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await pool.query<{ state: string; message: string | null; close_id: string | null }>('SELECT state, message, close_id FROM close_requests WHERE id = $1', [id]);
    const r = res.rows[0];
    if (r?.state === 'refused') return { refused: r.message ?? '' };
    if (r?.state === 'done' && r.close_id !== null) {
      const c = await pool.query<{
        closed_at: Date;
        shipments: number;
        manifests: Array<{ contractCode?: string; contractName?: string | null; shipments?: number }>;
        offline_benches: Array<{ name?: string; id?: string }>;
        cancel_refused: unknown[];
        cancelled: number;
        refunded: string;
      }>(
        `SELECT w.closed_at, (SELECT count(*)::int FROM closed_shipments c WHERE c.close_id = w.id) AS shipments, w.manifests, w.offline_benches, w.cancel_refused, w.cancelled, w.refunded
           FROM warehouse_closes w WHERE w.id = $1`,
        [r.close_id],
      );
      const w = c.rows[0];
      if (w) {
        return {
          done: {
            at: w.closed_at.toISOString(),
            shipments: w.shipments,
            manifests: w.manifests.map((m) => ({ contract: m.contractName ?? m.contractCode ?? '?', shipments: m.shipments ?? 0 })),
            cancelled: w.cancelled,
            refunded: Number(w.refunded),
            cancelRefused: w.cancel_refused.length,
            offlineBenches: w.offline_benches.map((b) => b.name ?? b.id ?? '?'),
          },
        };
      }
    }
    if (Date.now() > end) return { waiting: true };
    await new Promise((resolve) => setTimeout(resolve, REQUEST_POLL_MS));
  }
}
