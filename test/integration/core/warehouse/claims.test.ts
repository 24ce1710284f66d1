/**
 * Issue 35 against a real PostgreSQL (test/support/postgres.ts): the warehouse schema from the first
 * version, a bench that finds an older or newer schema, each order claimed by exactly one of two benches
 * claiming it at the same moment (1,000 times), a silent bench's claim taken over, and the connection
 * rules (no password in the URL, PGPASSWORD, a wrong password, a refused TLS).
 */
import { benchLogin, createWarehouse } from '../../../support/warehouse';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimOrder, heartbeat, releaseOrder, type WarehouseBench } from '../../../../electron/core/warehouse/claims';
import { warehouseClientConfig } from '../../../../electron/core/warehouse/connection';
import { checkWarehouseSchema, migrateWarehouse, WAREHOUSE_SCHEMA_VERSION, WarehouseSchemaError } from '../../../../electron/core/warehouse/schema';
import { startTestPostgres, type TestPostgres } from '../../../support/postgres';
import { sendActivity } from '../../../../electron/core/warehouse/activity';
import { openStore, defineSetting } from '../../../../electron/core/store';
import { z } from 'zod';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let server: TestPostgres;
let databases = 0;

/** A new empty database on the test server, and a client of it as the superuser. */
async function freshDatabase(): Promise<{ url: string; client: pg.Client }> {
  const url = await server.createDatabase(`wh_${databases++}`);
  const client = new pg.Client(warehouseClientConfig(url, server.password).config);
  await client.connect();
  return { url, client };
}

beforeAll(async () => {
  server = await startTestPostgres();
}, 60_000);

afterAll(() => server?.stop());

describe('warehouse schema', () => {
  it('migrates an empty database from the first version, once; a bench checks it and says what to run', async () => {
    const { client } = await freshDatabase();
    try {
      const older = await checkWarehouseSchema(client).catch((e: unknown) => e);
      expect(older).toBeInstanceOf(WarehouseSchemaError);
      expect((older as WarehouseSchemaError).code).toBe('schema_older');
      expect((older as Error).message).toContain('npm run warehouse');
      expect(await migrateWarehouse(client)).toEqual({ from: 0, to: WAREHOUSE_SCHEMA_VERSION });
      expect(await migrateWarehouse(client)).toEqual({ from: WAREHOUSE_SCHEMA_VERSION, to: WAREHOUSE_SCHEMA_VERSION });
      await expect(checkWarehouseSchema(client)).resolves.toBeUndefined();
      const tables = await client.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
      expect(tables.rows.map((r) => r.t)).toEqual([
        'activity',
        'ahead_buyer',
        'ahead_settings',
        'benches',
        'claims',
        'close_requests',
        'closed_shipments',
        'delivery_exceptions',
        'held_stocks',
        'label_batches',
        'labels_ahead',
        'orders',
        'parcel_status',
        'platform_events',
        'rate_blocks',
        'rate_refusals',
        'rate_slots',
        'rate_waiters',
        'rate_waits',
        'shared',
        'shared_versions',
        'warehouse_closes',
        'warehouse_schema',
        'webhook_endpoint',
      ]);
      // A warehouse a newer station migrated: this one changes nothing and says to update.
      await client.query('UPDATE warehouse_schema SET version = $1', [WAREHOUSE_SCHEMA_VERSION + 1]);
      const newer = await migrateWarehouse(client).catch((e: unknown) => e);
      expect((newer as WarehouseSchemaError).code).toBe('schema_newer');
      expect((await checkWarehouseSchema(client).catch((e: unknown) => e) as Error).message).toContain('update this station');
      expect((await client.query('SELECT version FROM warehouse_schema')).rows).toEqual([{ version: WAREHOUSE_SCHEMA_VERSION + 1 }]);
    } finally {
      await client.end();
    }
  });
});

describe('warehouse schema from an older version', () => {
  it('a warehouse at schema 1 (benches and claims) is migrated to the newest, its claims kept', async () => {
    const { client } = await freshDatabase();
    try {
      // A warehouse of the first version, a bench packing an order.
      expect(await migrateWarehouse(client, 1)).toEqual({ from: 0, to: 1 });
      await client.query(`INSERT INTO benches (id, name) VALUES ('b1', 'Bench 1')`);
      await client.query(`INSERT INTO claims (order_key, bench_id, packer) VALUES ('Bottega #1001', 'b1', 'Anna')`);
      expect(await migrateWarehouse(client)).toEqual({ from: 1, to: WAREHOUSE_SCHEMA_VERSION });
      expect((await client.query('SELECT order_key, bench_id, packer FROM claims')).rows).toEqual([{ order_key: 'Bottega #1001', bench_id: 'b1', packer: 'Anna' }]);
      expect((await client.query('SELECT count(*)::int AS n FROM activity')).rows).toEqual([{ n: 0 }]);
    } finally {
      await client.end();
    }
  });
});

