/**
 * `csv-import` bench (issue 21 item 6): a 10,000-order and a 120,000-order
 * Shopify export (BENCH_CSV_BIG) imported by a station in a child process
 * (./csv-import-child.ts) through the Orders panel's command path, while a
 * scan is asked every 20 ms. Prints per size
 * `{"bench":"csv-import","orders":…,"ms":…,"cpuMs":…,"mainThreadCpuMs":…,"readerThreadCpuMs":…,"otherThreadsCpuMs":…,"peakRssMb":…,"otherCommandP95Ms":…,"otherCommandMaxMs":…}`
 * The child runs as the station ships: bundled as build/bundle.mjs bundles the
 * launcher (./bundled.ts), with plain Node and the launcher's malloc
 * settings, not from the sources through tsx.
 * (`cpuMs`: the station process's CPU time during the import, a steadier
 * figure than `ms` on a busy machine). Then, for the 10,000-order export,
 * the import's parts one at a time on one thread (./csv-import-parts-child.ts):
 * `{"bench":"csv-import-parts","orders":10000,"parseMs":…,"readMs":…,"writesMs":…,"floorMs":…}`,
 * `floorMs` being the larger of `readMs`, `writesMs` and (`readMs` +
 * `writesMs`) / cores: the read and the writes each run on one thread, and
 * together share the cores, so no import on this machine that reads and
 * writes as the station does can take less wall time.
 * Peak RSS is the child's (the station alone, from process.resourceUsage),
 * not the bench's. The exports are generated once into .cache/bench/ (never
 * committed) and reused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateShopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { bundleBenchChild, runBenchChild } from './bundled';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CACHE = path.join(ROOT, '.cache', 'bench');
const SIZES = [10_000, Number(process.env.BENCH_CSV_BIG ?? 120_000)];

/** The export of `orders` orders (seed 11), generated into the cache folder once, in pieces of 10,000 orders. */
function exportFile(orders: number): string {
  const file = path.join(CACHE, `shopify-${orders}-seed11.csv`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(CACHE, { recursive: true });
  const tmp = `${file}.part`;
  const fd = fs.openSync(tmp, 'w');
  for (let first = 1001; first < 1001 + orders; first += 10_000) {
    const n = Math.min(10_000, 1001 + orders - first);
    let csv = generateShopifyCsv(n, { seed: 11 + first, firstNumber: first, bom: false });
    if (first !== 1001) csv = csv.slice(csv.indexOf('\n') + 1); // one header row
    fs.writeSync(fd, csv);
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
  return file;
}

/** Runs the child (`script`: its bundle) on one export in a new data folder; returns its JSON result. */
async function runChild(script: string, file: string): Promise<Record<string, number>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-bench-import-'));
  try {
    return JSON.parse(await runBenchChild(script, [file, dataDir])) as Record<string, number>;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The bench: one JSON line per export size, and a line for people. */
export async function benchCsvImportStream(): Promise<void> {
  const script = await bundleBenchChild('test/bench/csv-import-child.ts');
  for (const orders of SIZES) {
    const file = exportFile(orders);
    const r = await runChild(script, file);
    const mb = fs.statSync(file).size / 1e6;
    console.log(`Shopify CSV import in a station process, ${orders.toLocaleString('en')} orders (${mb.toFixed(1)} MB), sent in 1 MiB pieces (${r.uploadMs} ms):`);
    console.log(`  import ${r.ms} ms (CPU ${r.cpuMs} ms: station's thread ${r.mainThreadCpuMs}, reader thread ${r.readerThreadCpuMs}, others ${r.otherThreadsCpuMs}), ${r.imported} imported, ${r.errors} errors; scans meanwhile: ${r.scans}, p95 wait ${r.otherCommandP95Ms} ms, max ${r.otherCommandMaxMs} ms; peak RSS ${r.peakRssMb} MB`);
    console.log(JSON.stringify({ bench: 'csv-import', orders, ms: r.ms, cpuMs: r.cpuMs, mainThreadCpuMs: r.mainThreadCpuMs, readerThreadCpuMs: r.readerThreadCpuMs, otherThreadsCpuMs: r.otherThreadsCpuMs, peakRssMb: r.peakRssMb, otherCommandP95Ms: r.otherCommandP95Ms, otherCommandMaxMs: r.otherCommandMaxMs }));
    if (r.errors) process.exitCode = 1;
  }
  await benchImportParts(exportFile(SIZES[0]!), SIZES[0]!);
}

/** The import's parts one at a time (./csv-import-parts-child.ts) on the export `file` of `orders` orders: one JSON line, and one for people. */
async function benchImportParts(file: string, orders: number): Promise<void> {
  const script = await bundleBenchChild('test/bench/csv-import-parts-child.ts');
  const r = await runChild(script, file);
  const cores = os.availableParallelism();
  const floorMs = Math.round(Math.max(r.readMs!, r.writesMs!, (r.readMs! + r.writesMs!) / cores));
  console.log(
    `The ${orders.toLocaleString('en')}-order import's parts, each alone on one thread (median of 3): csv-parse ${r.parseMs} ms (${r.records} records), ` +
      `read (parse, assemble, build, hash) ${r.readMs} ms, writes ${r.writesMs} ms; the least an import can take here (each on one thread, both on ${cores} cores): ${floorMs} ms`,
  );
  console.log(JSON.stringify({ bench: 'csv-import-parts', orders, parseMs: r.parseMs, readMs: r.readMs, writesMs: r.writesMs, cores, floorMs }));
}
