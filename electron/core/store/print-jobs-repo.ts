/**
 * Print jobs (table `print_jobs`), DESIGN.md "Print jobs are rows too": a
 * printer that is off, out of paper or open keeps its jobs until it comes
 * back, and nothing is printed twice without the packer asking.
 *
 * States: `queued` -> `printing` (claimed by the job runner,
 * electron/core/printing/jobs/service.ts) -> `printed`, or back to `queued`
 * (nothing reached the printer: it was off, out of paper, open; the runner
 * sends it again by itself, in order) or `failed` (part of it may have
 * printed; the packer reprints) or `held` (issue 36: the label is longer than
 * the stock loaded and would print with its barcodes under 90 % of their
 * module; it waits for the packer, and goes back to `queued` when the printer's
 * profile or the printer changes, or when the packer says to print it shrunk
 * anyway). `last_error` of a queued or held job says why it waits. A job found `printing` at start-up may or may not have
 * reached the printer, so {@link PrintJobsRepo.failInterrupted} fails it rather
 * than printing it again.
 */
import type Database from 'better-sqlite3';
import { coreText, isStationText } from '../../../shared/contract/core-text';
import type { StationText } from '../../../shared/contract/views';
import { StoreError } from './errors';
import { isoNow, type Clock } from './sql';

/** State of a print job. */
type PrintJobState = 'queued' | 'printing' | 'printed' | 'failed' | 'held';
/**
 * Why a job failed or waits: the English note, or the note with its core text (issue 25:
 * shared/contract/core-text.ts) so a screen says it in the bench's language. A note with a text is
 * kept in `last_error` as JSON `{"message": …, "text": {key, values}}` (no new column); a plain note
 * as it is, and rows written before read back as plain notes.
 */
type JobNote = string | { message: string; text: StationText };

const NOTE_PREFIX = '{"message":';

/** `last_error` as stored for `note`. */
function encodeNote(note: JobNote): string {
  return typeof note === 'string' ? note : JSON.stringify({ message: note.message, text: note.text });
}

/** `last_error` read back: the English note and, when stored with one, its core text. */
function decodeNote(stored: string | null): { lastError: string | null; lastErrorText?: StationText } {
  if (stored === null || !stored.startsWith(NOTE_PREFIX)) return { lastError: stored };
  try {
    const v = JSON.parse(stored) as { message?: unknown; text?: unknown };
    if (typeof v.message === 'string' && isStationText(v.text)) return { lastError: v.message, lastErrorText: v.text };
  } catch {
    // not an envelope: a note that happens to start like one
  }
  return { lastError: stored };
}

/** `auto`: printed right after shipping; `reprint`: the packer asked again. */
export type PrintRequester = 'auto' | 'reprint';

/**
 * A print job. `printerUri` is the CUPS-style device URI (`socket://host:9100`,
 * `usb://...`, `file:///dir`); `pinned` jobs print there whatever the label
 * printer in use (a shipping rule named that printer, migration 12), the others
 * follow the printer in use; `attempts` counts claims; `bytesWritten` is what
 * the last attempt wrote to the device.
 */
export interface PrintJobRecord {
  id: number;
  labelId: number;
  /** Tracking number (LDV) of the label's shipment. */
  trackingNumber: string;
  printerUri: string;
  pinned: boolean;
  state: PrintJobState;
  attempts: number;
  lastError: string | null;
  /** `lastError` as a core text, when the station worded it (see {@link JobNote}). */
  lastErrorText?: StationText;
  bytesWritten: number;
  requestedBy: PrintRequester;
  /** The packer said to print it shrunk though it is too long for the stock (migration 18). */
  shrinkAllowed: boolean;
  /** Device URI a shipping rule sends this label to when it is longer than the stock of the printer it would print on; null when none (migration 18). */
  longLabelPrinterUri: string | null;
  createdAt: string;
  printedAt: string | null;
  updatedAt: string;
}

/** Where a new job prints: `pinned` (default false) as in {@link PrintJobsRepo.enqueue}; `longLabelPrinterUri` as in {@link PrintJobRecord}. */
interface PrintJobTarget {
  pinned?: boolean;
  longLabelPrinterUri?: string | null;
}

