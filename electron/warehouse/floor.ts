/**
 * What the supervisor's page reads of the warehouse database (issue 35 item 5), with the supervisor's own
 * connection: the floor now (every bench, orders per hour, what needs attention), the release of a claim,
 * and the shipments of a day for the day report. Days and hours are Europe/Rome's, as the benches' own End
 * of day (shared/domain/rome-day.ts).
 */
import type { Pool } from 'pg';
import { addDays, romeMidnight } from '../../shared/domain/rome-day';
import type { BenchStatus, WarehouseRefusal } from '../core/common/services';

/** The PostgreSQL time zone of the warehouse's day and hours. */
const ZONE = 'Europe/Rome';
/**
 * A bench silent for longer than this is offline, s (issue 42 item 2): a bench beats every 10 s
 * (core/warehouse/link.ts), so three missed heartbeats. Shorter than the claims' timeout: the page says a
 * bench stopped long before another bench may take its orders.
 */
export const OFFLINE_AFTER_S = 30;
/** A claim older than this needs the supervisor's eye, s (15 minutes). */
const OLD_CLAIM_AFTER_S = 15 * 60;

/** idle: nobody packing an order; packing: an order is open; offline: no heartbeat for 30 s (what it said last is only last known). */
type BenchState = 'idle' | 'packing' | 'offline';

/**
 * One bench as the page shows it: what its heartbeat said (core/common/services.ts {@link BenchStatus}: packer,
 * order, printer, queue, refused, last label), with its id, name, state and last heartbeat (ISO 8601). Its
 * refusals by the warehouse are in {@link Attention} `warehouseRefusals`, not here.
 */
export interface FloorBench extends Omit<BenchStatus, 'warehouseRefusals'> {
  id: string;
  name: string;
  state: BenchState;
  heartbeatAt: string;
}

/** Shipments per hour of one bench or packer: `hours[h]` = shipments from h:00 to h:59 (Europe/Rome), 24 entries. */
export interface HourlyShipments {
  name: string;
  hours: number[];
  total: number;
}

/** An order claimed longer than 15 minutes ago. */
export interface OldClaim {
  /** The claimed order's key for the whole warehouse (its shop and number). */
  orderKey: string;
  bench: string;
  packer: string | null;
  /** When the claim began, ISO 8601. */
  since: string;
  /** Whole minutes since then. */
  minutes: number;
}

/** Printer states that stop a bench's labels (shared/contract/views.ts PrinterView). */
const PRINTER_TROUBLE: ReadonlySet<string> = new Set(['paper_out', 'head_open', 'paused', 'error', 'unreachable']);

/** The warehouse's refusals of one bench's writes, newest first (at most {@link MAX_REFUSALS}). */
interface BenchRefusals {
  bench: string;
  refusals: WarehouseRefusal[];
}

/** Refusals kept per bench (the bench sends its latest 10). */
const MAX_REFUSALS = 10;
/** A refusal's sentence is cut to this many characters: a constraint's detail may quote a whole row. */
const MAX_REFUSAL_TEXT = 500;

/**
 * What needs the supervisor: benches offline, printers in trouble, refused requests, writes the warehouse
 * refused, labels held, the day's verify mismatches, old claims.
 */
interface Attention {
  offline: Array<{ bench: string; since: string }>;
  /** Label printers of benches online that cannot print: out of paper, head open, paused, in error, unreachable. */
  printers: Array<{ bench: string; state: string }>;
  refused: Array<{ bench: string; refused: number }>;
  /**
   * Writes the warehouse database refused (issue 42 item 1: a row-level rule or a constraint said no), per
   * bench by name, each bench's newest first; offline benches too (what they said last). Benches whose
   * heartbeat has no `warehouseRefusals` (before issue 42): none.
   */
  warehouseRefusals: BenchRefusals[];
  /** Benches online with labels held as longer than the labels loaded (issue 36): someone must load longer labels. */
  labelsHeld: Array<{ bench: string; held: number }>;
  /** Verify mismatches of the day (activity 'verify'): when (ISO 8601), where, who, what was scanned. */
  verifyMismatches: Array<{ at: string; bench: string; packer: string | null; subject: string | null }>;
  oldClaims: OldClaim[];
}

/** The floor now: the page's one JSON answer, polled every second. */
export interface Floor {
  /** The database's clock when read, ISO 8601. */
  at: string;
  /** The day of the counts, `YYYY-MM-DD` (Europe/Rome). */
  day: string;
  benches: FloorBench[];
  perHour: { benches: HourlyShipments[]; packers: HourlyShipments[] };
  attention: Attention;
}

/** One shipment of the day report. */
export interface ReportShipment {
  /** When the label was made, ISO 8601. */
  at: string;
  bench: string;
  packer: string | null;
  trackingNumber: string;
  /** The platform's contract code (may be an opaque token), null when the bench did not know it. */
  contractCode: string | null;
  /** The contract's name as the platform gives it (`GLS Economy`); null from benches that do not send it. */
  contractName: string | null;
  /** Cost in EUR (the benches' currency), null when the bench did not know it. */
  costEur: number | null;
  weightKg: number | null;
  parcels: number | null;
}

