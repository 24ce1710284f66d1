/**
 * Issue 35, two benches on one real PostgreSQL (test/support/postgres.ts) and one platform (the sandbox):
 * the order opened at Bench 1 by Anna cannot be shipped at Bench 3 (409 `claimed`, naming the bench and the
 * packer), `warehouse.status` answers for each bench, the claim ends when Bench 1 ships, and a bench whose
 * warehouse refuses its password starts alone and says so.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type StartedStation } from '../../../../electron/shell/start';
import { warehouseClientConfig } from '../../../../electron/core/warehouse/connection';
import type { Sandbox } from '../../../../electron/sandbox/index';
import { shopifyCsv } from '../../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../../fixtures/shopify/warehouse-order';
import { startTestPostgres, type TestPostgres } from '../../../support/postgres';
import { benchLogins, createWarehouse, untilWarehouse } from '../../../support/warehouse';
import { invokerOf, orderByNumber, parcel, startSandbox, stationConfig, stationFailure, tempDir } from '../helpers';

let server: TestPostgres;
let sb: Sandbox;
let url: string;
/** Each bench its own login in warehouse_bench, as the README says (never the owner's). */
let nextLogin: () => Promise<string>;
const dirs: Array<ReturnType<typeof tempDir>> = [];
const stations: StartedStation[] = [];
const pgPasswordBefore = process.env.PGPASSWORD;

/** A station of the demo account joined to the warehouse on a login of its own, its labels to a folder. */
async function bench(): Promise<StartedStation> {
  const tmp = tempDir();
  dirs.push(tmp);
  const warehouseUrl = await nextLogin();
  const station = await startStation({ ...stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), warehouseUrl }, { platformRateLimits: false, warehouse: { heartbeatMs: 200, activityMs: 100 } });
  stations.push(station);
  return station;
}

/** Polls `warehouse.status` until `connected` is `want` (the link connects in the background). */
const until = (invoke: ReturnType<typeof invokerOf>, want: boolean) => untilWarehouse(invoke, want);

