/**
 * The outbox worker (DESIGN.md "Offline and exactly-once"). Handlers write a
 * local record and its outbox row in one transaction, then ask the worker to
 * send the row and await the outcome; rows that could not be sent (offline,
 * timeout, 429, 5xx) stay queued and are sent again in the background.
 *
 * Rules:
 * - Rows are sent one at a time, oldest due first, so the platform sees
 *   requests in the order the packer made them.
 * - What a failure leaves the row in is decided once, in
 *   shared/contract/outbox-outcome.ts (`outboxStateAfterFailure`): no
 *   answer, 429, 5xx or an unreadable 2xx keep it `queued`; any other answer
 *   (or an executor's own refusal, {@link OutboxAttention}) makes it
 *   `needs_attention` and the executor cleans up its local record.
 * - A failure of one request (timeout, 5xx) stays that request's: the row is
 *   due again after a back-off of its own and the drain goes on with the next
 *   row. Only a failure that holds for every request stops the drain: the
 *   platform is not reachable (`offline`), it rate-limits us (429), or two
 *   requests in a row got no answer. The drain then waits a back-off (or the
 *   server's Retry-After), or runs at once when a handler asks for a row, or
 *   when the connection comes back.
 * - An executor may ask to look again later ({@link OutboxWait}: a timed-out
 *   POST /shipments inside its settle window, shipping/shipment-executor.ts): the row
 *   stays queued, due at the time it gives.
 * - Every press gets its own row's outcome (issue 16): the platform's answer
 *   for its row, or, when the drain stopped before reaching it, "queued"
 *   (code `queued`) saying why. The code a press is rejected with is in
 *   `QUEUED_CODES` exactly when its row is queued ({@link pressError}).
 * - A row found `sending` at start-up was interrupted with an unknown outcome:
 *   {@link OutboxWorker.recover} puts it back in the queue with the error
 *   `interrupted`, and its executor reconciles before sending again
 *   (executors see `row.attempts > 1`).
 */
import { outboxStateAfterFailure } from '../../../shared/contract/outbox-outcome';
import type { OutboxError, OutboxKind, OutboxRecord, Store } from '../store';
import { PlatformError, RateWindowFull } from '../platform/errors';
import type { OutboxSender } from '../common/services';
import { hhmmss, OutboxAttention, OutboxQueued, OutboxWait, pressError } from './press-errors';
import { coreText, coreTextNesting } from '../../../shared/contract/core-text';

/**
 * What sending one kind of row means. `P`: payload, `R`: what `send` got from
 * the platform, `L`: what `commit` wrote locally, `O`: the final outcome the
 * awaiting handler receives.
 */
export interface OutboxExecutor<P = unknown, R = unknown, L = unknown, O = unknown> {
  /**
   * Calls the platform. When `row.attempts > 1` an earlier attempt may have
   * reached it: reconcile first (never pay twice). Throws PlatformError on
   * failure, or {@link OutboxAttention} to give up with a message for the packer.
   */
  send(row: OutboxRecord<P>): Promise<R>;
  /** Writes the answer locally; runs in the same transaction that marks the row done. Returns what `after` needs and the row's stored result. */
  commit(row: OutboxRecord<P>, sent: R): { local: L; result: unknown };
  /** After the commit, outside the transaction (printing, events); its value is the outcome. */
  after?(row: OutboxRecord<P>, local: L): Promise<O>;
  /** The row was given up (`needs_attention`); runs in the same transaction. */
  onAttention?(row: OutboxRecord<P>, error: OutboxError): void;
  /**
   * The outcome of a row already `done` (a press that asked for it just after
   * another drain sent it), built from what was stored; without it such a
   * press is told the row was already sent.
   */
  doneOutcome?(row: OutboxRecord<P>): Promise<O>;
}

/** An executor with its types erased, as the worker holds it (rows carry their payload as JSON). */
export type AnyOutboxExecutor = OutboxExecutor<unknown, unknown, unknown, unknown>;

/**
 * Erases an executor's types for the worker's map. Sound because the worker
 * hands each executor only rows of its own kind, whose payload that kind's
 * handler wrote.
 */
export function eraseExecutor<P, R, L, O>(executor: OutboxExecutor<P, R, L, O>): AnyOutboxExecutor {
  return executor as unknown as AnyOutboxExecutor;
}


/** Back-off between background drains after a transient failure, ms. */
export interface OutboxBackoff {
  /** First delay (default 5000). */
  baseMs?: number;
  /** Cap (default 300000 = 5 min). */
  maxMs?: number;
}

