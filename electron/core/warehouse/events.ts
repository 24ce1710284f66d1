/**
 * The platform's events at a bench (issue 44 item 3): the warehouse stores and applies them (schema 7,
 * `platform_events`), then NOTIFY `warehouse_events` with each one's applied_seq; the bench reads every event
 * applied after the last it saw (on NOTIFY, and on each (re)connection, so one missed while away is read when
 * it is back) and:
 *
 * - `tracking.update`: its own shipment of that tracking number takes the new status (an event older than one
 *   applied before is skipped by the warehouse, outcome `older`);
 * - `stock.opened` / `stock.closed`: the Stocks screen reloads (it reads the platform's held parcels);
 * - `shipment.created` for an order no bench shipped: the warehouse marked the order shipped, which reaches
 *   the bench with the orders (NOTIFY `warehouse_orders`); nothing to do here.
 *
 * A bench joining reads from the warehouse's latest event on: the past is the page's, not the bench's.
 */
import type { Pool } from 'pg';
import { z } from 'zod';
import { SHIPMENT_STATUSES } from '../../../shared/platform/common';
import { defineSetting, type Store } from '../store';
import { coalesced } from './coalesced';

/** The last applied_seq this bench read; -1: never joined (it starts from the warehouse's latest). */
const EventsSeenSetting = defineSetting('warehouse.eventsSeen', z.number().int().min(-1), -1);

/** Events read per query. */
const BATCH = 500;

/** What a read of events changed at the bench. */
interface BenchEventChanges {
  /** Stock events read (the Stocks screen reloads). */
  stocks: number;
  /** Tracking numbers of the bench's shipments whose status changed. */
  shipments: string[];
}

/** Options of {@link createBenchEvents}. */
export interface BenchEventsOptions {
  db: Pool;
  store: Store;
  /** Something changed at the bench: the screens reload. */
  onChanged: (changes: BenchEventChanges) => void;
  /** The warehouse did not answer (the link notes it is offline). */
  onError: (e: unknown) => void;
}

/** Builds the bench's reader; `pull()` never rejects and runs one at a time. */
export function createBenchEvents(opts: BenchEventsOptions): { pull: () => Promise<void> } {
  const { db, store } = opts;
  const pull = coalesced(async () => {
    try {
      let seen = store.settings.get(EventsSeenSetting);
      if (seen < 0) {
        const latest = await db.query<{ n: string }>('SELECT coalesce(max(applied_seq), 0) AS n FROM platform_events');
        store.settings.set(EventsSeenSetting, Number(latest.rows[0]?.n ?? 0));
        return;
      }
      const changes: BenchEventChanges = { stocks: 0, shipments: [] };
      for (;;) {
        const res = await db.query<{ applied_seq: string; event: string; tracking_number: string; status_code: number | null; outcome: string | null }>(
          'SELECT applied_seq, event, tracking_number, status_code, outcome FROM platform_events WHERE applied_seq > $1 ORDER BY applied_seq LIMIT $2',
          [seen, BATCH],
        );
        const last = res.rows[res.rows.length - 1];
        if (!last) break;
        store.tx(() => {
          for (const e of res.rows) {
            if (e.event === 'stock.opened' || e.event === 'stock.closed') changes.stocks++;
            if (e.event !== 'tracking.update' || e.status_code === null || e.outcome === 'older' || e.outcome?.startsWith('failed')) continue;
            const local = store.shipments.getByTrackingNumber(e.tracking_number);
            // A code this station does not know (a newer platform's) is left for the shipment's own refresh.
            const key = SHIPMENT_STATUSES.find((x) => x.code === e.status_code)?.key;
            if (local && key !== undefined && local.statusKey !== key) {
              store.shipments.setStatus(e.tracking_number, key);
              changes.shipments.push(e.tracking_number);
            }
          }
          seen = Number(last.applied_seq);
          store.settings.set(EventsSeenSetting, seen);
        });
      }
      if (changes.stocks || changes.shipments.length) opts.onChanged(changes);
    } catch (e) {
      opts.onError(e);
    }
  });
  return { pull };
}
