/**
 * A packer's ship of an order with a label bought ahead (issue 43 item 3), a batch-printed label scanned (item 5),
 * and the bench's End of day in a warehouse (item 4): a real PostgreSQL, the sandbox, one login per bench. Each
 * label ahead is bought by the test from the sandbox with the account's client and put in the warehouse as the
 * buyer does (reserve_label_ahead, store_label_ahead on the bench's own login).
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { clientFor, invokerOf, orderByNumber, startSandbox, stationConfig, stationFailure, tempDir } from '../helpers';
import { coreIt } from '../../../../renderer/src/lib/locales/core-it';

let server: TestPostgres;
let sb: Sandbox;
let ownerUrl: string;
let owner: pg.Client;
const dirs: Array<ReturnType<typeof tempDir>> = [];
const stations: StartedStation[] = [];
const clients: pg.Client[] = [];
const pgPasswordBefore = process.env.PGPASSWORD;

/** A bench: its station, commands, id, its own login's connection, its labels folder and log. */
interface Bench {
  station: StartedStation;
  invoke: Invoke;
  id: string;
  db: pg.Client;
  labels: string;
  logs: string[];
}

async function bench(name: string, login: string): Promise<Bench> {
  const tmp = tempDir();
  dirs.push(tmp);
  const labels = path.join(tmp.dir, 'labels');
  fs.mkdirSync(labels, { recursive: true });
  const url = await benchLogin(server, ownerUrl, login);
  const logs: string[] = [];
  const station = await startStation(
    { ...stationConfig(sb, tmp.dir, `file://${labels}`), warehouseUrl: url },
    { platformRateLimits: false, warehouse: { heartbeatMs: 200, activityMs: 100 }, log: (line) => logs.push(line) },
  );
  stations.push(station);
  const invoke = invokerOf(() => station);
  await invoke('packers.setStation', { stationName: name, idleMinutes: 30 });
  const status = await untilWarehouse(invoke);
  const db = new pg.Client(warehouseClientConfig(url, server.password).config);
  await db.connect();
  clients.push(db);
  return { station, invoke, id: status.bench.id, db, labels, logs };
}

/** Labels printed in the bench's folder (its `.zpl` files; the folder printer keeps a `.png` beside each), oldest first. */
function printed(b: Bench): string[] {
  return fs
    .readdirSync(b.labels)
    .filter((f) => f.endsWith('.zpl'))
    .map((f) => ({ f, t: fs.statSync(path.join(b.labels, f), { bigint: true }).mtimeNs }))
    .sort((x, y) => (x.t < y.t ? -1 : x.t > y.t ? 1 : 0))
    .map((x) => x.f);
}