/** Options of {@link createOutboxWorker}. */
export interface OutboxWorkerOptions {
  store: Store;
  executors: Partial<Record<OutboxKind, AnyOutboxExecutor>>;
  backoff?: OutboxBackoff;
  /** Clock for the rows' due times; must be the store's clock (default: system clock). */
  now?: () => Date;
  /** Called after a row changed state (for events: pending count, shipments, ...). */
  onRowChange?: (row: OutboxRecord) => void;
  /** Called when a background outcome failed unexpectedly (for logs); never with secrets. */
  onError?: (error: unknown, row?: OutboxRecord) => void;
}

/** The running worker. */
export interface OutboxWorker extends OutboxSender {
  /** At start-up: rows left `sending` go back to the queue marked `interrupted`. Returns their ids. */
  recover(): number[];
  /** Starts background sending of queued rows (now, then after back-off). */
  start(): void;
  /** Stops the timer and waits for the row in flight. */
  stop(): Promise<void>;
}

/** Error code stored on a row found `sending` at start-up. */
export const INTERRUPTED_CODE = 'interrupted';

type Deferred = { resolve: (v: unknown) => void; reject: (e: unknown) => void; promise: Promise<unknown> };

function deferred(): Deferred {
  let resolve!: (v: unknown) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<unknown>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // The handler may never await (background row): avoid unhandled rejections.
  promise.catch(() => undefined);
  return { resolve, reject, promise };
}

/**
 * `{code, message, details?, status?, route?}` of a failure, as stored on the row;
 * `status` is the HTTP status when the platform answered (0 = no answer is left out),
 * `route` the platform call that failed.
 */
function outboxErrorOf(e: unknown): OutboxError {
  if (e instanceof PlatformError) {
    return {
      code: e.code,
      message: e.message,
      ...(e.details ? { details: e.details } : {}),
      ...(e.status > 0 ? { status: e.status } : {}),
      ...(e.route ? { route: e.route } : {}),
      ...(e.text ? { text: e.text } : {}),
    };
  }
  if (e instanceof OutboxAttention) return { code: e.code, message: e.message, ...(e.text ? { text: e.text } : {}) };
  const code = (e as { code?: unknown } | null)?.code;
  return { code: typeof code === 'string' ? code : 'internal_error', message: e instanceof Error ? e.message : String(e) };
}

/**
 * True when the failure leaves the row queued: no answer, 429, 5xx, or a 2xx
 * whose body did not match the schema (the request may have succeeded).
 * The rule itself is shared/contract/outbox-outcome.ts `outboxStateAfterFailure`.
 */
export function isTransient(e: unknown): boolean {
  if (!(e instanceof PlatformError)) return false;
  return outboxStateAfterFailure({ code: e.code, status: e.status }) === 'queued';
}

/** True when a transient failure holds for every request, not just this one: stop the drain. */
function stopsTheDrain(e: PlatformError): boolean {
  return (e.code === 'offline' && e.status === 0) || e.status === 429;
}

/** The platform call each kind of row makes to create its record (spec: Endpoints). */
const CREATE_ROUTES: Readonly<Partial<Record<OutboxKind, string>>> = {
  'shipment.create': 'POST /shipments',
  'pickup.create': 'POST /pickups',
  'manifest.create': 'POST /manifests',
  'stock.instruct': 'POST /stocks/{id}/actions',
  'orders.submit': 'POST /orders',
};

/**
 * True when the row's last attempt ended with the platform refusing the
 * create call itself with a definite 4xx answer (not 408 or 429, which say
 * nothing about the request): the platform did not act on it, so closing the
 * row without sending it cannot lose a shipment, pickup or manifest. False for
 * no answer, 5xx, a refused look-up before the create (an earlier attempt may
 * have gone through), and the station's own refusals (e.g. an ambiguous
 * pickup look-up).
 */
export function isDefiniteRefusal(row: Pick<OutboxRecord, 'kind' | 'lastError'>): boolean {
  const e = row.lastError;
  if (!e || typeof e.status !== 'number') return false;
  if (e.status < 400 || e.status >= 500 || e.status === 408 || e.status === 429) return false;
  const route = CREATE_ROUTES[row.kind];
  return route !== undefined && e.route === route;
}

