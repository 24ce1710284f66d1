/**
 * The outbox (table `outbox`), DESIGN.md "Offline and exactly-once": every
 * platform call that creates something or costs money is written here first,
 * in the same transaction as its local record (`store.tx`), then sent by a
 * worker. States:
 *
 *   queued --claimNext--> sending --complete--> done
 *                            |--fail(retryAt)--> queued (due again at retryAt)
 *                            '--fail()--------> needs_attention --retry--> queued
 *                                                       '--dismiss--> done
 *
 * A row found `sending` after a crash has an UNKNOWN outcome: the worker must
 * reconcile it (for shipments: GET /shipments?reference=...) before sending it
 * again ({@link OutboxRepo.listSending}, {@link OutboxRepo.requeueSending}).
 */
import type Database from 'better-sqlite3';
import type { OutboxKind, OutboxState } from '../../../shared/contract/views';
import type { FieldErrors } from '../../../shared/platform/common';
import { StoreError } from './errors';
import { fromJson, isoNow, nul, toJson, type Clock } from './sql';
import { isStationText } from '../../../shared/contract/core-text';
import type { StationText } from '../../../shared/contract/views';

/** Row kinds (`shipment.create`, `pickup.create`, ...) and states are the contract's own (shared/contract/views.ts). */
export type { OutboxKind,  };

/** Every {@link OutboxKind}, for validation. */
const OUTBOX_KINDS: readonly OutboxKind[] = [
  'shipment.create',
  'shipment.cancel',
  'pickup.create',
  'manifest.create',
  'orders.submit',
  'stock.instruct',
];

/**
 * Last failure of a row, in the station's error shape `{code, message, details?}`,
 * plus `status`: the HTTP status of the platform's answer when it answered with
 * an error (e.g. 422, 402); absent when no answer arrived (offline, timeout) or
 * the failure was the station's own; and `route`, the call that failed.
 */
export interface OutboxError {
  code: string;
  message: string;
  details?: FieldErrors;
  status?: number;
  /** The platform call that failed, `METHOD path-template` (`POST /shipments`, `GET /shipments`), when known. */
  route?: string;
  /** The message as a core text (shared/contract/core-text.ts) when the station worded it (issue 25). */
  text?: StationText;
}

/**
 * An outbox row.
 * - `payload`: the request to send (JSON);
 * - `attempts`: how many times the row was claimed for sending (a crash mid-send counts);
 * - `result`: what the platform answered, once `done`;
 * - `localRef`: the local record it belongs to, e.g. `shipment:12` or `pickup:3`;
 * - `nextAttemptAt`: ISO time before which a queued row is not claimed (back-off), or null;
 * - `postedAt`: ISO time the row's last create call was sent and has had no
 *   answer yet (it may still be processed by the platform); null once an
 *   answer arrived or the packer confirmed sending again (shipping/shipment-executor.ts).
 */
