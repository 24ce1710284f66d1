/**
 * Child process of the `csv-import` bench (./csv-import.ts): a station with
 * an unreachable platform (nothing here calls it) imports one export through
 * the command path the Orders panel uses (orders.importBegin, pieces of
 * 1 MiB, orders.importFinish) while a scan (`scan.resolve`) is asked every
 * 20 ms. A scan's wait is counted from when it was due, so a blocked event
 * loop counts in full. Prints one JSON line: import ms (importFinish), upload
 * ms, the scans' p95 and max wait, this process's peak RSS (MB), and its CPU
 * time during the import (`cpuMs`: user + system, every thread, the scans'
 * included), which a busy machine inflates less than the wall time, split
 * by thread (./thread-cpu.ts, Linux): the station's thread (the writes, the
 * scans), the import's reader thread (csv-thread.ts; 0 for a file read
 * in-thread) and the others (V8's compiler and GC helpers, libuv's pool).
 *
 * Usage: node <bundle of this file, ./bundled.ts> <csv file> <data folder>
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { generateShopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { startOfflineStation } from '../support/offline-station';
import { mergeThreadCpu, splitThreadCpu, threadCpuMs } from './thread-cpu';

const [csvPath, dataDir] = process.argv.slice(2);
if (!csvPath || !dataDir) throw new Error('usage: csv-import-child.ts <csv file> <data folder>');

const station = await startOfflineStation(dataDir);
const h = station.handlers;
await h['orders.importCsv']({ fileName: 'seed.csv', content: generateShopifyCsv(3, { seed: 5, firstNumber: 990_001 }), shop: 'seed' });

const size = fs.statSync(csvPath).size;
const t0 = performance.now();
const { importId, chunkBytes } = await h['orders.importBegin']({ fileName: 'bench.csv', size });
const fd = fs.openSync(csvPath, 'r');
const piece = Buffer.alloc(chunkBytes);
for (let offset = 0; offset < size; offset += chunkBytes) {
  const n = fs.readSync(fd, piece, 0, chunkBytes, offset);
  await h['orders.importChunk']({ importId, offset, dataBase64: piece.subarray(0, n).toString('base64') });
}
fs.closeSync(fd);
const uploadMs = performance.now() - t0;

const waits: number[] = [];
let stop = false;
// Each thread's CPU, read with every scan: the reader thread is gone once the import ends.
const threadsBefore = threadCpuMs();
const threadsSeen = new Map(threadsBefore);
const EVERY_MS = 20;
const scans = (async () => {
  let due = performance.now();
  while (!stop) {
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    const answer = await h['scan.resolve']({ code: '#990001' });
    if (answer.kind !== 'order') throw new Error('the seeded order was not found');
    waits.push(performance.now() - due);
    mergeThreadCpu(threadsSeen, threadCpuMs());
    due += EVERY_MS;
    // A scan that waited longer than a period is not followed by a burst to catch up.
    if (due < performance.now()) due = performance.now();
  }
})();
const t1 = performance.now();
const cpu1 = process.cpuUsage();
const report = await h['orders.importFinish']({ importId });
const ms = performance.now() - t1;
const cpu = process.cpuUsage(cpu1);
mergeThreadCpu(threadsSeen, threadCpuMs());
const threads = splitThreadCpu(threadsBefore, threadsSeen, process.pid);
stop = true;
await scans;
waits.sort((a, b) => a - b);
const p95 = waits[Math.min(waits.length - 1, Math.max(0, Math.ceil(0.95 * waits.length) - 1))] ?? NaN;
console.log(
  JSON.stringify({
    ms: Math.round(ms),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    mainThreadCpuMs: threads.main,
    readerThreadCpuMs: threads.newThread,
    otherThreadsCpuMs: threads.others,
    uploadMs: Math.round(uploadMs),
    imported: report.imported,
    errors: report.errors.length,
    scans: waits.length,
    otherCommandP95Ms: Math.round(p95 * 10) / 10,
    otherCommandMaxMs: Math.round((waits.at(-1) ?? NaN) * 10) / 10,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
await station.close();