/** Builds the worker; nothing runs until {@link OutboxWorker.start} or {@link OutboxWorker.process}. */
export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { store } = options;
  const baseMs = options.backoff?.baseMs ?? 5_000;
  const maxMs = options.backoff?.maxMs ?? 300_000;
  const kinds = Object.keys(options.executors) as OutboxKind[];
  const now = options.now ?? (() => new Date());
  const waiters = new Map<number, Deferred>();
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Infinity;
  let started = false;
  let stopped = false;
  let failures = 0;

  const changed = (row: OutboxRecord | undefined) => {
    if (!row) return;
    try {
      options.onRowChange?.(row);
    } catch (e) {
      options.onError?.(e, row);
    }
  };

  function resolveWaiter(id: number, value: unknown): void {
    const w = waiters.get(id);
    if (!w) return;
    waiters.delete(id);
    w.resolve(value);
  }

  /** Rejects the press waiting for row `id` with an error that says what its row became. */
  function rejectWaiter(id: number, e: unknown): void {
    const w = waiters.get(id);
    if (!w) return;
    waiters.delete(id);
    const state = store.outbox.get(id)?.state;
    w.reject(state === 'queued' || state === 'sending' ? pressError('queued', e) : state === 'needs_attention' ? pressError('needs_attention', e) : e);
  }

  /** Back-off of the n-th consecutive failure (n >= 1), ms. */
  const backoff = (n: number) => Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, n - 1)));

  /** Runs one claimed row. Returns the transient error it ended with, if any. */
  async function runRow(row: OutboxRecord): Promise<PlatformError | null> {
    const executor = options.executors[row.kind];
    if (!executor) {
      const err = new OutboxAttention('internal_error', `No sender for outbox rows of kind ${row.kind}`);
      changed(store.outbox.fail(row.id, outboxErrorOf(err)));
      rejectWaiter(row.id, err);
      return null;
    }
    changed(row);
    let sent: unknown;
    try {
      sent = await executor.send(row);
    } catch (e) {
      if (e instanceof OutboxWait) {
        changed(store.outbox.fail(row.id, { code: e.code, message: e.message, ...(e.text ? { text: e.text } : {}) }, { retryAt: e.until }));
        rejectWaiter(row.id, e);
        return null;
      }
      if (e instanceof RateWindowFull) {
        // Not sent: the route's rate window is full. The row waits for its slot, the press is told when, the drain goes on.
        const until = new Date(now().getTime() + (e.retryAfterMs ?? 0));
        const said = coreTextNesting('rateWindowWait', { at: hhmmss(until) }, { reason: e });
        const wait = new OutboxWait(until, said.message, said.text);
        changed(store.outbox.fail(row.id, { code: wait.code, message: wait.message, text: said.text }, { retryAt: until }));
        rejectWaiter(row.id, wait);
        return null;
      }
      const error = outboxErrorOf(e);
      if (isTransient(e)) {
        const pe = e as PlatformError;
        // A request-wide failure: the row is due again with the drain's back-off (the timer);
        // one request's own failure: due again after its own back-off, the drain goes on.
        const delay = stopsTheDrain(pe) ? 0 : Math.max(backoff(row.attempts), pe.retryAfterMs ?? 0);
        changed(store.outbox.fail(row.id, error, { retryAt: new Date(now().getTime() + delay) }));
        rejectWaiter(row.id, e);
        return pe;
      }
      const failed = store.tx(() => {
        const r = store.outbox.fail(row.id, error);
        executor.onAttention?.(row, error);
        return r;
      });
      changed(failed);
      rejectWaiter(row.id, e);
      return null;
    }
    let local: unknown;
    try {
      local = store.tx(() => {
        const { local: l, result } = executor.commit(row, sent);
        store.outbox.complete(row.id, result);
        return l;
      });
    } catch (e) {
      // The platform did it but we could not record it: keep the row queued so the
      // next attempt reconciles (attempts > 1) instead of losing the answer.
      options.onError?.(e, row);
      changed(store.outbox.fail(row.id, outboxErrorOf(e), { retryAt: now() }));
      rejectWaiter(row.id, e);
      return null;
    }
    changed(store.outbox.get(row.id));
    try {
      const outcome = executor.after ? await executor.after(row, local) : local;
      resolveWaiter(row.id, outcome);
    } catch (e) {
      // The row is done; a failing side effect must not make it look unsent.
      options.onError?.(e, row);
      rejectWaiter(row.id, e);
    }
    return null;
  }

  /** Sends every due row once, oldest first; stops at a failure that holds for every request. */
  async function drain(): Promise<void> {
    // Only rows already awaited when the drain began are answered by its end;
    // a row enqueued meanwhile gets the next drain.
    const awaited = new Set(waiters.keys());
    const tried = new Set<number>();
    let stopError: PlatformError | null = null;
    let timeoutsInARow = 0;
    for (;;) {
      if (stopped) break;
      const row = store.outbox.claimNext({ kinds, excludeIds: tried });
      if (!row) break;
      tried.add(row.id);
      let failure: PlatformError | null;
      try {
        failure = await runRow(row);
      } catch (e) {
        // The store failed while recording the outcome: report it to whoever waits.
        options.onError?.(e, row);
        rejectWaiter(row.id, e);
        break;
      }
      if (failure) {
        failures++;
        timeoutsInARow = failure.code === 'timeout' ? timeoutsInARow + 1 : 0;
        if (stopsTheDrain(failure) || timeoutsInARow >= 2) {
          stopError = failure;
          break;
        }
      } else {
        timeoutsInARow = 0;
        if (store.outbox.get(row.id)?.state === 'done') failures = 0;
      }
    }
    // Rows that were waited for but not sent in this drain: each gets its own row's state.
    for (const id of [...waiters.keys()]) {
      if (!awaited.has(id)) continue;
      const row = store.outbox.get(id);
      if (row?.state === 'sending') continue; // another drain has it
      if (row?.state === 'queued') {
        if (stopped) rejectWaiter(id, new OutboxQueued('The station is shutting down; the request stays queued and is sent at the next start'));
        else if (stopError) rejectWaiter(id, new OutboxQueued(`Not sent yet: ${stopReason(stopError)}. This request is queued and sent automatically.`));
        else if (row.lastError) rejectWaiter(id, new OutboxQueued(`${row.lastError.message} [${row.lastError.code}]`));
        else rejectWaiter(id, new OutboxQueued('Queued: sent automatically after the requests before it'));
      } else if (row?.state === 'needs_attention') rejectWaiter(id, new OutboxAttention(row.lastError?.code ?? 'needs_attention', row.lastError?.message ?? 'Needs attention'));
      else if (row?.state === 'done') {
        const executor = options.executors[row.kind];
        if (executor?.doneOutcome) {
          const w = waiters.get(id);
          waiters.delete(id);
          executor.doneOutcome(row).then((v) => w?.resolve(v), (e: unknown) => w?.reject(e));
        } else rejectWaiter(id, new OutboxAttention('invalid_state', `Outbox row ${id} was already sent`));
      }
      else if (!row) rejectWaiter(id, new OutboxAttention('not_found_locally', `Outbox row ${id} not found`));
    }
    if (stopError) {
      schedule(Math.max(backoff(failures), stopError.retryAfterMs ?? 0));
    } else {
      scheduleNextDue();
    }
  }

  function stopReason(e: PlatformError): string {
    if (e.status === 429) return `the platform limits the rate of requests${e.retryAfterMs !== undefined ? ` (retry after ${Math.ceil(e.retryAfterMs / 1000)} s)` : ''}`;
    if (e.code === 'offline') return 'the platform is not reachable';
    return 'the platform did not answer the requests before this one';
  }

  /** Queues a drain behind the current one. */
  function runDrain(): Promise<void> {
    const next = chain.then(drain).catch((e: unknown) => {
      options.onError?.(e);
    });
    chain = next;
    return next;
  }

  function schedule(delayMs: number): void {
    if (!started || stopped) return;
    const at = now().getTime() + delayMs;
    if (timer && timerAt <= at && timerAt >= now().getTime()) return; // an earlier drain is already planned
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = null;
      timerAt = Infinity;
      void runDrain();
    }, Math.max(0, delayMs));
    timer.unref?.();
  }

  /** Plans the next drain for the earliest due row (rows waiting their own back-off or a settle window). */
  function scheduleNextDue(): void {
    const due = store.outbox.nextDueAt();
    if (due === undefined) return;
    schedule(due === null ? 0 : Math.max(0, new Date(due).getTime() - now().getTime()));
  }

  return {
    process<O>(id: number): Promise<O> {
      let w = waiters.get(id);
      if (!w) {
        w = deferred();
        waiters.set(id, w);
      }
      // The packer asked for this row: it is due now, whatever back-off it waited.
      store.outbox.makeDue(id);
      void runDrain();
      return w.promise as Promise<O>;
    },
    recover() {
      const ids: number[] = [];
      for (const row of store.outbox.listSending()) {
        // Unknown outcome: back in the queue, marked so the executor reconciles.
        changed(
          store.outbox.fail(row.id, { code: INTERRUPTED_CODE, ...coreText('outboxInterrupted') }, { retryAt: now() }),
        );
        ids.push(row.id);
      }
      return ids;
    },
    start() {
      if (started || stopped) return;
      started = true;
      schedule(0);
    },
    kick() {
      if (failures > 0) schedule(0);
      else if (!timer) scheduleNextDue();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await chain;
    },
  };
}
