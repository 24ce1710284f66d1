/**
 * Bench `account-budget` (issue 43): 50 benches of one platform account on one warehouse, the station's own code
 * (50 stations started with `startStation`, each on its own login in `warehouse_bench`, as the README sets a floor
 * up), against one PostgreSQL and the sandbox with the spec's rate limits on.
 *
 * Time: the sandbox's clock runs faster than the machine's (./account-budget-sandbox.ts): BENCH_SPEED times (default
 * 10) in the quiet hour, BENCH_BUSY_SPEED times (default 2) in the busy minutes, the benches restarted in between
 * with the rate window of that clock, so a simulated minute lasts 60 / speed s for the platform's limits and the
 * warehouse's budget alike. The stations' own work (claims, the warehouse, the local store, the printer) runs at
 * real speed.
 *
 * The day: 2,000 orders imported at Bench 1 (single- and few-item orders of a six-product catalogue, every one
 * shipping by itself under the rules), labels ahead on (today's orders, headroom 5), then 60 quiet minutes in
 * which the warehouse buys labels ahead, then 10 minutes at 60 presses a minute: each press is a packer at a free
 * bench scanning an order picked at random among those not pressed yet and pressing Ship with the scale's weight
 * (5 % of them 40 % heavier than planned: their label ahead is cancelled and a new one bought). Then the day is
 * closed once for the warehouse (the supervisor's close, electron/warehouse/day-close.ts).
 *
 * Figures (JSON keys as issue 43 names them):
 * - platform429: 429 answers the platform gave any bench (the stations' call logs).
 * - maxPerWindow: most label purchases the platform recorded in any 60 s of its clock (its own createdAt).
 * - labelWaitP50Ms / labelWaitP95Ms: press to label printed, in the simulated clock: the station's own time as
 *   is, and the time it slept for the account's budget (the platform client's waits) times BENCH_BUSY_SPEED.
 * - aheadUsedPct: labels ahead a bench used, of those bought; aheadCancelled: cancelled (weight off, day close).
 * - manifestUnprinted: shipments in the close's manifests that no bench printed (0 expected).
 * - duplicated: orders with more than one live shipment on the platform; lost: pressed orders not shipped in
 *   the warehouse at the end.
 * Beside them, the human lines: the waits of presses with and without a label ahead, and how many presses waited
 * longer than their place in the queue at 30 a minute plus 1 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startStation, type StartedStation } from '../../electron/shell/start';
import { warehouseClientConfig } from '../../electron/core/warehouse/connection';
import { shopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { order } from '../fixtures/shopify/warehouse-order';
import { startTestPostgres } from '../support/postgres';
import { closeDay as closeWarehouseDay } from '../../electron/warehouse/day-close';
import { createWarehousePlatform } from '../../electron/warehouse/platform';
import { benchLogin, createWarehouse } from '../support/warehouse';
import { labelPrinter } from './scan-to-label';

const BENCHES = Number(process.env.BENCH_ACCOUNT_BENCHES ?? 50);
const ORDERS = Number(process.env.BENCH_ACCOUNT_ORDERS ?? 2000);
/** The platform's clock in the quiet hour, times the machine's (default 10). */
const SPEED = Number(process.env.BENCH_SPEED ?? 10);
/**
 * The platform's clock in the busy minutes (default 2): one machine hosts the 50 benches, and every shipment
 * wakes every bench (the warehouse's orders NOTIFY), work a real floor spreads over 50 machines; a slower clock
 * keeps that work near a real floor's rate, so the waits measured are the budget's, not this machine's.
 */
const BUSY_SPEED = Number(process.env.BENCH_BUSY_SPEED ?? 2);
const QUIET_MIN = Number(process.env.BENCH_ACCOUNT_QUIET_MIN ?? 60);
const BUSY_MIN = Number(process.env.BENCH_ACCOUNT_BUSY_MIN ?? 10);
const DEMAND_PER_MIN = 60;
/** The labels a minute of the account (spec: Limits), for the goal of a press without a label ahead. */
const LABELS_PER_MIN = 30;

