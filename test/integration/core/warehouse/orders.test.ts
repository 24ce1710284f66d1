/**
 * Issue 35 item 3, orders once for the warehouse, on a real PostgreSQL (test/support/postgres.ts) and one
 * platform (the sandbox): an import at Bench 1 is in Bench 2's order list within 2 s; Bench 1 ships it and
 * Bench 2 shows it shipped with its tracking number; importing it again at Bench 2 adds nothing anywhere;
 * an import made while the warehouse is away reaches the other bench when it is back; a bench joining with
 * orders of its own brings those the warehouse lacks and gets the warehouse's.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type StartedStation } from '../../../../electron/shell/start';
import { warehouseClientConfig } from '../../../../electron/core/warehouse/connection';
import type { Sandbox } from '../../../../electron/sandbox/index';
import type { StationOrder } from '../../../../shared/domain/order';
import { shopifyCsv } from '../../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../../fixtures/shopify/warehouse-order';
import { startTestPostgres, type TestPostgres } from '../../../support/postgres';
import { benchLogins, createWarehouse, untilWarehouse } from '../../../support/warehouse';
import type { Invoke } from '../../../support/commands';
import { invokerOf, parcel, startSandbox, stationConfig, tempDir } from '../helpers';

let server: TestPostgres;
let sb: Sandbox;
let url: string;
const dirs: Array<ReturnType<typeof tempDir>> = [];
const stations: StartedStation[] = [];
const pgPasswordBefore = process.env.PGPASSWORD;

/**
 * A station of the demo account in a new data folder, joined to the warehouse unless `alone`. `heartbeatMs`:
 * how often it says it is alive and retries a lost warehouse (a minute: only the import's push and the
 * warehouse's NOTIFY can bring an order within 2 s).
 */
/** Each bench (its data folder) its own login in warehouse_bench, as the README says; the same bench restarted keeps it. */
const logins = new Map<string, string>();
let nextLogin: () => Promise<string>;

async function bench(dir = newDir(), alone = false, heartbeatMs = 200): Promise<StartedStation> {
  const options = { platformRateLimits: false as const, warehouse: { heartbeatMs, activityMs: 100 } };
  if (!alone && !logins.has(dir)) logins.set(dir, await nextLogin());
  const station = await startStation({ ...stationConfig(sb, dir, `file://${dir}/labels`), ...(alone ? {} : { warehouseUrl: logins.get(dir)! }) }, options);
  stations.push(station);
  return station;
}

function newDir(): string {
  const tmp = tempDir();
  dirs.push(tmp);
  return tmp.dir;
}

/** Polls `read` every 50 ms until `ok`, at most `ms`; returns the last value read. */
async function poll<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 2000): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
}

/** Waits until the bench's link says it is connected. */
const connected = async (invoke: Invoke): Promise<void> => void (await untilWarehouse(invoke));

/** Every order of a bench, by number (the order list's `all` view). */
async function ordersOf(invoke: Invoke): Promise<Map<string, StationOrder>> {
  const page = await invoke('orders.page', { view: 'all', limit: 500 });
  return new Map(page.orders.map((o) => [o.orderNumber, o]));
}

/** The numbers on a bench's to-ship list, sorted. */
async function toShip(invoke: Invoke): Promise<string[]> {
  const page = await invoke('orders.page', { view: 'to_ship', limit: 500 });
  return page.orders.map((o) => o.orderNumber).sort();
}

