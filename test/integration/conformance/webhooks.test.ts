/**
 * Conformance: webhooks (spec: Endpoints > Webhooks; Resources > Webhook
 * endpoint, Webhook delivery record; States > Webhook endpoint, Webhook
 * delivery; Events > Delivery; Limits). Real HTTP both ways: the client
 * calls the sandbox on port 0 and the sandbox calls a loopback receiver
 * (webhook-receiver.ts) that verifies signatures as the spec tells receivers.
 * Time is the sandbox's simulated clock on a fixed base, moved with
 * `clock.advance`; the engine's `idle()` is the signal that every attempt
 * started by a clock move has finished and been logged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../../electron/sandbox/index';
import { demoSeed } from '../../../electron/sandbox/index';
import { WebhookDelivery, CreatedWebhook, Webhook, WebhookTestResult, WebhookShipmentCreatedPayload, WebhookStockPayload, WebhookTrackingUpdatePayload, type PaginatedOf } from '../../../shared/platform';
import { MONDAY_2026_09_14, pkg, recipient, start, type Caller, type ErrorBody } from '../sandbox/helpers';
import { renewingCaller } from './admin-client';
import { refusedUrl, startReceiver, verifyWebhook, type WebhookReceiver } from './webhook-receiver';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Sandbox on a fixed clock with loopback http receivers allowed; callers renew their token as days pass. */
async function sandbox(opts: SandboxOptions = {}): Promise<{ sb: Sandbox; a: Caller; b: Caller }> {
  const { sb } = await start({ clock: MONDAY_2026_09_14, webhookLoopbackHttp: true, ...opts });
  cleanups.push(() => sb.close());
  return { sb, a: renewingCaller(sb, 0), b: renewingCaller(sb, 1) };
}

/** Receiver verifying against the sandbox's simulated clock. */
async function receiver(sb: Sandbox): Promise<WebhookReceiver> {
  const rx = await startReceiver({ now: () => sb.clock.nowMs() });
  cleanups.push(() => rx.close());
  return rx;
}

/** Registers `url` for `events`; sets the receiver's secret when given one. */
async function register(call: Caller, url: string, events: string[], rx?: WebhookReceiver): Promise<CreatedWebhook> {
  const r = await call<CreatedWebhook>('POST', '/webhooks', { url, description: 'test receiver', events });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const created = CreatedWebhook.parse(r.body);
  if (rx) rx.secret = created.secret;
  return created;
}

