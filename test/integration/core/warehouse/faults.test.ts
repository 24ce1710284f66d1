/**
 * Issue 35 item 7, the warehouse's faults, each against a real PostgreSQL (test/support/postgres.ts):
 *
 * 1. PostgreSQL stopped in the middle of a day at three benches (real stations on the sandbox): they keep
 *    scanning, shipping the orders they hold and printing; when it is back every activity row arrives once.
 * 2. A bench killed with SIGKILL while sending (a bench process of its own, test/support/warehouse-bench-child.ts):
 *    started again on the same data folder, it sends every row, none lost, none twice.
 * 3. A claim held by a killed bench: refused naming that bench while it lives; after the heartbeat timeout
 *    another bench's claim takes the order over.
 * 4. A wrong password, a refused TLS, an unreachable host: one clear log line, `warehouse.status` offline
 *    since when, and the bench starts alone and ships.
 * 5. A warehouse of an older schema: the bench says to run `npm run warehouse`, which migrates it, then the
 *    bench joins; a warehouse newer than the bench: it says to update this station.
 *
 * Nothing here waits a fixed time to assert: every wait polls with a generous deadline. Benches heartbeat
 * every 200 ms (the station's default is 20 s), so a fault of a few seconds lasts many heartbeats and
 * activity intervals: for a bench, that is what a 10-minute outage is.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type StartedStation } from '../../../../electron/shell/start';
import { openStore } from '../../../../electron/core/store';
import { createWarehouseLink } from '../../../../electron/core/warehouse/link';
import { warehouseClientConfig } from '../../../../electron/core/warehouse/connection';
import { WAREHOUSE_SCHEMA_VERSION } from '../../../../electron/core/warehouse/schema';
import { benchLogin, createWarehouse } from '../../../support/warehouse';
import type { Sandbox } from '../../../../electron/sandbox/index';
import { shopifyCsv } from '../../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../../fixtures/shopify/warehouse-order';
import { freePort, startTestPostgres, type TestPostgres } from '../../../support/postgres';
import { invokerOf, orderByNumber, parcel, startSandbox, stationConfig, stationFailure, tempDir } from '../helpers';

const ROOT = path.resolve(__dirname, '../../../..');
const CHILD = path.join(ROOT, 'test/support/warehouse-bench-child.ts');

let server: TestPostgres;
let sb: Sandbox;
let databases = 0;
const dirs: Array<ReturnType<typeof tempDir>> = [];
const children: ChildProcess[] = [];
const pgPasswordBefore = process.env.PGPASSWORD;

/** Polls `check` every 50 ms until it answers something other than undefined; throws naming `what` after `ms`. */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const got = await check();
      if (got !== undefined) return got;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A new warehouse database at `schema` (default the newest), made and migrated by its owner as the README says; the owner's URL (no password). */
async function warehouse(schema = WAREHOUSE_SCHEMA_VERSION): Promise<string> {
  return createWarehouse(server, `faults_${databases++}`, undefined, schema);
}

let logins = 0;
/** A bench's own login in warehouse_bench for the warehouse at `url` (README): one per bench. */
const nextBench = (url: string): Promise<string> => benchLogin(server, url, `bench${++logins}`);

/**
 * Runs `f` on a fresh connection to `url`'s database as the cluster's superuser (the server may have restarted
 * since the last one): the test's own eyes (pg_stat_activity of every login, a trigger to hold a batch), never a bench.
 */
