/**
 * Child process of the `soak` bench (./big-folder.ts `benchSoak`), run
 * bundled as the station ships (./bundled.ts) with `--expose-gc`: a station
 * on a new data folder ships `shipments` orders through its own commands
 * against the platform at `platform` (the sandbox in a process of its own,
 * ./sandbox-child.ts) and a file printer; every 100 it refreshes the Queue
 * and the shipped list as the screens do, collects garbage and samples its
 * memory. Prints one JSON line: `{samples: [{n, heap, heapTotal, external,
 * rss, anon, file, code}]}` (bytes; `code`: the V8 heap's code spaces; `anon` / `file`: resident anonymous and
 * file-backed memory from /proc/self/status, 0 elsewhere).
 *
 * Usage: node --expose-gc soak-child.mjs <shipments> '<platform JSON>' <data folder> <printer folder>
 */
import fs from 'node:fs';
import v8 from 'node:v8';
import { startStation } from '../../electron/shell/start';
import { shipOne } from './ship-one';

const [count, platformJson, dataDir, printerDir] = process.argv.slice(2);
if (!count || !platformJson || !dataDir || !printerDir) throw new Error('usage: soak-child <shipments> <platform JSON> <data folder> <printer folder>');
const p = JSON.parse(platformJson) as { baseUrl: string; authUrl: string; clientId: string; clientSecret: string };
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('soak-child: run with --expose-gc (samples are taken after a full collection)');

/** Resident anonymous (heaps, malloc) and file-backed (code, mapped files, shared memory) bytes; Linux only, else 0. */
function rssSplit(): { anon: number; file: number } {
  try {
    const status = fs.readFileSync('/proc/self/status', 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { anon: kb('RssAnon'), file: kb('RssFile') + kb('RssShmem') };
  } catch {
    return { anon: 0, file: 0 };
  }
}

const station = await startStation(
  { dataDir, platform: { mode: 'platform', ...p }, printerUri: `file://${printerDir}`, ignoredArgs: [] },
  { platformRateLimits: false, listQueues: () => Promise.resolve([]) },
);
const samples: Array<{ n: number; heap: number; heapTotal: number; external: number; rss: number; anon: number; file: number; code: number }> = [];
/** Bytes of compiled code on the V8 heap (code spaces): what grows as V8 compiles and optimises more of the station. */
const codeBytes = () => v8.getHeapSpaceStatistics().filter((sp) => sp.space_name.startsWith('code')).reduce((sum, sp) => sum + sp.space_used_size, 0);
try {
  const h = station.handlers;
  for (let n = 1; n <= Number(count); n++) {
    await shipOne(station, `SOAK-${n}`);
    if (n % 100 === 0) {
      await h['outbox.list']({ doneLimit: 20 });
      await h['orders.page']({ view: 'shipped', sort: 'newest', offset: 0, limit: 100 });
      gc();
      const m = process.memoryUsage();
      samples.push({ n, heap: m.heapUsed, heapTotal: m.heapTotal, external: m.external, rss: m.rss, ...rssSplit(), code: codeBytes() });
    }
  }
} finally {
  await station.close();
}
console.log(JSON.stringify({ samples }));
