/**
 * Bench `webhooks` (issue 44): the platform's signed events sent at the warehouse's receiver by a loopback
 * sender, with two benches listening.
 *
 * - The warehouse: `npm run warehouse` as a child process (electron/warehouse/cli.ts) on a real PostgreSQL
 *   (test/support/postgres.ts, set up as the README says by test/support/warehouse.ts), its endpoint's secret in
 *   `webhook_endpoint` as a registration leaves it; so the receiver, its store and its applier run in their own
 *   process, as in a warehouse.
 * - The sender (this process): EVENTS signed events (`Webhook-Signature: t=<unix>,v1=<HMAC-SHA256 of
 *   "<t>.<body>">`, spec: Events), one every 1000 / RATE ms (200 a second), over keep-alive loopback HTTP; 20 %
 *   of them are retries (the same body again, freshly signed) of an event sent at least 20 sends before.
 *   The events: tracking.update of a parcel of its own (17 in 20), stock.opened (2 in 20) and the stock.closed
 *   of an opened one (1 in 20). Beside them, 1 bad call per 100 sends (not counted in `events`): a bad signature,
 *   a timestamp 10 minutes old, `text/plain`, a 2 MB body, in turn.
 * - Two benches (this process): each the station's own reader of the warehouse's events
 *   (electron/core/warehouse/events.ts `createBenchEvents`, over its own SQLite store, on its own login in
 *   `warehouse_bench`), pulled on each NOTIFY `warehouse_events` as the bench's link does.
 *
 * Measures: acceptP50Ms/acceptP95Ms: from a send to its answer, every good call (retries too); toBenchP95Ms:
 * from an event's first answer (stored) to the moment the later of the two benches has read it; storedTwice:
 * answers `stored: true` beyond the first for one event, plus rows kept twice; badAccepted: bad calls answered
 * 2xx or found stored; lost: events never answered 2xx, not stored, or not read by both benches within 15 s of
 * the last send. `BENCH_WEBHOOKS_EVENTS` sets the count (default 10,000: 50 s of sending).
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import pg from 'pg';
import { z } from 'zod';
import { openStore, type Store } from '../../electron/core/store';
import { defineSetting } from '../../electron/core/store/settings-repo';
import { createBenchEvents } from '../../electron/core/warehouse/events';
import { warehouseClientConfig } from '../../electron/core/warehouse/connection';
import { startTestPostgres } from '../support/postgres';
import { benchLogin, createWarehouse } from '../support/warehouse';

const EVENTS = Number(process.env.BENCH_WEBHOOKS_EVENTS ?? 10_000);
const RATE = 200;
const RETRY_SHARE = 0.2;
const SECRET = 'whsec_bench_webhooks_0123456789abcdef';
const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** The bench reader's own setting (events.ts): the last applied_seq it read. */
const EventsSeen = defineSetting('warehouse.eventsSeen', z.number().int().min(-1), -1);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const round2 = (n: number): number => Math.round(n * 100) / 100;

/** One event the sender knows: its identity (event and tracking number) and body. */
interface Sent {
  id: string;
  body: string;
  /** When it was first answered stored (performance.now), or null. */
  acceptedAt: number | null;
  storedAnswers: number;
}

/** The unique events, in sending order (see the module doc). */
function makeEvents(unique: number, startMs: number): Sent[] {
  const out: Sent[] = [];
  const opened: Array<{ stock: number; tn: string }> = [];
  for (let i = 0; i < unique; i++) {
    const at = new Date(startMs + i).toISOString();
    const k = i % 20;
    let payload: Record<string, unknown>;
    if (k === 0 || k === 1) {
      const tn = `BW${String(i).padStart(8, '0')}`;
      opened.push({ stock: 100_000 + i, tn });
      payload = { event: 'stock.opened', timestamp: at, ldv: tn, statusCode: 6, stock_id: 100_000 + i, giacenza_id: `G${i}`, opened_at: at, shipping_id: i, vector_name: 'BRT', status: 'open' };
    } else if (k === 2 && opened.length) {
      const s = opened.shift()!;
      payload = { event: 'stock.closed', timestamp: at, ldv: s.tn, statusCode: 5, stock_id: s.stock, opened_at: at, closed_at: at, vector_name: 'BRT', status: 'closed' };
    } else {
      const tn = `BW${String(i).padStart(8, '0')}`;
      payload = { event: 'tracking.update', timestamp: at, ldv: tn, statusCode: [3, 4, 6, 8, 9][i % 5], vector_name: 'GLS', order_id: null, TrackingDettaglio: [{ Data: at, Stato: 'In transito', Luogo: 'Milano' }] };
    }
    out.push({ id: `${String(payload.event)}|${String(payload.ldv)}`, body: JSON.stringify(payload), acceptedAt: null, storedAnswers: 0 });
  }
  return out;
}