/** Repository of print jobs. */
export interface PrintJobsRepo {
  /**
   * Queues a label for a printer. Only one `auto` job may exist per label (the
   * label is printed once on its own; anything more is a `reprint`).
   * `pinned` (default false): the job prints on `printerUri` even when the printer in use changes.
   * @throws StoreError `conflict` for a second `auto` job; SQLite FOREIGN KEY error for an unknown label id.
   */
  enqueue(input: { labelId: number; printerUri: string; requestedBy: PrintRequester } & PrintJobTarget): PrintJobRecord;
  /**
   * The label's `auto` job, created `queued` for `printerUri` when it has none
   * (issue 7: called in the transaction that records the shipment, so a
   * shipment with a label always has its job). `created` says which. `pinned`
   * as in {@link PrintJobsRepo.enqueue}.
   * @throws SQLite FOREIGN KEY error for an unknown label id.
   */
  ensureAuto(labelId: number, printerUri: string, target?: PrintJobTarget): { job: PrintJobRecord; created: boolean };
  /**
   * The newest ZPL label of every shipment created since `since` (ISO), not
   * cancelled and not in a manifest, whose labels have no print job at all:
   * what a crash between recording a shipment and creating its job (before
   * jobs were created in the same transaction) left unprinted. Oldest first.
   */
  labelsWithoutJob(since: string): Array<{ labelId: number; trackingNumber: string }>;
  get(id: number): PrintJobRecord | undefined;
  /** Oldest `queued` job (of `printerUri` when given), moved to `printing` with `attempts + 1`; undefined when none. */
  claimNext(printerUri?: string): PrintJobRecord | undefined;
  /** Claims a specific queued job (print-now path). @throws StoreError `not_found`, `invalid_state` if not queued. */
  claim(id: number): PrintJobRecord;
  /**
   * `printing` -> `printed`; `note` (default none) stays on the printed job: how it printed when the packer
   * should know (printed shrunk at the packer's word, text past the stock's end left off; issue 36).
   * @throws StoreError `invalid_state` if the job is not printing.
   */
  markPrinted(id: number, bytesWritten: number, note?: JobNote): PrintJobRecord;
  /**
   * `printing` -> `held` with why (issue 36: too long for the stock); nothing was sent, so the claim is not
   * counted in `attempts`. @throws StoreError `invalid_state` if the job is not printing.
   */
  hold(id: number, note: JobNote): PrintJobRecord;
  /**
   * `printing` -> `queued`, pinned to `printerUri`: the printer a shipping rule names for this label when it is
   * longer than the stock (issue 36), with the note saying so; the claim is not counted in `attempts`.
   * @throws StoreError `invalid_state` if not printing.
   */
  redirect(id: number, printerUri: string, note: JobNote): PrintJobRecord;
  /** `held` -> `queued` with `shrinkAllowed` (the packer's word: print it shrunk anyway). @throws StoreError `not_found`, `invalid_state` if not held. */
  allowShrunk(id: number): PrintJobRecord;
  /**
   * Held jobs back to `queued`, to be tried again (their printer's profile or the printer in use changed):
   * those whose `printer_uri` is `printerUri`, and with `unpinned` every unpinned one. Returns the jobs released.
   */
  releaseHeld(opts: { printerUri?: string; unpinned?: boolean }): PrintJobRecord[];
  /**
   * `printing` -> `queued` when `retry` (printer not ready; the job waits) or `failed`.
   * @throws StoreError `invalid_state` if the job is not printing.
   */
  markFailed(id: number, error: JobNote, opts: { retry: boolean; bytesWritten?: number }): PrintJobRecord;
  /** Cancels a job still waiting or held: `queued`/`held` -> `failed` with `error`. @throws StoreError `invalid_state`. */
  cancelQueued(id: number, error?: string): PrintJobRecord;
  /** At start-up: every `printing` job -> `failed` ("interrupted"), never reprinted on its own. Returns the count. */
  failInterrupted(): number;
  /** Newest first; filters by state(s) and printer. `limit` default 100. */
  list(opts?: { state?: PrintJobState | readonly PrintJobState[]; printerUri?: string; limit?: number }): PrintJobRecord[];
  /** Jobs of one shipment's labels, oldest first. */
  listForShipment(trackingNumber: string): PrintJobRecord[];
  /** {@link PrintJobsRepo.listForShipment} of each of `trackingNumbers`, in one query (lists of shipments). */
  listForShipments(trackingNumbers: readonly string[]): Map<string, PrintJobRecord[]>;
  /**
   * Oldest `queued` job of any printer (the job runner prints in this order), leaving out
   * pinned jobs of the printers in `skipPinned` (printers found not ready this round) and,
   * with `pinnedOnly`, every unpinned job (the printer in use is not ready); undefined when none.
   */
  nextQueued(opts?: { skipPinned?: readonly string[]; pinnedOnly?: boolean }): PrintJobRecord | undefined;
  /**
   * Claims a queued job for `printerUri` (`queued` -> `printing`, attempts + 1):
   * waiting jobs follow the printer in use when the packer switches printers; a pinned job keeps its own.
   * @throws StoreError `not_found`, `invalid_state` if not queued.
   */
  claimFor(id: number, printerUri: string): PrintJobRecord;
  /**
   * Sets why `queued` jobs wait (e.g. "Printer out of paper"): every unpinned one, or with `pinnedTo`
   * only the jobs pinned to that printer. Returns the jobs changed.
   */
  setWaiting(reason: JobNote, pinnedTo?: string): PrintJobRecord[];
  /** A `printing` job's note while the printer holds it (e.g. "In the printer, waiting: out of paper"). @throws StoreError `invalid_state`. */
  notePrinting(id: number, note: JobNote): PrintJobRecord;
  /** The job of a label that is still `queued`, `printing` or `held`, if any (oldest). */
  openForLabel(labelId: number): PrintJobRecord | undefined;
  /** The label's `auto` job, whatever its state. */
  autoForLabel(labelId: number): PrintJobRecord | undefined;
}