/** The catalogue (kg, cm): sku, weight, length, width, height, description. */
const CATALOGUE: Array<[string, number, number, number, number, string]> = [
  ['MUG-01', 0.35, 10, 10, 11, 'Tazza grande'],
  ['BOWL-14', 0.3, 14, 14, 7, 'Ciotola'],
  ['PLATE-27', 0.6, 28, 28, 4, 'Piatto piano'],
  ['VASE-20', 1.2, 20, 20, 25, 'Vaso'],
  ['JUG-1L', 0.8, 14, 14, 22, 'Brocca'],
  ['SAUCER', 0.15, 14, 14, 2, 'Piattino'],
];
const BOXES = [
  { name: 'Small', lengthCm: 25, widthCm: 20, heightCm: 10, tareKg: 0.15, barcode: null },
  { name: 'Medium', lengthCm: 32, widthCm: 32, heightCm: 15, tareKg: 0.25, barcode: null },
  { name: 'Large', lengthCm: 40, widthCm: 30, heightCm: 30, tareKg: 0.4, barcode: null },
];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A seeded random source in [0, 1) (the same day every run). */
function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** The sandbox child's first line. */
interface SandboxLine {
  baseUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Starts ./account-budget-sandbox.ts and reads its line. */
async function startSandboxChild(): Promise<{ child: ChildProcess; line: SandboxLine }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'account-budget-sandbox.ts')], {
    env: { ...process.env, BENCH_SPEED: String(SPEED) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const rl = readline.createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the sandbox child ended (${code}) before listening`)));
  });
  return { child, line: JSON.parse(first) as SandboxLine };
}

/** One bench: its station, the time its platform client slept for the budget, its 429s, and whether a packer is at it. */
interface Bench {
  index: number;
  station: StartedStation;
  sleptMs: number;
  platform429: number;
  busy: boolean;
  /** The station's last log lines (shown when the bench cannot go on). */
  logs: string[];
}

/** One press: the order, when, how long the packer waited (simulated ms), whether a label ahead served it, its place. */
interface Press {
  orderNumber: string;
  waitSimMs: number;
  ahead: boolean;
  /** Presses still waiting for their label when this one was pressed. */
  placeAtPress: number;
  trackingNumber: string | null;
  error: string | null;
}

/** The platform's shipments (GET /shipments, every page) as the account sees them: tracking number, reference, created, status. */
async function platformShipments(line: SandboxLine): Promise<Array<{ trackingNumber: string; reference: string | null; createdAt: string; statusKey: string }>> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: line.clientId, client_secret: line.clientSecret, scope: 'client-api' });
  const tok = (await (await fetch(`${line.authUrl}/oauth/token`, { method: 'POST', body: form })).json()) as { access_token: string };
  const out: Array<{ trackingNumber: string; reference: string | null; createdAt: string; statusKey: string }> = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${line.baseUrl}/shipments?per_page=200&page=${page}&from=2000-01-01`, { headers: { authorization: `Bearer ${tok.access_token}`, accept: 'application/json' } });
    if (res.status === 429) {
      await sleep(Number(res.headers.get('retry-after') ?? 1) * (1000 / BUSY_SPEED) + 50);
      page--;
      continue;
    }
    const body = (await res.json()) as { data: Array<{ trackingNumber: string; reference?: string | null; createdAt: string; status: { key: string } }>; pagination?: { totalPages?: number } };
    for (const s of body.data) out.push({ trackingNumber: s.trackingNumber, reference: s.reference ?? null, createdAt: s.createdAt, statusKey: s.status.key });
    if (body.data.length < 200) break;
  }
  return out;
}

