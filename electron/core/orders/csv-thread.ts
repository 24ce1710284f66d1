/**
 * A large import's parse in a worker thread (./csv-worker.ts), pipelined with
 * the writes on this thread: the worker decodes, parses, builds and hashes
 * orders and sends them in batches; this thread writes each batch in slices
 * of {@link SLICE_MS} ms (one transaction each, the event loop given back in
 * between), and acknowledges a batch once written. At most
 * {@link BATCHES_IN_FLIGHT} batches are unacknowledged, so memory stays
 * bounded however large the file. The SQLite connection stays this thread's:
 * better-sqlite3 is synchronous, and a second writer would make the bench's
 * own writes wait on SQLite's lock.
 *
 * Where the worker's code is: in a bundle (build/bundle.mjs), the entry
 * `csv-worker.mjs` (launcher) or `csv-worker.cjs` (Electron main) next to the
 * bundle's entry; from the sources, ./csv-worker.ts run through tsx.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportIssue } from '../../../shared/domain/order';
import { importStoppedError, ShopifyImportError, type ShopifyImportErrorCode } from './csv-errors';
import type { ParsedShopifyOrder } from './csv-order';
import { SLICE_MS, type ShopifyCsvInput, type ShopifyImportOptions, type ShopifyImportProgress, type ShopifyReadResult } from './csv-read';

/** Replaced at build time by the bundle's name (build/bundle.mjs, electron/entry.ts); undeclared in the sources. */
declare const __STATION_BUNDLE__: string | undefined;

/** Batches of orders sent by the worker and not yet written: the worker waits beyond this. */
const BATCHES_IN_FLIGHT = 3;

/** What the worker is given (`workerData`): the input and the import's options that are plain data. */
export interface WorkerInput {
  input: ShopifyCsvInput;
  options: Pick<ShopifyImportOptions, 'maxErrors' | 'shop' | 'pickupMethods' | 'maxBytes'>;
  /** The import's clock minus the system clock, ms (0 without a clock of its own). */
  clockOffsetMs: number;
  /** Most batches unacknowledged at a time. */
  inFlight: number;
}

/** Worker -> this thread. */
export type WorkerMessage =
  | { kind: 'orders'; orders: readonly ParsedShopifyOrder[] }
  | { kind: 'progress'; progress: ShopifyImportProgress }
  | { kind: 'end'; result: ShopifyReadResult }
  | { kind: 'failed'; importError: { code: ShopifyImportErrorCode; message: string; issues: ImportIssue[] } }
  | { kind: 'failed'; error: { name: string; message: string; stack: string | undefined } };

/** This thread -> worker: one batch is written. */
export type HostMessage = { kind: 'written' };

/** Worker threads of imports alive now (started, not yet exited). */
let alive = 0;

/** How many import worker threads are running in this process (0 once every import has ended). */
export function importWorkersAlive(): number {
  return alive;
}

/** Starts the worker from the bundle's worker entry, or from the TypeScript source through tsx. */
function startWorker(data: WorkerInput): Worker {
  if (typeof __STATION_BUNDLE__ === 'string') {
    // This code is in the bundle's entry file or, in the launcher (code splitting), in chunks/.
    const here = fileURLToPath(import.meta.url);
    let dir = path.dirname(here);
    if (path.basename(dir) === 'chunks') dir = path.dirname(dir);
    return new Worker(path.join(dir, `csv-worker${path.extname(here)}`), { workerData: data });
  }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return new Worker(new URL('./csv-worker.ts', import.meta.url), { workerData: data, execArgv: ['--import', tsx] });
}

/** The error the worker reported, rebuilt on this thread (a ShopifyImportError keeps its class and fields). */
function errorOf(m: Extract<WorkerMessage, { kind: 'failed' }>): Error {
  if ('importError' in m) return new ShopifyImportError(m.importError.code, m.importError.message, m.importError.issues);
  const e = new Error(m.error.message);
  e.name = m.error.name;
  if (m.error.stack) e.stack = m.error.stack;
  return e;
}

