/**
 * Labels bought ahead (issue 43 item 3, the buying half) on a real PostgreSQL and the sandbox over HTTP, every
 * bench on its own login in warehouse_bench, one platform account:
 * - off, nothing is bought; on for one rule, only that rule's orders; on for every rule, the lease holder buys
 *   one label per order that ships by itself, oldest imported first, its bytes kept in the warehouse, and the
 *   platform has one shipment per order; an order a bench has claimed, or whose weight is not known, gets none;
 * - background work leaves the supervisor's headroom to the packers: with the window nearly full the buyer buys
 *   nothing more, its reservations dropped, and a packer's label still goes;
 * - a buyer killed after reserving: another bench settles its reservations by reference (found: kept with its
 *   label; not found: failed); a purchase whose answer was lost is settled by its reference, bought once; an order
 *   no contract carries ends failed with the words said;
 * - the loop: a tick every interval, a repeated error said once, no timer after stop.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type StartedStation } from '../../../../electron/shell/start';
import type { StationOptions } from '../../../../electron/core/station';
import type { StationContext } from '../../../../electron/core/common/context';
import { startAheadBuyer } from '../../../../electron/core/shipping/ahead-buyer';
import { warehouseClientConfig } from '../../../../electron/core/warehouse/connection';
import { claimOrder, heartbeat, type WarehouseBench } from '../../../../electron/core/warehouse/claims';
import { observeResponses } from '../../../../electron/sandbox/observe';
import type { Sandbox } from '../../../../electron/sandbox/index';
import { recipientToParty } from '../../../../shared/domain/order';
import { shopifyCsv } from '../../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../../fixtures/shopify/warehouse-order';
import { startTestPostgres, type TestPostgres } from '../../../support/postgres';
import { benchLogin, createWarehouse, untilWarehouse } from '../../../support/warehouse';
import type { Invoke } from '../../../support/commands';
import { clientFor, invokerOf, orderByNumber, parcel, startSandbox, stationConfig, tempDir } from '../helpers';

let server: TestPostgres;
let sb: Sandbox;
const dirs: Array<ReturnType<typeof tempDir>> = [];
const stations: StartedStation[] = [];
const owners: pg.Client[] = [];
const pools: pg.Pool[] = [];
const pgPasswordBefore = process.env.PGPASSWORD;
let logins = 0;
// POST /shipments the sandbox answered 201, by reference.
const shipped: string[] = [];
let stopObserving: () => void = () => undefined;

beforeAll(async () => {
  server = await startTestPostgres();
  process.env.PGPASSWORD = server.password;
  sb = await startSandbox();
  stopObserving = observeResponses((r) => {
    if (r.method === 'POST' && r.url.endsWith('/shipments') && r.statusCode === 201 && r.body) shipped.push((JSON.parse(r.body) as { reference?: string }).reference ?? '');
  });
}, 60_000);

afterAll(async () => {
  stopObserving();
  for (const s of stations) await s.close();
  for (const p of pools) await p.end();
  for (const o of owners) await o.end();
  await sb?.close();
  for (const d of dirs) d.cleanup();
  server?.stop();
  if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD;
  else process.env.PGPASSWORD = pgPasswordBefore;
});

/** A bench of the floor: its station, commands, log lines and id in the warehouse. */
interface Bench {
  station: StartedStation;
  invoke: Invoke;
  logs: string[];
  id: string;
}

/** A warehouse `name` with its owner's connection, and benches started on it, each on a login of its own. */
async function warehouse(name: string) {
  const url = await createWarehouse(server, name);
  const owner = new pg.Client(warehouseClientConfig(url, server.password).config);
  await owner.connect();
  owners.push(owner);
  const bench = async (benchName: string, options: StationOptions = {}): Promise<Bench> => {
    const tmp = tempDir();
    dirs.push(tmp);
    const logs: string[] = [];
    const station = await startStation(
      { ...stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), warehouseUrl: await benchLogin(server, url, `ahead${++logins}`) },
      { warehouse: { heartbeatMs: 200, activityMs: 100 }, labelsAhead: { intervalMs: 250, leaseS: 2, staleAfterS: 1 }, log: (line) => logs.push(line), ...options },
    );
    stations.push(station);
    const invoke = invokerOf(() => station);
    await invoke('packers.setStation', { stationName: benchName, idleMinutes: 30 });
    const status = await untilWarehouse(invoke);
    return { station, invoke, logs, id: status.bench.id };
  };
  /** A bench that is no station: its own login and pool, registered by one heartbeat (a packer's bench, a buyer that dies). */
  const rawBench = async (benchName: string): Promise<{ pool: pg.Pool; bench: WarehouseBench }> => {
    const pool = new pg.Pool({ ...warehouseClientConfig(await benchLogin(server, url, `ahead${++logins}`), server.password).config, max: 2 });
    pool.on('error', () => undefined);
    pools.push(pool);
    const b: WarehouseBench = { id: `${benchName.toLowerCase().replace(/\s+/g, '-')}-${logins}`, name: benchName };
    await heartbeat(pool, b);
    return { pool, bench: b };
  };
  return { url, owner, bench, rawBench };
}