/** A shipment to Milano; `scenario` forces the simulated carrier's journey (a `sandbox:<scenario>` note), default plain delivery. */
async function ship(call: Caller, reference = 'ORD-1', scenario = 'delivered'): Promise<{ id: number; trackingNumber: string }> {
  const r = await call<{ id: number; trackingNumber: string }>('POST', '/shipments', {
    recipient: recipient(),
    packages: [pkg(2)],
    reference,
    options: { notes: `sandbox:${scenario}` },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

async function deliveries(call: Caller, id: number, query = ''): Promise<PaginatedOf<WebhookDelivery>> {
  const r = await call<PaginatedOf<WebhookDelivery>>('GET', `/webhooks/${id}/deliveries${query}`);
  expect(r.status).toBe(200);
  return { ...r.body, data: r.body.data.map((d) => WebhookDelivery.parse(d)) };
}

/** Moves simulated time and waits until every attempt it started is logged. */
async function advance(sb: Sandbox, ms: number): Promise<void> {
  sb.clock.advance(ms);
  await sb.state.webhooks.dispatcher.idle();
}

async function statusCode(call: Caller, ldv: string): Promise<number> {
  const r = await call<{ status: { code: number } }>('GET', `/shipments/${ldv}`);
  expect(r.status).toBe(200);
  return r.body.status.code;
}

/** Moves the simulated clock in 30-minute steps until the simulated carrier has brought the shipment to one of `codes` (at most a week). */
async function advanceUntilStatus(sb: Sandbox, call: Caller, ldv: string, codes: number[]): Promise<void> {
  for (let waited = 0; waited <= 7 * DAY; waited += 30 * MIN) {
    if (codes.includes(await statusCode(call, ldv))) {
      await sb.state.webhooks.dispatcher.idle();
      return;
    }
    await advance(sb, 30 * MIN);
  }
  throw new Error(`${ldv} never reached status ${codes.join('/')}`);
}

describe('POST /webhooks: registration', () => {
  it('requires an absolute HTTPS url; plain http is refused unless the sandbox allows it on loopback only', async () => {
    const strict = await start({ clock: MONDAY_2026_09_14 });
    cleanups.push(() => strict.sb.close());
    for (const url of ['http://example.com/hooks', 'http://127.0.0.1:9/hooks', 'ftp://example.com/x', 'example.com/hooks', 'https://user:pw@example.com/x']) {
      const r = await strict.a<ErrorBody>('POST', '/webhooks', { url, events: ['shipment.created'] });
      expect(r.status, url).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(Object.keys(r.body.error.details ?? {}), url).toEqual(['url']);
    }
    const ok = await strict.a('POST', '/webhooks', { url: 'https://example.com/hooks', events: ['shipment.created'] });
    expect(ok.status).toBe(201);

    const { a } = await sandbox();
    const remote = await a<ErrorBody>('POST', '/webhooks', { url: 'http://example.com/hooks', events: ['shipment.created'] });
    expect(remote.status).toBe(422);
    expect(remote.body.error.details?.url).toBeDefined();
    for (const url of ['http://127.0.0.1:9/hooks', 'http://localhost:9/hooks', 'http://[::1]:9/hooks']) {
      expect((await a('POST', '/webhooks', { url, events: ['shipment.created'] })).status, url).toBe(201);
    }
  });

  it('validates url and description length (255), and events: required, non-empty, each one of the four kinds', async () => {
    const { a } = await sandbox();
    const cases: Array<[unknown, string[]]> = [
      [{ events: ['shipment.created'] }, ['url']],
      [{ url: 'https://example.com/' + 'a'.repeat(236), events: ['shipment.created'] }, ['url']],
      [{ url: 'https://example.com/x', description: 'd'.repeat(256), events: ['shipment.created'] }, ['description']],
      [{ url: 'https://example.com/x' }, ['events']],
      [{ url: 'https://example.com/x', events: [] }, ['events']],
      [{ url: 'https://example.com/x', events: 'tracking.update' }, ['events']],
      [{ url: 'https://example.com/x', events: ['shipment.shipped'] }, ['events.0']],
      [{ url: 'https://example.com/x', events: ['tracking.update', 'order.created'] }, ['events.1']],
    ];
    for (const [body, keys] of cases) {
      const r = await a<ErrorBody>('POST', '/webhooks', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(Object.keys(r.body.error.details ?? {}).sort(), JSON.stringify(body)).toEqual(keys);
    }
    // Exactly 255 characters is fine.
    const url255 = 'https://example.com/' + 'a'.repeat(235);
    expect(url255).toHaveLength(255);
    const ok = await a<CreatedWebhook>('POST', '/webhooks', { url: url255, description: 'd'.repeat(255), events: ['stock.opened', 'stock.closed', 'stock.opened'] });
    expect(ok.status).toBe(201);
    expect(ok.body.events).toEqual(['stock.opened', 'stock.closed']);
  });

  it('answers 201 with a whsec_ secret shown once: never in GET or the list', async () => {
    const { sb, a } = await sandbox();
    const r = await a<CreatedWebhook>('POST', '/webhooks', { url: 'https://example.com/hooks', description: 'orders', events: ['tracking.update', 'shipment.created'] });
    expect(r.status).toBe(201);
    const created = CreatedWebhook.parse(r.body);
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(created).toMatchObject({ url: 'https://example.com/hooks', description: 'orders', events: ['tracking.update', 'shipment.created'], isActive: true });
    expect(created.createdAt).toBe('2026-09-14T10:00:00+02:00');
    expect(sb.state.webhooks.endpoints.find((e) => e.id === created.id)?.secret).toBe(created.secret);

    const other = await a<CreatedWebhook>('POST', '/webhooks', { url: 'https://example.com/hooks', events: ['tracking.update'] });
    expect(other.body.secret).not.toBe(created.secret);
    expect(other.body.description).toBe('');

    const one = await a<Record<string, unknown>>('GET', `/webhooks/${created.id}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('secret');
    expect(Webhook.parse(one.body)).toEqual({ id: created.id, url: created.url, description: 'orders', events: created.events, isActive: true, createdAt: created.createdAt });
    const list = await a<{ data: Array<Record<string, unknown>> }>('GET', '/webhooks');
    expect(list.body.data.map((w) => w.id)).toEqual([created.id, other.body.id]);
    for (const w of list.body.data) expect(w).not.toHaveProperty('secret');
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });

  it('402 without a valid subscription: subscription_required, subscription_payment_failed', async () => {
    const seed = demoSeed();
    const [first, second] = seed.accounts;
    if (!first || !second) throw new Error('demo seed has two accounts');
    first.subscription = { status: 'none', plan: 'none', monthlyShipmentLimit: null };
    second.subscription = { status: 'payment_failed', plan: 'business', monthlyShipmentLimit: null };
    const { sb, a, b } = await sandbox({ seed: { accounts: [first, second] } });
    const none = await a<ErrorBody>('POST', '/webhooks', { url: 'https://example.com/hooks', events: ['tracking.update'] });
    expect(none.status).toBe(402);
    expect(none.body.error.code).toBe('subscription_required');
    const failed = await b<ErrorBody>('POST', '/webhooks', { url: 'https://example.com/hooks', events: ['tracking.update'] });
    expect(failed.status).toBe(402);
    expect(failed.body.error.code).toBe('subscription_payment_failed');
    expect(sb.state.webhooks.endpoints).toHaveLength(0);
    // Reading needs no subscription.
    expect((await a('GET', '/webhooks')).status).toBe(200);
  });
});

describe('GET, DELETE /webhooks/{id}: tenancy and the delivery log', () => {
  it("lists only the client's endpoints; another client's endpoint is 404 everywhere", async () => {
    const { a, b } = await sandbox();
    const mine = await register(a, 'https://a.example.com/hooks', ['tracking.update']);
    const theirs = await register(b, 'https://b.example.com/hooks', ['tracking.update']);
    expect((await a<{ data: Webhook[] }>('GET', '/webhooks')).body.data.map((w) => w.id)).toEqual([mine.id]);
    expect((await b<{ data: Webhook[] }>('GET', '/webhooks')).body.data.map((w) => w.id)).toEqual([theirs.id]);
    for (const [method, path] of [
      ['GET', `/webhooks/${theirs.id}`],
      ['DELETE', `/webhooks/${theirs.id}`],
      ['GET', `/webhooks/${theirs.id}/deliveries`],
      ['POST', `/webhooks/${theirs.id}/test`],
      ['GET', '/webhooks/999999'],
      ['GET', '/webhooks/abc'],
    ] as const) {
      const r = await a<ErrorBody>(method, path);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    expect((await b('GET', `/webhooks/${theirs.id}`)).status).toBe(200);
  });

  it('DELETE answers 204 and removes the endpoint with its delivery log', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    const ep = await register(a, rx.url, ['shipment.created'], rx);
    await ship(a);
    await rx.waitFor(1);
    await sb.state.webhooks.dispatcher.idle();
    expect((await deliveries(a, ep.id)).data).toHaveLength(1);

    const del = await a('DELETE', `/webhooks/${ep.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    expect((await a('GET', `/webhooks/${ep.id}`)).status).toBe(404);
    expect((await a('GET', `/webhooks/${ep.id}/deliveries`)).status).toBe(404);
    expect((await a('DELETE', `/webhooks/${ep.id}`)).status).toBe(404);
    expect(sb.state.webhooks.deliveries.filter((d) => d.webhookId === ep.id)).toHaveLength(0);
    // Deleted: nothing more is sent to it.
    await ship(a, 'ORD-2');
    await sb.state.webhooks.dispatcher.idle();
    expect(rx.calls).toHaveLength(1);
  });
});

describe('Delivery: signed POSTs (Events > Delivery 1-4, 8)', () => {
  it('POST /shipments delivers one signed shipment.created to each subscribed endpoint of the client, and logs it', async () => {
    const { sb, a, b } = await sandbox();
    const rx = await receiver(sb);
    const rx2 = await receiver(sb);
    const ep = await register(a, rx.url, ['shipment.created', 'tracking.update'], rx);
    const ep2 = await register(a, rx2.url, ['shipment.created'], rx2);
    const notSubscribed = await receiver(sb);
    await register(a, notSubscribed.url, ['tracking.update', 'stock.opened'], notSubscribed);
    const otherClient = await receiver(sb);
    await register(b, otherClient.url, ['shipment.created'], otherClient);

    const s = await ship(a, 'ORD-4711');
    const [call] = await rx.waitFor(1);
    await rx2.waitFor(1);
    await sb.state.webhooks.dispatcher.idle();
    if (!call) throw new Error('no call');

    expect(call.method).toBe('POST');
    expect(call.path).toBe('/hooks');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers['user-agent']).toMatch(/^\S+ webhook v1 \S+$/);
    const unix = Math.floor(sb.clock.nowMs() / 1000);
    expect(call.headers['webhook-timestamp']).toBe(String(unix));
    expect(call.headers['webhook-signature']).toMatch(new RegExp(`^t=${unix},v1=[0-9a-f]{64}$`));
    expect(call.verification).toMatchObject({ ok: true, timestamp: unix });
    const payload = WebhookShipmentCreatedPayload.parse(JSON.parse(call.rawBody));
    expect(payload).toMatchObject({
      event: 'shipment.created',
      timestamp: '2026-09-14T10:00:00+02:00',
      ldv: s.trackingNumber,
      shipping_id: s.id,
      order_id: 'ORD-4711',
      client_store_id: null,
    });
    expect(Object.keys(JSON.parse(call.rawBody) as object).slice(0, 2)).toEqual(['event', 'timestamp']);
    expect([0, 2]).toContain(payload.statusCode);
    expect(rx2.calls[0]?.rawBody).toBe(call.rawBody);
    // Each endpoint signs with its own secret.
    expect(rx2.calls[0]?.headers['webhook-signature']).not.toBe(call.headers['webhook-signature']);

    expect(notSubscribed.calls).toHaveLength(0);
    expect(otherClient.calls).toHaveLength(0);

    const log = await deliveries(a, ep.id);
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ event: 'shipment.created', status: 'success', responseCode: 200, responseBody: '{"received":true}', attempt: 1, nextRetryAt: null });
    expect(log.data[0]?.payload).toEqual(JSON.parse(call.rawBody));
    expect(log.data[0]?.createdAt).toBe('2026-09-14T10:00:00+02:00');
    expect((await deliveries(a, ep2.id)).data).toHaveLength(1);
  });

  it('the signature covers the raw body exactly: a re-serialised or altered body, another secret, a stale timestamp or a missing header are rejected', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    await register(a, rx.url, ['shipment.created'], rx);
    await ship(a);
    const [call] = await rx.waitFor(1);
    if (!call) throw new Error('no call');
    const nowSeconds = Math.floor(sb.clock.nowMs() / 1000);
    const base = { secret: rx.secret, rawBody: call.rawBody, headers: { ...call.headers }, nowSeconds };
    expect(verifyWebhook(base).ok).toBe(true);
    expect(verifyWebhook({ ...base, rawBody: JSON.stringify(JSON.parse(call.rawBody), null, 2) })).toEqual({ ok: false, reason: 'signature mismatch' });
    expect(verifyWebhook({ ...base, rawBody: call.rawBody.replace('"ORD-1"', '"ORD-2"') })).toEqual({ ok: false, reason: 'signature mismatch' });
    expect(verifyWebhook({ ...base, secret: 'whsec_' + '0'.repeat(64) })).toEqual({ ok: false, reason: 'signature mismatch' });
    expect(verifyWebhook({ ...base, nowSeconds: nowSeconds + 301 }).ok).toBe(false);
    expect(verifyWebhook({ ...base, nowSeconds: nowSeconds + 300 }).ok).toBe(true);
    const noTs = { ...call.headers };
    delete noTs['webhook-timestamp'];
    expect(verifyWebhook({ ...base, headers: noTs })).toEqual({ ok: false, reason: 'missing Webhook-Timestamp' });
    const noSig = { ...call.headers };
    delete noSig['webhook-signature'];
    expect(verifyWebhook({ ...base, headers: noSig })).toEqual({ ok: false, reason: 'missing Webhook-Signature' });
    // A receiver holding a wrong secret answers 401: a 4xx, logged as failed and not retried.
    rx.secret = 'whsec_wrong';
    await ship(a, 'ORD-2');
    const calls = await rx.waitFor(2);
    expect(calls[1]?.verification.ok).toBe(false);
    await sb.state.webhooks.dispatcher.idle();
    expect(sb.state.webhooks.dispatcher.pendingRetries()).toHaveLength(0);
  });
});

describe('Events from the simulated carrier (Events: tracking.update, stock.opened, stock.closed)', () => {
  it('each status change of a shipment reaches tracking.update subscribers as a signed event', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    const ep = await register(a, rx.url, ['tracking.update'], rx);
    const createdOnly = await receiver(sb);
    await register(a, createdOnly.url, ['shipment.created'], createdOnly);
    const s = await ship(a, 'TRK-1');
    await advanceUntilStatus(sb, a, s.trackingNumber, [5]);

    expect(createdOnly.calls).toHaveLength(1);
    expect(rx.calls.length).toBeGreaterThanOrEqual(3);
    const payloads = rx.calls.map((c) => {
      expect(c.verification.ok).toBe(true);
      return WebhookTrackingUpdatePayload.parse(JSON.parse(c.rawBody));
    });
    for (const p of payloads) expect(p).toMatchObject({ event: 'tracking.update', ldv: s.trackingNumber, order_id: 'TRK-1' });
    const codes = payloads.map((p) => p.statusCode);
    expect(codes).toContain(3);
    expect(codes).toContain(4);
    expect(codes.at(-1)).toBe(5);
    // Each payload carries the whole history so far, newest first.
    expect(payloads.map((p) => p.TrackingDettaglio.length)).toEqual([...payloads.map((p) => p.TrackingDettaglio.length)].sort((x, y) => x - y));
    const tracking = await a<{ events: Array<{ description: string }> }>('GET', `/shipments/${s.trackingNumber}/tracking`);
    expect(payloads.at(-1)?.TrackingDettaglio.map((r) => r.Stato)).toEqual(tracking.body.events.map((e) => e.description));
    expect(new Set(payloads.map((p) => p.timestamp)).size).toBe(payloads.length);

    const log = (await deliveries(a, ep.id)).data;
    expect(log).toHaveLength(rx.calls.length);
    expect(log.every((d) => d.event === 'tracking.update' && d.status === 'success')).toBe(true);
  });

  it('a stock opened and closed by the carrier reaches stock.opened and stock.closed subscribers', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    await register(a, rx.url, ['stock.opened', 'stock.closed'], rx);
    const s = await ship(a, 'HELD-1', 'held');
    await advanceUntilStatus(sb, a, s.trackingNumber, [6]);
    const [opened] = rx.calls;
    expect(rx.calls).toHaveLength(1);
    expect(opened?.verification.ok).toBe(true);
    const p = WebhookStockPayload.parse(JSON.parse(opened?.rawBody ?? ''));
    expect(p).toMatchObject({ event: 'stock.opened', ldv: s.trackingNumber, shipping_id: s.id, statusCode: 6 });
    const stock = await a<{ id: number }>('GET', `/stocks/${p.stock_id}`);
    expect(stock.status).toBe(200);
  });
});

