/**
 * A floor for the tests of labels ahead at the bench (issue 43 items 3–5): a real PostgreSQL warehouse, the sandbox,
 * two benches each on its own login, the day's orders imported at Bench 1, the sandbox's answers counted. A label
 * ahead is bought by the test from the sandbox with the account's client and put in the warehouse as the buyer does
 * (reserve_label_ahead, store_label_ahead on the bench's own login).
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { startStation, type StartedStation } from '../../../../electron/shell/start';
import { warehouseClientConfig } from '../../../../electron/core/warehouse/connection';
import { aheadFingerprint } from '../../../../electron/core/shipping/ahead-fingerprint';
import { observeResponses } from '../../../../electron/sandbox/observe';
import type { Sandbox } from '../../../../electron/sandbox/index';
import type { StationOrder } from '../../../../shared/domain/order';
import { shopifyCsv } from '../../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../../fixtures/shopify/warehouse-order';
import { startTestPostgres, type TestPostgres } from '../../../support/postgres';
import { benchLogin, createWarehouse, untilWarehouse } from '../../../support/warehouse';
import type { Invoke } from '../../../support/commands';
import { clientFor, invokerOf, orderByNumber, startSandbox, stationConfig, tempDir } from '../helpers';

/** A bench: its station, commands, id, its own login's connection, its labels folder and log. */
export interface Bench {
  station: StartedStation;
  invoke: Invoke;
  id: string;
  db: pg.Client;
  labels: string;
  logs: string[];
}

/** What a label ahead was bought for: its row, the order as the bench has it, its key, the planned weight. */
export interface Ahead {
  id: number;
  order: StationOrder;
  key: string;
  trackingNumber: string;
  weightKg: number;
}

/** The sandbox's answers counted since the floor started: quotes, shipments made (their references), cancels. */
interface Counts {
  quotes: number;
  made: string[];
  cancels: string[];
}

