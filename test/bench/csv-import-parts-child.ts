/**
 * Child process of the `csv-import` bench (./csv-import.ts): the import's
 * parts one at a time, each alone on one thread, on one export, to show
 * where the import's time goes and what bounds it on a machine of few cores.
 * - `parseMs`: the records alone (./csv-text.ts decoding, csv-parse's
 *   streaming parser through csv-records.ts `RecordReader`), nothing built;
 * - `readMs`: the whole read of the import (`readShopifyCsv`: decode,
 *   parse, assemble, build and hash each order), the orders dropped;
 * - `writesMs`: the writes alone, through the store as the import makes them
 *   (`OrdersRepo.upsertImported`, one transaction per slice of 8 ms), of
 *   the orders read beforehand, into a new data folder.
 * Each is the median of three runs. Prints one JSON line.
 *
 * Usage: node <bundle of this file> <csv file> <data folder>
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readShopifyCsv, SLICE_MS } from '../../electron/core/orders/csv-read';
import { RecordReader } from '../../electron/core/orders/csv-records';
import { decodedText, detectEncoding } from '../../electron/core/orders/csv-text';
import { parseShopifyCsv } from '../../electron/core/orders/shopify-csv';
import { openStore } from '../../electron/core/store';
import { median } from './stats';

const [csvPath, dataDir] = process.argv.slice(2);
if (!csvPath || !dataDir) throw new Error('usage: csv-import-parts-child <csv file> <data folder>');
const RUNS = 3;
const noPause = () => Promise.resolve();

/** Milliseconds of `fn`, median of {@link RUNS} runs. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return Math.round(median(ms));
}

let records = 0;
const parseMs = await timed(async () => {
  const src = { path: csvPath };
  const { encoding, skip } = await detectEncoding(src, noPause);
  const reader = new RecordReader(',');
  records = 0;
  for await (const chunk of decodedText(src, encoding, skip)) records += (await reader.push(chunk.text)).length;
  records += (await reader.end()).length;
});

let read = 0;
const readMs = await timed(async () => {
  read = 0;
  await readShopifyCsv({ path: csvPath }, {}, (ready) => {
    read += ready.length;
    return ready.length;
  });
});

const { orders } = await parseShopifyCsv({ path: csvPath });
let run = 0;
const writesMs = await timed(async () => {
  const folder = path.join(dataDir, `writes-${run++}`);
  fs.mkdirSync(folder, { recursive: true });
  const store = openStore(path.join(folder, 'station.sqlite'));
  try {
    let i = 0;
    while (i < orders.length) {
      store.bulkTx(() => {
        const start = performance.now();
        do {
          const { order, hash } = orders[i++]!;
          store.orders.upsertImported(order, hash, { indexLater: true });
        } while (i < orders.length && performance.now() - start < SLICE_MS);
      });
    }
  } finally {
    store.close();
  }
});

console.log(JSON.stringify({ records, orders: read, parseMs, readMs, writesMs }));