describe('Retries on the simulated clock (Events > Delivery 5)', () => {
  it('5xx: retried 3 times, 30 s, 2 min and 5 min after the previous attempt, each logged and freshly signed; then given up', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    rx.answer = { status: 503, body: 'maintenance' };
    const ep = await register(a, rx.url, ['shipment.created'], rx);
    await ship(a);
    await rx.waitFor(1);
    await sb.state.webhooks.dispatcher.idle();
    const first = (await deliveries(a, ep.id)).data;
    expect(first).toMatchObject([{ status: 'failed', responseCode: 503, responseBody: 'maintenance', attempt: 1, nextRetryAt: '2026-09-14T10:00:30+02:00' }]);

    await advance(sb, 29_999);
    expect(rx.calls).toHaveLength(1);
    await advance(sb, 1);
    expect(rx.calls).toHaveLength(2);
    await advance(sb, 2 * MIN - 1);
    expect(rx.calls).toHaveLength(2);
    await advance(sb, 1);
    expect(rx.calls).toHaveLength(3);
    await advance(sb, 5 * MIN);
    expect(rx.calls).toHaveLength(4);
    await advance(sb, 60 * MIN);
    expect(rx.calls).toHaveLength(4);
    expect(sb.state.webhooks.dispatcher.pendingRetries()).toHaveLength(0);

    // Same body every time (receivers deduplicate on it), a fresh signature timestamp each attempt.
    expect(new Set(rx.calls.map((c) => c.rawBody)).size).toBe(1);
    expect(rx.calls.map((c) => Number(c.headers['webhook-timestamp']) - Number(rx.calls[0]?.headers['webhook-timestamp']))).toEqual([0, 30, 150, 450]);
    expect(rx.calls.every((c) => c.verification.ok)).toBe(true);

    const log = (await deliveries(a, ep.id)).data;
    expect(log.map((d) => [d.attempt, d.status, d.responseCode, d.createdAt, d.nextRetryAt])).toEqual([
      [4, 'failed', 503, '2026-09-14T10:07:30+02:00', null],
      [3, 'failed', 503, '2026-09-14T10:02:30+02:00', '2026-09-14T10:07:30+02:00'],
      [2, 'failed', 503, '2026-09-14T10:00:30+02:00', '2026-09-14T10:02:30+02:00'],
      [1, 'failed', 503, '2026-09-14T10:00:00+02:00', '2026-09-14T10:00:30+02:00'],
    ]);
  });

  it('connection refused: responseCode 0 with the error in responseBody, retried', async () => {
    const { sb, a } = await sandbox();
    const ep = await register(a, await refusedUrl(), ['shipment.created']);
    await ship(a);
    await sb.state.webhooks.dispatcher.idle();
    const [d] = (await deliveries(a, ep.id)).data;
    expect(d).toMatchObject({ status: 'failed', responseCode: 0, attempt: 1, nextRetryAt: '2026-09-14T10:00:30+02:00' });
    expect(d?.responseBody).toMatch(/ECONNREFUSED/);
    await advance(sb, 30_000);
    expect((await deliveries(a, ep.id)).data.map((x) => x.attempt)).toEqual([2, 1]);
  });

  it('a receiver that does not answer within the timeout is a network error (responseCode 0), retried', async () => {
    const { sb, a } = await sandbox({ webhookTimeoutMs: 200 });
    const rx = await receiver(sb);
    rx.queue.push('hang');
    const ep = await register(a, rx.url, ['shipment.created'], rx);
    await ship(a);
    await rx.waitFor(1);
    await sb.state.webhooks.dispatcher.idle();
    const [d] = (await deliveries(a, ep.id)).data;
    expect(d).toMatchObject({ status: 'failed', responseCode: 0, nextRetryAt: '2026-09-14T10:00:30+02:00' });
    expect(d?.responseBody).toMatch(/Timeout/);
    await advance(sb, 30_000);
    expect(rx.calls).toHaveLength(2);
    expect((await deliveries(a, ep.id)).data[0]).toMatchObject({ attempt: 2, status: 'success', responseCode: 200 });
  });

  it('a dropped connection is retried; a retry that succeeds ends the series', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    rx.queue.push('reset', { status: 500, body: 'oops' });
    const ep = await register(a, rx.url, ['shipment.created'], rx);
    await ship(a);
    await rx.waitFor(1);
    await advance(sb, 30_000);
    await advance(sb, 2 * MIN);
    expect(rx.calls).toHaveLength(3);
    await advance(sb, 5 * MIN);
    expect(rx.calls).toHaveLength(3);
    const log = (await deliveries(a, ep.id)).data;
    expect(log.map((d) => [d.attempt, d.status, d.responseCode])).toEqual([
      [3, 'success', 200],
      [2, 'failed', 500],
      [1, 'failed', 0],
    ]);
    expect(rx.accepted).toHaveLength(1);
  });

  it('an event may arrive twice: the receiver deduplicates on (ldv, event, timestamp)', async () => {
    const { sb, a } = await sandbox({ webhookTimeoutMs: 200 });
    const rx = await receiver(sb);
    // Processed, but the answer comes after the sandbox gave up waiting: the sandbox retries.
    rx.queue.push({ status: 200, body: 'late', delayMs: 1_000 });
    await register(a, rx.url, ['shipment.created'], rx);
    await ship(a);
    await rx.waitFor(1);
    await sb.state.webhooks.dispatcher.idle();
    await advance(sb, 30_000);
    const calls = await rx.waitFor(2);
    expect(calls.map((c) => c.duplicate)).toEqual([false, true]);
    expect(rx.accepted).toHaveLength(1);
  });

  it('4xx: failed, logged, never retried', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    rx.answer = { status: 404, body: 'no such hook' };
    const ep = await register(a, rx.url, ['shipment.created'], rx);
    await ship(a);
    await rx.waitFor(1);
    await sb.state.webhooks.dispatcher.idle();
    expect(sb.state.webhooks.dispatcher.pendingRetries()).toHaveLength(0);
    await advance(sb, 30 * MIN);
    expect(rx.calls).toHaveLength(1);
    expect((await deliveries(a, ep.id)).data).toMatchObject([{ status: 'failed', responseCode: 404, responseBody: 'no such hook', attempt: 1, nextRetryAt: null }]);
  });
});

