/**
 * Issue 35 item 2, on a real PostgreSQL (test/support/postgres.ts): the shared settings of a warehouse.
 * A rule imported at Bench 1 is used by Bench 2 within 2 s (LISTEN/NOTIFY); product data and packers
 * travel the same way (a packer added at Bench 1 signs in at Bench 2 with the PIN, kept only as its hash);
 * two benches saving the same rules: the second save is refused naming the bench, packer and time, and the
 * bench has the other's rules; while the warehouse is away the shared settings are read-only, the bench
 * keeps what it last had, and every change is a version with its bench.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type StartedStation } from '../../../../electron/shell/start';
import { warehouseClientConfig } from '../../../../electron/core/warehouse/connection';
import type { Sandbox } from '../../../../electron/sandbox/index';
import { startTestPostgres, type TestPostgres } from '../../../support/postgres';
import { benchLogins, createWarehouse, untilWarehouse } from '../../../support/warehouse';
import { invokerOf, startSandbox, stationConfig, stationFailure, tempDir } from '../helpers';

let server: TestPostgres;
let sb: Sandbox;
let url: string;
/** Each bench its own login in warehouse_bench, as the README says (never the owner's). */
let nextLogin: () => Promise<string>;
let db: pg.Client;
const dirs: Array<ReturnType<typeof tempDir>> = [];
const stations: StartedStation[] = [];
const pgPasswordBefore = process.env.PGPASSWORD;

/** A station of the demo account joined to the warehouse, named `name`, connected. */
async function bench(name: string) {
  const tmp = tempDir();
  dirs.push(tmp);
  const login = await nextLogin();
  const station = await startStation({ ...stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), warehouseUrl: login }, { platformRateLimits: false, warehouse: { heartbeatMs: 200, activityMs: 100 } });
  stations.push(station);
  const invoke = invokerOf(() => station);
  await untilWarehouse(invoke);
  // Once Anna (a supervisor) is in the warehouse, naming a bench needs her PIN at every bench.
  if ((await invoke('packers.list', {})).length) await invoke('packers.unlock', { pin: '4821' });
  await invoke('packers.setStation', { stationName: name, idleMinutes: 30 });
  return { station, invoke, login };
}

/** Polls `read` every 20 ms until `ok` holds (at most `ms`); returns how long it took, ms. */
async function within<T>(ms: number, read: () => Promise<T>, ok: (v: T) => boolean): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (ok(await read())) return Date.now() - t0;
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const rulesFile = (name: string) => JSON.stringify({ version: 1, rules: [{ name, when: { countries: ['IT'] }, then: { rate: 'cheapest' } }] });

beforeAll(async () => {
  server = await startTestPostgres();
  url = await createWarehouse(server, 'shared');
  nextLogin = benchLogins(server, url);
  db = new pg.Client(warehouseClientConfig(url, server.password).config);
  // The warehouse-away test ends this connection: it says so here, not as an unhandled error.
  db.on('error', () => undefined);
  await db.connect();
  process.env.PGPASSWORD = server.password;
  sb = await startSandbox();
}, 60_000);

afterAll(async () => {
  for (const s of stations) await s.close();
  await db?.end().catch(() => undefined);
  await sb?.close();
  for (const d of dirs) d.cleanup();
  server?.stop();
  if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD;
  else process.env.PGPASSWORD = pgPasswordBefore;
});

