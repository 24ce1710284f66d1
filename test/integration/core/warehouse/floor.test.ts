/**
 * A floor of benches as the README sets it up (issue 42): the supervisor owns the warehouse, each bench logs in
 * with its own login in `warehouse_bench`, all on one platform account (the sandbox).
 *
 * 1. Bench 2 ships an order Bench 1 imported: the warehouse has it shipped (by Bench 2), Bench 2's `ship`
 *    activity and no claim on it, within 2 s; Bench 2 stays connected. A write the database refuses is an
 *    answer: the bench stays connected, names what was refused on its status, and the rest keeps flowing.
 * 6, 7, 9. A press that ends queued keeps its claim while the shipment is unsent (another bench is refused it,
 *    and spends no quote on it); sent later by the outbox, it reaches the warehouse as activity and ends its
 *    claim; the other bench then finds it shipped, and the platform has one shipment of it.
 * 8. A quote the account's limit refuses is `not_sent`, never called queued: no outbox row.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type StartedStation } from '../../../../electron/shell/start';
import { warehouseClientConfig } from '../../../../electron/core/warehouse/connection';
import { observeResponses } from '../../../../electron/sandbox/observe';
import type { Sandbox } from '../../../../electron/sandbox/index';
import { QUEUED_CODES } from '../../../../shared/contract/outbox-outcome';
import { shopifyCsv } from '../../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../../fixtures/shopify/warehouse-order';
import { startTestPostgres, type TestPostgres } from '../../../support/postgres';
import { benchLogins, createWarehouse, untilWarehouse } from '../../../support/warehouse';
import type { Invoke } from '../../../support/commands';
import { invokerOf, orderByNumber, parcel, startSandbox, stationConfig, stationFailure, tempDir } from '../helpers';

let server: TestPostgres;
let sb: Sandbox;
let url: string;
let nextLogin: () => Promise<string>;
let owner: pg.Client;
const dirs: Array<ReturnType<typeof tempDir>> = [];
const stations: StartedStation[] = [];
const pgPasswordBefore = process.env.PGPASSWORD;

/** A bench of the floor: its station, commands, log lines and id in the warehouse. */
interface Bench {
  station: StartedStation;
  invoke: Invoke;
  logs: string[];
  id: string;
}

/** Starts a bench on a login of its own, named `name`, connected; `rateLimits` as the station's option (default none). */
async function bench(name: string, rateLimits: Readonly<Record<string, number>> | false = false): Promise<Bench> {
  const tmp = tempDir();
  dirs.push(tmp);
  const logs: string[] = [];
  const station = await startStation(
    { ...stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), warehouseUrl: await nextLogin() },
    { platformRateLimits: rateLimits, warehouse: { heartbeatMs: 200, activityMs: 100 }, log: (line) => logs.push(line) },
  );
  stations.push(station);
  const invoke = invokerOf(() => station);
  await invoke('packers.setStation', { stationName: name, idleMinutes: 30 });
  const status = await untilWarehouse(invoke);
  return { station, invoke, logs, id: status.bench.id };
}

