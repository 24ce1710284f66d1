/**
 * The outbox worker (DESIGN.md "Offline and exactly-once"). Handlers write a
 * local record and its outbox row in one transaction, then ask the worker to
 * send the row and await the outcome; rows that could not be sent (offline,
 * timeout, 429, 5xx) stay queued and are sent again in the background.
 *
 * Rules:
 * - Rows are sent one at a time, oldest first, so the platform sees requests
 *   in the order the packer made them.
 * - Transient failure (no answer, 429, 5xx, or a 2xx body that cannot be
 *   read): the row goes back to `queued` and the drain stops (the network is
 *   the same for every row); the next drain waits an exponential back-off
 *   (or the server's Retry-After), or runs at once when a handler asks for a
 *   row, or when the connection comes back.
 * - Definitive failure (any other 4xx, or an executor's own refusal): the row
 *   becomes `needs_attention` and the executor cleans up its local record.
 * - A row found `sending` at start-up was interrupted with an unknown outcome:
 *   {@link OutboxWorker.recover} puts it back in the queue with the error
 *   `interrupted`, and its executor reconciles before sending again
 *   (executors see `row.attempts > 1`).
 *
 * Back-off is kept in memory and every queued row is stored as due at once:
 * the store's `claimNext` only takes due rows, and a packer pressing "Ship"
 * again must be able to send a waiting row now.
 */
import type { OutboxError, OutboxKind, OutboxRecord, Store } from '../store';
import { PlatformError } from '../platform/errors';

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

/** Thrown by an executor to give a row up with a message (state `needs_attention`). */
export class OutboxAttention extends Error {
  constructor(
    public readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'OutboxAttention';
  }
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
export interface OutboxWorker {
  /**
   * Sends row `id` now (rows queued before it go first) and resolves with its
   * executor's outcome. Rejects with the platform's error (PlatformError) or
   * an {@link OutboxAttention}; on a transient failure the row stays queued.
   */
  process<O = unknown>(id: number): Promise<O>;
  /** At start-up: rows left `sending` go back to the queue marked `interrupted`. Returns their ids. */
  recover(): number[];
  /** Starts background sending of queued rows (now, then after back-off). */
  start(): void;
  /** Asks for a background drain soon (e.g. the connection came back). */
  kick(): void;
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
    };
  }
  if (e instanceof OutboxAttention) return { code: e.code, message: e.message };
  const code = (e as { code?: unknown } | null)?.code;
  return { code: typeof code === 'string' ? code : 'internal_error', message: e instanceof Error ? e.message : String(e) };
}

/**
 * True when the failure leaves the row queued: no answer, 429, 5xx, or a 2xx
 * whose body did not match the schema (the request may have succeeded).
 */
export function isTransient(e: unknown): boolean {
  if (!(e instanceof PlatformError)) return false;
  return e.isNetwork || e.status === 429 || e.status >= 500 || (e.status >= 200 && e.status < 300);
}

/** The platform call each kind of row makes to create its record (spec: Endpoints). */
const CREATE_ROUTES: Readonly<Partial<Record<OutboxKind, string>>> = {
  'shipment.create': 'POST /shipments',
  'pickup.create': 'POST /pickups',
  'manifest.create': 'POST /manifests',
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

  function settle(id: number, ok: boolean, value: unknown): void {
    const w = waiters.get(id);
    if (!w) return;
    waiters.delete(id);
    if (ok) w.resolve(value);
    else w.reject(value);
  }

  /** Runs one claimed row. Returns the transient error that should stop the drain, if any. */
  async function runRow(row: OutboxRecord): Promise<PlatformError | null> {
    const executor = options.executors[row.kind];
    if (!executor) {
      const err = new OutboxAttention('internal_error', `No sender for outbox rows of kind ${row.kind}`);
      changed(store.outbox.fail(row.id, outboxErrorOf(err)));
      settle(row.id, false, err);
      return null;
    }
    changed(row);
    let sent: unknown;
    try {
      sent = await executor.send(row);
    } catch (e) {
      const error = outboxErrorOf(e);
      if (isTransient(e)) {
        changed(store.outbox.fail(row.id, error, { retryAt: now() }));
        settle(row.id, false, e);
        return e as PlatformError;
      }
      const failed = store.tx(() => {
        const r = store.outbox.fail(row.id, error);
        executor.onAttention?.(row, error);
        return r;
      });
      changed(failed);
      settle(row.id, false, e);
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
      settle(row.id, false, e);
      return null;
    }
    changed(store.outbox.get(row.id));
    try {
      const outcome = executor.after ? await executor.after(row, local) : local;
      settle(row.id, true, outcome);
    } catch (e) {
      // The row is done; a failing side effect must not make it look unsent.
      options.onError?.(e, row);
      settle(row.id, false, e);
    }
    return null;
  }

  /** Sends every due row once, oldest first; stops at the first transient failure. */
  async function drain(): Promise<void> {
    // Only rows already awaited when the drain began are answered by its end;
    // a row enqueued meanwhile gets the next drain.
    const awaited = new Set(waiters.keys());
    let stopError: PlatformError | null = null;
    for (;;) {
      if (stopped) break;
      const row = store.outbox.claimNext({ kinds });
      if (!row) break;
      try {
        stopError = await runRow(row);
      } catch (e) {
        // The store failed while recording the outcome: report it to whoever waits.
        options.onError?.(e, row);
        settle(row.id, false, e);
        break;
      }
      if (stopError) break;
    }
    // Rows that were waited for but not sent in this drain.
    for (const id of [...waiters.keys()]) {
      if (!awaited.has(id)) continue;
      const row = store.outbox.get(id);
      if (row?.state === 'sending') continue; // another drain has it
      if (stopError && row?.state === 'queued') settle(id, false, stopError);
      else if (row?.state === 'needs_attention') settle(id, false, new OutboxAttention(row.lastError?.code ?? 'internal_error', row.lastError?.message ?? 'Needs attention'));
      else if (row?.state === 'done') settle(id, false, new OutboxAttention('invalid_state', `Outbox row ${id} was already sent`));
      else if (!row) settle(id, false, new OutboxAttention('not_found_locally', `Outbox row ${id} not found`));
      else if (stopped) settle(id, false, new OutboxAttention('offline', 'The station is shutting down; the request stays queued'));
    }
    if (stopError) {
      failures++;
      const backoff = Math.min(maxMs, baseMs * 2 ** (failures - 1));
      schedule(Math.max(backoff, stopError.retryAfterMs ?? 0));
    } else {
      failures = 0;
    }
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
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void runDrain();
    }, delayMs);
    timer.unref?.();
  }

  return {
    process<O>(id: number): Promise<O> {
      let w = waiters.get(id);
      if (!w) {
        w = deferred();
        waiters.set(id, w);
      }
      void runDrain();
      return w.promise as Promise<O>;
    },
    recover() {
      const ids: number[] = [];
      for (const row of store.outbox.listSending()) {
        // Unknown outcome: back in the queue, marked so the executor reconciles.
        changed(
          store.outbox.fail(row.id, { code: INTERRUPTED_CODE, message: 'The station stopped while this request was being sent' }, { retryAt: now() }),
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
      if (failures > 0 || (store.outbox.nextDueAt() !== undefined && !timer)) schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await chain;
    },
  };
}
