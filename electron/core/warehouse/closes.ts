/**
 * The warehouse's last close of the day as a bench reads it (issue 43 item 4): in a warehouse the day closes once
 * for every bench (on the supervisor's page), so a bench's End of day says where and when it was last closed.
 */
import type { Pool } from 'pg';
import type { WarehouseClose } from '../common/services';

/** The newest row of `warehouse_closes` with the number of shipments it closed, or null when the day was never closed. */
export async function lastWarehouseClose(pool: Pool): Promise<WarehouseClose | null> {
  const res = await pool.query<{ closed_at: Date; shipments: number }>(
    `SELECT w.closed_at, (SELECT count(*)::int FROM closed_shipments c WHERE c.close_id = w.id) AS shipments
       FROM warehouse_closes w ORDER BY w.id DESC LIMIT 1`,
  );
  const r = res.rows[0];
  return r ? { at: r.closed_at.toISOString(), shipments: r.shipments } : null;
}
