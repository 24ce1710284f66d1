/**
 * The streaming reader of a Shopify orders export (rules in ./shopify-csv.ts):
 * decodes (./csv-text.ts), reads records (./csv-records.ts, csv-parse's
 * streaming parser), groups them into orders (./csv-assembler.ts) and hands
 * the good ones on in batches. It runs on the station's thread for small
 * files and in the import's worker thread (./csv-worker.ts) for large ones.
 */
import type { ImportIssue, ImportSkip } from '../../../shared/domain/order';
import { DEFAULT_SHOP } from '../../../shared/domain/order-checks';
import { detectDelimiter, type Delimiter } from './csv-columns';
import { MAX_IMPORT_BYTES, tooLargeError } from './csv-errors';
import { OrderAssembler } from './csv-assembler';
import type { ParsedShopifyOrder } from './csv-order';
import { RecordReader } from './csv-records';
import { decodedText, detectEncoding, sourceSize, type CsvSource, type TextEncoding } from './csv-text';

/**
 * Orders ready before they are written (each transaction then takes what fits
 * in {@link SLICE_MS}). Large enough that a transaction is a full slice: at 50
 * a transaction held ≈50 orders and the import made ≈220 commits for 10,000
 * orders, a fifth of its time; at 400, ≈95 commits (≈1 MB of orders held).
 */
const WRITE_BATCH = 400;
/** Longest stretch of import work between two turns of the event loop, ms. */
export const SLICE_MS = 8;
/** Least time between two progress reports, ms. */
const PROGRESS_EVERY_MS = 100;

/** How far an import is: source bytes read of all, data rows read, distinct orders found, written to the store. */
export interface ShopifyImportProgress {
  bytesRead: number;
  bytesTotal: number;
  rows: number;
  orders: number;
  /** True on the last report (the file is read and every order written). */
  done: boolean;
}

/** Options of {@link importShopifyCsv} and {@link parseShopifyCsv}. */
export interface ShopifyImportOptions {
  /** Clock used when the file has no `Created at` column (default: system clock). */
  now?: () => Date;
  /** Stop listing errors after this many (one more issue says how many were left out). Default 500. */
  maxErrors?: number;
  /** Shop the file belongs to (default {@link DEFAULT_SHOP}); trimmed, max 40 characters. */
  shop?: string;
  /**
   * Shipping method names that mean the customer collects the order (store
   * pickup, local pickup), matched case-insensitively as substrings of
   * `Shipping Method`. Default {@link DEFAULT_PICKUP_METHODS}.
   */
  pickupMethods?: readonly string[];
  /** Called at most every 100 ms while reading, and once at the end (`done`). */
  onProgress?: (progress: ShopifyImportProgress) => void;
  /** Largest file accepted, in bytes (default {@link MAX_IMPORT_BYTES}). */
  maxBytes?: number;
  /**
   * {@link importShopifyCsv} only: parse in a worker thread (./csv-thread.ts) while this
   * thread writes. Default: when the file is at least {@link WORKER_MIN_BYTES}.
   */
  worker?: boolean;
  /**
   * {@link importShopifyCsv} only: aborting it (the station closing) stops the import: the worker
   * thread is ended and the import rejects; the orders written so far stay.
   */
  signal?: AbortSignal;
}

/** Shipping method words of collect-in-store / local pickup in Shopify shops (EN, IT, FR, DE, ES, PT, NL, TR). */
const DEFAULT_PICKUP_METHODS: readonly string[] = [
  'collect',
  'pickup',
  'pick up',
  'pick-up',
  'in store',
  'in-store',
  'ritiro',
  'retrait',
  'abholung',
  'recogida',
  'levantamento',
  'afhalen',
  'mağazadan teslim',
];

/** Result of {@link parseShopifyCsv}: good orders, problems, and the counts that need no store. */
export interface ParsedShopifyFile {
  orders: ParsedShopifyOrder[];
  errors: ImportIssue[];
  /** Imported with a flag: missing postal code, note too long, no final line break. */
  warnings: ImportIssue[];
  skippedDuplicates: number;
  skippedNotShippable: number;
  /** Orders repeated further down the file (the first is kept). */
  skipped: ImportSkip[];
  /** Cancelled orders in the file (kept as cancelled when readable, never problems). */
  cancelled: number;
  shop: string;
  encoding: TextEncoding;
  delimiter: Delimiter;
}

/**
 * The content of an import: bytes as read from disk (preferred: the encoding
 * is detected), text already decoded, or `{path}` of a file read in chunks.
 */
export type ShopifyCsvInput = string | Uint8Array | { path: string };

/** What {@link readShopifyCsv} returns: a {@link ParsedShopifyFile} without its orders (they went to `write`). */
export type ShopifyReadResult = Omit<ParsedShopifyFile, 'orders'>;