const person = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
const orderRows = (n: number) =>
  order({ name: `#${n}`, id: `77000000${n}`, created: '2026-11-20 10:00:00 +0000', email: `o${n}@example.it`, ship: person, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' });
const day = shopifyCsv([...orderRows(7001), ...orderRows(7002)]);
const request = { recipient: { name: 'Giulia Bianchi', address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' } }, packages: [parcel()] };

beforeAll(async () => {
  server = await startTestPostgres();
  url = await createWarehouse(server, 'warehouse');
  nextLogin = benchLogins(server, url);
  process.env.PGPASSWORD = server.password;
  sb = await startSandbox();
}, 60_000);

afterAll(async () => {
  for (const s of stations) await s.close();
  await sb?.close();
  for (const d of dirs) d.cleanup();
  server?.stop();
  if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD;
  else process.env.PGPASSWORD = pgPasswordBefore;
});

/** Runs one statement as the warehouse's owner, on a connection of its own (the server is stopped and started between tests). */
async function query<R extends pg.QueryResultRow>(sql: string): Promise<R[]> {
  const client = new pg.Client(warehouseClientConfig(url, server.password).config);
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The warehouse's rows of orders: key, shipped or not, tracking number. */
async function warehouseOrders(): Promise<Array<{ order_key: string; shipped: boolean; tracking_number: string | null }>> {
  return query<{ order_key: string; shipped: boolean; tracking_number: string | null }>('SELECT order_key, shipped_at IS NOT NULL AS shipped, tracking_number FROM orders ORDER BY order_key');
}

describe('orders once for the warehouse', () => {
  it('an import at Bench 1 is on Bench 2 within 2 s; shipped at Bench 1, shown shipped at Bench 2; a re-import adds nothing', async () => {
    const one = await bench(newDir(), false, 60_000);
    const two = await bench(newDir(), false, 60_000);
    const at1 = invokerOf(() => one);
    const at2 = invokerOf(() => two);
    await connected(at1);
    await connected(at2);

    const report = await at1('orders.importCsv', { fileName: 'day.csv', content: day });
    expect(report.imported).toBe(2);
    const started = Date.now();
    const seen = await poll(() => toShip(at2), (x) => x.length === 2);
    expect(seen).toEqual(['#7001', '#7002']);
    expect(Date.now() - started).toBeLessThan(2000);
    // The same order at both benches: recipient, lines, shop; each bench has its own row id.
    const [o1, o2] = [(await ordersOf(at1)).get('#7001')!, (await ordersOf(at2)).get('#7001')!];
    expect({ ...o2, id: 0 }).toEqual({ ...o1, id: 0 });
    expect((await warehouseOrders()).map((r) => r.order_key)).toEqual(['#7001', '#7002']);

    // Bench 1 ships #7001: the warehouse row and Bench 2's copy say shipped, with the tracking number.
    const shipped = await at1('shipping.shipOrder', { orderId: o1.id, request });
    const tracking = shipped.shipment.trackingNumber;
    expect(tracking).toBeTruthy();
    const at2Shipped = await poll(async () => (await ordersOf(at2)).get('#7001')!, (o) => o.status === 'shipped');
    expect(at2Shipped).toMatchObject({ status: 'shipped', shipmentTrackingNumber: tracking });
    expect(await toShip(at2)).toEqual(['#7002']);
    expect(await warehouseOrders()).toEqual([
      { order_key: '#7001', shipped: true, tracking_number: tracking },
      { order_key: '#7002', shipped: false, tracking_number: null },
    ]);

    // Bench 2 imports the same file: nothing new at either bench nor in the warehouse; #7001 stays shipped.
    const revisions = async () => (await query<{ r: string }>('SELECT max(revision) AS r FROM orders'))[0]!.r;
    const before = await revisions();
    const again = await at2('orders.importCsv', { fileName: 'day.csv', content: day });
    expect(again.imported).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect([...(await ordersOf(at2)).keys()].sort()).toEqual(['#7001', '#7002']);
    expect([...(await ordersOf(at1)).keys()].sort()).toEqual(['#7001', '#7002']);
    expect((await ordersOf(at2)).get('#7001')).toMatchObject({ status: 'shipped', shipmentTrackingNumber: tracking });
    expect(await warehouseOrders()).toHaveLength(2);
    // An equal order changes nothing in the warehouse: no new revision, so no bench reads it again.
    expect(await revisions()).toBe(before);
  });

  it('an import made while the warehouse is away reaches the other bench when it is back', async () => {
    const one = await bench();
    const two = await bench();
    const at1 = invokerOf(() => one);
    const at2 = invokerOf(() => two);
    await connected(at1);
    await connected(at2);
    server.stopServer();
    try {
      const report = await at1('orders.importCsv', { fileName: 'late.csv', content: shopifyCsv(orderRows(7003)) });
      expect(report.imported).toBe(1);
      // Bench 1 works on: the order is on its own list at once.
      expect(await toShip(at1)).toContain('#7003');
    } finally {
      server.startServer();
    }
    const seen = await poll(() => toShip(at2), (x) => x.includes('#7003'), 10_000);
    expect(seen).toContain('#7003');
  });

  it('a bench joining with orders of its own brings those the warehouse lacks, and gets the others', async () => {
    const dir = newDir();
    const alone = await bench(dir, true);
    await invokerOf(() => alone)('orders.importCsv', { fileName: 'own.csv', content: shopifyCsv([...orderRows(7002), ...orderRows(8001)]) });
    await alone.close();
    const three = await bench(dir);
    const at3 = invokerOf(() => three);
    await connected(at3);
    const all = await poll(async () => [...(await ordersOf(at3)).keys()].sort(), (x) => x.length === 4, 5000);
    expect(all).toEqual(['#7001', '#7002', '#7003', '#8001']);
    expect((await ordersOf(at3)).get('#7001')?.status).toBe('shipped');
    const keys = await poll(async () => (await warehouseOrders()).map((r) => r.order_key), (x) => x.includes('#8001'));
    expect(keys).toEqual(['#7001', '#7002', '#7003', '#8001']);
  });
});