/** Most items of `times` (ms) in any `windowMs` starting at one of them. */
function maxInWindow(times: number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < t.length; i++) {
    while (t[i]! - t[j]! >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** Runs the bench and prints its JSON line and human lines; `quantile` is the bench's nearest-rank quantile. */
export async function benchAccountBudget(quantile: (sorted: number[], q: number) => number): Promise<void> {
  const server = await startTestPostgres({ maxConnections: BENCHES * 6 + 50 });
  const pgPasswordBefore = process.env.PGPASSWORD;
  process.env.PGPASSWORD = server.password;
  const url = await createWarehouse(server, 'account_budget');
  const owner = new pg.Client(warehouseClientConfig(url, server.password).config);
  await owner.connect();
  const sandbox = await startSandboxChild();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'station-bench-account-'));
  // Every bench's label printer: a ZPL printer on TCP (a label is printed when its last byte is written).
  const printer = await labelPrinter();
  const benches: Bench[] = [];
  try {
    const t0 = performance.now();
    const logins: string[] = [];
    for (let i = 0; i < BENCHES; i++) logins.push(await benchLogin(server, url, `bench${i + 1}`));
    /** Starts (or restarts, on its data folder) bench `i` with the platform's clock at `speed`. */
    const startBench = async (b: Bench, speed: number): Promise<void> => {
      const dataDir = path.join(root, `bench-${b.index}`);
      b.station = await startStation(
        { dataDir, platform: { mode: 'platform', ...sandbox.line }, printerUri: printer.uri, ignoredArgs: [], warehouseUrl: logins[b.index - 1]! },
        {
          platformRateWindowMs: Math.ceil(61_000 / speed),
          // A press waits for its turn, however long (the packer moves on; the label prints when its turn comes).
          platformMaxRateWaitMs: 3_600_000,
          // The buyer's tick in the platform's time: every 5 simulated seconds.
          labelsAhead: { intervalMs: Math.max(100, Math.round(5000 / speed)) },
          retry: {
            sleep: async (ms) => {
              b.sleptMs += Math.max(0, ms);
              await sleep(ms);
            },
          },
          log: (l) => {
            if (/ -> 429 /.test(l)) b.platform429++;
            b.logs.push(l);
            if (b.logs.length > 20) b.logs.shift();
          },
        },
      );
    };
    for (let i = 0; i < BENCHES; i++) {
      const b: Bench = { index: i + 1, station: undefined as unknown as StartedStation, sleptMs: 0, platform429: 0, busy: false, logs: [] };
      await startBench(b, SPEED);
      benches.push(b);
    }
    const first = benches[0]!.station.handlers;
    await first['packers.setStation']({ stationName: 'Bench 1', idleMinutes: 30 });
    await first['rules.import']({
      content: JSON.stringify({ version: 1, rules: [{ name: 'Italia fino a 10 kg', when: { countries: ['IT'], weightKg: { max: 10 } }, then: { rate: 'cheapest', shipByItself: true } }] }),
    });
    const csv = CATALOGUE.map(([sku, kg, l, w, h, d]) => [sku, kg, l, w, h, '691200', 'IT', d, ''].join(','));
    await first['products.importCsv']({ content: ['sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description,shipsAlone', ...csv].join('\n') });
    await first['boxes.settings.set']({ presets: BOXES, defaultBox: 'Medium', marginCm: 0 });
    const rnd = seeded(43);
    const numbers: string[] = [];
    const rows = Array.from({ length: ORDERS }, (_, i) => {
      const name = `#${10001 + i}`;
      numbers.push(name);
      const lines = 1 + (rnd() < 0.3 ? 1 : 0);
      const items = Array.from({ length: lines }, (_, k) => {
        const [sku, , , , , d] = CATALOGUE[(i + k * 3) % CATALOGUE.length]!;
        return { q: '1', n: d, p: '12.00', sku };
      });
      return order({
        name,
        id: String(7700000000000 + i),
        created: '2026-12-07 07:00:00 +0000',
        email: `o${i}@example.it`,
        ship: { name: `Cliente ${i}`, a1: `Via Roma ${1 + (i % 200)}`, city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' },
        items,
        total: (12 * lines).toFixed(2),
      });
    });
    await first['orders.importCsv']({ fileName: 'day.csv', content: shopifyCsv(rows.flat()) });
    // Every bench has the day's orders, rules and products before the day starts.
    // (The list, not a scan: a scan would claim an order.)
    for (const b of benches) {
      for (let tries = 0; ; tries++) {
        const page = await b.station.handlers['orders.page']({ view: 'to_ship', sort: 'oldest', offset: 0, limit: 1 }).catch(() => null);
        if (page?.total === ORDERS) break;
        if (tries > 3000) throw new Error(`bench ${b.index} never got the day's orders; its log: ${b.logs.join(' | ')}`);
        await sleep(100);
      }
    }
    const setupS = (performance.now() - t0) / 1000;
    await owner.query('UPDATE ahead_settings SET enabled = true, rules = NULL, horizon_hours = 24, headroom = 5, changed_at = now()');

    // 60 quiet minutes: the warehouse buys labels ahead.
    await sleep((QUIET_MIN * 60_000) / SPEED);
    const boughtQuiet = Number((await owner.query<{ n: string }>(`SELECT count(*) AS n FROM labels_ahead WHERE state = 'bought'`)).rows[0]?.n ?? 0);

    // The morning's restart: the platform's clock slows to BUSY_SPEED, and every bench starts again on its data folder
    // with the rate window of that clock (their waits for the budget are then counted in the platform's time).
    sandbox.child.stdin?.write(`speed ${BUSY_SPEED}\n`);
    for (const b of benches) await b.station.close();
    for (const b of benches) await startBench(b, BUSY_SPEED);
    for (const b of benches) {
      for (let tries = 0; (await b.station.handlers['warehouse.status']({})).connected !== true; tries++) {
        if (tries > 600) throw new Error(`bench ${b.index} did not join the warehouse again; its log: ${b.logs.join(' | ')}`);
        await sleep(100);
      }
    }
    const SIM_MINUTE_MS = 60_000 / BUSY_SPEED;
    // One minute of the new clock before the first press: the slots taken at the quiet hour's speed leave the window.
    await sleep(SIM_MINUTE_MS + 1000 / BUSY_SPEED);

    // 10 busy minutes at 60 presses a minute.
    const order429Before = benches.reduce((n, b) => n + b.platform429, 0);
    const todo = [...numbers];
    const presses: Press[] = [];
    let inFlight = 0;
    const running: Array<Promise<void>> = [];
    const busyEnd = performance.now() + BUSY_MIN * SIM_MINUTE_MS;
    const pressEvery = SIM_MINUTE_MS / DEMAND_PER_MIN;
    let nextAt = performance.now();
    while (performance.now() < busyEnd && todo.length > 0) {
      const wait = nextAt - performance.now();
      if (wait > 0) await sleep(wait);
      nextAt += pressEvery;
      let bench = benches.find((b) => !b.busy);
      while (!bench) {
        await sleep(5);
        bench = benches.find((b) => !b.busy);
      }
      const orderNumber = todo.splice(Math.floor(rnd() * todo.length), 1)[0]!;
      const heavy = rnd() < 0.05;
      bench.busy = true;
      const b = bench;
      running.push(
        (async () => {
          const h = b.station.handlers;
          // Its place in the line: the presses still waiting for their label when it was pressed.
          const place = inFlight;
          inFlight++;
          const start = performance.now();
          const slept0 = b.sleptMs;
          const press: Press = { orderNumber, waitSimMs: 0, ahead: false, placeAtPress: place, trackingNumber: null, error: null };
          try {
            const found = await h['scan.resolve']({ code: orderNumber });
            if (found.kind !== 'order') throw new Error(`order ${orderNumber} not found (${found.kind})`);
            const plan = await h['shipping.plan']({ orderId: found.order.id });
            // The scale weighs the packed parcel: the plan's parcels, box included.
            const planned = (plan.packages ?? []).reduce((kg, pk) => kg + (pk.weight.units === 'G' ? pk.weight.value / 1000 : pk.weight.value), 0) || (plan.weightKg ?? 1);
            const result = await h['shipping.shipOrder']({ orderId: found.order.id, weightKg: Math.round(planned * (heavy ? 1.4 : 1) * 1000) / 1000 });
            press.trackingNumber = result.shipment.trackingNumber ?? null;
          } catch (e) {
            press.error = (e as Error).message;
          }
          const real = performance.now() - start;
          const slept = b.sleptMs - slept0;
          press.waitSimMs = real - slept + slept * BUSY_SPEED;
          presses.push(press);
          inFlight--;
          b.busy = false;
        })(),
      );
    }
    await Promise.all(running);
    const busy429 = benches.reduce((n, b) => n + b.platform429, 0) - order429Before;

    const used = await owner.query<{ tracking_number: string }>(`SELECT tracking_number FROM labels_ahead WHERE state = 'used'`);
    const usedSet = new Set(used.rows.map((r) => r.tracking_number));
    for (const p of presses) p.ahead = p.trackingNumber !== null && usedSet.has(p.trackingNumber);

    // The supervisor closes once every bench's shipments reached the warehouse (each link sends its activity every second).
    const shippedTracking = presses.map((p) => p.trackingNumber).filter((t): t is string => t !== null);
    for (let tries = 0; tries < 300; tries++) {
      const n = Number((await owner.query<{ n: string }>(`SELECT count(DISTINCT tracking_number) AS n FROM activity WHERE action = 'ship' AND tracking_number = ANY ($1)`, [shippedTracking])).rows[0]?.n ?? 0);
      if (n === shippedTracking.length) break;
      await sleep(100);
    }
    // The day closed once for the warehouse, as the supervisor's page closes it.
    const close = await closeDay(url, server.password, sandbox.line);

    const counts = await owner.query<{ state: string; n: string }>('SELECT state, count(*) AS n FROM labels_ahead GROUP BY state');
    const reasons = await owner.query<{ reason: string; n: string }>(`SELECT coalesce(cancel_reason, '-') AS reason, count(*) AS n FROM labels_ahead WHERE state IN ('cancelled', 'cancel_refused', 'failed') GROUP BY 1`);
    const byState = Object.fromEntries(counts.rows.map((r) => [r.state, Number(r.n)]));
    const boughtTotal = (byState.used ?? 0) + (byState.cancelled ?? 0) + (byState.bought ?? 0) + (byState.printed ?? 0) + (byState.batched ?? 0) + (byState.cancel_refused ?? 0);
    const shipments = await platformShipments(sandbox.line);
    const created = shipments.map((s) => Date.parse(s.createdAt));
    const live = shipments.filter((s) => s.statusKey !== 'cancelled' && s.statusKey !== 'CANCELLED');
    const perOrder = new Map<string, number>();
    for (const s of live) {
      const key = (s.reference ?? '').replace(/-\d+$/, '');
      perOrder.set(key, (perOrder.get(key) ?? 0) + 1);
    }
    const duplicated = [...perOrder.values()].filter((n) => n > 1).length;
    const doubled = [...perOrder].filter(([, n]) => n > 1).map(([key]) => key);
    const doubledDetail = doubled.length
      ? JSON.stringify({
          platform: live.filter((x) => doubled.includes((x.reference ?? '').replace(/-\d+$/, ''))),
          ahead: (await owner.query(`SELECT order_key, state, tracking_number, cancel_reason, bought_by, used_by, reserved_at, bought_at FROM labels_ahead WHERE order_key = ANY ($1)`, [doubled])).rows,
        })
      : '';
    const leftBought = (await owner.query<{ n: string; claimed: string }>(`SELECT count(*) AS n, count(*) FILTER (WHERE EXISTS (SELECT 1 FROM claims c WHERE c.order_key = a.order_key)) AS claimed FROM labels_ahead a WHERE state = 'bought'`)).rows[0];
    const pressedNumbers = presses.map((p) => p.orderNumber);
    const shippedRows = await owner.query<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE shipped_at IS NOT NULL AND value->>'orderNumber' = ANY ($1)`, [pressedNumbers]);
    const lost = presses.length - Number(shippedRows.rows[0]?.n ?? 0);
    const printed = new Set<string>([...usedSet, ...presses.map((p) => p.trackingNumber).filter((t): t is string => t !== null)]);
    const manifestUnprinted = close.manifested.filter((t) => !printed.has(t)).length;
    const waits = presses.filter((p) => p.error === null).map((p) => p.waitSimMs).sort((a, b) => a - b);
    const aheadWaits = presses.filter((p) => p.error === null && p.ahead).map((p) => p.waitSimMs).sort((a, b) => a - b);
    const otherWaits = presses.filter((p) => p.error === null && !p.ahead).map((p) => p.waitSimMs).sort((a, b) => a - b);
    // Its place counts itself: the first in line waits for one slot to free, 2 s at 30 a minute.
    const overGoal = presses.filter((p) => p.error === null && !p.ahead && p.waitSimMs > ((p.placeAtPress + 1) * 60_000) / LABELS_PER_MIN + 1000).length;
    const q = (xs: number[], p: number) => (xs.length ? Math.round(quantile(xs, p)) : null);
    console.log(
      JSON.stringify({
        bench: 'account-budget',
        benches: BENCHES,
        minutes: QUIET_MIN + BUSY_MIN,
        demandLabelsPerMin: DEMAND_PER_MIN,
        platform429: benches.reduce((n, b) => n + b.platform429, 0),
        maxPerWindow: maxInWindow(created, 60_000),
        labelWaitP50Ms: q(waits, 0.5),
        labelWaitP95Ms: q(waits, 0.95),
        aheadUsedPct: boughtTotal ? Math.round(((byState.used ?? 0) / boughtTotal) * 1000) / 10 : 0,
        aheadCancelled: byState.cancelled ?? 0,
        manifestUnprinted,
        duplicated,
        lost,
      }),
    );
    console.log(
      `account-budget: ${BENCHES} benches of one account, the platform's clock ×${SPEED} (quiet) and ×${BUSY_SPEED} (busy), ${ORDERS} orders; setup ${setupS.toFixed(0)} s; ${boughtQuiet} labels ahead bought in ${QUIET_MIN} quiet minutes`,
    );
    console.log(
      `  ${presses.length} presses in ${BUSY_MIN} minutes (${presses.filter((p) => p.error).length} refused${presses.find((p) => p.error) ? `, first: ${presses.find((p) => p.error)?.error}` : ''}); 429s during them: ${busy429}`,
    );
    console.log(`  with a label ahead: ${aheadWaits.length} presses, wait p50 ${q(aheadWaits, 0.5)} ms, p95 ${q(aheadWaits, 0.95)} ms (goal p95 ≤ 1000)`);
    console.log(`  without: ${otherWaits.length} presses, wait p50 ${q(otherWaits, 0.5)} ms, p95 ${q(otherWaits, 0.95)} ms; over their place at 30 a minute + 1 s: ${overGoal}`);
    console.log(`  labels ahead: ${JSON.stringify(byState)}, ended by reason ${JSON.stringify(Object.fromEntries(reasons.rows.map((r) => [r.reason, Number(r.n)])))}`);
    console.log(`  the day's close: ${close.summary}; labels ahead left bought: ${leftBought?.n ?? 0} (${leftBought?.claimed ?? 0} of orders a bench holds)`);
    if (doubledDetail) console.log(`  doubled: ${doubledDetail}`);
  } finally {
    for (const b of benches) await b.station.close().catch(() => undefined);
    await owner.end().catch(() => undefined);
    sandbox.child.stdin?.end();
    await printer.close();
    server.stop();
    fs.rmSync(root, { recursive: true, force: true });
    if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD;
    else process.env.PGPASSWORD = pgPasswordBefore;
  }
}