describe('Deactivation after 72 hours without 2xx (States > Webhook endpoint)', () => {
  it('deactivates the endpoint, notifies the client and sends it nothing more', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    rx.answer = { status: 500 };
    const healthy = await receiver(sb);
    const ep = await register(a, rx.url, ['shipment.created'], rx);
    const ok = await register(a, healthy.url, ['shipment.created'], healthy);
    await ship(a);
    await rx.waitFor(1);
    // The three retries, each when the clock passes it.
    await advance(sb, 30_000);
    await advance(sb, 2 * MIN);
    await advance(sb, 5 * MIN);
    expect(rx.calls).toHaveLength(4);

    await advance(sb, 72 * HOUR - 7.5 * MIN - 1);
    expect((await a<Webhook>('GET', `/webhooks/${ep.id}`)).body.isActive).toBe(true);
    await advance(sb, 1);
    expect((await a<Webhook>('GET', `/webhooks/${ep.id}`)).body.isActive).toBe(false);
    expect((await a<Webhook>('GET', `/webhooks/${ok.id}`)).body.isActive).toBe(true);
    const mails = sb.state.webhooks.notifications.filter((n) => n.webhookId === ep.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: 'webhook_deactivated', accountId: sb.state.accounts[0]?.accountId });
    expect(mails[0]?.text).toContain(rx.url);

    await ship(a, 'ORD-2');
    await healthy.waitFor(2);
    await sb.state.webhooks.dispatcher.idle();
    expect(rx.calls).toHaveLength(4);
    // Its log stays readable.
    expect((await deliveries(a, ep.id)).data).toHaveLength(4);
  });

  it('a 2xx within the 72 hours restarts the count', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    rx.answer = { status: 500 };
    const ep = await register(a, rx.url, ['shipment.created'], rx);
    await ship(a);
    await rx.waitFor(1);
    // One jump: the first retry (due after 30 s) runs once the clock has passed it, at 70 h.
    await advance(sb, 70 * HOUR);
    expect(rx.calls).toHaveLength(2);
    rx.answer = { status: 204 };
    await ship(a, 'ORD-2');
    await rx.waitFor(3);
    await sb.state.webhooks.dispatcher.idle();
    rx.answer = { status: 500 };
    // 73 h after the first failure: still active, thanks to the 2xx at 70 h (the pending retry fails now).
    await advance(sb, 3 * HOUR);
    expect(rx.calls).toHaveLength(4);
    expect((await a<Webhook>('GET', `/webhooks/${ep.id}`)).body.isActive).toBe(true);
    await ship(a, 'ORD-3');
    await rx.waitFor(5);
    await sb.state.webhooks.dispatcher.idle();
    await advance(sb, 72 * HOUR - 1);
    expect((await a<Webhook>('GET', `/webhooks/${ep.id}`)).body.isActive).toBe(true);
    await advance(sb, 1);
    expect((await a<Webhook>('GET', `/webhooks/${ep.id}`)).body.isActive).toBe(false);
  });
});