export interface OutboxRecord<P = unknown> {
  id: number;
  kind: OutboxKind;
  payload: P;
  state: OutboxState;
  attempts: number;
  lastError: OutboxError | null;
  result: unknown;
  localRef: string | null;
  nextAttemptAt: string | null;
  postedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Repository of the outbox. */
export interface OutboxRepo {
  /**
   * Adds a `queued` row. Call it inside `store.tx` with the write of the local record
   * so both exist or neither does. @throws StoreError `invalid_input` for an unknown kind
   * or a payload with no JSON form.
   */
  enqueue<P>(input: { kind: OutboxKind; payload: P; localRef?: string }): OutboxRecord<P>;
  get(id: number): OutboxRecord | undefined;
  /**
   * Atomically takes the oldest due `queued` row (of `kinds` when given): state -> `sending`,
   * `attempts + 1`. Undefined when nothing is due.
   */
  claimNext(opts?: { kinds?: readonly OutboxKind[]; excludeIds?: ReadonlySet<number> }): OutboxRecord | undefined;
  /** A queued row becomes due now (a packer asked for it). No change for a row in another state. */
  makeDue(id: number): void;
  /**
   * Records that the row's create call is being sent now (`at`), or that its
   * last one got an answer (`null`). Written before the request leaves, in
   * its own statement, so a crash mid-call leaves the time behind.
   * @throws StoreError `not_found`.
   */
  markPosted(id: number, at: Date | string | null): OutboxRecord;
  /**
   * The packer asks again for the same local record: a `needs_attention` row
   * goes back to `queued` with the new `payload`, keeping its id, attempts
   * and `postedAt` (one open row per record, issue 7).
   * @throws StoreError `not_found`, `invalid_state`, `invalid_input` (payload with no JSON form).
   */
  requeueWith<P>(id: number, payload: P): OutboxRecord<P>;
  /**
   * The packer confirms sending again a row whose earlier create call got no
   * answer (`needs_attention` -> `queued`, `postedAt` cleared); `payload`,
   * when given, replaces the row's (the shipment row records the confirmation).
   * @throws StoreError `not_found`, `invalid_state`, `invalid_input` (payload with no JSON form).
   */
  confirmResend(id: number, payload?: unknown): OutboxRecord;
  /** `sending` -> `done` with the platform's answer. @throws StoreError `not_found`, `invalid_state`. */
  complete(id: number, result: unknown): OutboxRecord;
  /**
   * `sending` -> `queued` due at `retryAt` (transient failure: offline, 429, 5xx) or, without
   * `retryAt`, -> `needs_attention` (the packer must act: validation error, no credit, ...).
   * @throws StoreError `not_found`, `invalid_state`.
   */
  fail(id: number, error: OutboxError, opts?: { retryAt?: Date | string }): OutboxRecord;
  /** The packer's "try again": `needs_attention` -> `queued`, due now. @throws StoreError `not_found`, `invalid_state`. */
  retry(id: number): OutboxRecord;
  /**
   * Closes a row that needs attention without sending it: `needs_attention` -> `done`
   * with `result` (why: `{dismissed: {...}}`, `{supersededBy}`). `lastError` is kept so
   * the refusal stays visible. Whether the row may be closed (the platform surely did
   * not act on it) is the caller's rule. @throws StoreError `not_found`, `invalid_state`.
   */
  dismiss(id: number, result: unknown): OutboxRecord;
  /** Rows left `sending` (after a crash their outcome is unknown). Oldest first. */
  listSending(): OutboxRecord[];
  /** `sending` -> `queued` after reconciling found nothing was created. @throws StoreError `not_found`, `invalid_state`. */
  requeueSending(id: number): OutboxRecord;
  /** Newest first; `limit` default 100. */
  list(opts?: { states?: readonly OutboxState[]; kind?: OutboxKind; limit?: number }): OutboxRecord[];
  listByLocalRef(localRef: string): OutboxRecord[];
  /** Rows not yet done (queued, sending, needs attention): the header's backlog. */
  countPending(): number;
  /** Rows that need the packer (`needs_attention`): the supervisor's page shows them as refused requests. */
  countAttention(): number;
  /** Earliest time a queued row becomes due (null = one is due now), or undefined when none is queued. */
  nextDueAt(): string | null | undefined;
}

interface OutboxRow {
  id: number;
  kind: OutboxKind;
  payload: string;
  state: OutboxState;
  attempts: number;
  last_error: string | null;
  result: string | null;
  local_ref: string | null;
  next_attempt_at: string | null;
  posted_at: string | null;
  created_at: string;
  updated_at: string;
}

function outboxFromRow(r: OutboxRow): OutboxRecord {
  return {
    id: r.id,
    kind: r.kind,
    payload: fromJson(r.payload),
    state: r.state,
    attempts: r.attempts,
    lastError: fromJson(r.last_error) as OutboxError | null,
    result: fromJson(r.result),
    localRef: r.local_ref,
    nextAttemptAt: r.next_attempt_at,
    postedAt: r.posted_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Builds the outbox repository on an open database. */
export function createOutboxRepo(db: Database.Database, clock: Clock): OutboxRepo {
  const COLS = 'id, kind, payload, state, attempts, last_error, result, local_ref, next_attempt_at, posted_at, created_at, updated_at';
  const byId = db.prepare<[number], OutboxRow>(`SELECT ${COLS} FROM outbox WHERE id = ?`);
  const insert = db.prepare<[OutboxKind, string, string | null, string, string], never>(
    `INSERT INTO outbox (kind, payload, state, local_ref, created_at, updated_at) VALUES (?, ?, 'queued', ?, ?, ?)`,
  );
  const toDone = db.prepare<[string, string, number], never>(
    `UPDATE outbox SET state = 'done', result = ?, last_error = NULL, next_attempt_at = NULL, updated_at = ?
     WHERE id = ? AND state = 'sending'`,
  );
  const toFailed = db.prepare<[OutboxState, string, string | null, string, number], never>(
    `UPDATE outbox SET state = ?, last_error = ?, next_attempt_at = ?, updated_at = ? WHERE id = ? AND state = 'sending'`,
  );
  const toDismissed = db.prepare<[string, string, number], never>(
    `UPDATE outbox SET state = 'done', result = ?, next_attempt_at = NULL, updated_at = ?
     WHERE id = ? AND state = 'needs_attention'`,
  );
  const toQueuedFrom = db.prepare<[string, number, OutboxState], never>(
    `UPDATE outbox SET state = 'queued', next_attempt_at = NULL, updated_at = ? WHERE id = ? AND state = ?`,
  );
  const toDue = db.prepare<[number], never>(`UPDATE outbox SET next_attempt_at = NULL WHERE id = ? AND state = 'queued'`);
  const setPosted = db.prepare<[string | null, number], never>(`UPDATE outbox SET posted_at = ? WHERE id = ?`);
  const toQueuedWith = db.prepare<[string, string, number], never>(
    `UPDATE outbox SET state = 'queued', payload = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ? AND state = 'needs_attention'`,
  );
  const toResend = db.prepare<[string | null, string, number], never>(
    `UPDATE outbox SET state = 'queued', posted_at = NULL, next_attempt_at = NULL, payload = coalesce(?, payload), updated_at = ? WHERE id = ? AND state = 'needs_attention'`,
  );
  const sending = db.prepare<[], OutboxRow>(`SELECT ${COLS} FROM outbox WHERE state = 'sending' ORDER BY id`);
  const byLocalRef = db.prepare<[string], OutboxRow>(`SELECT ${COLS} FROM outbox WHERE local_ref = ? ORDER BY id`);
  const pending = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM outbox WHERE state != 'done'`);
  const attention = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM outbox WHERE state = 'needs_attention'`);
  const nextDue = db.prepare<[], { due: string | null }>(
    `SELECT next_attempt_at AS due FROM outbox WHERE state = 'queued'
     ORDER BY next_attempt_at IS NOT NULL, next_attempt_at LIMIT 1`,
  );

  /** Re-reads after a guarded UPDATE; explains why nothing changed. */
  const after = (id: number, changes: number, expected: OutboxState): OutboxRecord => {
    const r = byId.get(id);
    if (!r) throw new StoreError('not_found', `Outbox row ${id} not found`);
    if (changes === 0) throw new StoreError('invalid_state', `Outbox row ${id} is ${r.state}, not ${expected}`);
    return outboxFromRow(r);
  };

  return {
    enqueue<P>(input: { kind: OutboxKind; payload: P; localRef?: string }): OutboxRecord<P> {
      if (!OUTBOX_KINDS.includes(input.kind)) {
        throw new StoreError('invalid_input', `Unknown outbox kind ${String(input.kind)}`, { kind: ['unknown kind'] });
      }
      const now = isoNow(clock);
      const res = insert.run(input.kind, toJson(input.payload, 'payload'), nul(input.localRef), now, now);
      return after(Number(res.lastInsertRowid), 1, 'queued') as OutboxRecord<P>;
    },
    get(id) {
      const r = byId.get(id);
      return r ? outboxFromRow(r) : undefined;
    },
    claimNext(opts = {}) {
      const kinds = opts.kinds;
      if (kinds && kinds.length === 0) return undefined;
      const params: Record<string, unknown> = { now: isoNow(clock) };
      let kindClause = '';
      if (kinds) {
        kindClause = `AND kind IN (${kinds.map((_, i) => `@k${i}`).join(', ')})`;
        kinds.forEach((k, i) => (params[`k${i}`] = k));
      }
      const excluded = [...(opts.excludeIds ?? [])];
      if (excluded.length) {
        kindClause += ` AND id NOT IN (${excluded.map((_, i) => `@x${i}`).join(', ')})`;
        excluded.forEach((x, i) => (params[`x${i}`] = x));
      }
      // One statement: the pick and the state change cannot be split by another claimer.
      const row = db
        .prepare<Record<string, unknown>, OutboxRow>(
          `UPDATE outbox SET state = 'sending', attempts = attempts + 1, updated_at = @now
           WHERE id = (SELECT id FROM outbox WHERE state = 'queued'
                         AND (next_attempt_at IS NULL OR next_attempt_at <= @now) ${kindClause}
                       ORDER BY id LIMIT 1)
           RETURNING ${COLS}`,
        )
        .get(params);
      return row ? outboxFromRow(row) : undefined;
    },
    makeDue(id) {
      toDue.run(id);
    },
    markPosted(id, at) {
      let iso: string | null = null;
      if (at !== null) {
        const d = new Date(at);
        if (Number.isNaN(d.getTime())) throw new StoreError('invalid_input', 'postedAt is not a date', { postedAt: ['not a date'] });
        iso = d.toISOString();
      }
      const changes = setPosted.run(iso, id).changes;
      const r = byId.get(id);
      if (!r || changes === 0) throw new StoreError('not_found', `Outbox row ${id} not found`);
      return outboxFromRow(r);
    },
    requeueWith<P>(id: number, payload: P): OutboxRecord<P> {
      return after(id, toQueuedWith.run(toJson(payload, 'payload'), isoNow(clock), id).changes, 'needs_attention') as OutboxRecord<P>;
    },
    confirmResend(id, payload) {
      const json = payload === undefined ? null : toJson(payload, 'payload');
      return after(id, toResend.run(json, isoNow(clock), id).changes, 'needs_attention');
    },
    complete(id, result) {
      return after(id, toDone.run(toJson(result ?? null, 'result'), isoNow(clock), id).changes, 'sending');
    },
    fail(id, error, opts = {}) {
      let retryAt: string | null = null;
      if (opts.retryAt !== undefined) {
        // Normalised to UTC ISO text so due times compare as strings.
        const d = new Date(opts.retryAt);
        if (Number.isNaN(d.getTime())) throw new StoreError('invalid_input', 'retryAt is not a date', { retryAt: ['not a date'] });
        retryAt = d.toISOString();
      }
      const next: OutboxState = retryAt === null ? 'needs_attention' : 'queued';
      const errJson = toJson(
        {
          code: error.code,
          message: error.message,
          ...(error.details ? { details: error.details } : {}),
          ...(typeof error.status === 'number' ? { status: error.status } : {}),
          ...(typeof error.route === 'string' ? { route: error.route } : {}),
          ...(isStationText(error.text) ? { text: error.text } : {}),
        },
        'error',
      );
      return after(id, toFailed.run(next, errJson, retryAt, isoNow(clock), id).changes, 'sending');
    },
    retry(id) {
      return after(id, toQueuedFrom.run(isoNow(clock), id, 'needs_attention').changes, 'needs_attention');
    },
    dismiss(id, result) {
      return after(id, toDismissed.run(toJson(result ?? null, 'result'), isoNow(clock), id).changes, 'needs_attention');
    },
    listSending: () => sending.all().map(outboxFromRow),
    requeueSending(id) {
      return after(id, toQueuedFrom.run(isoNow(clock), id, 'sending').changes, 'sending');
    },
    list(opts = {}) {
      const clauses: string[] = [];
      const params: Record<string, unknown> = { limit: Math.max(1, Math.min(1000, Math.floor(opts.limit ?? 100))) };
      if (opts.states) {
        if (opts.states.length === 0) return [];
        clauses.push(`state IN (${opts.states.map((_, i) => `@s${i}`).join(', ')})`);
        opts.states.forEach((s, i) => (params[`s${i}`] = s));
      }
      if (opts.kind) {
        clauses.push('kind = @kind');
        params.kind = opts.kind;
      }
      const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
      return db
        .prepare<Record<string, unknown>, OutboxRow>(`SELECT ${COLS} FROM outbox ${where} ORDER BY id DESC LIMIT @limit`)
        .all(params)
        .map(outboxFromRow);
    },
    listByLocalRef: (ref) => byLocalRef.all(ref).map(outboxFromRow),
    countPending: () => pending.get()?.n ?? 0,
    countAttention: () => attention.get()?.n ?? 0,
    nextDueAt() {
      const r = nextDue.get();
      return r === undefined ? undefined : r.due;
    },
  };
}
