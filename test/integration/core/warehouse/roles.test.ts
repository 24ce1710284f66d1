/**
 * Issue 35 item 8, least rights, on a real PostgreSQL (test/support/postgres.ts): a bench logs in as a
 * login role that is only a member of `warehouse_bench` (as the README tells a newcomer to make one) and
 * does its whole day with it (joins, claims, activity, shared settings through `share_changes`, orders
 * imported and shipped), while the same role is refused what only the supervisor (the owner) may do:
 * writing `shared` or `shared_versions` directly, deleting activity, changing or dropping tables, reading
 * the passwords' table. PINs reach the warehouse only as salted hashes, and no password or PIN is in the
 * station's log lines.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type StartedStation } from '../../../../electron/shell/start';
import { claimOrder } from '../../../../electron/core/warehouse/claims';
import { warehouseClientConfig } from '../../../../electron/core/warehouse/connection';
import type { Sandbox } from '../../../../electron/sandbox/index';
import { shopifyCsv } from '../../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../../fixtures/shopify/warehouse-order';
import { startTestPostgres, type TestPostgres } from '../../../support/postgres';
import { createWarehouse, untilWarehouse } from '../../../support/warehouse';
import type { Invoke } from '../../../support/commands';
import { invokerOf, orderByNumber, parcel, startSandbox, stationConfig, stationFailure, tempDir } from '../helpers';

/** The bench login's password and the supervisor's PIN: neither may appear in a log line nor, the PIN, in the warehouse. */
const BENCH_PASSWORD = 'bench-login-Secret-9f3c';
const PIN = '739104';
const PACKER_PIN = '55501';
const WRONG_PASSWORD = 'not-the-bench-password-77';

let server: TestPostgres;
let sb: Sandbox;
let url: string;
let benchUrl: string;
const dirs: Array<ReturnType<typeof tempDir>> = [];
const stations: StartedStation[] = [];
const logs: string[] = [];
const pgPasswordBefore = process.env.PGPASSWORD;

