/**
 * The platform's events reach the warehouse (issue 44 item 2): the sandbox's own dispatcher (loopback receivers
 * allowed) signs and delivers real events to the supervisor's page's `POST /platform/events`, which runs on a
 * real PostgreSQL owned by the supervisor. Checks: the four events stored and applied (held stocks, a delivery
 * exception, an order shipped from the platform); a retried delivery stored once; a replay older than 300 s, a
 * bad signature, a 2 MB body, a wrong content type and a missing header refused, nothing stored, one log line a
 * minute; the secret in no answer nor log line; the rest of the page still refuses a foreign Host.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../../electron/sandbox/index';
import { startSupervisorPage, type RunningPage } from '../../../electron/warehouse/server';
import { warehouseClientConfig } from '../../../electron/core/warehouse/connection';
import { CreatedWebhook } from '../../../shared/platform/webhooks';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';
import { createWarehouse } from '../../support/warehouse';
import { MONDAY_2026_09_14, pkg, recipient, type Caller } from '../sandbox/helpers';
import { renewingCaller } from '../conformance/admin-client';

const MIN = 60_000;
let server: TestPostgres;
let db: pg.Pool;
let sb: Sandbox;
let call: Caller;
let page: RunningPage;
let secret: string | null = null;
const logs: string[] = [];
const answers: string[] = [];

/** POSTs `body` to the receiver with `headers`; the answer's text is kept for the secret check. */
async function post(body: string | Buffer, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${page.url}platform/events`, { method: 'POST', headers, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const text = await res.text();
  answers.push(text);
  return { status: res.status, text };
}

/** A request with the `Host` given (fetch does not send one of ours): its status. */
function withHost(method: string, path: string, host: string, headers: Record<string, string> = {}, body = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${page.url}${path}`, { method, headers: { ...headers, host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The headers of a body signed at `unix` with `key` (spec: Events > Delivery 3). */
function signed(body: string | Buffer, unix: number, key = secret!): Record<string, string> {
  const v1 = createHmac('sha256', key).update(`${unix}.`).update(body).digest('hex');
  return { 'content-type': 'application/json', 'webhook-timestamp': String(unix), 'webhook-signature': `t=${unix},v1=${v1}` };
}

const nowUnix = () => Math.floor(sb.clock.nowMs() / 1000);
const count = async (sql: string, params: unknown[] = []) => Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params)).rows[0]!.n);

/** Moves simulated time in 30-minute steps until the shipment's status is one of `codes` (a week at most); waits for the deliveries it started. */
async function untilStatus(trackingNumber: string, codes: number[]): Promise<void> {
  for (let waited = 0; waited <= 7 * 24 * 60 * MIN; waited += 30 * MIN) {
    const r = await call<{ status: { code: number } }>('GET', `/shipments/${trackingNumber}`);
    if (codes.includes(r.body.status.code)) return void (await sb.state.webhooks.dispatcher.idle());
    sb.clock.advance(30 * MIN);
    await sb.state.webhooks.dispatcher.idle();
  }
  throw new Error(`${trackingNumber} never reached ${codes.join('/')}`);
}

