/**
 * Conformance: webhook retries and deactivation (spec: Events > Delivery 5;
 * States > Webhook endpoint, Webhook delivery): 5xx, refused, timed-out and
 * dropped attempts retried after 30 s, 2 min and 5 min; 4xx never retried;
 * duplicates; an endpoint without a 2xx for 72 hours deactivated.
 * Real HTTP both ways: the client calls the sandbox on port 0 and the
 * sandbox calls a loopback receiver (webhook-receiver.ts) that verifies
 * signatures as the spec tells receivers. Time is the sandbox's simulated
 * clock on a fixed base, moved with `clock.advance`; the engine's `idle()` is
 * the signal that every attempt started by a clock move has finished and been
 * logged. Shared steps: webhook-fixture.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from '../../../shared/platform';
import { HOUR, MIN, advance, closeAll, deliveries, receiver, register, sandbox, ship } from './webhook-fixture';
import { refusedUrl } from './webhook-receiver';

afterEach(closeAll);

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
