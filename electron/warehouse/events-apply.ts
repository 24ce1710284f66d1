/**
 * Applies the platform's stored events (issue 44 items 2-3), after they were answered: schema 7's
 * `apply_platform_events` in batches, one run at a time, started when an event is stored and every
 * {@link APPLY_EVERY_MS} (a deferred shipment.created comes due, an event stored while the database blinked).
 * Each applied event is told to the benches by the database (NOTIFY `warehouse_events`).
 */
import type { Pool } from 'pg';
import { coalesced } from '../core/warehouse/coalesced';

/** Events applied per statement. */
const BATCH = 500;
/** How often the applier looks for due events without being asked, ms. */
const APPLY_EVERY_MS = 2000;

/** Options of {@link createEventApplier}. */
export interface EventApplierOptions {
  db: Pool;
  /** How long a shipment.created for an order a bench has claimed waits for that bench's own shipment, s (default 120). */
  settleS?: number;
  log: (line: string) => void;
}

/** The running applier. */
export interface EventApplier {
  /** Applies what is due now (coalesced: a burst of calls costs at most two runs); never rejects. */
  kick(): Promise<void>;
  /** Stops the timer and waits for a run in progress. */
  close(): Promise<void>;
}

/** Starts the applier (see the module doc). */
export function createEventApplier(opts: EventApplierOptions): EventApplier {
  let closed = false;
  let failing = false;
  const run = coalesced(async () => {
    if (closed) return;
    try {
      for (;;) {
        const res = await opts.db.query<{ n: number }>('SELECT apply_platform_events($1, $2) AS n', [BATCH, opts.settleS ?? 120]);
        if ((res.rows[0]?.n ?? 0) < BATCH || closed) break;
      }
      if (failing) opts.log('warehouse: platform events are applied again');
      failing = false;
    } catch (e) {
      // Said once until it works again: the events wait, stored, for the next run.
      if (!failing) opts.log(`warehouse: platform events could not be applied: ${(e as Error).message}`);
      failing = true;
    }
  });
  const timer = setInterval(() => void run(), APPLY_EVERY_MS);
  timer.unref();
  void run();
  return {
    kick: run,
    async close() {
      closed = true;
      clearInterval(timer);
      await run();
    },
  };
}