/** Waits until `sql` counts `n` rows (the applier runs after the answer), at most 3 s. */
async function until(sql: string, n: number, params: unknown[] = []): Promise<void> {
  const end = Date.now() + 3000;
  while ((await count(sql, params)) !== n) {
    if (Date.now() > end) throw new Error(`${sql}: not ${n} within 3 s (${await count(sql, params)})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  server = await startTestPostgres();
  const url = await createWarehouse(server, 'events');
  db = new pg.Pool({ ...warehouseClientConfig(url, server.password).config, max: 4 });
  sb = await createSandbox({ port: 0, clock: MONDAY_2026_09_14, webhookLoopbackHttp: true });
  call = renewingCaller(sb, 0);
  page = await startSupervisorPage({ db, events: { secret: () => secret, now: () => sb.clock.nowMs(), settleS: 1, log: (l) => logs.push(l) } });
  const r = await call('POST', '/webhooks', { url: `${page.url}platform/events`, description: 'warehouse', events: ['tracking.update', 'shipment.created', 'stock.opened', 'stock.closed'] });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  secret = CreatedWebhook.parse(r.body).secret;
}, 60_000);

afterAll(async () => {
  await page?.close();
  await sb?.close();
  await db?.end();
  server?.stop();
});

describe('the platform’s events at the warehouse', () => {
  it('a held parcel: shipment.created, tracking.update, stock.opened stored once each, applied; the order shipped from the platform', async () => {
    // An order of the warehouse that no bench shipped: the platform's shipment marks it shipped from the platform.
    await db.query(`INSERT INTO orders (order_key, value) VALUES ('#5001', '{}'::jsonb)`);
    const created = await call<{ trackingNumber: string }>('POST', '/shipments', { recipient: recipient(), packages: [pkg(2)], reference: '#5001', options: { notes: 'sandbox:held' } });
    expect(created.status).toBe(201);
    const tn = created.body.trackingNumber;
    await sb.state.webhooks.dispatcher.idle();
    await until(`platform_events WHERE tracking_number = $1 AND event = 'shipment.created' AND outcome = 'adopted'`, 1, [tn]);
    const order = (await db.query('SELECT shipped_from, tracking_number FROM orders WHERE order_key = $1', ['#5001'])).rows[0];
    expect(order).toEqual({ shipped_from: 'platform', tracking_number: tn });

    await untilStatus(tn, [6]);
    await until(`held_stocks WHERE tracking_number = $1 AND status = 'open'`, 1, [tn]);
    await until(`delivery_exceptions WHERE tracking_number = $1 AND closed_at IS NULL`, 1, [tn]);
    const stock = (await db.query('SELECT order_key, carrier FROM held_stocks WHERE tracking_number = $1', [tn])).rows[0];
    expect(stock).toEqual({ order_key: '#5001', carrier: expect.any(String) });
    // Every delivery the platform logged was answered 2xx, and nothing is stored twice.
    const failed = sb.state.webhooks.deliveries.filter((d) => d.status !== 'success');
    expect(failed).toEqual([]);
    const delivered = sb.state.webhooks.deliveries.length;
    expect(await count('platform_events')).toBeLessThanOrEqual(delivered);
    expect(await count(`platform_events WHERE applied_seq IS NULL`)).toBe(0);
  }, 60_000);

  it('a retried delivery and a replay within 300 s are stored once', async () => {
    const last = sb.state.webhooks.deliveries.at(-1)!;
    const body = JSON.stringify(last.payload);
    const before = await count('platform_events');
    const again = await post(body, signed(body, nowUnix()));
    expect(again).toEqual({ status: 200, text: '{"stored":false}' });
    // A fresh event twice: stored, then not.
    const fresh = JSON.stringify({ event: 'tracking.update', timestamp: new Date(sb.clock.nowMs()).toISOString(), ldv: 'XX0000000001', contractCode: 'C', statusCode: 3, domain: 'd', vector_name: 'BRT', order_id: null, client_store_id: null, TrackingDettaglio: [] });
    expect((await post(fresh, signed(fresh, nowUnix()))).text).toBe('{"stored":true}');
    expect((await post(fresh, signed(fresh, nowUnix() + 1))).text).toBe('{"stored":false}');
    expect(await count('platform_events')).toBe(before + 1);
  });

  it('a replay older than 300 s, a bad signature, a 2 MB body, a wrong content type, a missing header: 4xx, nothing stored, one log line', async () => {
    const before = await count('platform_events');
    const logsBefore = logs.length;
    const body = JSON.stringify({ event: 'stock.closed', timestamp: new Date(sb.clock.nowMs()).toISOString(), ldv: 'XX0000000002', contractCode: 'C', statusCode: 5, domain: 'd', stock_id: 99999, giacenza_id: 'G', opened_at: new Date().toISOString(), shipping_id: 1 });
    expect((await post(body, signed(body, nowUnix() - 301))).status).toBe(401);
    expect((await post(body, signed(body, nowUnix(), 'whsec_not_the_secret'))).status).toBe(401);
    const tampered = signed(body, nowUnix());
    expect((await post(body.replace('99999', '99998'), tampered)).status).toBe(401);
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    expect((await post(big, signed(big, nowUnix()))).status).toBe(413);
    expect((await post(body, { ...signed(body, nowUnix()), 'content-type': 'text/plain' })).status).toBe(415);
    const { 'webhook-signature': _s, ...noSignature } = signed(body, nowUnix());
    expect((await post(body, noSignature)).status).toBe(401);
    expect(await count('platform_events')).toBe(before);
    // At most one line a minute, whatever the number refused.
    expect(logs.length - logsBefore).toBeLessThanOrEqual(1);
  });

  it('the secret is in no answer and no log line; the rest of the page keeps its Host rule', async () => {
    for (const text of [...answers, ...logs]) expect(text).not.toContain(secret!);
    expect(await withHost('GET', 'api/floor', 'warehouse.example.com')).toBe(403);
    // The events path answers under the public name (the reverse proxy's Host): signed, but not an event.
    const body = '{}';
    expect(await withHost('POST', 'platform/events', 'warehouse.example.com', signed(body, nowUnix()), body)).toBe(400);
  });
});
