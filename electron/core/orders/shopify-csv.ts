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
 * (./csv-read.ts: ./csv-text.ts decodes, ./csv-records.ts reads records with
 * csv-parse's streaming parser, ./csv-assembler.ts makes orders,
 * ./csv-order.ts builds one), and orders are written in transactions of one
 * slice of time each (8 ms, ./csv-read.ts `SLICE_MS`), the event loop given back between
 * slices, so scan, quote and ship answer while a 100 MB export is read. Memory
 * stays bounded: the order being read, a few batches, the problem lists
 * (capped) and the set of order numbers seen. A file over
 * {@link MAX_IMPORT_BYTES} is refused before reading. An import stopped
 * half-way (crash, station closed) keeps the batches already written;
 * importing the file again completes it.
 *
 * Parsing in a worker thread (issue 21 item 7): a file of at least
 * {@link WORKER_MIN_BYTES} is read (decode, parse, build, hash) in a worker
 * thread (./csv-thread.ts starts it, ./csv-worker.ts is its code), pipelined
 * with the writes, which stay on the station's thread: the SQLite connection
 * is that thread's, better-sqlite3 is synchronous, and a second writer would
 * make the bench's own writes wait on SQLite's lock. The worker sends orders
 * in batches of 400 with back-pressure (at most three unwritten), and its errors
 * come back as the same ShopifyImportError; the report is the same as on one
 * thread. Smaller files are read on the station's thread (starting a thread
 * costs more than it saves there); the station's close ends a running
 * worker. The bundles carry the worker as an entry of their own
 * (build/bundle.mjs `WORKER_ENTRIES`); from the sources it runs through tsx.
 *
 * Speed (issue 21 item 7): a UTF-8 file is given to the parser as its bytes
 * (./csv-text.ts), each transaction fills its slice and leaves room in it for
 * its own commit. Checkpointing the WAL less often during an import was
 * measured too: no faster, and longer waits for scans.
 */
import type { ImportReport, ImportSkip } from '../../../shared/domain/order';
import type { Store } from '../store';
import { importStoppedError, SKIP_MESSAGES } from './csv-errors';
import type { ParsedShopifyOrder } from './csv-order';
import { csvSource, readShopifyCsv, type ParsedShopifyFile, type ShopifyCsvInput, type ShopifyImportOptions } from './csv-read';
import { sourceSize } from './csv-text';
import { readInWorker } from './csv-thread';

export { ShopifyImportError, MAX_IMPORT_BYTES, tooLargeError } from './csv-errors';
export { parseShopifyTime } from './csv-order';
export type { ParsedShopifyFile, ShopifyCsvInput, ShopifyImportOptions } from './csv-read';

/**
 * Smallest file parsed in a worker thread by default, bytes (2 MiB, about
 * 2,000 orders): below it, starting the thread costs more than it saves.
 */
const WORKER_MIN_BYTES = 2 * 1024 * 1024;

/**
 * Reads a Shopify orders export and writes its orders to the store, one
 * transaction per slice of 8 ms, giving the event loop back between slices;
 * a file of at least {@link WORKER_MIN_BYTES} (or any, with `opts.worker`)
 * is read in a worker thread meanwhile (see the module doc).
 *
 * @returns counts of imported / updated / unchanged / skipped orders, the row
 *   errors, the warnings (orders that need a fix) and every skipped order with its reason.
 * @throws ShopifyImportError when the file is over `maxBytes` (`too_large`,
 *   nothing read), empty, not text, has an unreadable header row, or lacks a
 *   required column; nothing is written then. Error when `opts.signal` is
 *   aborted (the station closing; the orders written so far stay).
 */
export async function importShopifyCsv(store: Store, input: ShopifyCsvInput, opts: ShopifyImportOptions = {}): Promise<ImportReport> {
  let imported = 0;
  let updated = 0;
  let unchanged = 0;
  let refused = 0;
  const refusedList: ImportSkip[] = [];
  /** How long the last commit took, ms: the next slice leaves that much of its time for its own. */
  let commitMs = 0;
  const write = (ready: readonly ParsedShopifyOrder[], budgetMs: number): number => {
    if (opts.signal?.aborted) throw importStoppedError();
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
  };
  const inWorker = opts.worker ?? (await sourceSize(csvSource(input))) >= WORKER_MIN_BYTES;
  const parsed = inWorker ? await readInWorker(input, opts, write) : await readShopifyCsv(input, opts, write);
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