/** Polls `read` every 25 ms until `ok` holds, at most `ms`; returns the value and how long it took. */
async function within<T>(ms: number, read: () => Promise<T>, ok: (v: T) => boolean): Promise<{ value: T; tookMs: number }> {
  const t0 = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return { value, tookMs: Date.now() - t0 };
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The warehouse's row of an order (as its owner reads it) and the claims and `ship` activity of it. */
async function warehouseOf(orderKey: string) {
  const o = await owner.query<{ shipped: boolean; shipped_by: string | null; bench_id: string | null; tracking_number: string | null }>(
    'SELECT shipped_at IS NOT NULL AS shipped, shipped_by, bench_id, tracking_number FROM orders WHERE order_key = $1',
    [orderKey],
  );
  const claims = await owner.query<{ bench_id: string; packer: string | null }>('SELECT bench_id, packer FROM claims WHERE order_key = $1', [orderKey]);
  const row = o.rows[0];
  const ships = row?.tracking_number
    ? (await owner.query<{ bench_id: string; packer: string | null }>(`SELECT bench_id, packer FROM activity WHERE action = 'ship' AND tracking_number = $1`, [row.tracking_number])).rows
    : [];
  return { order: row, claims: claims.rows, ships };
}

/** POST /sandbox faults (test control of the platform). */
async function fault(body: unknown): Promise<void> {
  const res = await fetch(`${new URL(sb.baseUrl).origin}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
}

// What the platform answered, counted: quotes and shipments made (with their references).
let quotes = 0;
const shipped: string[] = [];
let stopObserving: () => void = () => undefined;

const people = [
  { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' },
  { name: 'Luca Verdi', a1: 'Via Appia 5', city: 'Roma', zip: '00184', prov: 'RM', country: 'IT' },
];
const day = shopifyCsv(
  [8001, 8002, 8003, 8004, 8005, 8006, 8007, 8008].flatMap((n, i) =>
    order({ name: `#${n}`, id: `88000000${n}`, created: '2026-12-07 08:00:00 +0000', email: `o${n}@example.it`, ship: people[i % 2]!, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' }),
  ),
);
const rules = JSON.stringify({ version: 1, rules: [{ name: 'Italia', when: { countries: ['IT'] }, then: { rate: 'cheapest' } }] });

let one: Bench;
let two: Bench;

beforeAll(async () => {
  server = await startTestPostgres();
  url = await createWarehouse(server, 'floor');
  nextLogin = benchLogins(server, url);
  process.env.PGPASSWORD = server.password;
  owner = new pg.Client(warehouseClientConfig(url, server.password).config);
  await owner.connect();
  sb = await startSandbox();
  stopObserving = observeResponses((r) => {
    if (r.method === 'POST' && r.url.endsWith('/rates') && r.statusCode === 200) quotes++;
    if (r.method === 'POST' && r.url.endsWith('/shipments') && r.statusCode === 201 && r.body) shipped.push((JSON.parse(r.body) as { reference?: string }).reference ?? '');
  });
  one = await bench('Bench 1');
  two = await bench('Bench 2');
  // Bench 1 brings the rules, the product's weight and the day's orders; Bench 2 has them from the warehouse.
  await one.invoke('rules.import', { content: rules });
  await one.invoke('products.importCsv', { content: 'sku,description,weightKg,lengthCm,widthCm,heightCm\nVASO,Vaso,1.2,30,20,12\n' });
  expect((await one.invoke('orders.importCsv', { fileName: 'day.csv', shop: 'Bottega', content: day })).imported).toBe(8);
  await within(5000, async () => (await two.invoke('orders.page', { view: 'to_ship', limit: 50 })).orders.length, (n) => n === 8);
  await within(5000, async () => (await two.invoke('rules.list', {})).rules.length, (n) => n === 1);
}, 90_000);

afterAll(async () => {
  stopObserving();
  for (const s of stations) await s.close();
  await owner?.end();
  await sb?.close();
  for (const d of dirs) d.cleanup();
  server?.stop();
  if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD;
  else process.env.PGPASSWORD = pgPasswordBefore;
});

describe('a floor of benches on their own logins', () => {
  it('Bench 2 ships an order Bench 1 imported: shipped in the warehouse, its activity, its claim ended, within 2 s, and Bench 2 stays connected', async () => {
    const o = await orderByNumber(two.invoke, '#8001');
    expect((await warehouseOf('Bottega #8001')).order?.bench_id).toBe(one.id);
    const res = await two.invoke('shipping.shipOrder', { orderId: o.id });
    const trackingNumber = res.shipment.trackingNumber;
    expect(trackingNumber).toBeTruthy();
    const { value, tookMs } = await within(2000, () => warehouseOf('Bottega #8001'), (w) => w.order?.shipped === true && w.ships.length === 1 && w.claims.length === 0);
    expect(value.order).toEqual({ shipped: true, shipped_by: two.id, bench_id: one.id, tracking_number: trackingNumber });
    expect(value.ships).toEqual([{ bench_id: two.id, packer: null }]);
    expect(tookMs).toBeLessThan(2000);
    // Bench 1 shows it shipped; Bench 2 never lost its warehouse.
    await within(2000, () => orderByNumber(one.invoke, '#8001'), (x) => x.status === 'shipped');
    expect((await two.invoke('warehouse.status', {})).connected).toBe(true);
    expect(two.logs.filter((l) => /^warehouse .*(unreachable|broke|does not answer|refused)/.test(l))).toEqual([]);
  });

  it('a write the database refuses is said as what it is: the bench stays connected, the page sees it, the rest flows', async () => {
    // The warehouse's administrator refuses Bench 2's scans (a rule of their own): the bench must not take it for a lost link.
    await owner.query(`
      CREATE FUNCTION refuse_scans() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        IF NEW.action = 'scan' AND NEW.bench_id = '${two.id}' THEN
          RAISE EXCEPTION 'scans of this bench are refused here' USING ERRCODE = '42501';
        END IF;
        RETURN NEW;
      END $f$;
      CREATE TRIGGER refuse_scans BEFORE INSERT ON activity FOR EACH ROW EXECUTE FUNCTION refuse_scans();
    `);
    try {
      expect((await two.invoke('scan.resolve', { code: '#8002' })).kind).toBe('order');
      const o = await orderByNumber(two.invoke, '#8002');
      const trackingNumber = (await two.invoke('shipping.shipOrder', { orderId: o.id })).shipment.trackingNumber;
      // The shipment went up after the refused scan; the refusal is on the bench's status for the page.
      await within(3000, () => warehouseOf('Bottega #8002'), (w) => w.ships.length === 1 && w.order?.tracking_number === trackingNumber);
      const { value: status } = await within(
        3000,
        async () => (await owner.query<{ status: { warehouseRefusals?: Array<{ what: string; code: string; message: string }> } }>('SELECT status FROM benches WHERE id = $1', [two.id])).rows[0]!.status,
        (s) => (s.warehouseRefusals?.length ?? 0) > 0,
      );
      expect(status.warehouseRefusals).toEqual([{ at: expect.any(String), what: expect.stringMatching(/^activity row \d+$/), code: '42501', message: 'scans of this bench are refused here' }]);
      expect(two.logs.some((l) => /^warehouse refused activity row \d+: scans of this bench are refused here \(SQLSTATE 42501\)$/.test(l))).toBe(true);
      expect((await two.invoke('warehouse.status', {})).connected).toBe(true);
    } finally {
      await owner.query('DROP TRIGGER refuse_scans ON activity; DROP FUNCTION refuse_scans()');
    }
  });

  it('a queued press keeps its claim until it is sent; sent later it reaches the warehouse and ends its claim; one shipment, no quote spent elsewhere', async () => {
    const key = 'Bottega #8003';
    expect(await one.invoke('scan.resolve', { code: '#8003' })).not.toHaveProperty('claimedBy');
    const o1 = await orderByNumber(one.invoke, '#8003');
    // The carrier fails once: the press is queued, the outbox sends it later by itself.
    await fault({ carrierError: { next: 1, endpoints: ['POST /shipments'] } });
    const queued = await stationFailure(one.invoke('shipping.shipOrder', { orderId: o1.id }));
    expect(QUEUED_CODES.has(queued.code)).toBe(true);
    // The packer goes on to the next order: the unsent one stays claimed by Bench 1.
    expect((await one.invoke('scan.resolve', { code: '#8004' })).kind).toBe('order');
    expect((await warehouseOf(key)).claims).toEqual([{ bench_id: one.id, packer: null }]);
    // Bench 2 is told who has it, and a press there spends none of the account's quotes.
    expect(await two.invoke('scan.resolve', { code: '#8003' })).toMatchObject({ kind: 'order', claimedBy: { bench: 'Bench 1' } });
    const quotesBefore = quotes;
    const o2 = await orderByNumber(two.invoke, '#8003');
    const refused = await stationFailure(two.invoke('shipping.shipOrder', { orderId: o2.id }));
    expect(refused.code).toBe('claimed');
    expect(quotes).toBe(quotesBefore);

    // The outbox sends it (its backoff: 5 s): the warehouse has the shipment, Bench 1's activity, no claim.
    const { value } = await within(30_000, () => warehouseOf(key), (w) => w.order?.shipped === true && w.ships.length === 1 && w.claims.length === 0);
    expect(value.order?.shipped_by).toBe(one.id);
    expect(value.ships).toEqual([{ bench_id: one.id, packer: null }]);
    // Bench 2 now finds it shipped; pressing Ship there makes no second shipment.
    await within(3000, () => orderByNumber(two.invoke, '#8003'), (x) => x.status === 'shipped');
    await stationFailure(two.invoke('shipping.shipOrder', { orderId: o2.id }));
    const reference = shipped.filter((r) => r.includes('8003'));
    expect(reference).toHaveLength(1);
  }, 60_000);

  it('an order shipped at another bench is refused at the claim, naming where and its tracking number, and marked shipped here', async () => {
    const o1 = await orderByNumber(one.invoke, '#8005');
    const trackingNumber = (await one.invoke('shipping.shipOrder', { orderId: o1.id })).shipment.trackingNumber;
    await within(2000, () => warehouseOf('Bottega #8005'), (w) => w.order?.shipped === true);
    // Bench 2 has not pulled it yet in this instant or has: either way the claim says it is shipped.
    const o2 = await orderByNumber(two.invoke, '#8005');
    const quotesBefore = quotes;
    // The Ship screen's request (or an integrator's): the warehouse's word comes before anything is sent.
    const request = { recipient: { name: 'Giulia Bianchi', address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' } }, packages: [parcel()] };
    const refused = await stationFailure(two.invoke('shipping.shipOrder', { orderId: o2.id, request }));
    expect(refused.code).toBe('invalid_state');
    expect(refused.message).toMatch(new RegExp(`^Order #8005 was shipped at Bench 1 at \\d\\d:\\d\\d \\(tracking number ${trackingNumber}\\): it is not shipped again$`));
    expect(shipped.filter((r) => r.includes('8005'))).toHaveLength(1);
    expect(quotes).toBe(quotesBefore);
    expect((await orderByNumber(two.invoke, '#8005')).status).toBe('shipped');
  });

  it('a quote the account’s limit refuses is not_sent, with when to press again: never called queued, nothing in the outbox', async () => {
    const three = await bench('Bench 3', { 'POST /rates': 1 });
    await within(5000, async () => (await three.invoke('orders.page', { view: 'to_ship', limit: 50 })).orders.length, (n) => n >= 2);
    const first = await orderByNumber(three.invoke, '#8006');
    expect((await three.invoke('shipping.shipOrder', { orderId: first.id })).shipment.trackingNumber).toBeTruthy();
    const second = await orderByNumber(three.invoke, '#8007');
    const refused = await stationFailure(three.invoke('shipping.shipOrder', { orderId: second.id }));
    expect(refused.code).toBe('not_sent');
    expect(QUEUED_CODES.has(refused.code)).toBe(false);
    expect(refused.message).toMatch(/^Not shipped, and nothing is queued: the platform’s quotes for this minute are used up\. Press Ship again in \d+ s$/);
    expect(Number(refused.details?.retryAfterS?.[0])).toBeGreaterThan(0);
    const pending = (await three.invoke('outbox.list', {})).pending.filter((r) => r.kind === 'shipment.create');
    expect(pending).toEqual([]);
    expect((await orderByNumber(three.invoke, '#8007')).status).toBe('open');
    // Its claim is the bench's own while the packer decides: another bench is told so, not left guessing.
    await three.invoke('scan.release', {});
  }, 30_000);

  it('a claim taken by shipping names the packer signed in, and a press sent later is still that packer’s shipment', async () => {
    await two.invoke('packers.save', { name: 'Marco Ferri', badge: 'BADGE-MARCO', pin: '4821', role: 'supervisor' });
    expect((await two.invoke('packers.signIn', { pin: '4821' })).packer?.name).toBe('Marco Ferri');
    const o = await orderByNumber(two.invoke, '#8008');
    await fault({ carrierError: { next: 1, endpoints: ['POST /shipments'] } });
    // No scan: the press itself claims the order, in Marco's name.
    const queued = await stationFailure(two.invoke('shipping.shipOrder', { orderId: o.id }));
    expect(QUEUED_CODES.has(queued.code)).toBe(true);
    expect((await warehouseOf('Bottega #8008')).claims).toEqual([{ bench_id: two.id, packer: 'Marco Ferri' }]);
    // Marco signs out before the queue sends it: the shipment is still his.
    await two.invoke('packers.signOut', {});
    const { value } = await within(30_000, () => warehouseOf('Bottega #8008'), (w) => w.ships.length === 1 && w.claims.length === 0);
    expect(value.ships).toEqual([{ bench_id: two.id, packer: 'Marco Ferri' }]);
  }, 60_000);
});