/**
 * Reads `input` in a worker thread and hands its orders to `write` on this
 * thread, one slice at a time (`write` takes what fits in `budgetMs` from the
 * front of `ready` and says how many it took), as the in-thread reader does.
 * `opts.onProgress` is called with the worker's reports, and with `done` once
 * every order is written.
 *
 * @returns the lists and counts the in-thread reader returns.
 * @throws ShopifyImportError as the in-thread reader (before `write` is called);
 *   what `write` throws (the worker is ended first); Error when `opts.signal`
 *   is aborted (the station closing) or the worker dies. The worker has
 *   exited whenever the promise settles.
 */
export function readInWorker(
  input: ShopifyCsvInput,
  opts: ShopifyImportOptions,
  write: (ready: readonly ParsedShopifyOrder[], budgetMs: number) => number,
): Promise<ShopifyReadResult> {
  const { signal } = opts;
  if (signal?.aborted) return Promise.reject(importStoppedError());
  const clockOffsetMs = opts.now ? opts.now().getTime() - Date.now() : 0;
  const options: WorkerInput['options'] = {
    ...(opts.maxErrors !== undefined ? { maxErrors: opts.maxErrors } : {}),
    ...(opts.shop !== undefined ? { shop: opts.shop } : {}),
    ...(opts.pickupMethods !== undefined ? { pickupMethods: opts.pickupMethods } : {}),
    ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
  };
  return new Promise<ShopifyReadResult>((resolve, reject) => {
    const worker = startWorker({ input, options, clockOffsetMs, inFlight: BATCHES_IN_FLIGHT });
    alive++;
    const exited = new Promise<void>((r) => worker.once('exit', () => r()));
    void exited.then(() => alive--);
    const queue: ParsedShopifyOrder[][] = [];
    let result: ShopifyReadResult | undefined;
    let lastProgress: ShopifyImportProgress | undefined;
    let scheduled = false;
    let settled = false;

    const settle = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate().catch(() => undefined);
      // Settled once the thread is gone: no import leaves a thread running.
      void exited.then(() => (error ? reject(error) : resolve(result!)));
    };
    const onAbort = () => settle(importStoppedError());
    signal?.addEventListener('abort', onAbort, { once: true });

    /** One slice of writes, then the event loop's turn. */
    const pump = () => {
      scheduled = false;
      if (settled) return;
      const batch = queue[0];
      if (!batch) {
        if (result) {
          if (lastProgress && opts.onProgress) opts.onProgress(lastProgress);
          settle(undefined);
        }
        return;
      }
      try {
        batch.splice(0, write(batch, SLICE_MS));
      } catch (e) {
        settle(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      if (batch.length === 0) {
        queue.shift();
        worker.postMessage({ kind: 'written' } satisfies HostMessage);
      }
      schedule();
    };
    const schedule = () => {
      if (scheduled || settled || (queue.length === 0 && !result)) return;
      scheduled = true;
      setImmediate(pump);
    };

    worker.on('message', (m: WorkerMessage) => {
      if (settled) return;
      switch (m.kind) {
        case 'orders':
          queue.push(m.orders as ParsedShopifyOrder[]);
          schedule();
          break;
        case 'progress':
          if (m.progress.done) lastProgress = m.progress;
          else {
            try {
              opts.onProgress?.(m.progress);
            } catch (e) {
              settle(e instanceof Error ? e : new Error(String(e)));
            }
          }
          break;
        case 'end':
          result = m.result;
          schedule();
          break;
        case 'failed':
          settle(errorOf(m));
          break;
      }
    });
    worker.on('error', (e) => settle(e));
    worker.on('exit', (code) => settle(new Error(`The import's reader thread stopped (exit code ${code}) before the end of the file`)));
  });
}
