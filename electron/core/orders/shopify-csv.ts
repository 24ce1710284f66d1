/**
 * Import of a Shopify admin "Export orders" CSV into the store.
 *
 * The format (Shopify admin > Orders > Export, "CSV for Excel, Numbers, or
 * other spreadsheet programs"): a header row, then one row per line item; an
 * order spans consecutive rows with the same `Name` (#1001), and only its
 * first row carries the order-level fields (e-mail, totals, addresses,
 * notes). Fields may be quoted and hold commas and line breaks; the file may
 * start with a UTF-8 BOM; zip codes may carry a leading apostrophe (`'00184`)
 * or have lost their leading zeros (`184`), which is repaired for Italy;
 * `Shipping Province` is a code (RM, MI) and `Shipping Country` ISO 3166-1
 * alpha-2.
 *
 * Reading: the encoding is found from the bytes (UTF-8 with or without BOM,
 * UTF-16 LE/BE by BOM or by its zero bytes, otherwise Windows-1252 as Excel
 * writes it on Windows; decoded with iconv-lite), line breaks are made LF
 * (a file re-saved by Excel with CRLF and a BOM is the same file), and the
 * field separator is found in the header row (`,`, `;` as Excel writes it in
 * European locales, or a tab).
 *
 * Rules: an order is identified by its shop (chosen at import) and Shopify's
 * `Id`, never by its number alone (every shop numbers from #1001). A bad row
 * is reported with the order, its spreadsheet row and column, and its whole
 * order is left out (a partial order would be packed incomplete); every good
 * order is kept. Cancelled orders are kept as cancelled, never reported as
 * problems. Lines already fulfilled by the shop are kept as sent; an order
 * whose shipping method is a store pickup (per-shop names) is kept off the
 * to-ship list; a missing postal code or a note over 255 characters makes an
 * order that needs a fix, not an error. Importing the same file again changes
 * nothing; a re-import never lowers an order's number of lines (a truncated
 * file) nor touches an order already shipped (see `OrdersRepo.upsertImported`);
 * every order left as it was is listed with its reason. A file without a
 * required column is refused as a whole.
 *
 * Reading (issue 21 item 6): the file is read as a stream, 64 KiB at a time
 * (./csv-text.ts decodes, ./csv-records.ts reads records with csv-parse's
 * streaming parser, ./csv-assembler.ts makes orders, ./csv-order.ts builds
 * one), and orders are written in transactions of one slice of time each. The
 * import runs on the station's own thread but in slices: it gives the event
 * loop back every {@link SLICE_MS} ms, so scan, quote and ship answer while a
 * 100 MB export is read. (Not a worker thread: the SQLite connection is the
 * main thread's, better-sqlite3 is synchronous, and a second writer in a
 * worker would make the bench's own writes wait on SQLite's lock.) Memory
 * stays bounded: the order being read, one batch, the problem lists (capped)
 * and the set of order numbers seen. A file over {@link MAX_IMPORT_BYTES} is
 * refused before reading. An import stopped half-way (crash) keeps the
 * batches already written; importing the file again completes it.
 *
 * Speed (issue 21 item 7): a UTF-8 file is given to the parser as its bytes
 * (./csv-text.ts), each transaction fills its slice ({@link WRITE_BATCH})
 * and leaves room in it for its own commit. Checkpointing the WAL less often
 * during an import was measured too: no faster, and longer waits for scans.
 * Parsing in a worker thread pipelined with the writes was measured and left
 * out for now: from the sources (tsx) a worker took 0.4–1.6 s to start and
 * added ≈50 MB of RSS before reading a byte, more than it saves on a
 * 10,000-order export.
 */
import type { ImportIssue, ImportReport, ImportSkip } from '../../../shared/domain/order';
import { DEFAULT_SHOP } from '../../../shared/domain/order';
import type { Store } from '../store';
import { detectDelimiter, type Delimiter } from './csv-columns';
import { MAX_IMPORT_BYTES, SKIP_MESSAGES, tooLargeError } from './csv-errors';
import { OrderAssembler } from './csv-assembler';
import type { ParsedShopifyOrder } from './csv-order';
import { RecordReader } from './csv-records';
import { decodedText, detectEncoding, sourceSize, type CsvSource, type TextEncoding } from './csv-text';

export { ShopifyImportError, MAX_IMPORT_BYTES, tooLargeError } from './csv-errors';
export { parseShopifyTime } from './csv-order';

