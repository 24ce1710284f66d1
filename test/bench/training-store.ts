/**
 * `npm run bench -- --only training-store` (issue 27): the training
 * sandbox's state kept in SQLite (electron/sandbox/state-db.ts) against the
 * JSON state file it replaces (persist.ts), at 2,000 and 20,000 shipments.
 *
 * 200 shipments are made over HTTP (real labels, credit movements, carrier
 * journeys), the carrier moved a week on, then copied with fresh ids and
 * tracking numbers (and a credit movement each) up to the size. One line per size:
 * `{"bench":"training-store","shipments":…,"saveMs":…,"saveRows":…,"rootKb":…,"firstSaveMs":…,"startMs":…,"listenMs":…,"firstAnswerMs":…,"loopGapMaxMs":…,"fileMb":…,"jsonSaveMs":…,"jsonMb":…}`
 * - saveMs: one save after one change (a shipment cancelled), median of 7 (the whole point: flat in the size);
 *   saveRows: shipment rows that save wrote; rootKb: the `root` row (everything but the shipments);
 * - firstSaveMs: writing every row into an empty database;
 * - startMs: a fresh state loading the database at once (`load`), median of 3;
 * - listenMs, firstAnswerMs, loopGapMaxMs: training mode's start (`loadStateGradually`): until the platform
 *   listens, until its first answer, and the longest the event loop was held meanwhile, medians of 3;
 * - fileMb: the database with its WAL, MB (10^6 bytes);
 * - jsonSaveMs, jsonMb: the JSON state file's save (encode, write, rename) and size, for comparison.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { createSandbox, demoSeed, SandboxState, SimClock } from '../../electron/sandbox';
import { StatePersistence } from '../../electron/sandbox/persist';
import { SqliteStatePersistence } from '../../electron/sandbox/state-db';
import type { ShipmentRecord } from '../../electron/sandbox/model';
import { median } from './stats';

const SIZES = (process.env.BENCH_TRAINING_SIZES ?? '2000,20000').split(',').map(Number);
const MADE = 200;

/**
 * The training platform started on `file` as training mode does (`loadStateGradually`), median of 3:
 * listenMs until createSandbox resolves, firstAnswerMs until a token request is answered (it waits for
 * the load), loopGapMaxMs the longest the event loop was held meanwhile (what the station's commands would wait).
 */
async function gradualStart(file: string): Promise<{ listenMs: number; firstAnswerMs: number; loopGapMaxMs: number }> {
  const runs: Array<{ listenMs: number; firstAnswerMs: number; loopGapMaxMs: number }> = [];
  for (let k = 0; k < 3; k++) {
    const copy = `${file}.gradual.sqlite`;
    fs.copyFileSync(file, copy);
    const t0 = performance.now();
    const sb = await createSandbox({ port: 0, stateFile: copy, loadStateGradually: true });
    const listenMs = ms(t0);
    let gap = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
    }, 1);
    const demo = sb.clients[0];
    if (!demo) throw new Error('training-store: the seed has no client');
    await token(sb.authUrl, demo.clientId, demo.clientSecret);
    const firstAnswerMs = ms(t0);
    clearInterval(tick);
    runs.push({ listenMs, firstAnswerMs, loopGapMaxMs: Math.round(gap * 10) / 10 });
    await sb.close();
    for (const ext of ['', '-wal', '-shm']) fs.rmSync(copy + ext, { force: true });
  }
  return {
    listenMs: median(runs.map((r) => r.listenMs)),
    firstAnswerMs: median(runs.map((r) => r.firstAnswerMs)),
    loopGapMaxMs: median(runs.map((r) => r.loopGapMaxMs)),
  };
}

const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

