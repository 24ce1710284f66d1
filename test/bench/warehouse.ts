/**
 * Bench `warehouse` (issue 35): 50 benches on one real PostgreSQL
 * (test/support/postgres.ts, migrated with migrateWarehouse) for one simulated
 * hour of 120 shipments an hour each (6,000 shipments).
 *
 * Each bench is the station's own warehouse code: createWarehouseLink
 * (electron/core/warehouse/link.ts) over its own store (openStore, one SQLite
 * file per bench in a temp folder), with the link's own claim, heartbeat,
 * LISTEN/pull of shared settings and activity sending, at the link's default
 * intervals. Not full stations (no sandbox, no screens, no printers): 50 of
 * those, each with its sandbox calls and label rendering, do not fit on this
 * 2-core machine beside the PostgreSQL server; everything the warehouse sees
 * of a bench comes from this code.
 *
 * Time: the hour is compressed, the link is not. A bench's 120 shipments are
 * paced one every HOUR_MS / 120 (72 s / 120 = 0.6 s by default, 50 times
 * faster than at a real bench, so the warehouse gets 50 times the load of a
 * real hour), while the link's timers (heartbeat, activity every second) run
 * at their real defaults: claim latency, setting propagation and activity lag
 * are real times. The 50 benches start staggered over one pace.
 *
 * Per shipment a bench claims the order (link.claim), records its scan, its
 * shipment (with a tracking number) and its print in the store's activity
 * table, and lets the order go (link.release). One process hosts all 50
 * benches: a claim's latency includes the wait for this process's event loop.
 *
 * Measures:
 * - claimP95Ms: link.claim's time for claims won while the warehouse answers.
 * - settingPropagationP95Ms: 20 changes of a shared setting, each through one
 *   bench's link.share, in turn; the time until each other bench's pull
 *   applied it (its onShared hook sees the new value).
 * - activityLagP95Ms: the warehouse's activity.received_at minus the bench's
 *   recorded `at` (same machine clock), for rows recorded while the warehouse
 *   answered (rows recorded from the outage until every bench caught up are
 *   the catch-up's, not the lag's; those of the last second before it, not
 *   sent yet when it began, stay in and make the maximum).
 * - offlineCatchUpMs: PostgreSQL is stopped (stopServer) a third into the hour
 *   for 10 simulated minutes (HOUR_MS / 6); the benches keep working (a claim
 *   refused offline: the scan is recorded, the order tried again at the next
 *   pace); from startServer to every row recorded until then being in the
 *   warehouse. A bench notices the warehouse is back at its next heartbeat
 *   (every 20 s by default), so this is mostly the wait for it: anything
 *   from 0 to 20 s, by where the heartbeats fall in the outage.
 * - lost: rows recorded at benches missing from the warehouse at the end;
 *   duplicated: rows kept more than once (count(*) - count(DISTINCT (bench_id,
 *   seq))) plus rows no bench recorded or whose action or tracking number
 *   differs from the bench's row.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openStore, type Store } from '../../electron/core/store';
import { createWarehouseLink } from '../../electron/core/warehouse/link';
import { migrateWarehouse } from '../../electron/core/warehouse/schema';
import { warehouseClientConfig } from '../../electron/core/warehouse/connection';
import type { WarehouseLink } from '../../electron/core/common/services';
import { StationError } from '../../shared/contract/errors';
import { startTestPostgres } from '../support/postgres';

const BENCHES = 50;
const PER_HOUR = 120;
/** One simulated hour in wall time, ms. */
const HOUR_MS = Number(process.env.BENCH_WAREHOUSE_HOUR_MS ?? 72_000);
const PACE_MS = HOUR_MS / PER_HOUR;
/** 10 simulated minutes. */
const OUTAGE_MS = HOUR_MS / 6;
const OUTAGE_AT_MS = HOUR_MS / 3;
const SETTING_CHANGES = 20;
const SETTING_KEY = 'orders.allowUnpaid';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const round2 = (n: number): number => Math.round(n * 100) / 100;

