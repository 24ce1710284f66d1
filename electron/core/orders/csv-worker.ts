/**
 * The import's worker thread (started by ./csv-thread.ts): reads one Shopify
 * export with {@link readShopifyCsv} (decode, csv-parse, assemble, build,
 * hash) and sends its orders to the station's thread in batches, which
 * writes them (the SQLite connection is that thread's alone).
 *
 * Messages out ({@link WorkerMessage}): `orders` (a batch, at most
 * {@link WorkerInput.inFlight} unacknowledged at a time: the reader waits for
 * a `written` message before it reads further, so memory stays bounded
 * whatever the file's size), `progress` (as the in-thread reader reports it),
 * then `end` with the lists and counts, or `failed` with the error (a
 * {@link ShopifyImportError}'s code, message and issues, so the station's
 * thread throws the same error). The station's thread ends this thread after
 * `end` or `failed`.
 *
 * An entry of the bundles (build/bundle.mjs `WORKER_ENTRIES`); from the
 * sources it runs through tsx.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { ShopifyImportError } from './csv-errors';
import { readShopifyCsv } from './csv-read';
import type { ParsedShopifyOrder } from './csv-order';
import type { HostMessage, WorkerInput, WorkerMessage } from './csv-thread';

/**
 * Orders in the first batch: small, so that the station's thread starts
 * writing while this thread is still warming up (the batches after it are
 * csv-read.ts `WRITE_BATCH`).
 */
const FIRST_BATCH = 25;

/** Reads the export of `input` and reports to `port` (see the module doc). */
async function run(port: MessagePort, input: WorkerInput): Promise<void> {
  const send = (m: WorkerMessage) => port.postMessage(m);
  let inFlight = 0;
  let wake: (() => void) | undefined;
  port.on('message', (m: HostMessage) => {
    if (m.kind !== 'written') return;
    inFlight--;
    const w = wake;
    wake = undefined;
    w?.();
  });
  const write = (ready: readonly ParsedShopifyOrder[]): number | Promise<number> => {
    const n = ready.length;
    send({ kind: 'orders', orders: ready });
    inFlight++;
    if (inFlight < input.inFlight) return n;
    return new Promise<number>((resolve) => (wake = () => resolve(n)));
  };
  try {
    const result = await readShopifyCsv(
      input.input,
      {
        ...input.options,
        // The station's clock as it runs on (a test's fixed clock stays fixed at its offset).
        now: () => new Date(Date.now() + input.clockOffsetMs),
        onProgress: (progress) => send({ kind: 'progress', progress }),
      },
      write,
      FIRST_BATCH,
    );
    send({ kind: 'end', result });
  } catch (e) {
    if (e instanceof ShopifyImportError) send({ kind: 'failed', importError: { code: e.code, message: e.message, issues: e.issues } });
    else send({ kind: 'failed', error: { name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e), stack: e instanceof Error ? e.stack : undefined } });
  }
}

/** True for the `workerData` csv-thread.ts gives (this file does nothing in any other thread). */
function isWorkerInput(data: unknown): data is WorkerInput {
  return typeof data === 'object' && data !== null && 'input' in data && typeof (data as { inFlight?: unknown }).inFlight === 'number';
}

if (parentPort && isWorkerInput(workerData)) void run(parentPort, workerData);
