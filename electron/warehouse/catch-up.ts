/**
 * Nothing missed (issue 44 item 4): events can be lost (3 retries, then nothing; spec: Events > Delivery 5), so
 * at start and every few minutes the warehouse asks the platform what the events would have said and stores it
 * as events of its own (`source` catch_up) with the receiver's keys (events-receiver.ts `eventKey`): what an
 * event already brought is not stored again, and the applier applies the rest once.
 *
 * - open and instructed stocks (GET /stocks) → stock.opened; a stock the warehouse holds open that the platform
 *   no longer lists is read (GET /stocks/{id}) and, closed, → stock.closed;
 * - today's shipments (GET /shipments?from=<today>) → shipment.created (only an order of the warehouse no bench
 *   shipped is changed by it);
 * - held parcels and parcels in exception → their tracking (GET /shipments/{ldv}/tracking) → tracking.update
 *   (the current status: a status the carrier passed through meanwhile is not brought back).
 *
 * Paced within the account's limits: one call at a time, at least {@link PACE_MS} apart, at most
 * {@link MAX_CALLS} a run (the spec shows no limit for these reads; the next run takes the rest).
 */
import type { Pool } from 'pg';
import type { z } from 'zod';
import { Paginated } from '../../shared/platform/common';
import { Shipment } from '../../shared/platform/resources';
import { Stock, TrackingRecord } from '../../shared/platform/tracking';
import { romeDay } from '../../shared/domain/rome-day';
import { storeEvents, type StoredEvent } from './events-receiver';
import type { WarehousePlatform } from './platform';

/** Least time between two calls of a run, ms. */
const PACE_MS = 250;
/** Most calls of one run. */
const MAX_CALLS = 60;
/** How often the warehouse catches up, ms (the issue: every few minutes). */
const EVERY_MS = 5 * 60_000;

const StockPage = Paginated(Stock);
const ShipmentPage = Paginated(Shipment);

/** What one run found and stored. */
export interface CatchUpResult {
  calls: number;
  found: number;
  stored: number;
}

/**
 * One run (see the module doc).
 * @param now the clock, ms (today's shipments are the Rome day of it)
 * @throws PlatformCallError when the platform refuses or does not answer (what was found before is stored)
 */
async function catchUp(platform: WarehousePlatform, db: Pool, now: number): Promise<CatchUpResult> {
  let calls = 0;
  let last = 0;
  const events: StoredEvent[] = [];
  let stored = 0;
  const get = async <T>(path: string, schema: z.ZodType<T>): Promise<T | null> => {
    if (calls >= MAX_CALLS) return null;
    const wait = last + PACE_MS - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    calls++;
    last = Date.now();
    return (await platform.call('GET', path, schema)) ?? null;
  };
  try {
    const listed = new Set<number>();
    // A held parcel's tracking is read too: the warehouse may have missed the event that began its trouble.
    const heldParcels = new Set<string>();
    for (const status of ['open', 'instructed'] as const) {
      for (let page = 1; page <= 5; page++) {
        const got = await get(`/stocks?status=${status}&per_page=200&page=${page}`, StockPage);
        if (!got) break;
        for (const s of got.data) {
          listed.add(s.id);
          heldParcels.add(s.trackingNumber);
          events.push(stockEvent('stock.opened', s));
        }
        if (got.meta.current_page >= got.meta.last_page) break;
      }
    }
    const held = await db.query<{ stock_id: string }>(`SELECT stock_id FROM held_stocks WHERE status <> 'closed'`);
    for (const row of held.rows.filter((r) => !listed.has(Number(r.stock_id)))) {
      const s = await get(`/stocks/${row.stock_id}`, Stock);
      if (s?.status === 'closed') events.push(stockEvent('stock.closed', s));
    }
    for (let page = 1; page <= 5; page++) {
      const got = await get(`/shipments?from=${romeDay(now)}&per_page=200&page=${page}`, ShipmentPage);
      if (!got) break;
      for (const s of got.data) {
        if (s.cancelled) continue;
        const payload = { event: 'shipment.created', timestamp: s.createdAt, ldv: s.trackingNumber, contractCode: s.carrier.contractCode, statusCode: s.status.code, shipping_id: s.id, order_id: s.reference ?? null, vector_name: s.carrier.name };
        events.push({ event: 'shipment.created', trackingNumber: s.trackingNumber, at: Date.parse(s.createdAt), statusCode: s.status.code, payload });
      }
      if (got.meta.current_page >= got.meta.last_page) break;
    }
    const open = await db.query<{ tracking_number: string }>('SELECT tracking_number FROM delivery_exceptions WHERE closed_at IS NULL ORDER BY started_at');
    for (const tn of new Set([...heldParcels, ...open.rows.map((r) => r.tracking_number)])) {
      const t = await get(`/shipments/${encodeURIComponent(tn)}/tracking`, TrackingRecord);
      const latest = t?.events[0];
      if (!t || !latest) continue;
      const payload = {
        event: 'tracking.update',
        timestamp: latest.timestamp,
        ldv: t.trackingNumber,
        statusCode: t.status.code,
        vector_name: t.carrier.name,
        order_id: t.reference,
        TrackingDettaglio: t.events.slice(0, 5).map((e) => ({ Data: e.timestamp, Stato: e.description, Luogo: e.location })),
      };
      events.push({ event: 'tracking.update', trackingNumber: t.trackingNumber, at: Date.parse(latest.timestamp), statusCode: t.status.code, payload });
    }
  } finally {
    // What was found before a refusal is kept.
    stored = await storeEvents(db, events, 'catch_up');
  }
  return { calls, found: events.length, stored };
}