/** The supervisor's close of the day (electron/warehouse/day-close.ts) as the page runs it: the tracking numbers it manifested and its summary line. */
async function closeDay(url: string, password: string, line: SandboxLine): Promise<{ manifested: string[]; summary: string }> {
  const db = new pg.Pool({ ...warehouseClientConfig(url, password).config, max: 6 });
  try {
    const platform = createWarehousePlatform({ baseUrl: line.baseUrl, authUrl: line.authUrl, clientId: line.clientId, clientSecret: line.clientSecret });
    // A 429's Retry-After is in the platform's (sped-up) seconds.
    const out = await closeWarehouseDay({ db, platform, packer: 'bench', sleep: (ms) => sleep(ms / BUSY_SPEED) });
    if (!out.ok) throw new Error(`the day's close was refused: ${out.refusal.message}`);
    const c = out.close;
    const rows = await db.query<{ tracking_number: string }>('SELECT tracking_number FROM closed_shipments WHERE close_id = $1', [c.id]);
    const manifests = c.manifests.map((m) => JSON.stringify(m)).join(', ');
    return {
      manifested: rows.rows.map((r) => r.tracking_number),
      summary: `${rows.rows.length} shipments in ${c.manifests.length} manifests (${manifests}); ${c.cancelled} labels ahead cancelled, €${c.refunded.toFixed(2)} refunded, ${c.cancelRefused.length} cancels refused`,
    };
  } finally {
    await db.end();
  }
}
