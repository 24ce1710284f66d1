/**
 * The platform's events reach every bench (issue 44 item 3): the sandbox's own dispatcher (loopback receivers
 * allowed) delivers to the supervisor's page (in process, the supervisor's connection, endpoint registered by
 * endpoint.ts), two benches on their own logins in `warehouse_bench` LISTEN. Checks, each within 2 s of the
 * warehouse storing the event: an order shipped through the platform directly (not by a bench) is shipped at
 * both benches and refused at a bench; the shipping bench's shipment follows tracking.update; stock.opened and
 * stock.closed reload both benches' Stocks screens, and the warehouse's held stocks open and close.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type StartedStation } from '../../../electron/shell/start';
import { warehouseClientConfig } from '../../../electron/core/warehouse/connection';
import { createSandbox, type Sandbox } from '../../../electron/sandbox/index';
import { startSupervisorPage, type RunningPage } from '../../../electron/warehouse/server';
import { registerEndpoint } from '../../../electron/warehouse/endpoint';
import { createWarehousePlatform } from '../../../electron/warehouse/platform';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';
import { benchLogins, createWarehouse, untilWarehouse } from '../../support/warehouse';
import type { Invoke } from '../../support/commands';
import { invokerOf, orderByNumber, parcel, stationConfig, stationFailure, tempDir } from '../core/helpers';
import { MONDAY_2026_09_14, recipient } from '../sandbox/helpers';
import { renewingCaller } from '../conformance/admin-client';

const MIN = 60_000;
let server: TestPostgres;
let sb: Sandbox;
let owner: pg.Pool;
let page: RunningPage;
let secret: string | null = null;
const dirs: Array<ReturnType<typeof tempDir>> = [];
const stations: StartedStation[] = [];

/** A bench: its station, commands, and when (ms) each event reached its screens. */
interface Bench {
  station: StartedStation;
  invoke: Invoke;
  stocksAt: number[];
  shipmentsAt: Map<string, number>;
}

async function bench(name: string, login: string): Promise<Bench> {
  const tmp = tempDir();
  dirs.push(tmp);
  const station = await startStation({ ...stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), warehouseUrl: login }, { platformRateLimits: false, warehouse: { heartbeatMs: 200, activityMs: 100 }, log: () => undefined });
  stations.push(station);
  const invoke = invokerOf(() => station);
  await invoke('packers.setStation', { stationName: name, idleMinutes: 30 });
  await untilWarehouse(invoke);
  const b: Bench = { station, invoke, stocksAt: [], shipmentsAt: new Map() };
  station.events.on('stocks.changed', () => b.stocksAt.push(Date.now()));
  station.events.on('shipments.changed', ({ trackingNumber }) => b.shipmentsAt.set(trackingNumber, Date.now()));
  return b;
}

