/**
 * Conformance: webhook delivery (spec: Events > Delivery; Events:
 * shipment.created, tracking.update, stock.opened, stock.closed; Endpoints >
 * Webhooks > test): signed POSTs, the signature over the raw body, the events
 * of the simulated carrier, and POST /webhooks/{id}/test.
 * Real HTTP both ways: the client calls the sandbox on port 0 and the
 * sandbox calls a loopback receiver (webhook-receiver.ts) that verifies
 * signatures as the spec tells receivers. Time is the sandbox's simulated
 * clock on a fixed base, moved with `clock.advance`; the engine's `idle()` is
 * the signal that every attempt started by a clock move has finished and been
 * logged. Shared steps: webhook-fixture.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookTestResult, WebhookShipmentCreatedPayload, WebhookStockPayload, WebhookTrackingUpdatePayload } from '../../../shared/platform';
import type { ErrorBody } from '../sandbox/helpers';
import { MIN, advance, advanceUntilStatus, closeAll, deliveries, receiver, register, sandbox, ship, statusCode } from './webhook-fixture';
import { refusedUrl, verifyWebhook } from './webhook-receiver';

afterEach(closeAll);

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