function fileBytes(file: string): number {
  return [file, `${file}-wal`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
}

async function token(authUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const r = await fetch(`${authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return ((await r.json()) as { access_token: string }).access_token;
}

/**
 * Copies the made shipments with their carrier journeys (delivered: the
 * long tail of a training store) and a credit movement each, until the state holds `size`.
 */
function grow(state: SandboxState, made: ShipmentRecord[], size: number): void {
  const journeys = state.shipments.map((s) => state.lifecycle.journeyOf(s));
  for (let i = state.shipments.length; i < size; i++) {
    const from = made[i % made.length] as ShipmentRecord;
    const { shipment: s, journey } = structuredClone({ shipment: from, journey: state.lifecycle.journeyOf(from) });
    s.id = state.nextShipmentId();
    s.trackingNumber = state.newTrackingNumber(from.trackingNumber.slice(0, 2));
    s.packages.forEach((p, k) => (p.trackingNumber = k === 0 ? s.trackingNumber : state.newTrackingNumber(from.trackingNumber.slice(0, 2))));
    journey.carrierTrackingNumber = s.trackingNumber;
    state.addShipment(s);
    journeys.push(journey);
    const account = state.accountById(s.accountId);
    if (account) state.moveCredit(account, -s.cost.total, `Shipment ${s.trackingNumber}`, { shipmentId: s.id });
  }
  state.lifecycle.adopt(journeys);
  state.lifecycle.advance();
}

/** Runs the training-store measures (module comment). */
export async function benchTrainingStore(): Promise<void> {
  const sb = await createSandbox({ port: 0, rateLimits: false, seed: { ...demoSeed(), randomSeed: 11 } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-training-store-'));
  try {
    const demo = sb.clients[0];
    const account = sb.state.accounts[0];
    if (!demo || !account) throw new Error('sandbox has no demo client');
    account.credit.balance = 10_000_000;
    let bearer = await token(sb.authUrl, demo.clientId, demo.clientSecret);
    const call = async (method: string, p: string, body?: unknown) => {
      const r = await fetch(sb.baseUrl + p, {
        method,
        headers: { authorization: `Bearer ${bearer}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
      return (await r.json()) as { trackingNumber: string };
    };
    const recipient = { name: 'Giulia Bianchi', address: { street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT' }, phone: '+390212345678' };
    const parcel = { weight: { value: 1.4, units: 'KG' }, dimensions: { length: 30, width: 20, height: 12, units: 'CM' } };
    for (let i = 0; i < MADE; i++) await call('POST', '/shipments', { recipient, packages: [parcel], reference: `TS-${i}` });
    sb.clock.set(new Date(sb.clock.now().getTime() + 7 * 86_400_000));
    bearer = await token(sb.authUrl, demo.clientId, demo.clientSecret); // the jump expired the token
    const made = [...sb.state.shipments];

    for (const size of SIZES) {
      grow(sb.state, made, size);
      const file = path.join(dir, `state-${size}.sqlite`);
      const store = new SqliteStatePersistence(sb.state, file, { debounceMs: 1e9 });
      store.load();
      let t0 = performance.now();
      await store.save();
      const firstSaveMs = ms(t0);
      const saves: number[] = [];
      const rows: number[] = [];
      for (let k = 0; k < 7; k++) {
        const fresh = await call('POST', '/shipments', { recipient, packages: [parcel], reference: `TS-${size}-${k}` });
        await store.save();
        await call('DELETE', `/shipments/${fresh.trackingNumber}`);
        t0 = performance.now();
        await store.save();
        saves.push(ms(t0));
        rows.push(store.lastSave.rowsWritten);
      }
      await store.close();
      const db = new Database(file, { readonly: true });
      const rootKb = Math.round((db.prepare('SELECT length(body) AS n FROM root').get() as { n: number }).n / 100) / 10;
      db.close();
      const starts: number[] = [];
      for (let k = 0; k < 3; k++) {
        t0 = performance.now();
        const st = new SandboxState(demoSeed(), new SimClock(() => new Date()));
        const loader = new SqliteStatePersistence(st, file);
        loader.load();
        starts.push(ms(t0));
        await loader.close();
      }
      // As training mode starts it: listening at once, the shipments read in slices (loadStateGradually).
      const gradual = await gradualStart(file);
      const json = path.join(dir, `state-${size}.json`);
      const legacy = new StatePersistence(sb.state, json, { debounceMs: 1e9 });
      t0 = performance.now();
      await legacy.save();
      const jsonSaveMs = ms(t0);
      await legacy.close();
      console.log(
        JSON.stringify({
          bench: 'training-store',
          shipments: sb.state.shipments.length,
          saveMs: median(saves),
          saveRows: Math.max(...rows),
          rootKb,
          firstSaveMs,
          startMs: median(starts),
          ...gradual,
          fileMb: mb(fileBytes(file)),
          jsonSaveMs,
          jsonMb: mb(fileBytes(json)),
        }),
      );
    }
  } finally {
    await sb.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