/** Polls `read` every 25 ms until `ok` holds, at most `ms`. */
export async function within<T>(ms: number, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Labels printed in the bench's folder (its `.zpl` files; the folder printer keeps a `.png` beside each), oldest first. */
export function printed(b: Bench): string[] {
  return fs
    .readdirSync(b.labels)
    .filter((f) => f.endsWith('.zpl'))
    .map((f) => ({ f, t: fs.statSync(path.join(b.labels, f), { bigint: true }).mtimeNs }))
    .sort((x, y) => (x.t < y.t ? -1 : x.t > y.t ? 1 : 0))
    .map((x) => x.f);
}

const people = [
  { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' },
  { name: 'Luca Verdi', a1: 'Via Appia 5', city: 'Roma', zip: '00184', prov: 'RM', country: 'IT' },
];
const rules = JSON.stringify({ version: 1, rules: [{ name: 'Italia', when: { countries: ['IT'] }, then: { rate: 'cheapest', shipByItself: true } }] });

/** The floor: call `start` in beforeAll and `stop` in afterAll. */
export function aheadFloor(database: string, numbers: readonly number[], options: { pressWaitMs?: number } = {}) {
  let server: TestPostgres;
  let sb: Sandbox;
  let ownerUrl: string;
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  const stations: StartedStation[] = [];
  const clients: pg.Client[] = [];
  const pgPasswordBefore = process.env.PGPASSWORD;
  const counts: Counts = { quotes: 0, made: [], cancels: [] };
  let stopObserving: () => void = () => undefined;
  const floor = {
    counts,
    /** The sandbox, the owner's URL and the server's password (for the supervisor's program in a test). */
    sandbox: (): Sandbox => sb,
    ownerUrl: (): string => ownerUrl,
    password: (): string => server.password,
    owner: undefined as unknown as pg.Client,
    one: undefined as unknown as Bench,
    two: undefined as unknown as Bench,
    /** A bench on login `login`, named `name`, connected; its printer a folder of its own (or `printerUri`). */
    async bench(name: string, login: string, printerUri?: string): Promise<Bench> {
      const tmp = tempDir();
      dirs.push(tmp);
      const labels = path.join(tmp.dir, 'labels');
      fs.mkdirSync(labels, { recursive: true });
      const url = await benchLogin(server, ownerUrl, login);
      const logs: string[] = [];
      const station = await startStation(
        { ...stationConfig(sb, tmp.dir, printerUri ?? `file://${labels}`), warehouseUrl: url },
        // The buyer of labels ahead runs on every bench of a warehouse; it buys only once a test turns labels ahead on.
        {
          platformRateLimits: false,
          warehouse: { heartbeatMs: 200, activityMs: 100 },
          labelsAhead: { intervalMs: 250, leaseS: 2, staleAfterS: 5, ...(options.pressWaitMs !== undefined ? { pressWaitMs: options.pressWaitMs } : {}) },
          log: (line) => logs.push(line),
        },
      );
      stations.push(station);
      const invoke = invokerOf(() => station);
      await invoke('packers.setStation', { stationName: name, idleMinutes: 30 });
      const status = await untilWarehouse(invoke);
      const db = new pg.Client(warehouseClientConfig(url, server.password).config);
      // The warehouse stopped by a test (the bench away): the test's own connection goes quietly.
      db.on('error', () => undefined);
      await db.connect();
      clients.push(db);
      return { station, invoke, id: status.bench.id, db, labels, logs };
    },
    async start(): Promise<void> {
      server = await startTestPostgres();
      ownerUrl = await createWarehouse(server, database);
      process.env.PGPASSWORD = server.password;
      floor.owner = new pg.Client(warehouseClientConfig(ownerUrl, server.password).config);
      floor.owner.on('error', () => undefined);
      await floor.owner.connect();
      sb = await startSandbox();
      stopObserving = observeResponses((r) => {
        if (r.method === 'POST' && r.url.endsWith('/rates') && r.statusCode === 200) counts.quotes++;
        if (r.method === 'POST' && r.url.endsWith('/shipments') && r.statusCode === 201 && r.body) counts.made.push((JSON.parse(r.body) as { reference?: string }).reference ?? '');
        if (r.method === 'DELETE' && r.url.includes('/shipments/') && r.statusCode === 200) counts.cancels.push(r.url);
      });
      floor.one = await floor.bench('Bench 1', 'bench1');
      floor.two = await floor.bench('Bench 2', 'bench2');
      const day = shopifyCsv(
        numbers.flatMap((n, i) =>
          order({ name: `#${n}`, id: `99000000${n}`, created: '2026-12-07 08:00:00 +0000', email: `o${n}@example.it`, ship: people[i % 2]!, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' }),
        ),
      );
      await floor.one.invoke('rules.import', { content: rules });
      await floor.one.invoke('products.importCsv', { content: 'sku,description,weightKg,lengthCm,widthCm,heightCm\nVASO,Vaso,1.2,30,20,12\n' });
      expect((await floor.one.invoke('orders.importCsv', { fileName: 'day.csv', shop: 'Bottega', content: day })).imported).toBe(numbers.length);
      await within(5000, async () => (await floor.two.invoke('orders.page', { view: 'to_ship', limit: 50 })).orders.length, (n) => n === numbers.length);
      await within(5000, async () => (await floor.two.invoke('rules.list', {})).rules.length, (n) => n === 1);
    },
    async stop(): Promise<void> {
      stopObserving();
      for (const s of stations) await s.close();
      for (const c of clients) await c.end().catch(() => undefined);
      await floor.owner?.end();
      await sb?.close();
      for (const d of dirs) d.cleanup();
      server?.stop();
      if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = pgPasswordBefore;
    },
    /**
     * Buys a label ahead for `#number` from the sandbox and stores it in the warehouse as `b`'s buyer would.
     * `boughtFor` the order it was bought for (default: the order as it is).
     */
    async labelAhead(b: Bench, number: string, boughtFor: (o: StationOrder) => StationOrder = (o) => o): Promise<Ahead> {
      const { ahead, stored } = await (await floor.reserveAhead(b, number, boughtFor)).store();
      expect(stored).toBe('bought');
      return ahead;
    },
    /**
     * Buys a label ahead for `#number` from the sandbox and reserves its row (state `buying`) as `b`'s buyer does
     * before its POST; `store()` then stores it as the buyer does once the platform answered (`stored`: what
     * store_label_ahead said, `bought` unless a press abandoned the purchase meanwhile). `trackingNumber`: the
     * shipment the platform made for it.
     */
    async reserveAhead(
      b: Bench,
      number: string,
      boughtFor: (o: StationOrder) => StationOrder = (o) => o,
    ): Promise<{ id: number; key: string; trackingNumber: string; store: () => Promise<{ ahead: Ahead; stored: string }> }> {
      const o = await orderByNumber(b.invoke, number);
      const key = `Bottega ${number}`;
      const plan = await b.invoke('shipping.plan', { orderId: o.id });
      if (!plan.request || !plan.packages) throw new Error(`no plan for ${number}`);
      const weightKg = plan.packages[0]!.weight.value;
      const client = clientFor(sb);
      const address = plan.request.recipient.address;
      const rates = await client.quote({ recipient: { address: { postalCode: address.postalCode, countryCode: address.countryCode, city: address.city } }, packages: plan.packages });
      const rate = [...rates].sort((x, y) => x.price.total - y.price.total)[0]!;
      const created = await client.createShipment({ ...plan.request, reference: key, carrierCode: rate.carrierCode, serviceType: rate.contractCode });
      const { label, ...shipment } = created;
      const reserved = await b.db.query<{ id: string }>('SELECT reserve_label_ahead($1, $2, $3, $4, $5, $6, $7, $8) AS id', [
        b.id,
        key,
        key,
        aheadFingerprint(boughtFor(o), 'Italia'),
        'Italia',
        weightKg,
        'VASO',
        null,
      ]);
      const id = Number(reserved.rows[0]!.id);
      const store = async (): Promise<{ ahead: Ahead; stored: string }> => {
        const stored = await b.db.query<{ stored: string }>('SELECT store_label_ahead($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) AS stored', [
          b.id,
          id,
          created.trackingNumber,
          created.id,
          created.carrier.contractCode,
          created.carrier.code,
          created.cost.total,
          created.cost.currency,
          JSON.stringify(shipment),
          label.zpl,
          label.pdf,
        ]);
        return { ahead: { id, order: o, key, trackingNumber: created.trackingNumber, weightKg }, stored: stored.rows[0]!.stored };
      };
      return { id, key, trackingNumber: created.trackingNumber, store };
    },
    /** Stops the warehouse's server (every bench away), or starts it again. */
    warehouse(on: boolean): void {
      if (on) server.startServer();
      else server.stopServer();
    },
    /** The platform client of the account (the test's own calls). */
    client: () => clientFor(sb),
    /** The warehouse's row of a label ahead, as its owner reads it. */
    async aheadRow(id: number) {
      const r = await floor.owner.query<{ state: string; refund: string | null; cancel_reason: string | null; used_by: string | null; error: string | null; printed_by: string | null }>(
        'SELECT state, refund, cancel_reason, used_by, error, printed_by FROM labels_ahead WHERE id = $1',
        [id],
      );
      return r.rows[0]!;
    },
    /** The warehouse's order: shipped, its tracking number, the claims on it. */
    async warehouseOrder(key: string) {
      const r = await floor.owner.query<{ shipped: boolean; tracking_number: string | null; claims: number }>(
        `SELECT shipped_at IS NOT NULL AS shipped, tracking_number, (SELECT count(*)::int FROM claims c WHERE c.order_key = o.order_key) AS claims FROM orders o WHERE order_key = $1`,
        [key],
      );
      return r.rows[0]!;
    },
  };
  return floor;
}