async function withDb<T>(url: string, f: (db: pg.Client) => Promise<T>): Promise<T> {
  const superuser = new URL(url);
  superuser.username = 'postgres';
  const db = new pg.Client(warehouseClientConfig(superuser.toString(), server.password).config);
  await db.connect();
  try {
    return await f(db);
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** A row of activity: its key at the bench, what was done, the tracking number. */
interface Row {
  seq: number;
  action: string;
  tracking: string | null;
}

/** The activity rows of a station's data folder, oldest first (read beside the running station). */
function localRows(dataDir: string): Row[] {
  const db = new Database(path.join(dataDir, 'station.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], { id: number; action: string; tracking_number: string | null }>('SELECT id, action, tracking_number FROM activity ORDER BY id').all().map((r) => ({ seq: r.id, action: r.action, tracking: r.tracking_number }));
  } finally {
    db.close();
  }
}

/** The rows the warehouse keeps of bench `benchId`, by seq (each as many times as it is there). */
async function warehouseRows(url: string, benchId: string): Promise<Row[]> {
  return withDb(url, async (db) =>
    (await db.query<{ seq: string; action: string; tracking_number: string | null }>('SELECT seq, action, tracking_number FROM activity WHERE bench_id = $1 ORDER BY seq', [benchId])).rows.map((r) => ({
      seq: Number(r.seq),
      action: r.action,
      tracking: r.tracking_number,
    })),
  );
}

/** A station of the demo account, labels to a folder, its log lines collected. */
async function station(warehouseUrl: string): Promise<{ station: StartedStation; dir: string; logs: string[]; invoke: ReturnType<typeof invokerOf> }> {
  const tmp = tempDir();
  dirs.push(tmp);
  const logs: string[] = [];
  const s = await startStation(
    { ...stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), warehouseUrl },
    { platformRateLimits: false, warehouse: { heartbeatMs: 200, activityMs: 100 }, log: (line) => logs.push(line) },
  );
  return { station: s, dir: tmp.dir, logs, invoke: invokerOf(() => s) };
}

/** `warehouse.status` once it says `connected` is `want` (with a since). */
function status(invoke: ReturnType<typeof invokerOf>, want: boolean) {
  return until(`warehouse.status connected ${want}`, async () => {
    const s = await invoke('warehouse.status', {});
    return s.connected === want && s.since !== null ? s : undefined;
  });
}

/** Starts the bench child process; resolves with it and its JSON lines as they come. */
function child(dataDir: string, url: string, mode: 'send' | 'claim', arg: string): { proc: ChildProcess; lines: unknown[]; exited: Promise<NodeJS.Signals | number | null> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, url, mode, arg], { cwd: ROOT, env: { ...process.env, PGPASSWORD: server.password }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(proc);
  const lines: unknown[] = [];
  let buf = '';
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      lines.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
  proc.stderr!.resume();
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => proc.once('exit', (code, signal) => resolve(signal ?? code)));
  return { proc, lines, exited };
}

const request = {
  recipient: { name: 'Giulia Bianchi', address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' } },
  packages: [parcel()],
};

/** Orders #7001..#7009: three for each of three benches. */
const csv = shopifyCsv(
  Array.from({ length: 9 }, (_, i) =>
    order({
      name: `#${7001 + i}`,
      id: `770000000${7001 + i}`,
      created: '2026-11-20 10:00:00 +0000',
      email: `c${i}@example.it`,
      ship: { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' },
      items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }],
      total: '30.00',
    }),
  ).flat(),
);

beforeAll(async () => {
  server = await startTestPostgres();
  // The benches' password as a bench gets it without a secret store: PGPASSWORD (never the URL).
  process.env.PGPASSWORD = server.password;
  sb = await startSandbox();
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sb?.close();
  for (const d of dirs) d.cleanup();
  server?.stop();
  if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD;
  else process.env.PGPASSWORD = pgPasswordBefore;
});

describe('PostgreSQL stopped in the middle of the day', () => {
  it('three benches keep scanning, shipping what they hold and printing; afterwards every row is in the warehouse once', async () => {
    const url = await warehouse();
    const benches = [];
    for (let k = 0; k < 3; k++) benches.push(await station(await nextBench(url)));
    try {
      for (const [k, b] of benches.entries()) {
        await b.invoke('orders.importCsv', { fileName: 'day.csv', shop: 'Bottega', content: csv });
        await b.invoke('packers.setStation', { stationName: `Bench ${k + 1}`, idleMinutes: 30 });
      }
      const ids: string[] = [];
      const shipped: string[][] = [[], [], []];
      for (const [k, b] of benches.entries()) {
        ids.push((await status(b.invoke, true)).bench.id);
        // Before: bench k opens and ships its first order, then opens its second (the claim it will hold).
        const first = `#${7001 + 3 * k}`;
        expect((await b.invoke('scan.resolve', { code: first })).kind).toBe('order');
        shipped[k]!.push((await b.invoke('shipping.shipOrder', { orderId: (await orderByNumber(b.invoke, first)).id, request })).shipment.trackingNumber);
        expect(await b.invoke('scan.resolve', { code: `#${7002 + 3 * k}` })).toMatchObject({ kind: 'order' });
      }

      server.stopServer();
      const stoppedAt = Date.now();
      try {
        for (const b of benches) expect((await status(b.invoke, false)).connected).toBe(false);
        for (const [k, b] of benches.entries()) {
          // The order it holds ships; the label of the first is printed again; the third, never claimed, is refused.
          const held = await orderByNumber(b.invoke, `#${7002 + 3 * k}`);
          shipped[k]!.push((await b.invoke('shipping.shipOrder', { orderId: held.id, request })).shipment.trackingNumber);
          await b.invoke('labels.reprint', { trackingNumber: shipped[k]![0]! });
          expect((await b.invoke('scan.resolve', { code: `#${7003 + 3 * k}` })).kind).toBe('order');
          const refused = await stationFailure(b.invoke('shipping.shipOrder', { orderId: (await orderByNumber(b.invoke, `#${7003 + 3 * k}`)).id, request }));
          expect(refused.code).toBe('claimed');
        }
        // The packers keep scanning for ten heartbeats and twenty activity intervals (2 s) and at least ten times
        // each: a long outage in the benches' terms, each failing to reach the warehouse at every one of them.
        for (let scans = 0; scans < 10 || Date.now() - stoppedAt < 2000; scans++) for (const [k, b] of benches.entries()) await b.invoke('scan.resolve', { code: `#${7002 + 3 * k}` });
        for (const b of benches) expect((await b.invoke('warehouse.status', {})).connected).toBe(false);
      } finally {
        server.startServer();
      }
      const startedAt = Date.now();

      for (const b of benches) await status(b.invoke, true);
      for (const [k, b] of benches.entries()) {
        const local = localRows(b.dir);
        // What was done while the warehouse was away is there: two shipments, their prints, the reprint, many scans.
        expect(local.filter((r) => r.action === 'ship').map((r) => r.tracking)).toEqual(shipped[k]);
        expect(local.filter((r) => r.action === 'reprint')).toHaveLength(1);
        expect(local.filter((r) => r.action === 'scan').length).toBeGreaterThan(10);
        await until(`bench ${k + 1}'s rows in the warehouse`, async () => ((await warehouseRows(url, ids[k]!)).length >= local.length ? true : undefined));
        expect(await warehouseRows(url, ids[k]!)).toEqual(local);
      }
      // Once more after the catch-up: a new scan arrives, and nothing sent before comes twice.
      for (const [k, b] of benches.entries()) {
        await b.invoke('scan.resolve', { code: `#${7002 + 3 * k}` });
        const local = localRows(b.dir);
        await until(`bench ${k + 1}'s new scan`, async () => ((await warehouseRows(url, ids[k]!)).length >= local.length ? true : undefined));
        expect(await warehouseRows(url, ids[k]!)).toEqual(local);
      }
      const recordedAway = await withDb(url, async (db) => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM activity WHERE at BETWEEN $1 AND $2', [new Date(stoppedAt), new Date(startedAt)])).rows[0]!.n);
      expect(recordedAway).toBeGreaterThan(30);
      expect((await withDb(url, (db) => db.query('SELECT count(*) - count(DISTINCT (bench_id, seq)) AS d FROM activity'))).rows).toEqual([{ d: '0' }]);
    } finally {
      for (const b of benches) await b.station.close();
    }
  }, 120_000);
});

describe('a bench killed with SIGKILL while sending', () => {
  it('started again on the same data folder it sends every row: none lost, none twice', async () => {
    const url = await warehouse();
    // The warehouse holds the bench's second batch (rows 501..1000) until the test lets it go: the bench is killed
    // with that INSERT in flight, after the first batch was taken.
    await withDb(url, (db) =>
      db.query(`
        CREATE FUNCTION hold_second_batch() RETURNS trigger LANGUAGE plpgsql AS $f$
        BEGIN
          IF NEW.seq = 501 THEN PERFORM pg_advisory_lock_shared(35); PERFORM pg_advisory_unlock_shared(35); END IF;
          RETURN NEW;
        END $f$;
        CREATE TRIGGER hold_second_batch BEFORE INSERT ON activity FOR EACH ROW EXECUTE FUNCTION hold_second_batch();
      `),
    );
    const gate = new pg.Client(warehouseClientConfig(url, server.password).config);
    const bench = await nextBench(url);
    await gate.connect();
    await gate.query('SELECT pg_advisory_lock(35)');
    const tmp = tempDir();
    dirs.push(tmp);
    const ROWS = 3000;
    try {
      const first = child(tmp.dir, bench, 'send', String(ROWS));
      const benchId = await until('the bench child started', () => (first.lines[0] as { bench?: string } | undefined)?.bench);
      const count = () => withDb(url, async (db) => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM activity WHERE bench_id = $1', [benchId])).rows[0]!.n);
      const waiting = () => withDb(url, async (db) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory' AND query LIKE 'INSERT INTO activity%'`)).rows[0]!.n);
      await until('the first batch taken and the second in flight', async () => ((await count()) === 500 && (await waiting()) === 1 ? true : undefined));
      first.proc.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
      // The killed bench's INSERT goes on in the warehouse once let go: the warehouse takes a batch the bench never
      // heard back about (its SQLite still says 500 sent), and the bench started again sends it again.
      await gate.query('SELECT pg_advisory_unlock(35)');
      await until('the orphaned INSERT finished', async () => ((await waiting()) === 0 ? true : undefined));
      const afterKill = await count();
      // PostgreSQL commits a statement at the Sync that follows it, before it writes the answer to the gone
      // client: the batch is kept, unknown to the bench.
      expect(afterKill).toBe(1000);

      const again = child(tmp.dir, bench, 'send', String(ROWS));
      expect(await until('the bench child started again', () => (again.lines[0] as { bench?: string } | undefined)?.bench)).toBe(benchId);
      await until(`all ${ROWS} rows in the warehouse`, async () => ((await count()) >= ROWS ? true : undefined));
      again.proc.kill('SIGTERM');
      expect(await again.exited).toBe(0);
      const local = localRows(tmp.dir);
      expect(local).toHaveLength(ROWS);
      expect(await warehouseRows(url, benchId)).toEqual(local);
    } finally {
      await gate.end();
    }
  }, 120_000);
});

describe('a claim held by a killed bench', () => {
  it('is refused naming that bench; after the heartbeat timeout another bench takes the order over', async () => {
    const url = await warehouse();
    const tmp = tempDir();
    dirs.push(tmp);
    const dead = child(tmp.dir, await nextBench(url), 'claim', 'Bottega #9001');
    await until('the bench child claimed', () => (dead.lines[1] as { claim?: unknown } | undefined)?.claim);
    expect(dead.lines[1]).toEqual({ claim: { won: true } });
    const deadId = (dead.lines[0] as { bench: string }).bench;

    const mine = tempDir();
    dirs.push(mine);
    const store = openStore(path.join(mine.dir, 'station.sqlite'));
    const TIMEOUT_S = 3;
    const link = createWarehouseLink({ url: await nextBench(url), store, benchName: () => 'Bench 2', heartbeatMs: 200, activityMs: 100, claimTimeoutS: TIMEOUT_S });
    try {
      await until('Bench 2 connected', () => (link.status().connected ? true : undefined));
      // Bench 9 lives (its heartbeat every 200 ms): its claim stands.
      expect(await link.claim('Bottega #9001', 'Marco')).toEqual({ won: false, benchName: 'Bench 9', packer: 'Anna', since: expect.any(String), offline: false });

      dead.proc.kill('SIGKILL');
      expect(await dead.exited).toBe('SIGKILL');
      const refusals: unknown[] = [];
      await until(
        'Bench 2 took the order over',
        async () => {
          const c = await link.claim('Bottega #9001', 'Marco');
          if (c.won) return true;
          refusals.push(c);
          return undefined;
        },
        60_000,
      );
      // Until then every refusal named the dead bench; the take-over came no sooner than the timeout after its last heartbeat.
      for (const r of refusals) expect(r).toMatchObject({ won: false, benchName: 'Bench 9', packer: 'Anna', offline: false });
      const row = await withDb(url, async (db) =>
        (await db.query<{ bench_id: string; packer: string; silent_s: number }>(`SELECT c.bench_id, c.packer, extract(epoch FROM c.claimed_at - b.heartbeat_at)::float AS silent_s FROM claims c, benches b WHERE c.order_key = 'Bottega #9001' AND b.id = $1`, [deadId])).rows[0],
      );
      expect(row).toMatchObject({ bench_id: link.status().bench.id, packer: 'Marco' });
      expect(row!.silent_s).toBeGreaterThanOrEqual(TIMEOUT_S);
    } finally {
      await link.close();
      store.close();
    }
  }, 120_000);
});

/** A TCP port on 127.0.0.1 nothing listens on. */
const closedPort = freePort;

describe('a warehouse the bench cannot join', () => {
  it.each([
    ['a wrong password', async (url: string) => ({ url: await nextBench(url), password: 'not-the-password', says: /: the warehouse refused the password of user "bench\d+" \(password authentication failed for user "bench\d+"\): check PGPASSWORD, ~\/.pgpass or the password saved on this station$/ })],
    ['a refused TLS (sslmode=require, a server without SSL)', async (url: string) => ({ url: `${await nextBench(url)}?sslmode=require`, password: server.password, says: /: the warehouse server at 127\.0\.0\.1:\d+ does not offer TLS and the URL asks for it \(sslmode\)/ })],
    ['an unreachable host (a closed port)', async () => ({ url: `postgres://postgres@127.0.0.1:${await closedPort()}/warehouse`, password: server.password, says: /: nothing answers at 127\.0\.0\.1:\d+ \(connect ECONNREFUSED [\d.:]+\): is PostgreSQL running there, on that port\?$/ })],
  ])('%s: one clear log line, offline since when, and the bench starts alone and ships', async (_name, setup) => {
    const wh = await setup(await warehouse());
    process.env.PGPASSWORD = wh.password;
    try {
      const b = await station(wh.url);
      try {
        const st = await status(b.invoke, false);
        expect(st).toEqual({ connected: false, since: expect.any(String), bench: { id: expect.any(String), name: expect.any(String) } });
        expect((await b.invoke('app.info', {})).warehouse).toEqual(st);
        const lines = b.logs.filter((l) => l.startsWith('warehouse'));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(wh.says);
        expect(lines.join('\n')).not.toContain(server.password);
        // The bench works alone: a parcel that is not an order of the warehouse ships and prints.
        const shipped = await b.invoke('shipping.shipOrder', { request });
        expect(shipped.shipment.trackingNumber).toBeTruthy();
        expect((await b.invoke('warehouse.status', {})).connected).toBe(false);
      } finally {
        await b.station.close();
      }
    } finally {
      process.env.PGPASSWORD = server.password;
    }
  }, 60_000);
});

/** Runs `npm run warehouse` on `url` (migrate only), as the supervisor would. */
function migrateWithCli(url: string) {
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/warehouse/cli.ts'), ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PGPASSWORD: server.password, STATION_WAREHOUSE_URL: '' },
      timeout: 60_000,
    });
  // `--migrate-only` (the CLI that also serves the supervisor's page); a CLI that only migrates does not know it.
  const res = run(['--warehouse', url, '--migrate-only']);
  return res.status === 2 && res.stderr.includes('unknown option --migrate-only') ? run(['--warehouse', url]) : res;
}

describe('a warehouse of another schema version', () => {
  it('an older one: the bench says to run npm run warehouse; once it ran, the bench joins', async () => {
    // A warehouse of schema 1 predates the benches' role: its benches joined as its owner.
    const url = await warehouse(1);
    const b = await station(url);
    try {
      await status(b.invoke, false);
      const said = await until('the bench said what to run', () => b.logs.find((l) => l.startsWith('warehouse')));
      expect(said).toContain(`at schema 1 and this station needs ${WAREHOUSE_SCHEMA_VERSION}`);
      expect(said).toContain('npm run warehouse');

      const cli = migrateWithCli(url);
      expect(cli.stderr).toBe('');
      expect(cli.status).toBe(0);
      expect(JSON.parse(cli.stdout.trim().split('\n')[0]!)).toEqual({ migrated: { from: 1, to: WAREHOUSE_SCHEMA_VERSION } });
      const joined = await status(b.invoke, true);
      expect(b.logs.filter((l) => / connected as /.test(l))).toHaveLength(1);
      await withDb(url, async (db) => expect((await db.query('SELECT id FROM benches')).rows).toEqual([{ id: joined.bench.id }]));
    } finally {
      await b.station.close();
    }
  }, 90_000);

  it('a newer one: the bench says to update this station and works alone', async () => {
    const url = await warehouse();
    await withDb(url, (db) => db.query('UPDATE warehouse_schema SET version = $1', [WAREHOUSE_SCHEMA_VERSION + 1]));
    const b = await station(await nextBench(url));
    try {
      expect((await status(b.invoke, false)).connected).toBe(false);
      const said = await until('the bench said to update', () => b.logs.find((l) => l.startsWith('warehouse')));
      expect(said).toContain(`at schema ${WAREHOUSE_SCHEMA_VERSION + 1}, newer than this station knows (${WAREHOUSE_SCHEMA_VERSION}): update this station`);
      expect((await b.invoke('shipping.shipOrder', { request })).shipment.trackingNumber).toBeTruthy();
      await withDb(url, async (db) => expect((await db.query('SELECT count(*)::int AS n FROM benches')).rows).toEqual([{ n: 0 }]));
    } finally {
      await b.station.close();
    }
  }, 60_000);
});