/** The bounds of the Europe/Rome day `day` (`YYYY-MM-DD`), ISO 8601. */
function dayBounds(day: string): { from: string; to: string } {
  return { from: new Date(romeMidnight(day)).toISOString(), to: new Date(romeMidnight(addDays(day, 1))).toISOString() };
}

const iso = (d: Date | string): string => new Date(d).toISOString();
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The refusals of a bench's `status.warehouseRefusals` (what its heartbeat sent: untrusted JSON), newest first:
 * only entries with a time, what and sentence; at most {@link MAX_REFUSALS}; long texts cut.
 */
function refusalsOf(said: unknown): WarehouseRefusal[] {
  if (!Array.isArray(said)) return [];
  const cut = (v: string) => (v.length > MAX_REFUSAL_TEXT ? `${v.slice(0, MAX_REFUSAL_TEXT - 1)}…` : v);
  const out: WarehouseRefusal[] = [];
  for (const r of said as unknown[]) {
    if (typeof r !== 'object' || r === null) continue;
    const { at, what, message, code } = r as Record<string, unknown>;
    if (typeof at !== 'string' || !Number.isFinite(Date.parse(at)) || typeof what !== 'string' || typeof message !== 'string') continue;
    out.push({ at: iso(at), what: cut(what), message: cut(message), code: typeof code === 'string' ? cut(code) : '' });
  }
  return out.sort((a, b) => Date.parse(b.at) - Date.parse(a.at)).slice(0, MAX_REFUSALS);
}

/** The page's view of a bench's `status` (what its heartbeat sent; `{}` from a bench that sent none yet). */
function benchView(row: { id: string; name: string; heartbeat_at: Date; offline: boolean; status: Record<string, unknown>; last_tn?: string | null; last_at?: Date | null }): FloorBench {
  const s = row.status;
  const printer = (s.printer ?? {}) as Record<string, unknown>;
  const said = s.lastLabel as Record<string, unknown> | null | undefined;
  const fromActivity = row.last_tn && row.last_at ? { trackingNumber: row.last_tn, at: iso(row.last_at) } : null;
  const last = fromActivity && !(said && typeof said.at === 'string' && Date.parse(said.at) > Date.parse(fromActivity.at)) ? fromActivity : said;
  const order = str(s.order);
  return {
    id: row.id,
    name: row.name,
    state: row.offline ? 'offline' : order !== null ? 'packing' : 'idle',
    heartbeatAt: iso(row.heartbeat_at),
    packer: str(s.packer),
    order,
    printer: { state: str(printer.state) ?? 'unknown', name: str(printer.name) ?? '' },
    queue: num(s.queue),
    refused: num(s.refused),
    labelsHeld: num(s.labelsHeld),
    lastLabel: last && typeof last.trackingNumber === 'string' && typeof last.at === 'string' ? { trackingNumber: last.trackingNumber, at: last.at } : null,
  };
}

/** Rows (name, hour, n) as one {@link HourlyShipments} per name, busiest first. */
function hourly(rows: ReadonlyArray<{ name: string; hour: number; n: number }>): HourlyShipments[] {
  const by = new Map<string, HourlyShipments>();
  for (const r of rows) {
    let h = by.get(r.name);
    if (!h) by.set(r.name, (h = { name: r.name, hours: Array.from({ length: 24 }, () => 0), total: 0 }));
    h.hours[r.hour] = (h.hours[r.hour] ?? 0) + r.n;
    h.total += r.n;
  }
  return [...by.values()].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
}

/**
 * The floor now (see {@link Floor}), five reads of the warehouse.
 * @param day the day of the counts, `YYYY-MM-DD` Europe/Rome (today's, from the caller's clock)
 */