async function within<T>(ms: number, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// The platform's answers, counted: quotes, shipments made (their references), cancels.
let quotes = 0;
const made: string[] = [];
const cancels: string[] = [];
let stopObserving: () => void = () => undefined;

const people = [
  { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' },
  { name: 'Luca Verdi', a1: 'Via Appia 5', city: 'Roma', zip: '00184', prov: 'RM', country: 'IT' },
];
const NUMBERS = [9001, 9002, 9003, 9004, 9005, 9006, 9007, 9008, 9009];
const day = shopifyCsv(
  NUMBERS.flatMap((n, i) =>
    order({ name: `#${n}`, id: `99000000${n}`, created: '2026-12-07 08:00:00 +0000', email: `o${n}@example.it`, ship: people[i % 2]!, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' }),
  ),
);
const rules = JSON.stringify({ version: 1, rules: [{ name: 'Italia', when: { countries: ['IT'] }, then: { rate: 'cheapest' } }] });

let one: Bench;
let two: Bench;

/** What a label ahead was bought for: the order as the bench has it, its key, the planned weight. */
interface Ahead {
  id: number;
  order: StationOrder;
  key: string;
  trackingNumber: string;
  weightKg: number;
}

/**
 * Buys a label ahead for `#number` from the sandbox and stores it in the warehouse as `b`'s buyer would.
 * `fingerprintOf` the order it was bought for (default: the order as it is).
 */
async function labelAhead(b: Bench, number: string, fingerprintOf: (o: StationOrder) => StationOrder = (o) => o): Promise<Ahead> {
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
    aheadFingerprint(fingerprintOf(o), 'Italia'),
    'Italia',
    weightKg,
    'VASO',
    null,
  ]);
  const id = Number(reserved.rows[0]!.id);
  const stored = await b.db.query<{ ok: boolean }>('SELECT store_label_ahead($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) AS ok', [
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
  expect(stored.rows[0]!.ok).toBe(true);
  return { id, order: o, key, trackingNumber: created.trackingNumber, weightKg };
}

async function aheadRow(id: number) {
  const r = await owner.query<{ state: string; refund: string | null; cancel_reason: string | null; used_by: string | null; error: string | null }>(
    'SELECT state, refund, cancel_reason, used_by, error FROM labels_ahead WHERE id = $1',
    [id],
  );
  return r.rows[0]!;
}

async function warehouseOrder(key: string) {
  const r = await owner.query<{ shipped: boolean; tracking_number: string | null; claims: number }>(
    `SELECT shipped_at IS NOT NULL AS shipped, tracking_number, (SELECT count(*)::int FROM claims c WHERE c.order_key = o.order_key) AS claims FROM orders o WHERE order_key = $1`,
    [key],
  );
  return r.rows[0]!;
}

beforeAll(async () => {
  server = await startTestPostgres();
  ownerUrl = await createWarehouse(server, 'ahead_use');
  process.env.PGPASSWORD = server.password;
  owner = new pg.Client(warehouseClientConfig(ownerUrl, server.password).config);
  await owner.connect();
  sb = await startSandbox();
  stopObserving = observeResponses((r) => {
    if (r.method === 'POST' && r.url.endsWith('/rates') && r.statusCode === 200) quotes++;
    if (r.method === 'POST' && r.url.endsWith('/shipments') && r.statusCode === 201 && r.body) made.push((JSON.parse(r.body) as { reference?: string }).reference ?? '');
    if (r.method === 'DELETE' && r.url.includes('/shipments/') && r.statusCode === 200) cancels.push(r.url);
  });
  one = await bench('Bench 1', 'bench1');
  two = await bench('Bench 2', 'bench2');
  await one.invoke('rules.import', { content: rules });
  await one.invoke('products.importCsv', { content: 'sku,description,weightKg,lengthCm,widthCm,heightCm\nVASO,Vaso,1.2,30,20,12\n' });
  expect((await one.invoke('orders.importCsv', { fileName: 'day.csv', shop: 'Bottega', content: day })).imported).toBe(NUMBERS.length);
  await within(5000, async () => (await two.invoke('orders.page', { view: 'to_ship', limit: 50 })).orders.length, (n) => n === NUMBERS.length);
  await within(5000, async () => (await two.invoke('rules.list', {})).rules.length, (n) => n === 1);
}, 90_000);

afterAll(async () => {
  stopObserving();
  for (const s of stations) await s.close();
  for (const c of clients) await c.end().catch(() => undefined);
  await owner?.end();
  await sb?.close();
  for (const d of dirs) d.cleanup();
  server?.stop();
  if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD;
  else process.env.PGPASSWORD = pgPasswordBefore;
});

describe('a packer ships an order with a label bought ahead', () => {
  it('fits: shipped with it, no quote and no purchase, printed once, shipped in the warehouse, its claim ended', async () => {
    const a = await labelAhead(one, '#9001');
    const [q0, m0, p0] = [quotes, made.length, printed(one).length];
    const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, weightKg: a.weightKg });
    expect(res.shipment.trackingNumber).toBe(a.trackingNumber);
    expect(res.shipment.reference).toBe(a.key);
    expect(res.printJob?.state).toBe('printed');
    expect([quotes - q0, made.length - m0]).toEqual([0, 0]);
    expect(printed(one).length - p0).toBe(1);
    expect((await aheadRow(a.id)).state).toBe('used');
    expect((await aheadRow(a.id)).used_by).toBe(one.id);
    expect((await orderByNumber(one.invoke, '#9001')).status).toBe('shipped');
    await within(3000, () => warehouseOrder(a.key), (w) => w.shipped && w.tracking_number === a.trackingNumber && w.claims === 0);
    const ships = await owner.query<{ bench_id: string }>(`SELECT bench_id FROM activity WHERE action = 'ship' AND tracking_number = $1`, [a.trackingNumber]);
    await within(3000, async () => (await owner.query(`SELECT 1 FROM activity WHERE action = 'ship' AND tracking_number = $1`, [a.trackingNumber])).rowCount, (n) => n === 1);
    expect(ships.rows.every((r) => r.bench_id === one.id)).toBe(true);
    // The label is the shipment's stored label: printed once, never again by a later drain.
    await new Promise((r) => setTimeout(r, 500));
    expect(printed(one).length - p0).toBe(1);
  });

  it('the scale disagrees: cancelled on the platform, its refund recorded, a new label with reference -2, one label printed', async () => {
    const a = await labelAhead(one, '#9002');
    const [c0, m0, p0] = [cancels.length, made.length, printed(one).length];
    const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, weightKg: a.weightKg + 2 });
    expect(res.shipment.trackingNumber).not.toBe(a.trackingNumber);
    expect(res.shipment.reference).toBe(`${a.key}-2`);
    expect(made.slice(m0)).toEqual([`${a.key}-2`]);
    expect(cancels.length - c0).toBe(1);
    const row = await aheadRow(a.id);
    expect(row.state).toBe('cancelled');
    expect(row.cancel_reason).toBe('weight');
    expect(Number(row.refund)).toBeGreaterThan(0);
    expect(printed(one).length - p0).toBe(1);
    expect(one.logs.some((l) => l.includes(a.trackingNumber) && /no longer fits: the scale says/.test(l) && /cancelled, €\d+\.\d\d refunded/.test(l))).toBe(true);
  });

  it('the order changed after the label was bought: cancelled, refunded, a new label with reference -2', async () => {
    const a = await labelAhead(one, '#9003', (o) => ({ ...o, recipient: { ...o.recipient, address1: 'Via Vecchia 9' } }));
    const [c0, m0, p0] = [cancels.length, made.length, printed(one).length];
    const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, weightKg: a.weightKg });
    expect(res.shipment.reference).toBe(`${a.key}-2`);
    expect(made.slice(m0)).toEqual([`${a.key}-2`]);
    expect(cancels.length - c0).toBe(1);
    const row = await aheadRow(a.id);
    expect([row.state, row.cancel_reason]).toEqual(['cancelled', 'changed']);
    expect(Number(row.refund)).toBeGreaterThan(0);
    expect(printed(one).length - p0).toBe(1);
  });

  it('a bench killed right after use: the next press uses the same label, never cancels it (even off the scale), prints it once', async () => {
    const a = await labelAhead(one, '#9004');
    // The bench marked it used, then died before its local commit.
    const used = await one.db.query('SELECT id FROM use_label_ahead($1, $2, $3)', [one.id, a.id, null]);
    expect(used.rowCount).toBe(1);
    const [c0, m0, q0, p0] = [cancels.length, made.length, quotes, printed(one).length];
    const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, weightKg: a.weightKg + 2 });
    expect(res.shipment.trackingNumber).toBe(a.trackingNumber);
    expect([cancels.length - c0, made.length - m0, quotes - q0]).toEqual([0, 0, 0]);
    expect(printed(one).length - p0).toBe(1);
    expect((await aheadRow(a.id)).state).toBe('used');
  });

  it('another bench has the label ahead in use: this bench is refused the order, nothing bought or cancelled', async () => {
    const a = await labelAhead(one, '#9005');
    await one.invoke('scan.resolve', { code: '#9005' });
    const [c0, m0] = [cancels.length, made.length];
    const o2 = await orderByNumber(two.invoke, '#9005');
    const refused = await stationFailure(two.invoke('shipping.shipOrder', { orderId: o2.id }));
    expect(refused.code).toBe('claimed');
    expect([cancels.length - c0, made.length - m0]).toEqual([0, 0]);
    expect((await aheadRow(a.id)).state).toBe('bought');
    await one.invoke('scan.release', {});
  });

  it('a label printed in a batch, scanned at a bench: its order opens for verify, claimed; shipping it prints nothing and buys nothing', async () => {
    const a = await labelAhead(one, '#9006');
    await owner.query(`UPDATE labels_ahead SET state = 'printed', printed_by = $2, printed_at = now() WHERE id = $1`, [a.id, one.id]);
    const scanned = await two.invoke('scan.resolve', { code: a.trackingNumber });
    expect(scanned.kind).toBe('order');
    if (scanned.kind !== 'order') return;
    expect(scanned.order.orderNumber).toBe('#9006');
    expect(scanned).not.toHaveProperty('claimedBy');
    expect((await owner.query<{ bench_id: string }>('SELECT bench_id FROM claims WHERE order_key = $1', [a.key])).rows).toEqual([{ bench_id: two.id }]);
    const [m0, q0, p0] = [made.length, quotes, printed(two).length];
    const res = await two.invoke('shipping.shipOrder', { orderId: scanned.order.id, weightKg: a.weightKg });
    expect(res.shipment.trackingNumber).toBe(a.trackingNumber);
    expect(res.printJob).toBeNull();
    expect([made.length - m0, quotes - q0]).toEqual([0, 0]);
    await new Promise((r) => setTimeout(r, 500));
    expect(printed(two).length - p0).toBe(0);
    await within(3000, () => warehouseOrder(a.key), (w) => w.shipped && w.tracking_number === a.trackingNumber && w.claims === 0);
  });

  it('End of day at a bench in a warehouse says where the day is closed, with the last close, in English and Italian', async () => {
    const never = await stationFailure(one.invoke('manifests.closeDay', {}));
    expect(never.code).toBe('invalid_state');
    expect(never.message).toBe('The day closes once for the whole warehouse, on the supervisor’s page: this bench does not close its own day');
    const close = await owner.query<{ id: string }>(`INSERT INTO warehouse_closes (closed_at, closed_at_place) VALUES ('2026-12-07T17:05:00Z', 'page') RETURNING id`);
    await owner.query(`INSERT INTO closed_shipments (tracking_number, close_id, bench_id) VALUES ('T1', $1, $2), ('T2', $1, $2)`, [close.rows[0]!.id, one.id]);
    const said = await stationFailure(one.invoke('manifests.closeDay', {}));
    expect(said.message).toBe('The day closes once for the whole warehouse, on the supervisor’s page: this bench does not close its own day. Last closed at 18:05 on 07/12/2026 with 2 shipments');
    expect(said.text).toEqual({ key: 'dayClosedByWarehouseLast', values: { time: '18:05', date: '07/12/2026', count: 2 } });
    expect(coreIt.coreText.dayClosedByWarehouseLast).toMatch(/^La giornata si chiude una volta per tutto il magazzino/);
    expect(made.filter((r) => r.startsWith('manifest'))).toEqual([]);
  });
});
