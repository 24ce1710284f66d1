/**
 * What the webhook conformance tests share (webhooks-endpoints,
 * webhooks-delivery, webhooks-retries): a sandbox on the fixed clock with
 * loopback http receivers allowed, loopback receivers verifying against the
 * simulated clock, registering an endpoint, shipping, reading the delivery
 * log, and moving simulated time until every attempt it started is logged.
 * Everything started is closed by {@link closeAll}.
 */
import { expect } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../../electron/sandbox/index';
import { WebhookDelivery, CreatedWebhook, type PaginatedOf } from '../../../shared/platform';
import { MONDAY_2026_09_14, pkg, recipient, start, type Caller } from '../sandbox/helpers';
import { renewingCaller } from './admin-client';
import { startReceiver, type WebhookReceiver } from './webhook-receiver';

/** Simulated time spans, ms. */
export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

/** What each test started (sandboxes, receivers), closed by {@link closeAll} in reverse order. */
export const cleanups: Array<() => Promise<void>> = [];

/** Closes everything the test started, newest first; each test file runs it in `afterEach`. */
export async function closeAll(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c();
}

/** Sandbox on a fixed clock with loopback http receivers allowed; callers renew their token as days pass. */
export async function sandbox(opts: SandboxOptions = {}): Promise<{ sb: Sandbox; a: Caller; b: Caller }> {
  const { sb } = await start({ clock: MONDAY_2026_09_14, webhookLoopbackHttp: true, ...opts });
  cleanups.push(() => sb.close());
  return { sb, a: renewingCaller(sb, 0), b: renewingCaller(sb, 1) };
}

/** Receiver verifying against the sandbox's simulated clock. */
export async function receiver(sb: Sandbox): Promise<WebhookReceiver> {
  const rx = await startReceiver({ now: () => sb.clock.nowMs() });
  cleanups.push(() => rx.close());
  return rx;
}

/** Registers `url` for `events`; sets the receiver's secret when given one. */
export async function register(call: Caller, url: string, events: string[], rx?: WebhookReceiver): Promise<CreatedWebhook> {
  const r = await call<CreatedWebhook>('POST', '/webhooks', { url, description: 'test receiver', events });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const created = CreatedWebhook.parse(r.body);
  if (rx) rx.secret = created.secret;
  return created;
}

/** A shipment to Milano; `scenario` forces the simulated carrier's journey (a `sandbox:<scenario>` note), default plain delivery. */
export async function ship(call: Caller, reference = 'ORD-1', scenario = 'delivered'): Promise<{ id: number; trackingNumber: string }> {
  const r = await call<{ id: number; trackingNumber: string }>('POST', '/shipments', {
    recipient: recipient(),
    packages: [pkg(2)],
    reference,
    options: { notes: `sandbox:${scenario}` },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** One page of the delivery log of endpoint `id` (`query` e.g. `?per_page=1&page=2`), each record checked against WebhookDelivery. */
export async function deliveries(call: Caller, id: number, query = ''): Promise<PaginatedOf<WebhookDelivery>> {
  const r = await call<PaginatedOf<WebhookDelivery>>('GET', `/webhooks/${id}/deliveries${query}`);
  expect(r.status).toBe(200);
  return { ...r.body, data: r.body.data.map((d) => WebhookDelivery.parse(d)) };
}

/** Moves simulated time and waits until every attempt it started is logged. */
export async function advance(sb: Sandbox, ms: number): Promise<void> {
  sb.clock.advance(ms);
  await sb.state.webhooks.dispatcher.idle();
}

/** Status code of the shipment `ldv` (GET /shipments/{ldv}). */
export async function statusCode(call: Caller, ldv: string): Promise<number> {
  const r = await call<{ status: { code: number } }>('GET', `/shipments/${ldv}`);
  expect(r.status).toBe(200);
  return r.body.status.code;
}

/** Moves the simulated clock in 30-minute steps until the simulated carrier has brought the shipment to one of `codes` (at most a week). */
export async function advanceUntilStatus(sb: Sandbox, call: Caller, ldv: string, codes: number[]): Promise<void> {
  for (let waited = 0; waited <= 7 * DAY; waited += 30 * MIN) {
    if (codes.includes(await statusCode(call, ldv))) {
      await sb.state.webhooks.dispatcher.idle();
      return;
    }
    await advance(sb, 30 * MIN);
  }
  throw new Error(`${ldv} never reached status ${codes.join('/')}`);
}