/** Polls `read` every 25 ms until `ok`, at most `ms`. */
async function within<T>(ms: number, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** When the warehouse stored the event (its database's clock, ms). */
async function storedAt(event: string, trackingNumber: string, statusCode?: number): Promise<number> {
  const row = await within(
    3000,
    async () => (await owner.query<{ at: Date }>('SELECT received_at AS at FROM platform_events WHERE event = $1 AND tracking_number = $2 AND ($3::int IS NULL OR status_code = $3) ORDER BY id DESC LIMIT 1', [event, trackingNumber, statusCode ?? null])).rows[0],
    (r) => r !== undefined,
  );
  return row!.at.getTime();
}

let one: Bench;
let two: Bench;
const call = () => renewingCaller(sb, 0);

beforeAll(async () => {
  server = await startTestPostgres();
  const url = await createWarehouse(server, 'eventsfloor');
  const nextLogin = benchLogins(server, url);
  process.env.PGPASSWORD = server.password;
  owner = new pg.Pool({ ...warehouseClientConfig(url, server.password).config, max: 4 });
  sb = await createSandbox({ port: 0, clock: MONDAY_2026_09_14, webhookLoopbackHttp: true });
  page = await startSupervisorPage({ db: owner, events: { secret: () => secret, now: () => sb.clock.nowMs(), settleS: 1, log: () => undefined } });
  const platform = createWarehousePlatform({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: sb.clients[0]!.clientId, clientSecret: sb.clients[0]!.clientSecret });
  secret = (await registerEndpoint(platform, owner, page.url)).secret;
  one = await bench('Bench 1', await nextLogin());
  two = await bench('Bench 2', await nextLogin());
  const csv = shopifyCsv(
    [9001, 9002].map((n) => order({ name: `#${n}`, id: `99000000${n}`, created: '2026-09-14 08:00:00 +0000', email: `o${n}@example.it`, ship: { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' }, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' })).flat(),
  );
  expect((await one.invoke('orders.importCsv', { fileName: 'day.csv', shop: 'Bottega', content: csv })).imported).toBe(2);
  await within(5000, async () => (await two.invoke('orders.page', { view: 'to_ship', limit: 50 })).orders.length, (n) => n === 2);
}, 120_000);

afterAll(async () => {
  for (const s of stations) await s.close();
  await page?.close();
  await sb?.close();
  await owner?.end();
  for (const d of dirs) d.cleanup();
  server?.stop();
});

describe('the platform’s events at every bench', () => {
  it('shipment.created for an order no bench shipped: shipped at both benches within 2 s, its claim released, refused at a bench', async () => {
    // Bench 2 has it open (claimed) when the web panel ships it: the claim is released after the settle time.
    expect((await two.invoke('scan.resolve', { code: '#9002' })).kind).toBe('order');
    const made = await call()<{ trackingNumber: string }>('POST', '/shipments', { recipient: recipient(), packages: [parcel()], reference: 'Bottega #9002' });
    expect(made.status).toBe(201);
    await sb.state.webhooks.dispatcher.idle();
    const at = await storedAt('shipment.created', made.body.trackingNumber);
    // Deferred for the settle time (1 s here) while Bench 2's claim stands, then adopted.
    for (const b of [one, two]) await within(5000, () => orderByNumber(b.invoke, '#9002'), (o) => o.status === 'shipped');
    expect(Date.now() - at).toBeLessThan(1000 + 2000 + 2000);
    expect((await owner.query('SELECT count(*)::int AS n FROM claims WHERE order_key = $1', ['Bottega #9002'])).rows[0].n).toBe(0);
    expect((await owner.query('SELECT shipped_from FROM orders WHERE order_key = $1', ['Bottega #9002'])).rows[0].shipped_from).toBe('platform');
    const o = await orderByNumber(one.invoke, '#9002');
    const request = { recipient: { name: 'Giulia Bianchi', address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' } }, packages: [parcel()] };
    const refused = await stationFailure(one.invoke('shipping.shipOrder', { orderId: o.id, request }));
    expect(refused.code).toBe('invalid_state');
    expect(refused.message).toMatch(new RegExp(`^Order #9002 was shipped from the web panel at \\d\\d:\\d\\d \\(tracking number ${made.body.trackingNumber}\\): it is not shipped again$`));
    expect(sb.state.shipments.filter((s) => s.reference === 'Bottega #9002')).toHaveLength(1);
  }, 30_000);

  it('tracking.update and stock.opened / stock.closed reach both benches within 2 s', async () => {
    const o = await orderByNumber(one.invoke, '#9001');
    const request = { recipient: { name: 'Giulia Bianchi', address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' } }, packages: [parcel()], options: { notes: 'sandbox:held' } };
    const tn = (await one.invoke('shipping.shipOrder', { orderId: o.id, request })).shipment.trackingNumber;
    // The simulated carrier: in transit, out for delivery, not delivered, held at the depot (a stock opens).
    const stocksBefore = [one.stocksAt.length, two.stocksAt.length];
    for (let i = 0; i < 7 * 48; i++) {
      sb.clock.advance(30 * MIN);
      await sb.state.webhooks.dispatcher.idle();
      if ((await owner.query(`SELECT 1 FROM held_stocks WHERE tracking_number = $1`, [tn])).rowCount) break;
    }
    const openedAt = await storedAt('stock.opened', tn);
    for (const b of [one, two]) await within(2000, async () => b.stocksAt.length, (n) => n > stocksBefore[[one, two].indexOf(b)]!);
    for (const b of [one, two]) expect(b.stocksAt.at(-1)! - openedAt).toBeLessThan(2000);
    // The shipping bench's shipment follows the status (held at the depot, 6).
    const trackingAt = await storedAt('tracking.update', tn, 6);
    await within(2000, async () => (await one.invoke('shipments.get', { trackingNumber: tn })).status, (s) => s.key === 'held_at_depot');
    expect(one.shipmentsAt.get(tn)! - trackingAt).toBeLessThan(2000);

    // The packer instructs it from the bench; the carrier releases it and the stock closes.
    const stock = (await one.invoke('stocks.list', { status: 'open' })).data.find((s) => s.trackingNumber === tn)!;
    await one.invoke('stocks.instruct', { stockId: stock.id, trackingNumber: tn, request: { action: 'return_to_sender' } });
    const before = [one.stocksAt.length, two.stocksAt.length];
    for (let i = 0; i < 4 * 48; i++) {
      sb.clock.advance(30 * MIN);
      await sb.state.webhooks.dispatcher.idle();
      if ((await owner.query(`SELECT 1 FROM held_stocks WHERE tracking_number = $1 AND status = 'closed'`, [tn])).rowCount) break;
    }
    const closedAt = await storedAt('stock.closed', tn);
    for (const [i, b] of [one, two].entries()) await within(2000, async () => b.stocksAt.length, (n) => n > before[i]!);
    for (const b of [one, two]) expect(b.stocksAt.at(-1)! - closedAt).toBeLessThan(2000);
  }, 90_000);
});
