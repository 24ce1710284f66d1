/**
 * Years at the same bench (issue 27): the station on a data folder of one
 * year (250,000 shipments at 1,000 a day) and of three, built by
 * ./big-folder-seed.ts and cached under `.cache/bench/` (rebuilt when the
 * schema changes or the cache is older than 30 days, so the retention's
 * 90 days still fall where they were written).
 *
 * For each folder, one line:
 * `{"bench":"big-folder","years":…,"shipments":…,"diskMb":…,"startMs":…,"queueMs":…,"ordersSearchMs":…,
 *   "shippedListMs":…,"allListMs":…,"manifestsMs":…,"reprintOldMs":…,"buildS":…}`
 * - diskMb: the data folder's database (with its WAL) as built, MB (10^6 bytes);
 * - startMs: `startStation` until it resolves (lock, open, migrations, recovery), median of 3, warm file cache;
 * - queueMs, ordersSearchMs (orders.page with a surname), shippedListMs, allListMs
 *   (first page of the order list, count included), manifestsMs (End of day): medians of 11 command calls;
 * - reprintOldMs: `labels.reprint` of a shipment 200 days old whose label bytes were pruned:
 *   fetched again from the platform (the sandbox) and printed to a file printer; median of 3.
 * Goals: start ≤ 1,000 ms, each command ≤ 50 ms, reprint ≤ 2,000 ms.
 *
 * `soak`: 2,000 shipments through the station's own commands in one run
 * (the station bundled as it ships in a child process, ./soak-child.ts; the
 * sandbox in another, ./sandbox-child.ts, so the figures are the station's
 * own; file printer); heap and RSS sampled every 100 after a full GC; prints
 * `{"bench":"soak","shipments":2000,"heapMbAt500":…,"heapMbAt1000":…,"heapMbAtEnd":…,"rssMbAt500":…,"rssMbAt1000":…,"rssMbAtEnd":…,
 *   "heapKbPerShipmentAfter500":…,"rssKbPerShipmentAfter500":…,"mallocArenaMax":…,"mallocMmapThreshold":…}`
 * (the two trends: least-squares slopes over every sample from the 500th on, KB per shipment;
 * BENCH_SOAK_SHIPMENTS sets another count)
 * (the child's MALLOC_ARENA_MAX and MALLOC_MMAP_THRESHOLD_: the launcher's 2 and 131072 unless the environment sets others).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { createSandbox, type Sandbox } from '../../electron/sandbox';
import { startStation } from '../../electron/shell/start';
import { databaseFile } from '../../electron/core/station';
import { openStore, SCHEMA_VERSION } from '../../electron/core/store';
import { seedBigFolder } from './big-folder-seed';
import { BENCH_CHILD_ENV, bundleBenchChild, runBenchChild } from './bundled';
import { shipOne } from './ship-one';
import { median, slope, timed } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CACHE = path.join(ROOT, '.cache', 'bench');
const PER_YEAR = Number(process.env.BENCH_BIG_PER_YEAR ?? 250_000);
const DAY = 86_400_000;


/** Folder `<CACHE>/big-<years>y` built for this schema within 30 days, else (re)built; returns it and the build time, s (0 when cached). */
function folder(years: 1 | 3): { dir: string; buildS: number } {
  const dir = path.join(CACHE, `big-${years}y-${PER_YEAR}`);
  const stamp = path.join(dir, 'built.json');
  try {
    const s = JSON.parse(fs.readFileSync(stamp, 'utf8')) as { schema: number; at: number };
    if (s.schema === SCHEMA_VERSION && Date.now() - s.at < 30 * DAY) return { dir, buildS: 0 };
  } catch {
    // not built yet
  }
  const t0 = performance.now();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const file = databaseFile(dir, 'platform');
  const now = new Date();
  if (years === 1) {
    openStore(file).close();
    seedBigFolder(file, { now, shipments: PER_YEAR, days: 365 });
  } else {
    // Grown from the one-year folder: two more years before it, their labels long pruned.
    const one = folder(1);
    fs.copyFileSync(databaseFile(one.dir, 'platform'), file);
    seedBigFolder(file, { now, shipments: 2 * PER_YEAR, days: 730, endDaysAgo: 365 });
  }
  const store = openStore(file);
  store.close();
  fs.writeFileSync(stamp, JSON.stringify({ schema: SCHEMA_VERSION, at: now.getTime() }));
  return { dir, buildS: Math.round((performance.now() - t0) / 1000) };
}

