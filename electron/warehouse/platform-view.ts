/**
 * What the supervisor's page and the day report read of the platform's events (issue 44 item 5) and of the
 * account's budget (issue 43 item 6), from the warehouse database (schema 6 and 7):
 *
 * - {@link readPlatformView}: the held parcels open (order, packer, carrier, days held), the delivery exceptions
 *   open (order, last carrier event), and the exceptions begun per day (Europe/Rome), carrier and status of the
 *   last 7 days;
 * - {@link readBudget}: labels (`POST /shipments`) and quotes (`POST /rates`) used in the last minute of the
 *   account's 30 and 60, the calls waiting per route, the packers' label wait (p50/p95) and the platform's 429s
 *   today. `rate_slots` keeps only about 10 windows of history (schema 6 prunes it), so the wait is over the last
 *   10 minutes, and the page says so;
 * - {@link dayExceptions}: the delivery exceptions begun on a day, for the day report.
 */
import type { Pool } from 'pg';
import type { CatchUpResult } from './catch-up';
import type { EndpointView } from './endpoint';
import { romeRange } from '../../shared/domain/rome-day';

/** A held parcel (a stock open or instructed at the carrier's depot). */
interface HeldParcel {
  stockId: string;
  trackingNumber: string;
  orderKey: string | null;
  packer: string | null;
  carrier: string | null;
  status: 'open' | 'instructed';
  openedAt: string;
  /** Whole days since it was opened, by the database's clock (0 on its first day). */
  daysHeld: number;
}

/** A delivery exception still open (or one of a day, for the report). */
export interface DeliveryException {
  trackingNumber: string;
  statusKey: 'undelivered' | 'returned_to_sender' | 'awaiting_instructions' | 'awaiting_collection' | 'held_at_depot';
  carrier: string | null;
  orderKey: string | null;
  /** The carrier's last event as the platform said it (`time · description · place`), null when none. */
  lastEvent: string | null;
  since: string;
  closedAt: string | null;
}

/** Exceptions begun on a day (Europe/Rome) at a carrier in one status. */
export interface ExceptionCount {
  day: string;
  carrier: string;
  statusKey: DeliveryException['statusKey'];
  n: number;
}

/** The platform's events as the page shows them (the endpoint is added by the server). */
export interface PlatformView {
  held: HeldParcel[];
  exceptions: DeliveryException[];
  exceptionsPerDay: ExceptionCount[];
}

/** `GET /api/platform`'s answer: {@link PlatformView}, the endpoint (null: none registered) and the last catch-up. */
export interface PlatformAnswer extends PlatformView {
  endpoint: EndpointView | null;
  catchUp: { at: string; result: CatchUpResult | null; problem: string | null } | null;
  /** Whether the warehouse program was given the platform account (else no endpoint can be asked or tested). */
  platformGiven: boolean;
}

/** Reads {@link PlatformView}. @throws the database's error */
export async function readPlatformView(db: Pool): Promise<PlatformView> {
  const held = await db.query<HeldParcel>(
    `SELECT h.stock_id::text AS "stockId", h.tracking_number AS "trackingNumber", coalesce(h.order_key, o.order_key) AS "orderKey", h.carrier, h.status,
            to_char(h.opened_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "openedAt",
            greatest(0, floor(extract(epoch FROM now() - h.opened_at) / 86400))::int AS "daysHeld",
            (SELECT a.packer FROM activity a WHERE a.action = 'ship' AND a.tracking_number = h.tracking_number AND a.packer IS NOT NULL LIMIT 1) AS packer
       FROM held_stocks h LEFT JOIN LATERAL (SELECT order_key FROM orders WHERE tracking_number = h.tracking_number LIMIT 1) o ON true
      WHERE h.status <> 'closed' ORDER BY h.opened_at`,
  );
  const open = await db.query<DeliveryException>(
    `SELECT tracking_number AS "trackingNumber", status_key AS "statusKey", carrier, order_key AS "orderKey", last_event AS "lastEvent",
            to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS since, NULL AS "closedAt"
       FROM delivery_exceptions WHERE closed_at IS NULL ORDER BY started_at DESC LIMIT 200`,
  );
  const perDay = await db.query<ExceptionCount>(
    `SELECT to_char(started_at AT TIME ZONE 'Europe/Rome', 'YYYY-MM-DD') AS day, coalesce(carrier, '') AS carrier, status_key AS "statusKey", count(*)::int AS n
       FROM delivery_exceptions WHERE started_at > now() - interval '7 days' GROUP BY 1, 2, 3 ORDER BY 1 DESC, 2, 3`,
  );
  return { held: held.rows, exceptions: open.rows, exceptionsPerDay: perDay.rows };
}

/**
 * The delivery exceptions begun on `day` (Europe/Rome), oldest first, open or closed since.
 * @param day `YYYY-MM-DD`
 * @throws the database's error
 */