describe('Delivery log (GET /webhooks/{id}/deliveries)', () => {
  it('cuts responseBody at 1000 characters', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    rx.answer = { status: 500, body: 'é'.repeat(3000) };
    const ep = await register(a, rx.url, ['shipment.created'], rx);
    await ship(a);
    await rx.waitFor(1);
    await sb.state.webhooks.dispatcher.idle();
    const [d] = (await deliveries(a, ep.id)).data;
    expect(d?.responseBody).toBe('é'.repeat(1000));
  });

  it('answers the last 10 days of the simulated clock, newest first, paginated', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    const ep = await register(a, rx.url, ['shipment.created'], rx);
    await ship(a, 'DAY-0');
    await rx.waitFor(1);
    await advance(sb, 4 * DAY);
    await ship(a, 'DAY-4');
    await rx.waitFor(2);
    await advance(sb, 5 * DAY);
    await ship(a, 'DAY-9');
    await rx.waitFor(3);
    await sb.state.webhooks.dispatcher.idle();

    const all = await deliveries(a, ep.id);
    expect(all.data.map((d) => d.payload.order_id)).toEqual(['DAY-9', 'DAY-4', 'DAY-0']);
    expect(all.meta).toMatchObject({ total: 3, per_page: 50, current_page: 1, last_page: 1 });

    const page2 = await deliveries(a, ep.id, '?per_page=1&page=2');
    expect(page2.data.map((d) => d.payload.order_id)).toEqual(['DAY-4']);
    expect(page2.meta).toMatchObject({ total: 3, last_page: 3, from: 2, to: 2 });
    expect(page2.links.next).toContain('page=3');

    await advance(sb, DAY); // DAY-0 is now 10 days and a moment old... exactly 10 days: still in
    expect((await deliveries(a, ep.id)).data).toHaveLength(3);
    await advance(sb, 1);
    expect((await deliveries(a, ep.id)).data.map((d) => d.payload.order_id)).toEqual(['DAY-9', 'DAY-4']);
    expect((await a<ErrorBody>('GET', `/webhooks/${ep.id}/deliveries?per_page=500`)).status).toBe(422);
  });
});