function config(sb: Sandbox, dir: string, printerDir: string) {
  const demo = sb.clients[0];
  if (!demo) throw new Error('sandbox has no demo client');
  return {
    dataDir: dir,
    platform: { mode: 'platform' as const, baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret },
    printerUri: `file://${printerDir}`,
    ignoredArgs: [],
  };
}

async function measure(years: 1 | 3): Promise<void> {
  const { dir, buildS } = folder(years);
  const file = databaseFile(dir, 'platform');
  const diskMb = Math.round((fs.statSync(file).size + (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0)) / 1e6);
  const sb = await createSandbox({ port: 0, rateLimits: false });
  const account = sb.state.accounts[0];
  if (account) account.credit.balance = 1_000_000;
  const printerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-big-printer-'));
  const options = { platformRateLimits: false as const, listQueues: () => Promise.resolve([]), maintenance: { idleMs: 3_600_000 } };
  try {
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const s = await startStation(config(sb, dir, printerDir), options);
      starts.push(performance.now() - t0);
      await s.close();
    }
    const station = await startStation(config(sb, dir, printerDir), options);
    try {
      const h = station.handlers;
      const queueMs = await timed(() => h['outbox.list']({ doneLimit: 20 }));
      const pageSearch = await timed(() => h['orders.page']({ view: 'all', q: 'Lombardi', sort: 'newest', offset: 0, limit: 100 }));
      const shippedListMs = await timed(() => h['orders.page']({ view: 'shipped', sort: 'newest', offset: 0, limit: 100 }));
      const allListMs = await timed(() => h['orders.page']({ view: 'all', sort: 'newest', offset: 0, limit: 100 }));
      const manifestsMs = await timed(() => h['manifests.list']({}));
      // A shipment older than the retention: made through the platform, then aged and pruned as retention leaves it.
      const reprints: number[] = [];
      for (let i = 0; i < 3; i++) {
        const ldv = await shipOne(station, `OLD-${Date.now()}-${i}`);
        const side = new Database(file);
        const old = new Date(Date.now() - 200 * DAY).toISOString();
        side.prepare(`UPDATE shipments SET created_at = ? WHERE tracking_number = ?`).run(old, ldv);
        side.prepare(`UPDATE labels SET bytes = X'', created_at = ?, pruned_at = ? WHERE tracking_number = ?`).run(old, new Date().toISOString(), ldv);
        side.close();
        const t0 = performance.now();
        await h['labels.reprint']({ trackingNumber: ldv });
        reprints.push(performance.now() - t0);
      }
      console.log(
        JSON.stringify({
          bench: 'big-folder',
          years,
          shipments: years * PER_YEAR,
          diskMb,
          startMs: Math.round(median(starts)),
          queueMs,
          ordersSearchMs: pageSearch,
          shippedListMs,
          allListMs,
          manifestsMs,
          reprintOldMs: Math.round(median(reprints)),
          buildS,
        }),
      );
      console.log(
        `big folder, ${years} year(s), ${years * PER_YEAR} shipments, ${diskMb} MB: start ${Math.round(median(starts))} ms; Queue ${queueMs} ms; ` +
          `search ${pageSearch} ms (orders.page); shipped ${shippedListMs} ms; all ${allListMs} ms; End of day ${manifestsMs} ms; ` +
          `old reprint ${Math.round(median(reprints))} ms${buildS ? `; built in ${buildS} s` : ' (cached folder)'}`,
      );
    } finally {
      await station.close();
    }
  } finally {
    await sb.close();
    fs.rmSync(printerDir, { recursive: true, force: true });
  }
}