describe('claims', () => {
  const bench1: WarehouseBench = { id: 'b1-7c1f', name: 'Bench 1' };
  const bench3: WarehouseBench = { id: 'b3-09aa', name: 'Bench 3' };
  let url: string;
  let pool1: pg.Pool;
  let pool3: pg.Pool;

  beforeAll(async () => {
    // As the README sets it up: the supervisor owns the warehouse, each bench its own login in warehouse_bench.
    url = await createWarehouse(server, `wh_${databases++}`);
    pool1 = new pg.Pool({ ...warehouseClientConfig(await benchLogin(server, url, 'claims_bench1'), server.password).config, max: 10 });
    pool3 = new pg.Pool({ ...warehouseClientConfig(await benchLogin(server, url, 'claims_bench3'), server.password).config, max: 10 });
    await heartbeat(pool1, bench1);
    await heartbeat(pool3, bench3);
  });

  afterAll(async () => {
    await pool1?.end();
    await pool3?.end();
  });

  it('two benches claiming the same order at once, 1,000 times: exactly one wins each time, the other learns who', async () => {
    const orders = Array.from({ length: 1000 }, (_, i) => `Bottega/#${10_000 + i}`);
    const results = await Promise.all(orders.map((key) => Promise.all([claimOrder(pool1, key, bench1, 'Anna'), claimOrder(pool3, key, bench3, 'Marco')])));
    let wins1 = 0;
    for (const [a, b] of results) {
      expect(Number(a.won) + Number(b.won)).toBe(1);
      const loser = a.won ? b : a;
      if (a.won) wins1++;
      if (loser.won || !('holder' in loser)) throw new Error('both won, or one refused as shipped');
      expect(loser.holder).toMatchObject(a.won ? { benchId: bench1.id, benchName: 'Bench 1', packer: 'Anna' } : { benchId: bench3.id, benchName: 'Bench 3', packer: 'Marco' });
    }
    expect((await pool1.query('SELECT count(*)::int AS n FROM claims')).rows[0]).toEqual({ n: 1000 });
    // Both benches won some: the claims really raced.
    expect(wins1).toBeGreaterThan(0);
    expect(wins1).toBeLessThan(1000);
  });

  it('a bench claims its own order again; lets it go; a silent bench loses its claim after the timeout', async () => {
    const key = 'Bottega/#2236';
    expect(await claimOrder(pool1, key, bench1, 'Anna')).toEqual({ won: true });
    expect(await claimOrder(pool1, key, bench1, 'Anna')).toEqual({ won: true });
    const taken = await claimOrder(pool3, key, bench3, null);
    expect(taken).toMatchObject({ won: false, holder: { benchId: bench1.id, benchName: 'Bench 1', packer: 'Anna' } });
    // Bench 1 silent for 3 minutes (its heartbeat not sent): bench 3 takes the order over with the timeout of 2 minutes.
    await pool1.query(`UPDATE benches SET heartbeat_at = now() - interval '3 minutes' WHERE id = $1`, [bench1.id]);
    expect(await claimOrder(pool3, key, bench3, 'Marco', 120)).toEqual({ won: true });
    expect(await releaseOrder(pool1, key, bench1)).toBe(false);
    await heartbeat(pool1, bench1);
    expect(await claimOrder(pool1, key, bench1, 'Anna')).toMatchObject({ won: false, holder: { benchId: bench3.id, packer: 'Marco' } });
    expect(await releaseOrder(pool3, key, bench3)).toBe(true);
    expect(await claimOrder(pool1, key, bench1, 'Anna')).toEqual({ won: true });
  });
});

describe('connection', () => {
  it('takes the password from PGPASSWORD (never from the URL); a wrong one and a refused TLS are said clearly', async () => {
    const before = process.env.PGPASSWORD;
    try {
      process.env.PGPASSWORD = server.password;
      const ok = new pg.Client(warehouseClientConfig(server.url).config);
      await ok.connect();
      expect((await ok.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await ok.end();
      process.env.PGPASSWORD = 'not-the-password';
      const wrong = new pg.Client(warehouseClientConfig(server.url).config);
      const refused = await wrong.connect().catch((e: unknown) => e);
      expect((refused as { code?: string }).code).toBe('28P01');
      expect((refused as Error).message).toContain('password authentication failed for user "postgres"');
    } finally {
      if (before === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = before;
    }
    // The test server speaks no TLS: sslmode=require is refused, not silently downgraded.
    const tls = new pg.Client(warehouseClientConfig(`${server.url}?sslmode=require`, server.password).config);
    const noTls = await tls.connect().catch((e: unknown) => e);
    expect((noTls as Error).message).toMatch(/does not support SSL/);
  });
});

describe('activity', () => {
  it('a bench killed between sending and noting its rows sends them again: each row is kept once', async () => {
    const url = await createWarehouse(server, `wh_${databases++}`);
    const pool = new pg.Pool(warehouseClientConfig(await benchLogin(server, url, 'activity_bench7'), server.password).config);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-activity-'));
    const store = openStore(path.join(dir, 'station.sqlite'));
    try {
      const bench = { id: 'b7', name: 'Bench 7' };
      await heartbeat(pool, bench);
      for (let i = 0; i < 1200; i++) store.activity.record({ action: i % 2 ? 'scan' : 'print', packerId: null, packerName: 'Anna', stationName: 'Bench 7', subject: `row ${i}` });
      expect(await sendActivity(pool, store, bench)).toBe(1200);
      expect(await sendActivity(pool, store, bench)).toBe(0);
      // Killed after the warehouse took the rows and before the bench noted it: the note is back at 0.
      store.settings.set(defineSetting('warehouse.activitySent', z.number().int().min(0), 0), 0);
      expect(await sendActivity(pool, store, bench)).toBe(1200);
      const rows = await pool.query<{ n: number; seqs: number }>('SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs FROM activity WHERE bench_id = $1', [bench.id]);
      expect(rows.rows).toEqual([{ n: 1200, seqs: 1200 }]);
    } finally {
      store.close();
      await pool.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
