/**
 * Packing-slip jobs (table `slip_jobs`, migration 5), the slips' twin of
 * print_jobs (DESIGN.md "Print jobs are rows too"): a slip printer that is
 * off keeps its slips until it comes back, and nothing prints twice unasked.
 * States: `queued` -> `printing` (claimed) -> `printed`, or back to `queued`
 * (nothing reached the printer; sent again by itself) or `failed` (part of
 * it may have printed; the packer reprints). A job found `printing` at
 * start-up is failed, never printed again on its own.
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors';
import { isoNow, type Clock } from './sql';

/** State of a slip job. */
type SlipJobState = 'queued' | 'printing' | 'printed' | 'failed';

/** A slip job: the order it lists, the shipment's tracking number (null before shipping), the printer and format. */
export interface SlipJobRecord {
  id: number;
  orderId: number;
  trackingNumber: string | null;
  printerUri: string;
  /** `escpos`: receipt printer commands; `pdf`: an A4 page. */
  format: 'escpos' | 'pdf';
  state: SlipJobState;
  attempts: number;
  lastError: string | null;
  /** `auto`: with the label; `reprint`: the packer asked. */
  requestedBy: 'auto' | 'reprint';
  createdAt: string;
  printedAt: string | null;
  updatedAt: string;
}

/** Repository of slip jobs. */
export interface SlipJobsRepo {
  /**
   * The `auto` slip of an order's shipment, created `queued` when there is none
   * (called in the transaction that records the shipment). `created` says which.
   * @throws SQLite FOREIGN KEY error for an unknown order id.
   */
  ensureAuto(input: { orderId: number; trackingNumber: string; printerUri: string; format: SlipJobRecord['format'] }): { job: SlipJobRecord; created: boolean };
  /** A slip the packer asked for (on demand or a reprint), queued. */
  enqueueReprint(input: { orderId: number; trackingNumber: string | null; printerUri: string; format: SlipJobRecord['format'] }): SlipJobRecord;
  get(id: number): SlipJobRecord | undefined;
  /** Oldest queued job moved to `printing` (attempts + 1); undefined when none. */
  claimNext(): SlipJobRecord | undefined;
  /** `printing` -> `printed`. @throws StoreError `invalid_state`. */
  markPrinted(id: number): SlipJobRecord;
  /** `printing` -> `queued` (retry: nothing reached the printer) or `failed`. @throws StoreError `invalid_state`. */
  markFailed(id: number, error: string, opts: { retry: boolean }): SlipJobRecord;
  /** A queued job is cancelled: `queued` -> `failed`. @throws StoreError `invalid_state`. */
  cancelQueued(id: number): SlipJobRecord;
  /** At start-up: every `printing` job -> `failed` ("interrupted"). Returns the count. */
  failInterrupted(): number;
  /** Jobs of an order (all when undefined), newest first, at most `limit` (default 100). */
  list(opts?: { orderId?: number; limit?: number }): SlipJobRecord[];
}

interface Row {
  id: number;
  order_id: number;
  tracking_number: string | null;
  printer_uri: string;
  format: 'escpos' | 'pdf';
  state: SlipJobState;
  attempts: number;
  last_error: string | null;
  requested_by: 'auto' | 'reprint';
  created_at: string;
  printed_at: string | null;
  updated_at: string;
}

const fromRow = (r: Row): SlipJobRecord => ({
  id: r.id,
  orderId: r.order_id,
  trackingNumber: r.tracking_number,
  printerUri: r.printer_uri,
  format: r.format,
  state: r.state,
  attempts: r.attempts,
  lastError: r.last_error,
  requestedBy: r.requested_by,
  createdAt: r.created_at,
  printedAt: r.printed_at,
  updatedAt: r.updated_at,
});

/** Builds the repository on an open database. */
export function createSlipJobsRepo(db: Database.Database, clock: Clock): SlipJobsRepo {
  const insert = db.prepare<[number, string | null, string, string, string, string, string], Row>(
    `INSERT INTO slip_jobs (order_id, tracking_number, printer_uri, format, state, requested_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'queued', ?, ?, ?) RETURNING *`,
  );
  const byId = db.prepare<[number], Row>('SELECT * FROM slip_jobs WHERE id = ?');
  const autoOf = db.prepare<[number, string], Row>("SELECT * FROM slip_jobs WHERE order_id = ? AND ifnull(tracking_number, '') = ? AND requested_by = 'auto'");
  const oldestQueued = db.prepare<[], Row>("SELECT * FROM slip_jobs WHERE state = 'queued' ORDER BY id LIMIT 1");
  const setState = db.prepare<[string, string | null, string | null, string, number, string], Row>(
    'UPDATE slip_jobs SET state = ?, last_error = ?, printed_at = coalesce(?, printed_at), updated_at = ? WHERE id = ? AND state = ? RETURNING *',
  );
  const claim = db.prepare<[string, number], Row>("UPDATE slip_jobs SET state = 'printing', attempts = attempts + 1, updated_at = ? WHERE id = ? AND state = 'queued' RETURNING *");

  const transition = (id: number, from: SlipJobState, to: SlipJobState, error: string | null, printedAt: string | null): SlipJobRecord => {
    const row = setState.get(to, error, printedAt, isoNow(clock), id, from);
    if (row) return fromRow(row);
    const now = byId.get(id);
    if (!now) throw new StoreError('not_found', `Slip job ${id} not found`);
    throw new StoreError('invalid_state', `Slip job ${id} is ${now.state}, not ${from}`);
  };

  return {
    ensureAuto({ orderId, trackingNumber, printerUri, format }) {
      const existing = autoOf.get(orderId, trackingNumber);
      if (existing) return { job: fromRow(existing), created: false };
      const now = isoNow(clock);
      return { job: fromRow(insert.get(orderId, trackingNumber, printerUri, format, 'auto', now, now)!), created: true };
    },
    enqueueReprint({ orderId, trackingNumber, printerUri, format }) {
      const now = isoNow(clock);
      return fromRow(insert.get(orderId, trackingNumber, printerUri, format, 'reprint', now, now)!);
    },
    get: (id) => {
      const r = byId.get(id);
      return r ? fromRow(r) : undefined;
    },
    claimNext() {
      const next = oldestQueued.get();
      if (!next) return undefined;
      const r = claim.get(isoNow(clock), next.id);
      return r ? fromRow(r) : undefined;
    },
    markPrinted: (id) => transition(id, 'printing', 'printed', null, isoNow(clock)),
    markFailed: (id, error, { retry }) => transition(id, 'printing', retry ? 'queued' : 'failed', error, null),
    cancelQueued: (id) => transition(id, 'queued', 'failed', 'Cancelled by the packer', null),
    failInterrupted() {
      return db.prepare("UPDATE slip_jobs SET state = 'failed', last_error = 'Interrupted while printing: check the slip, reprint if it did not come out', updated_at = ? WHERE state = 'printing'").run(isoNow(clock)).changes;
    },
    list({ orderId, limit = 100 } = {}) {
      const rows =
        orderId === undefined
          ? db.prepare<[number], Row>('SELECT * FROM slip_jobs ORDER BY id DESC LIMIT ?').all(limit)
          : db.prepare<[number, number], Row>('SELECT * FROM slip_jobs WHERE order_id = ? ORDER BY id DESC LIMIT ?').all(orderId, limit);
      return rows.map(fromRow);
    },
  };
}
