/**
 * The platform account's per-minute limits kept once for the whole warehouse (issue 43 item 1): every bench's
 * limited call (`POST /shipments`, `POST /rates`, … spec: Limits) takes its slot through the warehouse's
 * `take_rate_slot` (schema 6), one statement under the route's lock, so the benches together never start more
 * than the limit in any window, a packer's call goes before background work, and among packers the first asked
 * is served first, whichever bench asked. A 429 that still arrives holds the route for every bench
 * (`block_rate_route`). While the warehouse does not answer, the budget says `unavailable` and the platform
 * client keeps the bench to its share of the limit (the limit divided by the benches alive at the last heartbeat).
 */
import type { Pool } from 'pg';
import type { BudgetAnswer, SharedRateBudget } from '../platform/rate-limit';
import type { WarehouseBench } from './claims';

/**
 * A waiter of a live bench not seen again for this long is forgotten (its bench gave up on it), ms. An outbox row
 * tries again when its turn should come, which at 30 labels a minute is two minutes for sixty before it: ten
 * minutes keeps its place through any realistic line. A silent bench's waiters go after 30 s (take_rate_slot).
 */
const FORGET_WAITER_MS = 600_000;

/** What {@link createWarehouseBudget} works with. */
interface WarehouseBudgetOptions {
  pool: Pool;
  bench: () => WarehouseBench;
  /** Whether the warehouse answers now (the link's state): when not, every take is `unavailable` at once. */
  connected: () => boolean;
  /** Label purchases (and quotes) a window background work leaves free for the packers (ahead_settings.headroom). */
  headroom: () => number;
  /** Benches alive at the last heartbeat, ≥ 1. */
  benchesAlive: () => number;
  /** The warehouse did not answer a take (the link notes it; the call keeps to the bench's share). */
  onError: (e: unknown) => void;
}

/**
 * Builds the bench's {@link SharedRateBudget} on its warehouse pool. A call's key is made the bench's own (its id
 * before it), so two benches' calls never share a place in the queue.
 */
export function createWarehouseBudget(opts: WarehouseBudgetOptions): SharedRateBudget {
  const own = (key: string): string => `${opts.bench().id}:${key}`.slice(0, 300);
  return {
    async take(route, limit, windowMs, key, priority): Promise<BudgetAnswer> {
      if (!opts.connected()) return { unavailable: true };
      try {
        // Background work (labels ahead) takes a slot only while no packer waits and the headroom stays free.
        const res =
          priority === 'packer'
            ? await opts.pool.query<{ granted: boolean; wait_ms: number; ahead: number }>('SELECT granted, wait_ms, ahead FROM take_rate_slot($1, $2, $3, $4, $5, 0::smallint, $6)', [
                opts.bench().id,
                route,
                own(key),
                limit,
                windowMs,
                FORGET_WAITER_MS,
              ])
            : await opts.pool.query<{ granted: boolean; wait_ms: number; ahead: number }>('SELECT granted, wait_ms, ahead FROM take_background_slot($1, $2, $3, $4, $5, $6, $7)', [
                opts.bench().id,
                route,
                own(key),
                limit,
                windowMs,
                Math.max(0, Math.min(limit - 1, Math.round(opts.headroom() * (limit / 30)))),
                FORGET_WAITER_MS,
              ]);
        const row = res.rows[0];
        if (!row) return { unavailable: true };
        return row.granted ? { granted: true } : { granted: false, waitMs: row.wait_ms, ahead: row.ahead };
      } catch (e) {
        opts.onError(e);
        return { unavailable: true };
      }
    },
    async leave(key) {
      if (!opts.connected()) return;
      await opts.pool.query('SELECT leave_rate_queue($1, $2)', [opts.bench().id, own(key)]).catch(() => undefined);
    },
    async block(route, retryAfterMs) {
      if (!opts.connected()) return;
      await opts.pool.query('SELECT block_rate_route($1, $2, $3)', [opts.bench().id, route, retryAfterMs === undefined ? null : Math.round(retryAfterMs)]).catch(() => undefined);
    },
    benchesAlive: opts.benchesAlive,
  };
}