describe('shared settings', () => {
  it('a rule imported at Bench 1 is used at Bench 2 within 2 s; product data and packers travel too', async () => {
    const one = await bench('Bench 1');
    const two = await bench('Bench 2');
    await one.invoke('rules.import', { content: rulesFile('Italia') });
    const ms = await within(2000, () => two.invoke('rules.list', {}), (v) => v.rules[0]?.name === 'Italia');
    expect(ms).toBeLessThan(2000);

    await one.invoke('products.importCsv', { content: 'sku,description,hsCode,originCountry,weightKg\nVASO-01,Vaso in ceramica,691200,IT,0.8\n' });
    await within(2000, () => two.invoke('products.list', { q: 'VASO-01' }), (v) => v.length === 1);
    expect((await two.invoke('products.list', { q: 'VASO-01' }))[0]).toMatchObject({ sku: 'VASO-01', hsCode: '691200', originCountry: 'IT', unitWeightKg: 0.8 });

    // A supervisor added at Bench 1 signs in at Bench 2 with her PIN; the warehouse holds only its salted hash.
    await one.invoke('packers.save', { name: 'Anna', badge: 'BADGE-ANNA', pin: '4821', role: 'supervisor' });
    await within(2000, () => two.invoke('packers.list', {}), (v) => v.some((p) => p.name === 'Anna'));
    expect((await two.invoke('packers.signIn', { pin: '4821' })).packer?.name).toBe('Anna');
    const stored = (await db.query<{ value: { pinHash: string } }>(`SELECT value FROM shared WHERE key LIKE 'packer:%'`)).rows;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.value.pinHash).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain('4821');

    // Order settings and customs identifiers are shared settings as well.
    await two.invoke('orders.settings.set', { allowUnpaid: false, pickupMethods: { main: ['Ritiro in negozio'] } });
    await within(2000, () => one.invoke('orders.settings.get', {}), (v) => v.allowUnpaid === false);

    // Every change is a version with its bench and packer (Anna signed in at Bench 2 changed the order settings).
    const versions = (await db.query<{ key: string; name: string; packer: string | null }>(
      `SELECT v.key, b.name, v.packer FROM shared_versions v JOIN benches b ON b.id = v.bench_id WHERE v.key IN ('setting:rules.document', 'setting:orders.allowUnpaid') ORDER BY v.revision`,
    )).rows;
    expect(versions).toEqual([
      { key: 'setting:rules.document', name: 'Bench 1', packer: null },
      { key: 'setting:orders.allowUnpaid', name: 'Bench 2', packer: 'Anna' },
    ]);
  });

  it('two benches saving the rules at once: the second is refused with who changed them and when, and has the other’s', async () => {
    const one = await bench('Bench 5');
    const two = await bench('Bench 6');
    await one.invoke('rules.import', { content: rulesFile('Base') });
    await within(2000, () => two.invoke('rules.list', {}), (v) => v.rules[0]?.name === 'Base');
    await one.invoke('packers.signIn', { pin: '4821' }).catch(() => undefined);
    await within(2000, () => one.invoke('packers.list', {}), (v) => v.some((p) => p.name === 'Anna'));
    expect((await one.invoke('packers.signIn', { pin: '4821' })).packer?.name).toBe('Anna');

    // Bench 5's change is in the middle of its transaction when Bench 6 saves: Bench 6 waits on the row, then
    // finds it changed by another bench after the revision it knew.
    // Bench 5's own login (a bench may change settings only as one of its own benches).
    const other = new pg.Client(warehouseClientConfig(one.login, server.password).config);
    await other.connect();
    try {
      const b5 = (await one.invoke('warehouse.status', {})).bench.id;
      await other.query('BEGIN');
      const doc = { version: 1, rules: [{ name: 'Da Bench 5', when: {}, then: { rate: 'cheapest' } }] };
      await other.query(`SELECT share_changes($1::text[], $2::jsonb[], 0, $3, 'Anna', 'force')`, [['setting:rules.document'], [JSON.stringify(doc)], b5]);
      const save = stationFailure(two.invoke('rules.save', { rule: { name: 'Da Bench 6', when: {}, then: { rate: 'fastest' } } }));
      await new Promise((r) => setTimeout(r, 300));
      await other.query('COMMIT');
      const refused = await save;
      expect(refused.code).toBe('changed_elsewhere');
      expect(refused.message).toMatch(/^Changed at Bench 5 by Anna at \d\d:\d\d while you were editing it: it was reloaded, make your change again$/);
    } finally {
      await other.end();
    }
    // Bench 6 has Bench 5's rules (reloaded), and its own change is nowhere.
    expect((await two.invoke('rules.list', {})).rules.map((r) => r.name)).toEqual(['Da Bench 5']);
    await within(2000, () => one.invoke('rules.list', {}), (v) => v.rules[0]?.name === 'Da Bench 5');
    // Saved again on what it now has, Bench 6's change goes through.
    await two.invoke('rules.save', { rule: { name: 'Da Bench 6', when: {}, then: { rate: 'fastest' } } });
    await within(2000, () => one.invoke('rules.list', {}), (v) => v.rules.map((r) => r.name).join() === 'Da Bench 5,Da Bench 6');
  });

  it('while the warehouse is away a bench keeps its shared settings, read-only, and gets the news when it is back', async () => {
    const one = await bench('Bench 7');
    const two = await bench('Bench 8');
    await one.invoke('rules.import', { content: rulesFile('Prima') });
    await within(2000, () => two.invoke('rules.list', {}), (v) => v.rules[0]?.name === 'Prima');
    server.stopServer();
    try {
      await within(10_000, () => two.invoke('warehouse.status', {}), (s) => !s.connected);
      const refused = await stationFailure(two.invoke('rules.import', { content: rulesFile('Offline') }));
      expect(refused.code).toBe('warehouse_offline');
      expect(refused.message).toMatch(/^The warehouse is offline since \d\d:\d\d: shared settings are read-only until it is back$/);
      expect((await stationFailure(two.invoke('boxes.settings.set', { presets: [], defaultBox: null }))).code).toBe('warehouse_offline');
      // What it last had still works.
      expect((await two.invoke('rules.list', {})).rules.map((r) => r.name)).toEqual(['Prima']);
    } finally {
      server.startServer();
    }
    await within(10_000, () => one.invoke('warehouse.status', {}), (s) => s.connected);
    await one.invoke('rules.import', { content: rulesFile('Dopo') });
    await within(10_000, () => two.invoke('rules.list', {}), (v) => v.rules[0]?.name === 'Dopo');
  });

  it('a bench joining brings only what the warehouse lacks, then has the warehouse’s', async () => {
    // A bench that worked alone: its own rules and a product the warehouse does not know.
    const tmp = tempDir();
    dirs.push(tmp);
    const config = stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`);
    const alone = await startStation(config, { platformRateLimits: false });
    const before = invokerOf(() => alone);
    await before('rules.import', { content: rulesFile('Solo mia') });
    await before('products.importCsv', { content: 'sku,description,weightKg\nPIATTO-9,Piatto,0.4\n' });
    await alone.close();
    const joined = await startStation({ ...config, warehouseUrl: await nextLogin() }, { platformRateLimits: false, warehouse: { heartbeatMs: 200, activityMs: 100 } });
    stations.push(joined);
    const at = invokerOf(() => joined);
    await within(10_000, () => at('rules.list', {}), (v) => v.rules[0]?.name === 'Dopo');
    const fresh = new pg.Client(warehouseClientConfig(url, server.password).config);
    await fresh.connect();
    try {
      const inWarehouse = async () => (await fresh.query(`SELECT value->>'unitWeightKg' AS kg FROM shared WHERE key = 'product:PIATTO-9'`)).rows;
      await within(2000, inWarehouse, (rows) => rows.length === 1);
      expect(await inWarehouse()).toEqual([{ kg: '0.4' }]);
      // Its own rules were not brought: the warehouse had rules already.
      expect((await fresh.query(`SELECT value->'rules'->0->>'name' AS name FROM shared WHERE key = 'setting:rules.document'`)).rows).toEqual([{ name: 'Dopo' }]);
    } finally {
      await fresh.end();
    }
  });
});
