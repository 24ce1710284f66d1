/**
 * Conformance: webhook endpoints (spec: Endpoints > Webhooks; Resources >
 * Webhook endpoint, Webhook delivery record; Limits): registration and its
 * validation, the secret shown once, the subscription it needs, tenancy,
 * DELETE, and the delivery log (GET /webhooks/{id}/deliveries).
 * Real HTTP both ways: the client calls the sandbox on port 0 and the
 * sandbox calls a loopback receiver (webhook-receiver.ts) that verifies
 * signatures as the spec tells receivers. Time is the sandbox's simulated
 * clock on a fixed base, moved with `clock.advance`; the engine's `idle()` is
 * the signal that every attempt started by a clock move has finished and been
 * logged. Shared steps: webhook-fixture.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { demoSeed } from '../../../electron/sandbox/index';
import { CreatedWebhook, Webhook } from '../../../shared/platform';
import { MONDAY_2026_09_14, start, type ErrorBody } from '../sandbox/helpers';
import { DAY, advance, cleanups, closeAll, deliveries, receiver, register, sandbox, ship } from './webhook-fixture';

afterEach(closeAll);

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