/** A stock as the event of that kind would say it (spec: stock.opened and stock.closed payload). */
function stockEvent(event: 'stock.opened' | 'stock.closed', s: Stock): StoredEvent {
  const at = event === 'stock.closed' && s.closedAt ? s.closedAt : s.openedAt;
  const payload = {
    event,
    timestamp: at,
    ldv: s.trackingNumber,
    statusCode: s.shipmentStatus.code,
    stock_id: s.id,
    giacenza_id: s.giacenzaId,
    opened_at: s.openedAt,
    shipping_id: s.shipmentId,
    vector_name: s.carrier.name,
    status: s.status,
    ...(s.closedAt ? { closed_at: s.closedAt } : {}),
  };
  return { event, trackingNumber: s.trackingNumber, at: Date.parse(at), statusCode: s.shipmentStatus.code, payload };
}

/** Options of {@link startCatchUp}. */
export interface CatchUpOptions {
  platform: WarehousePlatform;
  db: Pool;
  /** Clock, ms (tests: the sandbox's). */
  now?: () => number;
  /** Between runs, ms; default 5 minutes. */
  everyMs?: number;
  /** Something new was stored: apply it. */
  onStored: () => void;
  log: (line: string) => void;
}

/** Runs {@link catchUp} now and every few minutes, one run at a time; `run()` runs one more now; `last` the latest outcome. */
export function startCatchUp(opts: CatchUpOptions): { run: () => Promise<void>; last: () => { at: string; result: CatchUpResult | null; problem: string | null } | null; close: () => void } {
  let running: Promise<void> | null = null;
  let outcome: { at: string; result: CatchUpResult | null; problem: string | null } | null = null;
  const run = (): Promise<void> => {
    running ??= (async () => {
      try {
        const result = await catchUp(opts.platform, opts.db, (opts.now ?? Date.now)());
        outcome = { at: new Date().toISOString(), result, problem: null };
        if (result.stored) opts.onStored();
      } catch (e) {
        outcome = { at: new Date().toISOString(), result: null, problem: (e as Error).message };
        opts.log(`warehouse: catching up with the platform failed: ${(e as Error).message}`);
      }
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => void run(), opts.everyMs ?? EVERY_MS);
  timer.unref();
  void run();
  return { run, last: () => outcome, close: () => clearInterval(timer) };
}