/** Runs `sql` as `user` (the owner `postgres` by default) on a connection of its own. */
async function as<R extends pg.QueryResultRow>(user: 'postgres' | 'bench_login', sql: string, values: unknown[] = []): Promise<R[]> {
  const target = user === 'postgres' ? url : benchUrl;
  const client = new pg.Client(warehouseClientConfig(target, user === 'postgres' ? server.password : BENCH_PASSWORD).config);
  await client.connect();
  try {
    return (await client.query<R>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** Polls `read` every 50 ms until `ok`, at most `ms`; returns the last value. */
async function poll<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
}

/** A station of the demo account joined as `bench_login`, its log lines kept in {@link logs}. */
async function bench(): Promise<StartedStation> {
  const tmp = tempDir();
  dirs.push(tmp);
  const station = await startStation(
    { ...stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), warehouseUrl: benchUrl },
    { platformRateLimits: false, warehouse: { heartbeatMs: 200, activityMs: 100 }, log: (line) => logs.push(line) },
  );
  stations.push(station);
  return station;
}

/** Waits until the bench's link says it is connected (or, `want` false, offline since a moment). */
const connected = async (invoke: Invoke, want = true): Promise<void> => void (await untilWarehouse(invoke, want));

beforeAll(async () => {
  server = await startTestPostgres();
  // The README's one line for a bench's login.
  url = await createWarehouse(server, 'warehouse', (owner) => owner.query(`CREATE ROLE bench_login LOGIN PASSWORD '${BENCH_PASSWORD}' IN ROLE warehouse_bench`).then(() => undefined));
  benchUrl = `postgres://bench_login@127.0.0.1:${server.port}/warehouse`;
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

describe('a bench with the warehouse_bench role only', () => {
  it('does its day: joins, shares settings and packers, imports, claims, ships, sends its activity', async () => {
    process.env.PGPASSWORD = BENCH_PASSWORD;
    const one = await bench();
    const at1 = invokerOf(() => one);
    await connected(at1);

    // Shared settings and packers go through share_changes: a supervisor, the claim timeout.
    await at1('packers.setStation', { stationName: 'Bench 1', idleMinutes: 30 });
    await at1('packers.save', { name: 'Anna', badge: 'BADGE-ANNA', pin: PIN, role: 'supervisor' });
    expect((await at1('packers.signIn', { pin: PIN })).packer?.name).toBe('Anna');
    expect(await at1('warehouse.settings.set', { claimTimeoutS: 90 })).toEqual({ claimTimeoutS: 90 });
    const timeout = await as<{ value: number; bench_id: string; packer: string }>('postgres', `SELECT value, bench_id, packer FROM shared WHERE key = 'setting:warehouse.claimTimeoutS'`);
    expect(timeout).toEqual([{ value: 90, bench_id: (await at1('warehouse.status', {})).bench.id, packer: 'Anna' }]);

    // Orders: the import lands in the warehouse; the scan claims; the shipment ends the claim and marks the row.
    const csv = shopifyCsv(order({ name: '#9101', id: '9900000009101', created: '2026-11-20 10:00:00 +0000', email: 'r@example.it', ship: { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' }, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' }));
    expect((await at1('orders.importCsv', { fileName: 'day.csv', content: csv })).imported).toBe(1);
    expect(await poll(() => as('postgres', `SELECT order_key FROM orders`), (r) => r.length === 1)).toEqual([{ order_key: '#9101' }]);
    expect((await at1('scan.resolve', { code: '#9101' })).kind).toBe('order');
    expect(await as('postgres', 'SELECT order_key, packer FROM claims')).toEqual([{ order_key: '#9101', packer: 'Anna' }]);
    const o = await orderByNumber(at1, '#9101');
    const request = { recipient: { name: 'Giulia Bianchi', address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' } }, packages: [parcel()] };
    const shipped = await at1('shipping.shipOrder', { orderId: o.id, request });
    const row = await poll(() => as<{ tracking_number: string | null }>('postgres', 'SELECT tracking_number FROM orders'), (r) => r[0]?.tracking_number !== null);
    expect(row).toEqual([{ tracking_number: shipped.shipment.trackingNumber }]);
    expect(await poll(() => as('postgres', 'SELECT * FROM claims'), (r) => r.length === 0)).toEqual([]);

    // Activity goes up under the bench's id.
    const actions = await poll(
      () => as<{ action: string }>('postgres', `SELECT DISTINCT action FROM activity ORDER BY action`),
      (r) => r.some((x) => x.action === 'ship'),
    );
    expect(actions.map((x) => x.action)).toEqual(expect.arrayContaining(['scan', 'ship', 'sign_in']));

    // The claim timeout is a supervisor's: a packer is refused, and nothing changes.
    await at1('packers.save', { name: 'Luca', badge: 'BADGE-LUCA', pin: PACKER_PIN, role: 'packer' });
    expect((await at1('packers.signIn', { pin: PACKER_PIN })).packer?.name).toBe('Luca');
    expect((await stationFailure(at1('warehouse.settings.set', { claimTimeoutS: 60 }))).code).toBe('supervisor_required');
    expect(await at1('warehouse.settings.get', {})).toEqual({ claimTimeoutS: 90 });
  });

  it('is refused what the supervisor keeps: shared and its versions, activity deletes, the schema, pg_authid', async () => {
    const refused = async (sql: string): Promise<string | undefined> => {
      try {
        await as('bench_login', sql);
        return undefined;
      } catch (e) {
        return (e as { code?: string }).code;
      }
    };
    // 42501: insufficient_privilege ("permission denied", "must be owner").
    expect(await refused(`UPDATE shared SET value = '120' WHERE key = 'setting:warehouse.claimTimeoutS'`)).toBe('42501');
    expect(await refused(`INSERT INTO shared (key, value, revision) VALUES ('setting:x', '1', 999999)`)).toBe('42501');
    expect(await refused(`DELETE FROM shared`)).toBe('42501');
    expect(await refused(`DELETE FROM activity`)).toBe('42501');
    expect(await refused(`UPDATE activity SET packer = 'x'`)).toBe('42501');
    expect(await refused(`INSERT INTO shared_versions (key, revision, value, changed_at) VALUES ('setting:x', 1, '1', now())`)).toBe('42501');
    expect(await refused(`UPDATE shared_versions SET value = '1'`)).toBe('42501');
    expect(await refused(`DELETE FROM shared_versions`)).toBe('42501');
    expect(await refused(`ALTER TABLE orders ADD COLUMN note text`)).toBe('42501');
    expect(await refused(`ALTER TABLE claims DISABLE TRIGGER ALL`)).toBe('42501');
    expect(await refused(`DROP TABLE claims`)).toBe('42501');
    expect(await refused(`DROP TABLE activity`)).toBe('42501');
    expect(await refused(`TRUNCATE orders`)).toBe('42501');
    expect(await refused(`CREATE TABLE mine (x int)`)).toBe('42501');
    expect(await refused(`UPDATE warehouse_schema SET version = 99`)).toBe('42501');
    expect(await refused(`SELECT rolname, rolpassword FROM pg_authid`)).toBe('42501');
    // What it may do, it still does (the refusals are rights, not a broken login).
    expect(await as('bench_login', `SELECT count(*)::int AS n FROM shared`)).toEqual([{ n: expect.any(Number) }]);
  });

  it('acts only as its own bench: another login’s bench, claims, activity and shipped orders are not its to change', async () => {
    // Another bench, registered by the owner's login, packing an order, with a shipped order of the warehouse.
    await as('postgres', `INSERT INTO benches (id, name, heartbeat_at) VALUES ('other-bench', 'Bench 7', now())`);
    await as('postgres', `INSERT INTO claims (order_key, bench_id, packer) VALUES ('Bottega #7001', 'other-bench', 'Marco')`);
    await as('postgres', `INSERT INTO orders (order_key, value, shipped_at, tracking_number) VALUES ('Bottega #7002', '{}', now(), 'BR7002')`);
    const mine = (await as<{ id: string }>('bench_login', `SELECT id FROM benches WHERE login = 'bench_login'`)).map((r) => r.id);
    expect(mine).toHaveLength(1);
    const code = async (sql: string, values: unknown[] = []): Promise<string | undefined> => {
      try {
        await as('bench_login', sql, values);
        return undefined;
      } catch (e) {
        return (e as { code?: string }).code;
      }
    };
    // A heartbeat, a claim, activity or a shared change in another bench's name: refused (42501).
    expect(await code(`INSERT INTO benches (id, name) VALUES ('other-bench', 'Mine now') ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, login = session_user`)).toBe('42501');
    expect(await code(`INSERT INTO claims (order_key, bench_id) VALUES ('Bottega #7003', 'other-bench')`)).toBe('42501');
    expect(await code(`INSERT INTO activity (bench_id, seq, at, action) VALUES ('other-bench', 1, now(), 'scan')`)).toBe('42501');
    expect(await code(`SELECT share_changes(ARRAY['setting:boxes.presets'], ARRAY['{}'::jsonb], 0, 'other-bench', NULL, 'force')`)).toBe('42501');
    expect(await code(`SELECT share_changes_unchecked(ARRAY['setting:boxes.presets'], ARRAY['{}'::jsonb], 0, 'other-bench', NULL, 'force')`)).toBe('42501');
    // Another live bench's claim can be neither released nor taken; a shipped order cannot be opened again.
    await as('bench_login', `DELETE FROM claims WHERE order_key = 'Bottega #7001'`);
    await as('bench_login', `UPDATE claims SET bench_id = $1 WHERE order_key = 'Bottega #7001'`, [mine[0]]);
    expect(await as('postgres', `SELECT bench_id, packer FROM claims WHERE order_key = 'Bottega #7001'`)).toEqual([{ bench_id: 'other-bench', packer: 'Marco' }]);
    await as('bench_login', `UPDATE orders SET shipped_at = NULL WHERE order_key = 'Bottega #7002'`);
    expect(await as('postgres', `SELECT tracking_number FROM orders WHERE order_key = 'Bottega #7002' AND shipped_at IS NOT NULL`)).toEqual([{ tracking_number: 'BR7002' }]);
    // Through the station's own claim: refused naming the holder while it lives, taken over once it is silent.
    const client = new pg.Client(warehouseClientConfig(benchUrl, BENCH_PASSWORD).config);
    await client.connect();
    try {
      const me = { id: mine[0]!, name: 'Bench 1' };
      expect(await claimOrder(client, 'Bottega #7001', me, 'Anna', 120)).toMatchObject({ won: false, holder: { benchName: 'Bench 7', packer: 'Marco' } });
      await as('postgres', `UPDATE benches SET heartbeat_at = now() - interval '5 minutes' WHERE id = 'other-bench'`);
      expect(await claimOrder(client, 'Bottega #7001', me, 'Anna', 120)).toEqual({ won: true });
    } finally {
      await client.end();
    }
    // The supervisor (the owner) releases any claim.
    await as('postgres', `DELETE FROM claims WHERE order_key = 'Bottega #7001'`);
    expect(await as('postgres', `SELECT count(*)::int AS n FROM claims WHERE order_key = 'Bottega #7001'`)).toEqual([{ n: 0 }]);
  });

  it('keeps PINs only as salted hashes in the warehouse, and no password or PIN in the log', async () => {
    const packers = await as<{ value: { pinHash: string | null } & Record<string, unknown> }>('postgres', `SELECT value FROM shared WHERE key LIKE 'packer:%'`);
    expect(packers).toHaveLength(2);
    for (const p of packers) {
      expect(p.value.pinHash).toMatch(/^scrypt\$[0-9a-f]+\$[0-9a-f]+$/);
      expect(Object.keys(p.value)).not.toContain('pin');
    }
    // Neither the current values nor any version holds a PIN as text.
    for (const pin of [PIN, PACKER_PIN]) {
      const plain = await as<{ n: number }>('postgres', `SELECT (SELECT count(*) FROM shared WHERE value::text LIKE $1) + (SELECT count(*) FROM shared_versions WHERE value::text LIKE $1) AS n`, [`%${pin}%`]);
      expect(Number(plain[0]!.n)).toBe(0);
    }

    // A bench given a wrong password says so in the log, without it.
    process.env.PGPASSWORD = WRONG_PASSWORD;
    const wrong = await bench();
    await connected(invokerOf(() => wrong), false);
    process.env.PGPASSWORD = BENCH_PASSWORD;

    expect(logs.some((l) => / connected as Bench /.test(l))).toBe(true);
    expect(logs.some((l) => /refused the password of user/.test(l))).toBe(true);
    for (const secret of [BENCH_PASSWORD, WRONG_PASSWORD, PIN, PACKER_PIN, server.password]) expect(logs.filter((l) => l.includes(secret))).toEqual([]);
    // Nor in what the bench answers about its warehouse.
    const status = JSON.stringify(await invokerOf(() => wrong)('warehouse.status', {}));
    for (const secret of [BENCH_PASSWORD, WRONG_PASSWORD]) expect(status).not.toContain(secret);
    expect((await stationFailure(invokerOf(() => wrong)('warehouse.settings.set', { claimTimeoutS: 60 }))).code).toBe('warehouse_offline');
  });
});