/** Polls `read` every 50 ms until `ok` holds, at most `ms`. */
async function within<T>(ms: number, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** POST /__sandbox/faults (test control of the platform). */
async function fault(body: unknown): Promise<void> {
  const res = await fetch(`${new URL(sb.baseUrl).origin}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The labels ahead of the warehouse as its owner reads them, oldest reserved first. */
async function labelsOf(owner: pg.Client) {
  const res = await owner.query<{
    order_key: string;
    state: string;
    reference: string;
    rule_name: string | null;
    weight_kg: string | null;
    sku: string | null;
    bought_by: string;
    tracking_number: string | null;
    has_label: boolean;
    error: string | null;
    bought_at: Date | null;
  }>(
    `SELECT order_key, state, reference, rule_name, weight_kg, sku, bought_by, tracking_number, (label_zpl IS NOT NULL OR label_pdf IS NOT NULL) AS has_label, error, bought_at
       FROM labels_ahead ORDER BY id`,
  );
  return res.rows;
}

const people = [
  { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' },
  { name: 'Luca Verdi', a1: 'Via Appia 5', city: 'Roma', zip: '00184', prov: 'RM', country: 'IT' },
];
/** A day's file of orders `numbers`, each of one piece of `sku`. */
const dayOf = (lines: Array<[number, string]>) =>
  shopifyCsv(
    lines.flatMap(([n, sku], i) =>
      order({ name: `#${n}`, id: `99000000${n}`, created: '2026-12-07 08:00:00 +0000', email: `o${n}@example.it`, ship: people[i % 2]!, items: [{ q: '1', n: sku, p: '30.00', sku }], total: '30.00' }),
    ),
  );
// Both rules ship by themselves; an order of 1 kg or less is 'Leggeri', any other 'Pesanti'.
const rules = JSON.stringify({
  version: 1,
  rules: [
    { name: 'Leggeri', when: { countries: ['IT'], weightKg: { max: 1 } }, then: { rate: 'cheapest', shipByItself: true } },
    { name: 'Pesanti', when: { countries: ['IT'] }, then: { rate: 'cheapest', shipByItself: true } },
  ],
});
// IGNOTO has no weight: its orders need the scale, never a label ahead.
const products = 'sku,description,weightKg,lengthCm,widthCm,heightCm\nVASO,Vaso,1.2,30,20,12\nTAZZA,Tazza,0.4,15,15,10\n';

/** Imports `csv` at `b` as shop Bottega and waits until the warehouse holds `total` orders. */
async function importDay(b: Bench, owner: pg.Client, csv: string, total: number): Promise<void> {
  await b.invoke('orders.importCsv', { fileName: `day-${total}.csv`, shop: 'Bottega', content: csv });
  await within(10_000, async () => (await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM orders')).rows[0]!.n, (n) => n === total);
}

describe('labels ahead bought by the lease holder', () => {
  let w: Awaited<ReturnType<typeof warehouse>>;
  let one: Bench;
  let two: Bench;
  let packerBeat: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    w = await warehouse('ahead_buy');
    one = await w.bench('Bench 1');
    two = await w.bench('Bench 2');
    await one.invoke('rules.import', { content: rules });
    await one.invoke('products.importCsv', { content: products });
    // Two imports a moment apart: the first one's orders are the older.
    await importDay(one, w.owner, dayOf([[9001, 'VASO'], [9002, 'TAZZA'], [9003, 'IGNOTO']]), 3);
    await sleep(50);
    await importDay(one, w.owner, dayOf([[9004, 'VASO'], [9005, 'TAZZA'], [9006, 'VASO']]), 6);
    // Both benches have the rules, products and orders (the buyer plans with the bench's own copy).
    for (const b of [one, two]) {
      await within(10_000, async () => (await b.invoke('orders.page', { view: 'to_ship', limit: 50 })).orders.length, (n) => n === 6);
      await within(10_000, async () => (await b.invoke('rules.list', {})).rules.length, (n) => n === 2);
    }
    // A packer's bench claims #9006 and stays alive.
    const packer = await w.rawBench('Packer bench');
    expect(await claimOrder(packer.pool, 'Bottega #9006', packer.bench, 'Anna')).toEqual({ won: true });
    packerBeat = setInterval(() => void heartbeat(packer.pool, packer.bench).catch(() => undefined), 2000);
  }, 90_000);

  afterAll(() => clearInterval(packerBeat));

  it('off: nothing is bought', async () => {
    await sleep(1500);
    expect(await labelsOf(w.owner)).toEqual([]);
    expect(shipped.filter((r) => r.startsWith('Bottega #90'))).toEqual([]);
  }, 10_000);

  it('on for one rule: only its orders; on for every rule: one label per order that ships by itself, oldest first, bytes kept', async () => {
    await w.owner.query(`UPDATE ahead_settings SET enabled = true, rules = ARRAY['Leggeri'], changed_at = now()`);
    await within(10_000, () => labelsOf(w.owner), (rows) => rows.filter((r) => r.state === 'bought').length === 2);
    // A few more ticks buy nothing else.
    await sleep(1000);
    let rows = await labelsOf(w.owner);
    expect(rows.map((r) => [r.order_key, r.state, r.rule_name, r.sku])).toEqual([
      ['Bottega #9002', 'bought', 'Leggeri', 'TAZZA'],
      ['Bottega #9005', 'bought', 'Leggeri', 'TAZZA'],
    ]);

    await w.owner.query(`UPDATE ahead_settings SET rules = NULL, changed_at = now()`);
    rows = await within(10_000, () => labelsOf(w.owner), (r) => r.filter((x) => x.state === 'bought').length === 4);
    await sleep(1000);
    rows = await labelsOf(w.owner);
    // Oldest imported first: #9001 (the first file) before #9004; #9003 (weight not known) and #9006 (claimed) get none.
    expect(rows.map((r) => r.order_key)).toEqual(['Bottega #9002', 'Bottega #9005', 'Bottega #9001', 'Bottega #9004']);
    for (const r of rows) {
      expect(r).toMatchObject({ state: 'bought', reference: r.order_key, has_label: true, error: null });
      expect(r.tracking_number).toBeTruthy();
    }
    expect(rows.find((r) => r.order_key === 'Bottega #9001')).toMatchObject({ rule_name: 'Pesanti', weight_kg: '1.200', sku: 'VASO' });
    expect(rows.find((r) => r.order_key === 'Bottega #9002')).toMatchObject({ weight_kg: '0.400' });
    // One buyer: the lease holder bought them all.
    const buyer = (await w.owner.query<{ bench_id: string }>('SELECT bench_id FROM ahead_buyer')).rows[0]!.bench_id;
    expect([one.id, two.id]).toContain(buyer);
    expect(new Set(rows.map((r) => r.bought_by))).toEqual(new Set([buyer]));
    // The platform has exactly one shipment per order, with the order's reference.
    const ours = shipped.filter((r) => r.startsWith('Bottega #90')).sort();
    expect(ours).toEqual(['Bottega #9001', 'Bottega #9002', 'Bottega #9004', 'Bottega #9005']);
    // The buyer's log says each label bought, once.
    const buyerLogs = (buyer === one.id ? one : two).logs.filter((l) => l.startsWith('labels ahead: bought'));
    expect(buyerLogs).toHaveLength(4);
    expect(buyerLogs[0]).toMatch(/^labels ahead: bought \S+ for Bottega #9002 \(\S+, \d+\.\d\d EUR, 0\.4 kg\)$/);
  }, 30_000);

  it('a buyer killed after reserving: another bench settles its reservations by reference', async () => {
    await w.owner.query(`UPDATE ahead_settings SET enabled = false, changed_at = now()`);
    // A tick that started before the change may still be buying: let it end.
    await sleep(600);
    await importDay(one, w.owner, dayOf([[9007, 'TAZZA'], [9008, 'TAZZA']]), 8);
    await within(10_000, async () => (await one.invoke('orders.page', { view: 'to_ship', limit: 50 })).orders.length, (n) => n === 8);
    await within(10_000, async () => (await two.invoke('orders.page', { view: 'to_ship', limit: 50 })).orders.length, (n) => n === 8);
    // The dying buyer reserves both, and its POST of #9007 reached the platform before it was killed.
    const gone = await w.rawBench('Gone bench');
    for (const key of ['Bottega #9007', 'Bottega #9008']) {
      const res = await gone.pool.query<{ id: string | null }>('SELECT reserve_label_ahead($1, $2, $2, $3, $4, 0.4, $5, NULL) AS id', [gone.bench.id, key, 'x', 'Leggeri', 'TAZZA']);
      expect(res.rows[0]!.id).not.toBeNull();
    }
    const o7 = await orderByNumber(one.invoke, '#9007');
    const platform = clientFor(sb);
    const recipient = recipientToParty(o7.recipient);
    const [rate] = await platform.quote({ recipient: { address: { postalCode: recipient.address.postalCode, countryCode: recipient.address.countryCode, city: recipient.address.city } }, packages: [parcel(0.4, 15, 15, 10)] });
    const made = await platform.createShipment({ recipient, packages: [parcel(0.4, 15, 15, 10)], reference: 'Bottega #9007', carrierCode: rate!.carrierCode, serviceType: rate!.contractCode });
    // Its bench went silent a minute ago.
    await w.owner.query(`UPDATE benches SET heartbeat_at = now() - interval '1 minute' WHERE id = $1`, [gone.bench.id]);
    await w.owner.query(`UPDATE ahead_settings SET enabled = true, changed_at = now()`);
    const rows = await within(10_000, () => labelsOf(w.owner), (r) => r.filter((x) => x.order_key >= 'Bottega #9007' && x.state !== 'buying').length === 2);
    const seven = rows.find((r) => r.order_key === 'Bottega #9007')!;
    const eight = rows.find((r) => r.order_key === 'Bottega #9008')!;
    // Found by its reference: kept with its label, bought by the bench that reserved it.
    expect(seven).toMatchObject({ state: 'bought', tracking_number: made.trackingNumber, has_label: true, bought_by: gone.bench.id });
    // Not found: failed, said why; no second label is bought for it.
    expect(eight).toMatchObject({ state: 'failed', tracking_number: null, error: 'no shipment found for the reservation' });
    await sleep(1000);
    expect((await labelsOf(w.owner)).filter((r) => r.order_key === 'Bottega #9008')).toHaveLength(1);
    expect(shipped.filter((r) => r === 'Bottega #9007' || r === 'Bottega #9008')).toEqual(['Bottega #9007']);
    const logs = [...one.logs, ...two.logs];
    expect(logs).toContainEqual(expect.stringMatching(/^labels ahead: Bottega #9007 settled by its reference: \S+ \(\S+\) kept$/));
    expect(logs).toContainEqual('labels ahead: Bottega #9008 left reserved by a buyer that stopped: no shipment found, ended failed');
  }, 40_000);

  it('a purchase whose answer is lost is settled by its reference; one the platform cannot sell ends failed with its words', async () => {
    // The next POST /shipments commits and loses its answer, as a buyer killed mid-purchase would.
    await fault({ dropAfterCommit: { next: 1 } });
    await one.invoke('products.importCsv', { content: 'sku,description,weightKg,lengthCm,widthCm,heightCm\nMASSO,Masso,900,30,30,30\n' });
    for (const b of [one, two]) await within(10_000, async () => (await b.invoke('products.list', { q: 'MASSO' })).length, (n) => n === 1);
    await importDay(one, w.owner, dayOf([[9009, 'TAZZA'], [9010, 'MASSO']]), 10);
    const rows = await within(15_000, () => labelsOf(w.owner), (r) => r.filter((x) => x.order_key >= 'Bottega #9009' && (x.state === 'bought' || x.state === 'failed')).length === 2);
    const nine = rows.find((r) => r.order_key === 'Bottega #9009')!;
    expect(nine).toMatchObject({ state: 'bought', has_label: true });
    // Sold once: the lost answer was not bought again.
    const onPlatform = (await clientFor(sb).listShipments({ reference: 'Bottega #9009' })).data.filter((x) => x.reference === 'Bottega #9009');
    expect(onPlatform.map((x) => x.trackingNumber)).toEqual([nine.tracking_number]);
    expect([...one.logs, ...two.logs]).toContainEqual(expect.stringMatching(/^labels ahead: Bottega #9009: no answer to the purchase \(.*\); settled by its reference later$/));
    const ten = rows.find((r) => r.order_key === 'Bottega #9010')!;
    expect(ten.state).toBe('failed');
    expect(ten.error).toBeTruthy();
    expect([...one.logs, ...two.logs]).toContainEqual(expect.stringMatching(/^labels ahead: Bottega #9010 refused (before buying|by the platform): /));
  }, 40_000);
});

describe('the packers go first', () => {
  it('with the window at the supervisor’s headroom the buyer buys nothing more; a packer’s label still goes', async () => {
    const w = await warehouse('ahead_headroom');
    // 6 labels a minute for the account; a headroom of 15 of 30 leaves 3 of the 6 to the packers.
    const limits = { 'POST /rates': 60, 'POST /shipments': 6 };
    const one = await w.bench('Bench 1', { platformRateLimits: limits });
    const two = await w.bench('Bench 2', { platformRateLimits: limits });
    // Here the rule packs in a box of its own: the label is bought for the items and the box's tare.
    await one.invoke('boxes.settings.set', { presets: [{ name: 'Piccola', lengthCm: 20, widthCm: 20, heightCm: 15, tareKg: 0.15, barcode: null }], defaultBox: 'Piccola' });
    await one.invoke('rules.import', { content: JSON.stringify({ version: 1, rules: [{ name: 'Italia', when: { countries: ['IT'] }, then: { rate: 'cheapest', shipByItself: true, box: 'Piccola' } }] }) });
    await one.invoke('products.importCsv', { content: products });
    const numbers = [9101, 9102, 9103, 9104, 9105, 9106, 9107, 9108];
    await importDay(one, w.owner, dayOf(numbers.map((n) => [n, 'TAZZA'])), numbers.length);
    for (const b of [one, two]) {
      await within(10_000, async () => (await b.invoke('orders.page', { view: 'to_ship', limit: 50 })).orders.length, (n) => n === numbers.length);
      await within(10_000, async () => (await b.invoke('rules.list', {})).rules.length, (n) => n === 1);
      await within(10_000, async () => (await b.invoke('boxes.settings.get', {})).presets.length, (n) => n === 1);
    }
    await w.owner.query(`UPDATE ahead_settings SET enabled = true, headroom = 15, changed_at = now()`);
    await within(10_000, () => labelsOf(w.owner), (r) => r.filter((x) => x.state === 'bought').length === 3);
    await sleep(1500);
    let rows = await labelsOf(w.owner);
    // Three bought, none left reserved (a purchase the budget refused was dropped, not failed).
    expect(rows.map((r) => [r.state, r.rule_name, r.weight_kg])).toEqual(Array.from({ length: 3 }, () => ['bought', 'Italia', '0.550']));
    // The next purchase was refused by the budget before it left: said, and its reservation dropped.
    expect([...one.logs, ...two.logs]).toContainEqual(expect.stringMatching(/^labels ahead: Bottega #91\d\d not bought now \(the account's labels are left to the packers\); next try in \d+ s$/));
    const slots = async () =>
      (await w.owner.query<{ priority: number; n: number }>(`SELECT priority, count(*)::int AS n FROM rate_slots WHERE route = 'POST /shipments' GROUP BY priority ORDER BY priority`)).rows;
    expect(await slots()).toEqual([{ priority: 1, n: 3 }]);
    // A packer's label takes one of the three slots left to the packers.
    const request = { recipient: { name: 'Giulia Bianchi', address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' } }, packages: [parcel()] };
    expect((await two.invoke('shipping.shipOrder', { request })).shipment.trackingNumber).toBeTruthy();
    await sleep(1000);
    rows = await labelsOf(w.owner);
    expect(rows).toHaveLength(3);
    const used = await slots();
    expect(used).toEqual([
      { priority: 0, n: 1 },
      { priority: 1, n: 3 },
    ]);
    // Background work never went past the limit less the headroom.
    expect(used.find((s) => s.priority === 1)!.n).toBeLessThanOrEqual(6 - 3);
  }, 60_000);
});

describe('the loop', () => {
  it('ticks every interval, says a repeated error once, and leaves no timer after stop', async () => {
    let asked = 0;
    const logs: string[] = [];
    // A warehouse whose settings cannot be read: every tick fails the same way.
    const store = {
      settings: async () => {
        asked++;
        throw new Error('relation "ahead_settings" does not exist');
      },
    };
    const ctx = { warehouse: { labelsAhead: () => store }, now: Date.now } as unknown as StationContext;
    const buyer = startAheadBuyer(ctx, { intervalMs: 20, log: (l) => logs.push(l) });
    await within(2000, async () => asked, (n) => n >= 4);
    await buyer.stop();
    await buyer.stop();
    const after = asked;
    await sleep(150);
    expect(asked).toBe(after);
    expect(logs).toEqual(['labels ahead: relation "ahead_settings" does not exist']);
    // No warehouse: a tick is idle.
    const alone = startAheadBuyer({ warehouse: { labelsAhead: () => null }, now: Date.now } as unknown as StationContext, { intervalMs: 60_000 });
    expect(await alone.tick()).toEqual({ idle: 'no_warehouse', bought: [], refused: [], failed: [] });
    await alone.stop();
  });
});