interface PrintJobRow {
  id: number;
  label_id: number;
  tracking_number: string;
  printer_uri: string;
  pinned: number;
  state: PrintJobState;
  attempts: number;
  last_error: string | null;
  bytes_written: number;
  requested_by: PrintRequester;
  shrink_allowed: number;
  long_label_printer_uri: string | null;
  created_at: string;
  printed_at: string | null;
  updated_at: string;
}

function printJobFromRow(r: PrintJobRow): PrintJobRecord {
  return {
    id: r.id,
    labelId: r.label_id,
    trackingNumber: r.tracking_number,
    printerUri: r.printer_uri,
    pinned: r.pinned === 1,
    state: r.state,
    attempts: r.attempts,
    ...decodeNote(r.last_error),
    bytesWritten: r.bytes_written,
    requestedBy: r.requested_by,
    shrinkAllowed: r.shrink_allowed === 1,
    longLabelPrinterUri: r.long_label_printer_uri,
    createdAt: r.created_at,
    printedAt: r.printed_at,
    updatedAt: r.updated_at,
  };
}

/** Builds the print-jobs repository on an open database. */
export function createPrintJobsRepo(db: Database.Database, clock: Clock): PrintJobsRepo {
  const SELECT = `SELECT j.id, j.label_id, l.tracking_number, j.printer_uri, j.pinned, j.state, j.attempts, j.last_error,
    j.bytes_written, j.requested_by, j.shrink_allowed, j.long_label_printer_uri, j.created_at, j.printed_at, j.updated_at
    FROM print_jobs j JOIN labels l ON l.id = j.label_id`;
  const byId = db.prepare<[number], PrintJobRow>(`${SELECT} WHERE j.id = ?`);
  const insert = db.prepare<[number, string, number, string | null, PrintRequester, string, string], never>(
    `INSERT INTO print_jobs (label_id, printer_uri, pinned, long_label_printer_uri, state, requested_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'queued', ?, ?, ?)`,
  );
  const nextQueued = db.prepare<{ uri: string | null }, { id: number }>(
    `SELECT id FROM print_jobs WHERE state = 'queued' AND (@uri IS NULL OR printer_uri = @uri) ORDER BY id LIMIT 1`,
  );
  const toPrinting = db.prepare<[string, number], never>(
    `UPDATE print_jobs SET state = 'printing', attempts = attempts + 1, updated_at = ? WHERE id = ? AND state = 'queued'`,
  );
  const toPrinted = db.prepare<[number, string | null, string, string, number], never>(
    `UPDATE print_jobs SET state = 'printed', bytes_written = ?, last_error = ?, printed_at = ?, updated_at = ?
     WHERE id = ? AND state = 'printing'`,
  );
  const toHeld = db.prepare<[string, string, number], never>(`UPDATE print_jobs SET state = 'held', attempts = attempts - 1, last_error = ?, updated_at = ? WHERE id = ? AND state = 'printing'`);
  const toRedirected = db.prepare<[string, string, string, number], never>(
    `UPDATE print_jobs SET state = 'queued', printer_uri = ?, pinned = 1, attempts = attempts - 1, last_error = ?, updated_at = ? WHERE id = ? AND state = 'printing'`,
  );
  const toShrinkAllowed = db.prepare<[string, number], never>(
    `UPDATE print_jobs SET state = 'queued', shrink_allowed = 1, last_error = NULL, updated_at = ? WHERE id = ? AND state = 'held'`,
  );
  const heldIds = db.prepare<{ uri: string | null; unpinned: number }, { id: number }>(
    `SELECT id FROM print_jobs WHERE state = 'held' AND (printer_uri = @uri OR (@unpinned = 1 AND pinned = 0)) ORDER BY id`,
  );
  const heldToQueued = db.prepare<[string, number], never>(`UPDATE print_jobs SET state = 'queued', last_error = NULL, updated_at = ? WHERE id = ? AND state = 'held'`);
  const toFailedOrQueued = db.prepare<[PrintJobState, string, number | null, string, number], never>(
    `UPDATE print_jobs SET state = ?, last_error = ?, bytes_written = COALESCE(?, bytes_written), updated_at = ?
     WHERE id = ? AND state = 'printing'`,
  );
  const cancel = db.prepare<[string, string, number], never>(
    `UPDATE print_jobs SET state = 'failed', last_error = ?, updated_at = ? WHERE id = ? AND state IN ('queued', 'held')`,
  );
  const interrupted = db.prepare<[string, string], never>(
    `UPDATE print_jobs SET state = 'failed', last_error = ?, updated_at = ? WHERE state = 'printing'`,
  );
  const autoExists = db.prepare<[number], { id: number }>(
    `SELECT id FROM print_jobs WHERE label_id = ? AND requested_by = 'auto' LIMIT 1`,
  );
  const withoutJob = db.prepare<[string], { labelId: number; trackingNumber: string }>(
    `SELECT max(l.id) AS labelId, l.tracking_number AS trackingNumber
     FROM labels l JOIN shipments s ON s.tracking_number = l.tracking_number
     WHERE l.format = 'ZPL' AND s.cancelled_at IS NULL AND s.manifest_id IS NULL AND s.created_at >= ?
       AND NOT EXISTS (SELECT 1 FROM print_jobs j JOIN labels l2 ON l2.id = j.label_id WHERE l2.tracking_number = l.tracking_number)
     GROUP BY l.tracking_number ORDER BY min(l.id)`,
  );
  const forShipment = db.prepare<[string], PrintJobRow>(`${SELECT} WHERE l.tracking_number = ? ORDER BY j.id`);
  const forShipments = db.prepare<[string], PrintJobRow>(`${SELECT} WHERE l.tracking_number IN (SELECT value FROM json_each(?)) ORDER BY j.id`);
  const oldestQueued = db.prepare<{ skip: string; pinnedOnly: number }, PrintJobRow>(
    `${SELECT} WHERE j.state = 'queued' AND (@pinnedOnly = 0 OR j.pinned = 1)
       AND NOT (j.pinned = 1 AND j.printer_uri IN (SELECT value FROM json_each(@skip))) ORDER BY j.id LIMIT 1`,
  );
  const toPrintingFor = db.prepare<[string, string, number], never>(
    `UPDATE print_jobs SET state = 'printing', attempts = attempts + 1, printer_uri = CASE WHEN pinned = 1 THEN printer_uri ELSE ? END, updated_at = ?
     WHERE id = ? AND state = 'queued'`,
  );
  const queuedIdsDiffering = db.prepare<{ reason: string; pinnedTo: string | null }, { id: number }>(
    `SELECT id FROM print_jobs WHERE state = 'queued' AND (last_error IS NULL OR last_error <> @reason)
       AND (CASE WHEN @pinnedTo IS NULL THEN pinned = 0 ELSE pinned = 1 AND printer_uri = @pinnedTo END) ORDER BY id`,
  );
  const setReason = db.prepare<[string, string, number], never>(`UPDATE print_jobs SET last_error = ?, updated_at = ? WHERE id = ? AND state = 'queued'`);
  const noteRow = db.prepare<[string, string, number], never>(`UPDATE print_jobs SET last_error = ?, updated_at = ? WHERE id = ? AND state = 'printing'`);
  const openOfLabel = db.prepare<[number], PrintJobRow>(`${SELECT} WHERE j.label_id = ? AND j.state IN ('queued', 'printing', 'held') ORDER BY j.id LIMIT 1`);
  const autoOfLabel = db.prepare<[number], PrintJobRow>(`${SELECT} WHERE j.label_id = ? AND j.requested_by = 'auto' ORDER BY j.id LIMIT 1`);

  const get = (id: number) => {
    const r = byId.get(id);
    return r ? printJobFromRow(r) : undefined;
  };
  /** Re-reads after a guarded UPDATE; explains why nothing changed. */
  const after = (id: number, changes: number, expected: PrintJobState | 'queued or held'): PrintJobRecord => {
    const job = get(id);
    if (!job) throw new StoreError('not_found', `Print job ${id} not found`);
    if (changes === 0) throw new StoreError('invalid_state', `Print job ${id} is ${job.state}, not ${expected}`);
    return job;
  };

  const claim = (id: number) => after(id, toPrinting.run(isoNow(clock), id).changes, 'queued');

  return {
    enqueue: db.transaction((input: { labelId: number; printerUri: string; requestedBy: PrintRequester } & PrintJobTarget) => {
      if (input.requestedBy === 'auto' && autoExists.get(input.labelId)) {
        throw new StoreError('conflict', `Label ${input.labelId} was already sent to print; use a reprint`, {
          requestedBy: ['already printed automatically; ask for a reprint'],
        });
      }
      const now = isoNow(clock);
      const res = insert.run(input.labelId, input.printerUri, input.pinned ? 1 : 0, input.longLabelPrinterUri ?? null, input.requestedBy, now, now);
      return after(Number(res.lastInsertRowid), 1, 'queued');
    }),
    ensureAuto: db.transaction((labelId: number, printerUri: string, target: PrintJobTarget = {}) => {
      const existing = autoExists.get(labelId);
      if (existing) return { job: after(existing.id, 1, 'queued'), created: false };
      const now = isoNow(clock);
      const res = insert.run(labelId, printerUri, target.pinned ? 1 : 0, target.longLabelPrinterUri ?? null, 'auto', now, now);
      return { job: after(Number(res.lastInsertRowid), 1, 'queued'), created: true };
    }),
    labelsWithoutJob: (since) => withoutJob.all(since),
    get,
    claimNext: db.transaction((printerUri?: string): PrintJobRecord | undefined => {
      const next = nextQueued.get({ uri: printerUri ?? null });
      return next ? claim(next.id) : undefined;
    }),
    claim,
    markPrinted(id, bytesWritten, note) {
      const now = isoNow(clock);
      return after(id, toPrinted.run(bytesWritten, note === undefined ? null : encodeNote(note), now, now, id).changes, 'printing');
    },
    hold(id, note) {
      return after(id, toHeld.run(encodeNote(note), isoNow(clock), id).changes, 'printing');
    },
    redirect(id, printerUri, note) {
      return after(id, toRedirected.run(printerUri, encodeNote(note), isoNow(clock), id).changes, 'printing');
    },
    allowShrunk(id) {
      return after(id, toShrinkAllowed.run(isoNow(clock), id).changes, 'held');
    },
    releaseHeld: db.transaction((opts: { printerUri?: string; unpinned?: boolean }): PrintJobRecord[] => {
      const now = isoNow(clock);
      return heldIds.all({ uri: opts.printerUri ?? null, unpinned: opts.unpinned ? 1 : 0 }).map(({ id }) => after(id, heldToQueued.run(now, id).changes, 'held'));
    }),
    markFailed(id, error, opts) {
      const res = toFailedOrQueued.run(opts.retry ? 'queued' : 'failed', encodeNote(error), opts.bytesWritten ?? null, isoNow(clock), id);
      return after(id, res.changes, 'printing');
    },
    cancelQueued(id, error = 'cancelled') {
      return after(id, cancel.run(error, isoNow(clock), id).changes, 'queued or held');
    },
    failInterrupted() {
      const { message, text } = coreText('jobInterrupted');
      return interrupted.run(encodeNote({ message, text }), isoNow(clock)).changes;
    },
    list(opts = {}) {
      const states = opts.state === undefined ? null : typeof opts.state === 'string' ? [opts.state] : opts.state;
      const clauses: string[] = [];
      const params: Record<string, unknown> = { limit: Math.max(1, Math.min(1000, Math.floor(opts.limit ?? 100))) };
      if (states) {
        if (states.length === 0) return [];
        clauses.push(`j.state IN (${states.map((_, i) => `@s${i}`).join(', ')})`);
        states.forEach((s, i) => (params[`s${i}`] = s));
      }
      if (opts.printerUri !== undefined) {
        clauses.push('j.printer_uri = @uri');
        params.uri = opts.printerUri;
      }
      const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
      return db
        .prepare<Record<string, unknown>, PrintJobRow>(`${SELECT} ${where} ORDER BY j.id DESC LIMIT @limit`)
        .all(params)
        .map(printJobFromRow);
    },
    listForShipment: (t) => forShipment.all(t).map(printJobFromRow),
    listForShipments(trackingNumbers) {
      const out = new Map<string, PrintJobRecord[]>();
      for (const r of forShipments.all(JSON.stringify(trackingNumbers))) {
        const job = printJobFromRow(r);
        const list = out.get(job.trackingNumber);
        if (list) list.push(job);
        else out.set(job.trackingNumber, [job]);
      }
      return out;
    },
    nextQueued(opts = {}) {
      const r = oldestQueued.get({ skip: JSON.stringify(opts.skipPinned ?? []), pinnedOnly: opts.pinnedOnly ? 1 : 0 });
      return r ? printJobFromRow(r) : undefined;
    },
    claimFor(id, printerUri) {
      return after(id, toPrintingFor.run(printerUri, isoNow(clock), id).changes, 'queued');
    },
    setWaiting: db.transaction((reason: JobNote, pinnedTo?: string): PrintJobRecord[] => {
      const now = isoNow(clock);
      const stored = encodeNote(reason);
      return queuedIdsDiffering.all({ reason: stored, pinnedTo: pinnedTo ?? null }).map(({ id }) => after(id, setReason.run(stored, now, id).changes, 'queued'));
    }),
    notePrinting(id, note) {
      return after(id, noteRow.run(encodeNote(note), isoNow(clock), id).changes, 'printing');
    },
    openForLabel(labelId) {
      const r = openOfLabel.get(labelId);
      return r ? printJobFromRow(r) : undefined;
    },
    autoForLabel(labelId) {
      const r = autoOfLabel.get(labelId);
      return r ? printJobFromRow(r) : undefined;
    },
  };
}