/** `Webhook-Timestamp` and `Webhook-Signature` for `body` at unix second `t`. */
const signed = (body: string, t: number, secret = SECRET) => ({ 'webhook-timestamp': String(t), 'webhook-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}` });

/** A bench: its store, its reader, and when it had read up to which applied_seq (performance.now). */
interface Bench {
  store: Store;
  pool: pg.Pool;
  listener: pg.Client;
  readUpTo: Array<{ seq: number; at: number }>;
}

/** Runs the bench and prints a human line and its JSON line. */
export async function benchWebhooks(quantile: (sorted: number[], q: number) => number): Promise<void> {
  if (!Number.isInteger(EVENTS) || EVENTS < 10) throw new Error(`BENCH_WEBHOOKS_EVENTS must be an integer of at least 10, not ${process.env.BENCH_WEBHOOKS_EVENTS}`);
  const server = await startTestPostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-bench-webhooks-'));
  const url = await createWarehouse(server, 'webhooks');
  const owner = new pg.Pool({ ...warehouseClientConfig(url, server.password).config, max: 2 });
  await owner.query(`INSERT INTO webhook_endpoint (webhook_id, url, secret) VALUES (1, 'https://warehouse.example/platform/events', $1)`, [SECRET]);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron', 'warehouse', 'cli.ts'), '--warehouse', url], { cwd: ROOT, env: { ...process.env, PGPASSWORD: server.password, STATION_WAREHOUSE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const benches: Bench[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`npm run warehouse exited ${code}: ${stderr}`)));
    });
    const pageUrl = new URL((JSON.parse(line) as { url: string }).url);

    for (const login of ['bench1', 'bench2']) {
      const config = warehouseClientConfig(await benchLogin(server, url, login), server.password).config;
      const store = openStore(path.join(dir, `${login}.sqlite`));
      const pool = new pg.Pool({ ...config, max: 2 });
      const b: Bench = { store, pool, listener: new pg.Client(config), readUpTo: [] };
      const reader = createBenchEvents({ db: pool, store, onChanged: () => undefined, onError: (e) => process.stderr.write(`webhooks bench: a bench could not read: ${String(e)}\n`) });
      const pull = () => reader.pull().then(() => b.readUpTo.push({ seq: store.settings.get(EventsSeen), at: performance.now() }));
      await b.listener.connect();
      b.listener.on('notification', () => void pull());
      await b.listener.query('LISTEN warehouse_events');
      // The first read takes the warehouse's latest event as the start (none yet: 0).
      await pull();
      await pull();
      benches.push(b);
    }

    const post = (body: string | Buffer, headers: Record<string, string>): Promise<{ status: number; text: string; ms: number; end: number }> =>
      new Promise((resolve) => {
        const t0 = performance.now();
        const req = http.request({ host: pageUrl.hostname, port: pageUrl.port, path: '/platform/events', method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - t0, end: performance.now() }));
        });
        req.on('error', (e) => resolve({ status: 0, text: e.message, ms: performance.now() - t0, end: performance.now() }));
        req.end(body);
      });

    const unique = Math.round(EVENTS * (1 - RETRY_SHARE));
    const events = makeEvents(unique, Date.now() - 3_600_000);
    const acceptMs: number[] = [];
    let nextUnique = 0;
    let bad = 0;
    let badAccepted = 0;
    let refusedGood = 0;
    const pending: Array<Promise<void>> = [];
    const badTns: string[] = [];
    console.log(`webhooks bench: ${EVENTS} events (${unique} distinct, ${EVENTS - unique} retries) at ${RATE}/s to npm run warehouse on PostgreSQL ${server.version}, two benches listening`);
    const start = performance.now();
    for (let s = 0; s < EVENTS; s++) {
      const due = start + (s * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      // Every 5th send a retry of an event sent at least 20 sends before (and every send once the distinct ones are out).
      const retriesLeft = EVENTS - unique - (s - nextUnique);
      const retry = retriesLeft > 0 && nextUnique > 20 && (s % 5 === 4 || nextUnique >= unique);
      const e = retry ? events[(s * 7919) % (nextUnique - 20)]! : events[nextUnique++]!;
      pending.push(
        post(e.body, signed(e.body, Math.floor(Date.now() / 1000))).then((r) => {
          acceptMs.push(r.ms);
          if (r.status >= 200 && r.status < 300) {
            e.acceptedAt ??= r.end;
            if ((JSON.parse(r.text) as { stored?: boolean }).stored === true) e.storedAnswers++;
          } else refusedGood++;
        }),
      );
      if (s % 100 === 50) {
        const kind = bad++ % 4;
        const tn = `BAD${String(s).padStart(8, '0')}`;
        badTns.push(tn);
        const body = JSON.stringify({ event: 'tracking.update', timestamp: new Date().toISOString(), ldv: tn, statusCode: 8 });
        const t = Math.floor(Date.now() / 1000);
        const call =
          kind === 0 ? post(body, signed(body, t, 'not-the-secret'))
          : kind === 1 ? post(body, signed(body, t - 600))
          : kind === 2 ? post(body, { ...signed(body, t), 'content-type': 'text/plain' })
          : (() => {
              const big = JSON.stringify({ event: 'tracking.update', timestamp: new Date().toISOString(), ldv: tn, statusCode: 8, pad: 'x'.repeat(2 * 1024 * 1024) });
              return post(big, signed(big, t));
            })();
        pending.push(
          call.then((r) => {
            if (r.status >= 200 && r.status < 300) badAccepted++;
          }),
        );
      }
    }
    await Promise.all(pending);
    const sendS = (performance.now() - start) / 1000;

    // Both benches read everything stored (or 15 s pass).
    const maxSeq = async () => Number((await owner.query<{ n: string }>('SELECT coalesce(max(applied_seq), 0) AS n FROM platform_events')).rows[0]?.n ?? 0);
    const settleEnd = performance.now() + 15_000;
    for (;;) {
      const pendingApply = (await owner.query('SELECT 1 FROM platform_events WHERE applied_seq IS NULL LIMIT 1')).rowCount;
      const top = await maxSeq();
      if ((pendingApply === 0 && benches.every((b) => (b.readUpTo.at(-1)?.seq ?? 0) >= top)) || performance.now() > settleEnd) break;
      await sleep(50);
    }

    const rows = (await owner.query<{ event: string; tracking_number: string; applied_seq: string | null }>('SELECT event, tracking_number, applied_seq FROM platform_events')).rows;
    const seqOf = new Map<string, number[]>();
    for (const r of rows) {
      const k = `${r.event}|${r.tracking_number}`;
      seqOf.set(k, [...(seqOf.get(k) ?? []), r.applied_seq === null ? -1 : Number(r.applied_seq)]);
    }
    badAccepted += rows.filter((r) => r.tracking_number.startsWith('BAD')).length;
    /** When bench `b` had read `seq` (performance.now), or null. */
    const readAt = (b: Bench, seq: number): number | null => {
      let lo = 0;
      let hi = b.readUpTo.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (b.readUpTo[mid]!.seq >= seq) hi = mid;
        else lo = mid + 1;
      }
      return b.readUpTo[lo]?.at ?? null;
    };
    let storedTwice = 0;
    let lost = 0;
    const toBench: number[] = [];
    for (const e of events.slice(0, nextUnique)) {
      const seqs = seqOf.get(e.id) ?? [];
      storedTwice += Math.max(0, e.storedAnswers - 1) + Math.max(0, seqs.length - 1);
      const seq = seqs[0];
      const reads = seq === undefined || seq < 0 ? [] : benches.map((b) => readAt(b, seq));
      if (e.acceptedAt === null || seq === undefined || seq < 0 || reads.some((x) => x === null)) {
        lost++;
        continue;
      }
      toBench.push(Math.max(0, Math.max(...(reads as number[])) - e.acceptedAt));
    }
    acceptMs.sort((a, b) => a - b);
    toBench.sort((a, b) => a - b);
    const out = {
      bench: 'webhooks',
      events: EVENTS,
      acceptP50Ms: round2(quantile(acceptMs, 0.5)),
      acceptP95Ms: round2(quantile(acceptMs, 0.95)),
      toBenchP95Ms: round2(quantile(toBench, 0.95)),
      storedTwice,
      badAccepted,
      lost,
    };
    console.log(
      `  sent in ${sendS.toFixed(1)} s (${(EVENTS / sendS).toFixed(0)}/s): accept median ${out.acceptP50Ms} ms, p95 ${out.acceptP95Ms} ms, max ${round2(acceptMs.at(-1) ?? NaN)} ms (goal p95 ≤ 20 ms); ` +
        `to the later of 2 benches median ${round2(quantile(toBench, 0.5))} ms, p95 ${out.toBenchP95Ms} ms (goal ≤ 2000 ms); ${rows.length} rows stored of ${nextUnique} distinct events; ` +
        `good calls refused ${refusedGood}; bad calls ${bad} (bad signature, old, text/plain, 2 MB), accepted ${badAccepted}; stored twice ${storedTwice}; lost ${lost}`,
    );
    console.log(JSON.stringify(out));
  } finally {
    agent.destroy();
    for (const b of benches) {
      await b.listener.end().catch(() => undefined);
      await b.pool.end().catch(() => undefined);
      b.store.close();
    }
    await owner.end();
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