/** One bench: its store, its link, what it recorded (row id → action and tracking number). */
interface Bench {
  index: number;
  name: string;
  store: Store;
  link: WarehouseLink;
  recorded: Map<number, { action: string; tracking: string | null }>;
  lastId: number;
  logs: string[];
}

/** A change of the shared setting in flight: its value, when it was asked, which bench asked, who applied it when. */
interface Pending {
  value: boolean;
  t0: number;
  from: number;
  seen: Map<number, number>;
}

/** Runs the bench; prints its JSON line and human lines. `quantile` is the bench's nearest-rank quantile. */
export async function benchWarehouse(quantile: (sorted: number[], q: number) => number): Promise<void> {
  // 50 links × (a pool of 4 + 1 LISTEN connection) = 250, with the bench's own: more than PostgreSQL's 100.
  const server = await startTestPostgres({ maxConnections: 300 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-bench-warehouse-'));
  const benches: Bench[] = [];
  try {
    const url = await server.createDatabase('warehouse');
    const adminConfig = warehouseClientConfig(url, server.password).config;
    const admin = new pg.Client(adminConfig);
    await admin.connect();
    await migrateWarehouse(admin);
    await admin.end();

    let pending: Pending | null = null;
    for (let i = 0; i < BENCHES; i++) {
      const name = `Bench ${i + 1}`;
      const store = openStore(path.join(dir, `bench-${i + 1}.sqlite`));
      const logs: string[] = [];
      // The station's defaults for the heartbeat (20 s) and activity (1 s) intervals: not passed.
      const link = createWarehouseLink({ url, password: server.password, store, benchName: () => name, log: (l) => logs.push(l) });
      const bench: Bench = { index: i, name, store, link, recorded: new Map(), lastId: 0, logs };
      link.bind({
        packerName: () => `Packer ${i + 1}`,
        benchStatus: () => ({ packer: `Packer ${i + 1}`, printer: { state: 'ready', name: 'ZD421' }, queue: 0, refused: 0, labelsHeld: 0, lastLabel: null }),
        onShared: (pulled) => {
          const p = pending;
          if (!p || p.from === i || p.seen.has(i) || !pulled.settings.includes(SETTING_KEY)) return;
          if (store.settings.getRaw(SETTING_KEY) === p.value) p.seen.set(i, performance.now() - p.t0);
        },
      });
      benches.push(bench);
    }
    const t0Connect = performance.now();
    while (!benches.every((b) => b.link.status().connected)) {
      if (performance.now() - t0Connect > 60_000) throw new Error(`only ${benches.filter((b) => b.link.status().connected).length} of ${BENCHES} benches connected in 60 s`);
      await sleep(50);
    }
    console.log(`warehouse bench: ${BENCHES} bench links connected in ${Math.round(performance.now() - t0Connect)} ms; one hour = ${HOUR_MS / 1000} s of wall time (a shipment every ${PACE_MS} ms per bench), PostgreSQL ${server.version}`);

    const record = (b: Bench, action: 'scan' | 'ship' | 'print', tracking: string | null, subject: string): void => {
      const id = b.store.activity.record({ action, packerId: null, packerName: `Packer ${b.index + 1}`, stationName: b.name, trackingNumber: tracking, subject });
      b.recorded.set(id, { action, tracking });
      b.lastId = id;
    };

    let outage = false;
    const claimMs: number[] = [];
    let refusedOffline = 0;
    let refusedOther = 0;
    let shipped = 0;
    const start = performance.now();

    // One bench's hour: a shipment every pace; a claim refused while the warehouse is away is tried again at the next one.
    const runBench = async (b: Bench): Promise<void> => {
      let next = start + (b.index * PACE_MS) / BENCHES;
      for (let j = 0; j < PER_HOUR; ) {
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
        next = Math.max(next + PACE_MS, performance.now());
        const key = `Bottega #${b.index + 1}-${1000 + j}`;
        const t = performance.now();
        const claim = await b.link.claim(key, `Packer ${b.index + 1}`);
        const ms = performance.now() - t;
        record(b, 'scan', null, key);
        if (!claim.won) {
          if (claim.offline) refusedOffline++;
          else refusedOther++;
          continue;
        }
        if (!outage && b.link.status().connected) claimMs.push(ms);
        const tracking = `GLS${String(b.index + 1).padStart(2, '0')}${String(1000 + j)}`;
        record(b, 'ship', tracking, key);
        record(b, 'print', tracking, key);
        await b.link.release(key);
        shipped++;
        j++;
      }
    };

    // 20 changes of one shared setting, each at another bench, spread over the hour; none while the warehouse is away.
    const propagation: number[] = [];
    let missedApplies = 0;
    const settingsLoop = async (): Promise<void> => {
      for (let k = 0; k < SETTING_CHANGES; ) {
        await sleep(HOUR_MS / (SETTING_CHANGES + 2));
        const from = benches[(k * 7) % BENCHES]!;
        if (outage || !benches.every((b) => b.link.status().connected)) continue;
        const p: Pending = { value: k % 2 === 1, t0: performance.now(), from: from.index, seen: new Map() };
        pending = p;
        try {
          await from.link.share([{ key: `setting:${SETTING_KEY}`, value: p.value }]);
        } catch (e) {
          console.log(`  setting change ${k + 1} at ${from.name} refused: ${e instanceof StationError ? `${e.code}: ${e.message}` : String(e)}`);
          pending = null;
          continue;
        }
        const deadline = performance.now() + 15_000;
        while (p.seen.size < BENCHES - 1 && performance.now() < deadline) await sleep(10);
        missedApplies += BENCHES - 1 - p.seen.size;
        propagation.push(...p.seen.values());
        pending = null;
        k++;
      }
    };

    // A third into the hour PostgreSQL goes away for 10 simulated minutes; then: how long until every row is in.
    let catchUpMs = NaN;
    let caughtUpAt = NaN;
    let outageFrom = NaN;
    const outageLoop = async (): Promise<void> => {
      await sleep(OUTAGE_AT_MS);
      outage = true;
      outageFrom = Date.now();
      server.stopServer();
      console.log(`  PostgreSQL stopped at ${Math.round(performance.now() - start)} ms for ${OUTAGE_MS} ms (10 simulated minutes)`);
      await sleep(OUTAGE_MS);
      const targets = benches.map((b) => ({ id: b.link.status().bench.id, last: b.lastId }));
      const total = targets.reduce((s, t) => s + t.last, 0);
      server.startServer();
      const back = performance.now();
      outage = false;
      for (;;) {
        const n = await countUpTo(adminConfig, targets).catch(() => -1);
        if (n === total) break;
        if (performance.now() - back > 120_000) throw new Error(`after the outage only ${n} of ${total} rows reached the warehouse in 120 s`);
        await sleep(50);
      }
      catchUpMs = performance.now() - back;
      caughtUpAt = Date.now();
      console.log(`  PostgreSQL back; the ${total} rows recorded until then were all in the warehouse ${Math.round(catchUpMs)} ms later`);
    };

    await Promise.all([...benches.map(runBench), settingsLoop(), outageLoop()]);
    const hourMs = performance.now() - start;

    // Everything recorded reaches the warehouse, then the links close (sending what is left, as a station's close does).
    const targets = benches.map((b) => ({ id: b.link.status().bench.id, last: b.lastId }));
    const total = targets.reduce((s, t) => s + t.last, 0);
    const drainFrom = performance.now();
    while ((await countUpTo(adminConfig, targets).catch(() => -1)) !== total && performance.now() - drainFrom < 60_000) await sleep(100);
    for (const b of benches) await b.link.close();

    const db = new pg.Client(adminConfig);
    await db.connect();
    const rows = (
      await db.query<{ bench_id: string; seq: string; action: string; tracking_number: string | null; lag: number; at: Date }>(
        'SELECT bench_id, seq, action, tracking_number, at, (extract(epoch FROM received_at) - extract(epoch FROM at)) * 1000 AS lag FROM activity',
      )
    ).rows;
    const dup = (await db.query<{ n: number }>('SELECT (count(*) - count(DISTINCT (bench_id, seq)))::int AS n FROM activity')).rows[0]!.n;
    await db.end();

    const byId = new Map(benches.map((b) => [b.link.status().bench.id, b]));
    const seen = new Set<string>();
    let foreign = 0;
    const lags: number[] = [];
    for (const r of rows) {
      const b = byId.get(r.bench_id);
      const mine = b?.recorded.get(Number(r.seq));
      if (!mine || mine.action !== r.action || mine.tracking !== r.tracking_number) {
        foreign++;
        continue;
      }
      seen.add(`${r.bench_id}/${r.seq}`);
      const at = r.at.getTime();
      if (!(at >= outageFrom && at <= caughtUpAt)) lags.push(Number(r.lag));
    }
    let lost = 0;
    for (const b of benches) for (const id of b.recorded.keys()) if (!seen.has(`${b.link.status().bench.id}/${id}`)) lost++;
    const duplicated = dup + foreign;

    claimMs.sort((a, b) => a - b);
    propagation.sort((a, b) => a - b);
    lags.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        bench: 'warehouse',
        benches: BENCHES,
        shipments: shipped,
        claimP95Ms: round2(quantile(claimMs, 0.95)),
        settingPropagationP95Ms: round2(quantile(propagation, 0.95)),
        activityLagP95Ms: round2(quantile(lags, 0.95)),
        offlineCatchUpMs: Math.round(catchUpMs),
        lost,
        duplicated,
      }),
    );
    const recorded = benches.reduce((s, b) => s + b.recorded.size, 0);
    console.log(`  ${shipped} shipments in ${Math.round(hourMs)} ms of wall time (the simulated hour plus the outage's delay); ${recorded} activity rows recorded, ${rows.length} in the warehouse`);
    console.log(`  claims: ${claimMs.length} won while connected, median ${round2(quantile(claimMs, 0.5))} ms, p95 ${round2(quantile(claimMs, 0.95))} ms, max ${round2(claimMs.at(-1) ?? NaN)} ms (goal p95 ≤ 20 ms); ${refusedOffline} refused while the warehouse was away, ${refusedOther} held elsewhere`);
    console.log(`  setting propagation: ${SETTING_CHANGES} changes × ${BENCHES - 1} benches, median ${round2(quantile(propagation, 0.5))} ms, p95 ${round2(quantile(propagation, 0.95))} ms, max ${round2(propagation.at(-1) ?? NaN)} ms (goal p95 ≤ 2000 ms); not applied within 15 s: ${missedApplies}`);
    console.log(`  activity lag: ${lags.length} rows, median ${round2(quantile(lags, 0.5))} ms, p95 ${round2(quantile(lags, 0.95))} ms, max ${round2(lags.at(-1) ?? NaN)} ms (goal p95 ≤ 2000 ms; the link sends every 1000 ms)`);
    console.log(`  offline: caught up ${Math.round(catchUpMs)} ms after PostgreSQL came back (the benches retry at their heartbeat, 20 s by default); lost ${lost}, duplicated ${dup}, foreign or changed ${foreign}`);
    const offlineLines = benches.reduce((s, b) => s + b.logs.filter((l) => !l.includes(' connected as ')).length, 0);
    console.log(`  the benches' logs: ${offlineLines} lines saying the warehouse went away (one per bench per outage expected)${benches[0]?.logs.find((l) => !l.includes(' connected as ')) ? `, e.g. "${benches[0].logs.find((l) => !l.includes(' connected as '))}"` : ''}`);
    if (lost || duplicated || shipped !== BENCHES * PER_HOUR || missedApplies) process.exitCode = 1;
  } finally {
    for (const b of benches) {
      await b.link.close().catch(() => undefined);
      b.store.close();
    }
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** How many of each bench's rows 1..last are in the warehouse (a fresh connection: the server may have restarted). */
async function countUpTo(config: pg.ClientConfig, targets: ReadonlyArray<{ id: string; last: number }>): Promise<number> {
  const db = new pg.Client(config);
  await db.connect();
  try {
    const res = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM activity a JOIN unnest($1::text[], $2::bigint[]) AS t(bench_id, last) ON a.bench_id = t.bench_id AND a.seq <= t.last',
      [targets.map((t) => t.id), targets.map((t) => t.last)],
    );
    return res.rows[0]!.n;
  } finally {
    await db.end().catch(() => undefined);
  }
}