/** The big-folder bench: one year, then three. */
export async function benchBigFolder(): Promise<void> {
  await measure(1);
  await measure(3);
}

const mb = (n: number) => Math.round(n / 1e5) / 10;

/** 2,000 shipments in one run; heap and RSS after the first 500, at 1,000 and at the end, and their trend after 500. */
export async function benchSoak(): Promise<void> {
  const SHIPMENTS = Number(process.env.BENCH_SOAK_SHIPMENTS ?? 2000);
  // The station runs bundled as it ships, in a process of its own (./soak-child.ts); the platform in another:
  // the figures are the station's alone, without the platform's state or tsx compiling sources.
  const script = await bundleBenchChild('test/bench/soak-child.ts');
  const platform = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/bench/sandbox-child.ts')], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-soak-'));
  const printerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-soak-printer-'));
  let samples: Array<{ n: number; heap: number; rss: number; external: number; heapTotal: number; anon: number; file: number; code: number }>;
  try {
    const first = await new Promise<string>((resolve, reject) => {
      let out = '';
      platform.stdout.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        const nl = out.indexOf('\n');
        if (nl >= 0) resolve(out.slice(0, nl));
      });
      platform.on('exit', (code) => reject(new Error(`soak: the platform process exited (${code})`)));
    });
    const line = await runBenchChild(script, [String(SHIPMENTS), first, dir, printerDir], ['--expose-gc']);
    ({ samples } = JSON.parse(line) as { samples: typeof samples });
  } finally {
    platform.stdin.end();
    platform.kill();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(printerDir, { recursive: true, force: true });
  }
  const at500 = samples.find((s) => s.n >= 500);
  const at1000 = samples.find((s) => s.n >= 1000) ?? samples.at(-1);
  const end = samples.at(-1);
  if (!at500 || !at1000 || !end) throw new Error('soak: too few samples');
  // The trend after the first 500, KB per shipment (least squares over every sample from 500 on).
  const after = samples.filter((s) => s.n >= 500);
  const perShipmentKb = (pick: (s: (typeof samples)[number]) => number) =>
    Math.round(slope(after.map((s) => s.n), after.map(pick)) / 100) / 10;
  console.log(
    JSON.stringify({
      bench: 'soak',
      shipments: end.n,
      heapMbAt500: mb(at500.heap),
      heapMbAt1000: mb(at1000.heap),
      heapMbAtEnd: mb(end.heap),
      rssMbAt500: mb(at500.rss),
      rssMbAt1000: mb(at1000.rss),
      rssMbAtEnd: mb(end.rss),
      heapKbPerShipmentAfter500: perShipmentKb((s) => s.heap),
      codeKbPerShipmentAfter500: perShipmentKb((s) => s.code),
      rssKbPerShipmentAfter500: perShipmentKb((s) => s.rss),
      // What the child ran with: the launcher's settings unless this environment set others.
      mallocArenaMax: BENCH_CHILD_ENV.MALLOC_ARENA_MAX ?? null,
      mallocMmapThreshold: BENCH_CHILD_ENV.MALLOC_MMAP_THRESHOLD_ ?? null,
    }),
  );
  const list = (pick: (s: (typeof samples)[number]) => number) => samples.map((s) => mb(pick(s))).join(' ');
  console.log(`soak, ${end.n} shipments (every 100): heap ${list((s) => s.heap)} MB; RSS ${list((s) => s.rss)} MB`);
  console.log(`  heap total ${list((s) => s.heapTotal)} MB; of the heap, compiled code ${list((s) => s.code)} MB; external ${list((s) => s.external)} MB`);
  console.log(`  RSS anonymous ${list((s) => s.anon)} MB; file-backed ${list((s) => s.file)} MB`);
}