/** The source of an input: bytes, a file read in chunks, or text. */
export function csvSource(input: ShopifyCsvInput): CsvSource {
  return typeof input === 'string' ? { text: input } : input instanceof Uint8Array ? { bytes: input } : { path: input.path };
}

/**
 * The streaming reader behind the import and {@link parseShopifyCsv}: decodes,
 * reads records, groups them into orders and hands the good ones to `write`
 * once {@link WRITE_BATCH} are ready (`firstBatch` for the first hand-over:
 * the worker hands over a small one so that writing starts early), in file
 * order, pausing for the event loop
 * every {@link SLICE_MS} ms. `write` takes what fits in `budgetMs` from the
 * front of `ready` and says how many it took (or a promise of it: the worker
 * waits there while too many batches are in flight).
 * @throws ShopifyImportError as {@link importShopifyCsv} says, before `write` is first called.
 */
export async function readShopifyCsv(
  input: ShopifyCsvInput,
  opts: ShopifyImportOptions,
  write: (ready: readonly ParsedShopifyOrder[], budgetMs: number) => number | Promise<number>,
  firstBatch = WRITE_BATCH,
): Promise<ShopifyReadResult> {
  const src = csvSource(input);
  const bytesTotal = await sourceSize(src);
  const maxBytes = opts.maxBytes ?? MAX_IMPORT_BYTES;
  if (bytesTotal > maxBytes) throw tooLargeError(bytesTotal, maxBytes);
  const pause = slicer();
  const shop = (opts.shop ?? '').trim() || DEFAULT_SHOP;
  const pickupMethods = (opts.pickupMethods ?? DEFAULT_PICKUP_METHODS).map((m) => m.trim().toLowerCase()).filter((m) => m !== '');
  const { encoding, skip } = await detectEncoding(src, pause);

  let assembler: OrderAssembler | undefined;
  let reader: RecordReader | undefined;
  let delimiter: Delimiter = ',';
  const ready: ParsedShopifyOrder[] = [];
  let batch = firstBatch;
  const head: Buffer[] = [];
  let lastByte: number | undefined;
  let bytesRead = skip;
  let reportedAt = -Infinity;
  const progress = (done: boolean) => {
    if (!opts.onProgress || (!done && performance.now() - reportedAt < PROGRESS_EVERY_MS)) return;
    reportedAt = performance.now();
    opts.onProgress({ bytesRead, bytesTotal, rows: assembler?.rows ?? 0, orders: assembler?.orders ?? 0, done });
  };
  /** Starts reading records once the header line (which gives the separator) is complete. */
  const start = (all: Buffer) => {
    const nl = all.indexOf(0x0a);
    delimiter = detectDelimiter(all.subarray(0, nl < 0 ? all.length : nl).toString('utf8'));
    assembler = new OrderAssembler({ delimiter, maxErrors: opts.maxErrors ?? 500, now: opts.now ?? (() => new Date()), shop, pickupMethods }, (o) => ready.push(o));
    return new RecordReader(delimiter);
  };
  const flush = async () => {
    const took = write(ready, SLICE_MS);
    ready.splice(0, typeof took === 'number' ? took : await took);
    progress(false);
    await pause();
  };
  const take = async (events: Awaited<ReturnType<RecordReader['push']>>) => {
    for (const ev of events) {
      assembler!.add(ev);
      while (ready.length >= batch) {
        await flush();
        batch = WRITE_BATCH;
      }
    }
  };

  for await (const chunk of decodedText(src, encoding, skip)) {
    bytesRead = chunk.sourceBytes;
    if (chunk.text.length > 0) lastByte = chunk.text[chunk.text.length - 1];
    if (!reader) {
      head.push(chunk.text);
      const all = Buffer.concat(head);
      if (all.indexOf(0x0a) < 0) continue;
      head.length = 0;
      reader = start(all);
      await take(await reader.push(all));
    } else await take(await reader.push(chunk.text));
    progress(false);
    await pause();
  }
  if (!reader) {
    const all = Buffer.concat(head);
    reader = start(all);
    await take(await reader.push(all));
  }
  await take(await reader.end());
  assembler!.finish(lastByte === undefined || lastByte === 0x0a);
  while (ready.length > 0) await flush();
  progress(true);
  return {
    errors: assembler!.errors.list(),
    warnings: assembler!.warnings.list(),
    skippedDuplicates: assembler!.skippedDuplicates,
    skippedNotShippable: assembler!.skippedNotShippable,
    skipped: assembler!.skipped,
    cancelled: assembler!.cancelled,
    shop,
    encoding,
    delimiter,
  };
}

/** A pause that gives the event loop one turn (setImmediate) when {@link SLICE_MS} have passed since the last. */
function slicer(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
