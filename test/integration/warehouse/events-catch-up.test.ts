/**
 * Nothing missed (issue 44 item 4): the warehouse's page is down while the sandbox's dispatcher sends (a held
 * parcel's events fail to connect), then comes back on the same port: the platform's retries and the
 * warehouse's catch-up (GET /stocks, /shipments, tracking of held parcels and parcels in exception) bring
 * every delivered event once and the parcel's state now (the held stock, its exception, its status).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../../electron/sandbox/index';
import { startSupervisorPage, type RunningPage } from '../../../electron/warehouse/server';
import { registerEndpoint } from '../../../electron/warehouse/endpoint';
import { createWarehousePlatform, type WarehousePlatform } from '../../../electron/warehouse/platform';
import { warehouseClientConfig } from '../../../electron/core/warehouse/connection';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';
import { createWarehouse } from '../../support/warehouse';
import { MONDAY_2026_09_14, pkg, recipient } from '../sandbox/helpers';
import { renewingCaller } from '../conformance/admin-client';

const MIN = 60_000;
let server: TestPostgres;
let db: pg.Pool;
let sb: Sandbox;
let platform: WarehousePlatform;
let page: RunningPage | null = null;
let secret: string | null = null;

/** The page on `port` with the catch-up (every `everyMs`). */
const open = (port: number, everyMs = 60 * MIN) =>
  startSupervisorPage({ db, port, platform, events: { secret: () => secret, now: () => sb.clock.nowMs(), settleS: 1, log: () => undefined, catchUpEveryMs: everyMs } });

const rows = async () => (await db.query<{ dedup_key: string; source: string; outcome: string | null }>('SELECT dedup_key, source, outcome FROM platform_events ORDER BY id')).rows;

beforeAll(async () => {
  server = await startTestPostgres();
  db = new pg.Pool({ ...warehouseClientConfig(await createWarehouse(server, 'catchup'), server.password).config, max: 4 });
  sb = await createSandbox({ port: 0, clock: MONDAY_2026_09_14, webhookLoopbackHttp: true });
  platform = createWarehousePlatform({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: sb.clients[0]!.clientId, clientSecret: sb.clients[0]!.clientSecret });
}, 60_000);

afterAll(async () => {
  await page?.close();
  await sb?.close();
  await db?.end();
  server?.stop();
});

describe('the warehouse down while the platform sends, then back', () => {
  it('the retries and the catch-up bring every event once', async () => {
    page = await open(0);
    const port = page.port;
    secret = (await registerEndpoint(platform, db, page.url)).secret;
    const call = renewingCaller(sb, 0);
    await db.query(`INSERT INTO orders (order_key, value) VALUES ('#7001', '{}'::jsonb)`);
    const tn = (await call<{ trackingNumber: string }>('POST', '/shipments', { recipient: recipient(), packages: [pkg(2)], reference: '#7001', options: { notes: 'sandbox:held' } })).body.trackingNumber;
    await sb.state.webhooks.dispatcher.idle();
    expect((await rows()).map((r) => r.dedup_key)).toEqual([`shipment.created|${tn}`]);

    // The warehouse goes down; the carrier moves on to the stock (each event's first try fails to connect).
    await page.close();
    page = null;
    let opened = false;
    for (let i = 0; i < 7 * 48 && !opened; i++) {
      sb.clock.advance(30 * MIN);
      await sb.state.webhooks.dispatcher.idle();
      opened = sb.state.events.history.some((e) => e.kind === 'stock.opened');
    }
    expect(opened).toBe(true);
    const sent = sb.state.webhooks.deliveries.filter((d) => d.responseCode === 0);
    expect(sent.length).toBeGreaterThan(0);

    // Back on the same port: the catch-up at start finds the open stock and the exception's tracking.
    page = await open(port);
    const until = async (ok: () => Promise<boolean>) => {
      const end = Date.now() + 5000;
      while (!(await ok())) {
        if (Date.now() > end) throw new Error(`not within 5 s: ${JSON.stringify(await rows())}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(async () => (await db.query(`SELECT 1 FROM held_stocks WHERE tracking_number = $1 AND status = 'open'`, [tn])).rowCount === 1);
    // The platform's retries (due on its clock) arrive too: stored once, by their keys.
    sb.clock.advance(8 * MIN);
    await sb.state.webhooks.dispatcher.idle();
    sb.clock.advance(8 * MIN);
    await sb.state.webhooks.dispatcher.idle();
    await until(async () => (await db.query('SELECT 1 FROM platform_events WHERE applied_seq IS NULL')).rowCount === 0);
    const all = await rows();
    expect(new Set(all.map((r) => r.dedup_key)).size).toBe(all.length);
    // Every event the platform delivered is there once; what was lost for good is brought as the parcel's state now.
    const delivered = sb.state.webhooks.deliveries.filter((d) => d.status === 'success').map((d) => d.payload);
    for (const p of delivered) {
      const key = String(p.event).startsWith('stock.') ? `${String(p.event)}|${String(p.stock_id)}` : p.event === 'shipment.created' ? `shipment.created|${tn}` : `tracking.update|${tn}|${Date.parse(String(p.timestamp))}|${String(p.statusCode)}`;
      expect(all.filter((r) => r.dedup_key === key), key).toHaveLength(1);
    }
    expect(all.some((r) => r.source === 'catch_up')).toBe(true);
    const now = (await call<{ status: { code: number } }>('GET', `/shipments/${tn}`)).body.status.code;
    expect((await db.query('SELECT status_code FROM parcel_status WHERE tracking_number = $1', [tn])).rows[0]?.status_code).toBe(now);
    expect((await db.query('SELECT count(*)::int AS n FROM held_stocks')).rows[0].n).toBe(1);
    expect((await db.query('SELECT count(*)::int AS n FROM delivery_exceptions WHERE tracking_number = $1 AND closed_at IS NULL', [tn])).rows[0].n).toBe(1);
  }, 90_000);
});