export async function dayExceptions(db: Pool, day: string): Promise<DeliveryException[]> {
  const { fromIso, toIso } = romeRange(day, day);
  const res = await db.query<DeliveryException>(
    `SELECT tracking_number AS "trackingNumber", status_key AS "statusKey", carrier, order_key AS "orderKey", last_event AS "lastEvent",
            to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS since,
            to_char(closed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "closedAt"
       FROM delivery_exceptions WHERE started_at >= $1 AND started_at < $2 ORDER BY started_at, tracking_number`,
    [fromIso, toIso],
  );
  return res.rows;
}

/** The account's per-minute limits the page shows (spec: Limits). */
const BUDGET_LIMITS = { labels: 30, quotes: 60 } as const;

/** The account's budget now (see the module doc). */
export interface BudgetView {
  /** Labels (`POST /shipments`) started in the last 61 s (the window and its margin), of {@link BUDGET_LIMITS}.labels. */
  labelsUsed: number;
  labelsLimit: number;
  quotesUsed: number;
  quotesLimit: number;
  /** Calls waiting their turn, per route (`POST /shipments`: n). */
  queue: Record<string, number>;
  /** The packers' label wait (priority 0 `POST /shipments`) over the last 10 minutes, ms; null when no label. */
  labelWait: { p50Ms: number | null; p95Ms: number | null; labels: number; minutes: 10 };
  /** The platform's 429 answers today (Europe/Rome). */
  refusalsToday: number;
  /** The packers' label wait today (Europe/Rome) from `rate_waits` (kept two days), ms; null when no label. */
  labelWaitToday: { p50Ms: number | null; p95Ms: number | null; labels: number };
  /**
   * Labels ahead (issue 43 items 3–5): waiting (bought, not printed) and batched now; bought, printed, used and
   * cancelled today, and the EUR refunded for those cancelled today.
   */
  ahead: { waiting: number; batched: number; bought: number; printed: number; used: number; cancelled: number; refunded: number };
}

/**
 * Reads {@link BudgetView}.
 * @param today `YYYY-MM-DD` (Europe/Rome), the day the 429s are counted on
 * @throws the database's error
 */
export async function readBudget(db: Pool, today: string): Promise<BudgetView> {
  const used = await db.query<{ route: string; n: number }>(
    `SELECT route, count(*)::int AS n FROM rate_slots WHERE route IN ('POST /shipments', 'POST /rates') AND at > now() - interval '61 seconds' GROUP BY route`,
  );
  const queue = await db.query<{ route: string; n: number }>(`SELECT route, count(*)::int AS n FROM rate_waiters GROUP BY route ORDER BY route`);
  const wait = await db.query<{ p50: number | null; p95: number | null; n: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY waited_ms) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY waited_ms) AS p95, count(*)::int AS n
       FROM rate_slots WHERE route = 'POST /shipments' AND priority = 0 AND at > now() - interval '10 minutes'`,
  );
  const { fromIso, toIso } = romeRange(today, today);
  const refused = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rate_refusals WHERE at >= $1 AND at < $2`, [fromIso, toIso]);
  const waitToday = await db.query<{ p50: number | null; p95: number | null; n: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY waited_ms) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY waited_ms) AS p95, count(*)::int AS n
       FROM rate_waits WHERE route = 'POST /shipments' AND at >= $1 AND at < $2`,
    [fromIso, toIso],
  );
  const ahead = await db.query<BudgetView['ahead'] & { refunded: string }>(
    `SELECT count(*) FILTER (WHERE state = 'bought')::int AS waiting, count(*) FILTER (WHERE state = 'batched')::int AS batched,
            count(*) FILTER (WHERE bought_at >= $1 AND bought_at < $2)::int AS bought,
            count(*) FILTER (WHERE printed_at >= $1 AND printed_at < $2)::int AS printed,
            count(*) FILTER (WHERE state = 'used' AND used_at >= $1 AND used_at < $2)::int AS used,
            count(*) FILTER (WHERE state = 'cancelled' AND cancelled_at >= $1 AND cancelled_at < $2)::int AS cancelled,
            coalesce(sum(refund) FILTER (WHERE state = 'cancelled' AND cancelled_at >= $1 AND cancelled_at < $2), 0)::text AS refunded
       FROM labels_ahead`,
    [fromIso, toIso],
  );
  const t = waitToday.rows[0];
  const a = ahead.rows[0]!;
  const usedOf = (route: string) => used.rows.find((r) => r.route === route)?.n ?? 0;
  const w = wait.rows[0];
  const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(Number(v)));
  return {
    labelsUsed: usedOf('POST /shipments'),
    labelsLimit: BUDGET_LIMITS.labels,
    quotesUsed: usedOf('POST /rates'),
    quotesLimit: BUDGET_LIMITS.quotes,
    queue: Object.fromEntries(queue.rows.map((r) => [r.route, r.n])),
    labelWait: { p50Ms: round(w?.p50), p95Ms: round(w?.p95), labels: w?.n ?? 0, minutes: 10 },
    refusalsToday: refused.rows[0]?.n ?? 0,
    labelWaitToday: { p50Ms: round(t?.p50), p95Ms: round(t?.p95), labels: t?.n ?? 0 },
    ahead: { ...a, refunded: Number(a.refunded) },
  };
}