export async function readFloor(db: Pool, day: string): Promise<Floor> {
  const { from, to } = dayBounds(day);
  // A bench's last label: what its heartbeat said, or its newest label in the activity when that is newer
  // (activity goes up every second, a heartbeat less often).
  const benches = await db.query<{ id: string; name: string; heartbeat_at: Date; offline: boolean; status: Record<string, unknown>; now: Date; last_tn: string | null; last_at: Date | null }>(
    `SELECT b.id, b.name, b.heartbeat_at, b.status, b.heartbeat_at < now() - make_interval(secs => $1) AS offline, now() AS now, l.tracking_number AS last_tn, l.at AS last_at
       FROM benches b
       LEFT JOIN LATERAL (
         SELECT a.tracking_number, a.at FROM activity a
          WHERE a.bench_id = b.id AND a.action IN ('ship', 'print', 'reprint') AND a.tracking_number IS NOT NULL
          ORDER BY a.seq DESC LIMIT 1
       ) l ON true
      ORDER BY b.name, b.id`,
    [OFFLINE_AFTER_S],
  );
  const ships = await db.query<{ bench: string; packer: string | null; hour: number; n: number }>(
    `SELECT b.name AS bench, a.packer, extract(hour FROM a.at AT TIME ZONE '${ZONE}')::int AS hour, count(*)::int AS n
       FROM activity a JOIN benches b ON b.id = a.bench_id
      WHERE a.action = 'ship' AND a.at >= $1 AND a.at < $2
      GROUP BY 1, 2, 3`,
    [from, to],
  );
  const verify = await db.query<{ at: Date; bench: string; packer: string | null; subject: string | null }>(
    `SELECT a.at, b.name AS bench, a.packer, a.subject FROM activity a JOIN benches b ON b.id = a.bench_id
      WHERE a.action = 'verify' AND a.at >= $1 AND a.at < $2 ORDER BY a.at DESC LIMIT 200`,
    [from, to],
  );
  const claims = await db.query<{ order_key: string; bench: string; packer: string | null; claimed_at: Date; minutes: number }>(
    `SELECT c.order_key, b.name AS bench, c.packer, c.claimed_at, floor(extract(epoch FROM now() - c.claimed_at) / 60)::int AS minutes
       FROM claims c JOIN benches b ON b.id = c.bench_id
      WHERE c.claimed_at < now() - make_interval(secs => $1) ORDER BY c.claimed_at`,
    [OLD_CLAIM_AFTER_S],
  );
  const floor = benches.rows.map(benchView);
  const nobody = '—';
  return {
    at: iso(benches.rows[0]?.now ?? new Date()),
    day,
    benches: floor,
    perHour: {
      benches: hourly(ships.rows.map((r) => ({ name: r.bench, hour: r.hour, n: r.n }))),
      packers: hourly(ships.rows.map((r) => ({ name: r.packer ?? nobody, hour: r.hour, n: r.n }))),
    },
    attention: {
      offline: floor.filter((b) => b.state === 'offline').map((b) => ({ bench: b.name, since: b.heartbeatAt })),
      printers: floor.filter((b) => b.state !== 'offline' && PRINTER_TROUBLE.has(b.printer.state)).map((b) => ({ bench: b.name, state: b.printer.state })),
      refused: floor.filter((b) => b.refused > 0).map((b) => ({ bench: b.name, refused: b.refused })),
      warehouseRefusals: benches.rows.map((r) => ({ bench: r.name, refusals: refusalsOf(r.status.warehouseRefusals) })).filter((r) => r.refusals.length > 0),
      labelsHeld: floor.filter((b) => b.state !== 'offline' && b.labelsHeld > 0).map((b) => ({ bench: b.name, held: b.labelsHeld })),
      verifyMismatches: verify.rows.map((r) => ({ at: iso(r.at), bench: r.bench, packer: r.packer, subject: r.subject })),
      oldClaims: claims.rows.map((r) => ({ orderKey: r.order_key, bench: r.bench, packer: r.packer, since: iso(r.claimed_at), minutes: r.minutes })),
    },
  };
}

/**
 * Releases the claim on `orderKey` (the supervisor's release: the order is free for any bench).
 * @returns the claim released (its order key, bench, packer, since when), or null when there was none
 */
export async function releaseClaim(db: Pool, orderKey: string): Promise<Omit<OldClaim, 'minutes'> | null> {
  const res = await db.query<{ order_key: string; bench: string | null; packer: string | null; claimed_at: Date }>(
    `WITH gone AS (DELETE FROM claims WHERE order_key = $1 RETURNING order_key, bench_id, packer, claimed_at)
     SELECT gone.order_key, b.name AS bench, gone.packer, gone.claimed_at FROM gone LEFT JOIN benches b ON b.id = gone.bench_id`,
    [orderKey],
  );
  const r = res.rows[0];
  return r ? { orderKey: r.order_key, bench: r.bench ?? '', packer: r.packer, since: iso(r.claimed_at) } : null;
}

/**
 * Every shipment of the Europe/Rome day `day` (`YYYY-MM-DD`) at every bench (activity 'ship'), oldest first.
 */
export async function dayShipments(db: Pool, day: string): Promise<ReportShipment[]> {
  const { from, to } = dayBounds(day);
  const res = await db.query<{ at: Date; bench: string; packer: string | null; tracking_number: string | null; shipment: Record<string, unknown> | null }>(
    `SELECT a.at, b.name AS bench, a.packer, a.tracking_number, a.shipment FROM activity a JOIN benches b ON b.id = a.bench_id
      WHERE a.action = 'ship' AND a.at >= $1 AND a.at < $2 ORDER BY a.at, b.name, a.seq`,
    [from, to],
  );
  return res.rows.map((r) => {
    const s = r.shipment ?? {};
    const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    return {
      at: iso(r.at),
      bench: r.bench,
      packer: r.packer,
      trackingNumber: r.tracking_number ?? '',
      contractCode: str(s.contractCode),
      contractName: str(s.contractName),
      costEur: numOrNull(s.cost),
      weightKg: numOrNull(s.weightKg),
      parcels: numOrNull(s.parcels),
    };
  });
}