const csv = shopifyCsv(
  order({ name: '#5001', id: '5500000005001', created: '2026-11-20 10:00:00 +0000', email: 'g@example.it', ship: { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' }, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' }),
);

beforeAll(async () => {
  server = await startTestPostgres();
  url = await createWarehouse(server, 'warehouse');
  nextLogin = benchLogins(server, url);
  // The benches' password as a bench gets it without a secret store: PGPASSWORD (never the URL).
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

describe('two benches, one warehouse', () => {
  it('an order open at Bench 1 is not shipped at Bench 3; the claim ends when Bench 1 ships it', async () => {
    const one = await bench();
    const three = await bench();
    const at1 = invokerOf(() => one);
    const at3 = invokerOf(() => three);
    for (const invoke of [at1, at3]) await invoke('orders.importCsv', { fileName: 'day.csv', shop: 'Bottega', content: csv });
    await at1('packers.setStation', { stationName: 'Bench 1', idleMinutes: 30 });
    await at3('packers.setStation', { stationName: 'Bench 3', idleMinutes: 30 });
    await at1('packers.save', { name: 'Anna', badge: 'BADGE-ANNA', pin: '1234', role: 'supervisor' });
    expect((await at1('packers.signIn', { pin: '1234' })).packer?.name).toBe('Anna');

    const status1 = await until(at1, true);
    const status3 = await until(at3, true);
    expect(status1).toEqual({ connected: true, since: expect.any(String), bench: { id: expect.any(String), name: 'Bench 1' } });
    expect(status3.bench.name).toBe('Bench 3');
    expect(status3.bench.id).not.toBe(status1.bench.id);

    // Anna opens the order at Bench 1: it is claimed there.
    expect((await at1('scan.resolve', { code: '#5001' })).kind).toBe('order');
    // Bench 3 scans it: told who has it, since when; the order is not opened there.
    const scanned = await at3('scan.resolve', { code: '#5001' });
    expect(scanned).toMatchObject({ kind: 'order', claimedBy: { bench: 'Bench 1', packer: 'Anna', since: expect.any(String) } });
    const o3 = await orderByNumber(at3, '#5001');
    // Opened from the list instead: the same claim, the same answer.
    expect(await at3('scan.open', { orderId: o3.id })).toMatchObject({ kind: 'order', claimedBy: { bench: 'Bench 1', packer: 'Anna' } });
    const request = {
      recipient: { name: 'Giulia Bianchi', address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' } },
      packages: [parcel()],
    };
    const refused = await stationFailure(at3('shipping.shipOrder', { orderId: o3.id, request }));
    expect(refused.code).toBe('claimed');
    expect(refused.message).toMatch(/^Order #5001 is being packed at Bench 1 by Anna since \d\d:\d\d$/);
    expect(await at3('shipments.recent', {})).toEqual([]);

    // Bench 1 ships it: the claim ends with the shipment.
    const o1 = await orderByNumber(at1, '#5001');
    const shipped = await at1('shipping.shipOrder', { orderId: o1.id, request });
    expect(shipped.shipment.trackingNumber).toBeTruthy();
    const pool = new pg.Client(warehouseClientConfig(url, server.password).config);
    await pool.connect();
    for (let i = 0; i < 50 && (await pool.query('SELECT count(*)::int AS n FROM claims')).rows[0].n !== 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await pool.query('SELECT count(*)::int AS n FROM claims')).rows).toEqual([{ n: 0 }]);

    // What Bench 1 did is in the warehouse within 2 s, once, with the shipment's facts.
    const ship = async () => (await pool.query<{ packer: string; shipment: { contractCode: string; cost: number; parcels: number; weightKg: number } }>(`SELECT packer, shipment FROM activity WHERE action = 'ship' AND tracking_number = $1`, [shipped.shipment.trackingNumber])).rows;
    for (let i = 0; i < 40 && (await ship()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await ship()).toEqual([{ packer: 'Anna', shipment: { contractCode: shipped.shipment.carrier.contractCode, contractName: shipped.shipment.carrier.contractName, carrierName: shipped.shipment.carrier.name, cost: shipped.shipment.cost.amount, currency: 'EUR', weightKg: 1.5, parcels: 1 } }]);
    const actions = (await pool.query<{ action: string; n: number }>(`SELECT action, count(*)::int AS n FROM activity a JOIN benches b ON b.id = a.bench_id WHERE b.name = 'Bench 1' GROUP BY action ORDER BY action`)).rows;
    expect(actions).toEqual(expect.arrayContaining([{ action: 'scan', n: 1 }, { action: 'ship', n: 1 }, { action: 'sign_in', n: 1 }]));
    await pool.end();
  });

  it('a bench that lets the order go (Esc) frees it for another bench at once', async () => {
    const a = await bench();
    const b = await bench();
    const atA = invokerOf(() => a);
    const atB = invokerOf(() => b);
    const one = shopifyCsv(order({ name: '#5101', id: '5500000005101', created: '2026-11-20 10:00:00 +0000', email: 'l@example.it', ship: { name: 'Luca Verdi', a1: 'Via Appia 5', city: 'Roma', zip: '00184', prov: 'RM', country: 'IT' }, items: [{ q: '1', n: 'Piatto', p: '20.00', sku: 'PIATTO' }], total: '20.00' }));
    for (const invoke of [atA, atB]) await invoke('orders.importCsv', { fileName: 'esc.csv', shop: 'Bottega', content: one });
    await until(atA, true);
    await until(atB, true);
    expect(await atA('scan.resolve', { code: '#5101' })).not.toHaveProperty('claimedBy');
    expect(await atB('scan.resolve', { code: '#5101' })).toHaveProperty('claimedBy');
    expect(await atA('scan.release', {})).toEqual({ released: true });
    expect(await atA('scan.release', {})).toEqual({ released: false });
    expect(await atB('scan.resolve', { code: '#5101' })).not.toHaveProperty('claimedBy');
    expect(await atA('scan.resolve', { code: '#5101' })).toHaveProperty('claimedBy');
  });

  it('a bench sends again what it did while the warehouse was away, each row once', async () => {
    const two = await bench();
    const at2 = invokerOf(() => two);
    await at2('orders.importCsv', { fileName: 'day.csv', shop: 'Bottega', content: csv });
    await until(at2, true);
    const client = new pg.Client(warehouseClientConfig(url, server.password).config);
    const count = async () => {
      await client.connect().catch(() => undefined);
      const id = (await at2('warehouse.status', {})).bench.id;
      return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM activity WHERE bench_id = $1', [id])).rows[0]!.n;
    };
    server.stopServer();
    try {
      // Ten scans while the warehouse is away: the bench works on, and says since when it is offline.
      for (let i = 0; i < 10; i++) expect((await at2('scan.resolve', { code: '#5001' })).kind).toBe('order');
      const away = await until(at2, false);
      expect(away.connected).toBe(false);
    } finally {
      server.startServer();
    }
    await until(at2, true);
    let n = 0;
    for (let i = 0; i < 60 && n < 10; i++) {
      await new Promise((r) => setTimeout(r, 100));
      n = await count().catch(() => 0);
    }
    expect(n).toBe(10);
    await new Promise((r) => setTimeout(r, 500));
    expect(await count()).toBe(10);
    await client.end();
  });

  it('a bench restarted while the warehouse is away ships the order it was packing, and no other', async () => {
    const tmp = tempDir();
    dirs.push(tmp);
    const config = { ...stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), warehouseUrl: await nextLogin() };
    const options = { platformRateLimits: false as const, warehouse: { heartbeatMs: 200, activityMs: 100 } };
    let four = await startStation(config, options);
    const at4 = invokerOf(() => four);
    const two = shopifyCsv([
      ...order({ name: '#6001', id: '6600000006001', created: '2026-11-20 10:00:00 +0000', email: 'a@example.it', ship: { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' }, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' }),
      ...order({ name: '#6002', id: '6600000006002', created: '2026-11-20 10:00:00 +0000', email: 'b@example.it', ship: { name: 'Luca Verdi', a1: 'Via Appia 5', city: 'Roma', zip: '00184', prov: 'RM', country: 'IT' }, items: [{ q: '1', n: 'Piatto', p: '20.00', sku: 'PIATTO' }], total: '20.00' }),
    ]);
    await at4('orders.importCsv', { fileName: 'four.csv', shop: 'Bottega', content: two });
    await until(at4, true);
    expect((await at4('scan.resolve', { code: '#6001' })).kind).toBe('order');
    server.stopServer();
    try {
      await four.close();
      four = await startStation(config, options);
      stations.push(four);
      expect((await until(at4, false)).connected).toBe(false);
      const parcelTo = (name: string, street: string, city: string, province: string, postalCode: string) => ({
        recipient: { name, address: { street, city, province, postalCode, countryCode: 'IT' } },
        packages: [parcel()],
      });
      const other = await orderByNumber(at4, '#6002');
      const refused = await stationFailure(at4('shipping.shipOrder', { orderId: other.id, request: parcelTo('Luca Verdi', 'Via Appia 5', 'Roma', 'RM', '00184') }));
      expect(refused.code).toBe('claimed');
      expect(refused.message).toMatch(/^Order #6002 is not shipped here: the warehouse cannot be reached since .+ and this bench holds no claim on the order$/);
      const mine = await orderByNumber(at4, '#6001');
      const shipped = await at4('shipping.shipOrder', { orderId: mine.id, request: parcelTo('Giulia Bianchi', 'Via Roma 1', 'Milano', 'MI', '20121') });
      expect(shipped.shipment.trackingNumber).toBeTruthy();
    } finally {
      server.startServer();
    }
  });

  it('a bench whose warehouse refuses its password starts alone and says since when', async () => {
    const wrong = process.env.PGPASSWORD;
    process.env.PGPASSWORD = 'not-the-password';
    try {
      const alone = await bench();
      const status = await until(invokerOf(() => alone), false);
      expect(status).toMatchObject({ connected: false, since: expect.any(String) });
      // The header says it too ("Warehouse offline since 10:42").
      expect((await invokerOf(() => alone)('app.info', {})).warehouse).toEqual(status);
    } finally {
      process.env.PGPASSWORD = wrong;
    }
  });
});