/**
 * Orders ready before they are written (each transaction then takes what fits
 * in {@link SLICE_MS}). Large enough that a transaction is a full slice: at 50
 * a transaction held ≈50 orders and the import made ≈220 commits for 10,000
 * orders, a fifth of its time; at 400, ≈95 commits (≈1 MB of orders held).
 */
const WRITE_BATCH = 400;
/** Longest stretch of import work between two turns of the event loop, ms. */
const SLICE_MS = 8;
/** Least time between two progress reports, ms. */
const PROGRESS_EVERY_MS = 100;

/** How far an import is: source bytes read of all, data rows read, distinct orders found, written to the store. */
interface ShopifyImportProgress {
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

/**
 * Reads a Shopify orders export and writes its orders to the store, one
 * transaction per slice of {@link SLICE_MS} ms, giving the event loop back
 * between slices (see the module doc).
 *
 * @returns counts of imported / updated / unchanged / skipped orders, the row
 *   errors, the warnings (orders that need a fix) and every skipped order with its reason.
 * @throws ShopifyImportError when the file is over `maxBytes` (`too_large`,
 *   nothing read), empty, not text, has an unreadable header row, or lacks a
 *   required column; nothing is written then.
 */
export async function importShopifyCsv(store: Store, input: ShopifyCsvInput, opts: ShopifyImportOptions = {}): Promise<ImportReport> {
  let imported = 0;
  let updated = 0;
  let unchanged = 0;
  let refused = 0;
  const refusedList: ImportSkip[] = [];
  /** How long the last commit took, ms: the next slice leaves that much of its time for its own. */
  let commitMs = 0;
  const parsed = await readShopifyCsv(input, opts, (ready, budgetMs) => {
    // One transaction per slice: as many orders as fit in the slice's time, commit included (at least one).
    const writeMs = Math.max(1, budgetMs - commitMs);
    let lastWrite = 0;
    const n = store.bulkTx(() => {
      const start = performance.now();
      let n = 0;
      for (const { order, hash, row } of ready) {
        if (n > 0 && performance.now() - start >= writeMs) break;
        n++;
        const res = store.orders.upsertImported(order, hash, { indexLater: true });
        if (res.outcome === 'imported') imported++;
        else if (res.outcome === 'updated') updated++;
        else if (res.outcome === 'unchanged') unchanged++;
        else {
          refused++;
          const reason = res.reason ?? 'already_shipped';
          refusedList.push({ order: order.orderNumber, row, reason, message: SKIP_MESSAGES[reason](order.orderNumber, order.items.length) });
        }
      }
      lastWrite = performance.now();
      return n;
    });
    commitMs = performance.now() - lastWrite;
    return n;
  });
  return {
    imported,
    updated,
    unchanged,
    skippedDuplicates: parsed.skippedDuplicates + refused,
    skippedNotShippable: parsed.skippedNotShippable,
    errors: parsed.errors,
    warnings: parsed.warnings,
    shop: parsed.shop,
    encoding: parsed.encoding,
    delimiter: parsed.delimiter,
    cancelled: parsed.cancelled,
    skipped: [...parsed.skipped, ...refusedList],
  };
}

/**
 * Parses and validates a Shopify orders export without touching a store,
 * keeping every order (for tests and small files; the import streams).
 * See {@link importShopifyCsv} for the input and the errors thrown.
 */
export async function parseShopifyCsv(input: ShopifyCsvInput, opts: ShopifyImportOptions = {}): Promise<ParsedShopifyFile> {
  const orders: ParsedShopifyOrder[] = [];
  const parsed = await readShopifyCsv(input, opts, (ready) => orders.push(...ready));
  return { ...parsed, orders };
}

/**
 * The streaming reader behind both: decodes, reads records, groups them into
 * orders and hands the good ones to `write` once {@link WRITE_BATCH} are
 * ready, in file order, pausing for the event loop every {@link SLICE_MS} ms.
 * `write` takes what fits in `budgetMs` from the front of `ready` and says how
 * many it took.
 */
async function readShopifyCsv(
  input: ShopifyCsvInput,
  opts: ShopifyImportOptions,
  write: (ready: readonly ParsedShopifyOrder[], budgetMs: number) => number,
): Promise<Omit<ParsedShopifyFile, 'orders'>> {
  const src: CsvSource = typeof input === 'string' ? { text: input } : input instanceof Uint8Array ? { bytes: input } : { path: input.path };
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
    ready.splice(0, write(ready, SLICE_MS));
    progress(false);
    await pause();
  };
  const take = async (events: Awaited<ReturnType<RecordReader['push']>>) => {
    for (const ev of events) {
      assembler!.add(ev);
      while (ready.length >= WRITE_BATCH) await flush();
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