describe('POST /webhooks/{id}/test', () => {
  it('404 not_found when the account has no shipment in transit', async () => {
    const { a } = await sandbox();
    const ep = await register(a, 'https://example.com/hooks', ['tracking.update']);
    await ship(a); // shipped (code 2), not yet in transit
    const r = await a<ErrorBody>('POST', `/webhooks/${ep.id}/test`);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });

  it("sends a real signed tracking.update of the client's most recent shipment in transit and answers the outcome", async () => {
    const { sb, a, b } = await sandbox();
    const rx = await receiver(sb);
    rx.answer = { status: 200, body: 'thanks' };
    // Subscribed to shipment.created only: the test is sent whatever the subscription.
    const ep = await register(a, rx.url, ['shipment.created'], rx);
    const older = await ship(a, 'OLD');
    await advance(sb, MIN);
    const newer = await ship(a, 'NEW');
    await ship(b, 'OTHER');
    await advanceUntilStatus(sb, a, older.trackingNumber, [3]);
    await advanceUntilStatus(sb, a, newer.trackingNumber, [3]);
    expect([3, 4]).toContain(await statusCode(a, older.trackingNumber));
    await ship(a, 'NOT-IN-TRANSIT'); // newest, but only shipped (code 2)
    await rx.waitFor(3);
    await sb.state.webhooks.dispatcher.idle();

    const r = await a<WebhookTestResult>('POST', `/webhooks/${ep.id}/test`);
    expect(r.status).toBe(200);
    const result = WebhookTestResult.parse(r.body);
    expect(result).toMatchObject({ delivered: true, responseCode: 200, responseBody: 'thanks' });
    const payload = WebhookTrackingUpdatePayload.parse(result.payload);
    expect(payload).toMatchObject({ event: 'tracking.update', ldv: newer.trackingNumber, statusCode: 3, order_id: 'NEW', client_store_id: null });
    const tracking = await a<{ events: Array<{ description: string }> }>('GET', `/shipments/${newer.trackingNumber}/tracking`);
    expect(payload.TrackingDettaglio.map((row) => row.Stato)).toEqual(tracking.body.events.map((e) => e.description));
    for (const row of payload.TrackingDettaglio) expect(row.Data).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

    const call = rx.calls[3];
    expect(call?.verification.ok).toBe(true);
    expect(JSON.parse(call?.rawBody ?? '')).toEqual(result.payload);
    const [logged] = (await deliveries(a, ep.id)).data;
    expect(logged).toMatchObject({ event: 'tracking.update', status: 'success', responseCode: 200, test: true });
  });

  it('reports a failing receiver without retrying it', async () => {
    const { sb, a } = await sandbox();
    const rx = await receiver(sb);
    // stock.opened never happens on a plain delivery: only the test reaches this receiver.
    const ep = await register(a, rx.url, ['stock.opened'], rx);
    await advanceUntilStatus(sb, a, (await ship(a)).trackingNumber, [3]);
    rx.answer = { status: 502, body: 'bad gateway' };
    const r = await a<WebhookTestResult>('POST', `/webhooks/${ep.id}/test`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ delivered: false, responseCode: 502, responseBody: 'bad gateway' });
    expect(rx.calls).toHaveLength(1);
    expect(sb.state.webhooks.dispatcher.pendingRetries()).toHaveLength(0);

    const dead = await register(a, await refusedUrl(), ['stock.opened']);
    const r2 = await a<WebhookTestResult>('POST', `/webhooks/${dead.id}/test`);
    expect(r2.body).toMatchObject({ delivered: false, responseCode: 0 });
    expect(r2.body.responseBody).toMatch(/ECONNREFUSED/);
  });

  it('allows 5 per minute per client, then 429 rate_limited with Retry-After (rate limits on)', async () => {
    const { sb, a, b } = await sandbox({ rateLimits: true });
    const rx = await receiver(sb);
    const ep = await register(a, rx.url, ['stock.opened'], rx);
    await advanceUntilStatus(sb, a, (await ship(a)).trackingNumber, [3]);
    for (let i = 0; i < 5; i++) {
      const r = await a<WebhookTestResult>('POST', `/webhooks/${ep.id}/test`);
      expect(r.status, `call ${i + 1}`).toBe(200);
      sb.clock.advance(1_000);
    }
    const limited = await a<ErrorBody>('POST', `/webhooks/${ep.id}/test`);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBe(55);
    expect(rx.calls).toHaveLength(5);

    // Another client has its own budget (it has no shipment in transit: 404, not 429).
    const theirs = await register(b, 'https://example.com/hooks', ['tracking.update']);
    expect((await b('POST', `/webhooks/${theirs.id}/test`)).status).toBe(404);

    await advance(sb, retryAfter * 1000);
    expect((await a('POST', `/webhooks/${ep.id}/test`)).status).toBe(200);
    expect(rx.calls).toHaveLength(6);
  });
});
