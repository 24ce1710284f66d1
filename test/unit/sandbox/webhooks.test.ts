/**
 * Unit tests of the sandbox's webhook pieces: signing (against a vector
 * computed with `openssl dgst -sha256 -hmac`), registration rules, the
 * signature header parser, the delivery log, and the engine's HTTP outcome
 * classification and real-time retry timer (loopback server on port 0).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SimClock } from '../../../electron/sandbox/clock';
import { postWebhook, WebhookDispatcher, WEBHOOK_RETRY_DELAYS_MS } from '../../../electron/sandbox/webhooks/dispatcher';
import { RESPONSE_BODY_MAX, truncateResponseBody, WebhookRegistry, type WebhookEndpointRecord } from '../../../electron/sandbox/webhooks/registry';
import { newWebhookSecret, webhookHeaders, webhookSignature } from '../../../electron/sandbox/webhooks/signing';
import { isLoopbackHost, parseWebhookSignatureHeader, WebhookCreateRequest, webhookCreateRequestSchema, webhookUrlProblem } from '../../../shared/platform/webhooks';
import { issuesToDetails } from '../../../shared/platform/common';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** Loopback server answering each request with `answer(n)` (n = 1-based count); resolves with its URL. */
async function server(answer: (n: number) => { status: number; body?: string } | 'reset'): Promise<{ url: string; hits: number[] }> {
  const hits: number[] = [];
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push(Date.now());
      const a = answer(hits.length);
      if (a === 'reset') req.socket.destroy();
      else res.writeHead(a.status).end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  closers.push(() => new Promise<void>((r) => srv.close(() => r())));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/h`, hits };
}

function endpoint(over: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord {
  return {
    id: 1,
    accountId: 10,
    url: 'https://example.com/h',
    description: '',
    events: ['shipment.created'],
    secret: 'whsec_test',
    isActive: true,
    createdAt: new Date('2026-09-14T08:00:00Z'),
    lastSuccessAt: null,
    failingSince: null,
    deactivatedAt: null,
    ...over,
  };
}

describe('signing (spec: Events > Delivery 2-3)', () => {
  const body = '{"event":"shipment.created","ldv":"BR1234567890"}';

  it('is the lowercase hex HMAC-SHA256 of "<unix>.<raw body>" keyed with the secret', () => {
    // printf '%s' '1789372800.<body>' | openssl dgst -sha256 -hmac whsec_test
    expect(webhookSignature('whsec_test', 1789372800, body)).toBe('07aa60d35b4390c97973c7a15215bdc4075d1d7a84a3d11eb7b779da68e7cb89');
    expect(webhookSignature('whsec_test', 1789372801, body)).not.toBe(webhookSignature('whsec_test', 1789372800, body));
    expect(() => webhookSignature('s', 1.5, body)).toThrow(RangeError);
  });

  it('headers: Content-Type, User-Agent, Webhook-Timestamp in whole seconds, Webhook-Signature t=..,v1=..', () => {
    const h = webhookHeaders('whsec_test', new Date(1789372800_999), body, 'ShippingPlatform webhook v1 sandbox');
    expect(h).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'ShippingPlatform webhook v1 sandbox',
      'Webhook-Timestamp': '1789372800',
      'Webhook-Signature': 't=1789372800,v1=07aa60d35b4390c97973c7a15215bdc4075d1d7a84a3d11eb7b779da68e7cb89',
    });
    expect(parseWebhookSignatureHeader(h['Webhook-Signature'] ?? '')).toEqual({ t: 1789372800, v1: '07aa60d35b4390c97973c7a15215bdc4075d1d7a84a3d11eb7b779da68e7cb89' });
  });

  it('secrets are whsec_ + 64 hex characters, different every time', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('parseWebhookSignatureHeader refuses malformed values', () => {
    for (const v of ['', 't=1', 'v1=' + 'a'.repeat(64), 't=x,v1=' + 'a'.repeat(64), 't=1,v1=' + 'A'.repeat(64), 't=1,v1=abc', 'garbage']) {
      expect(parseWebhookSignatureHeader(v), v).toBeUndefined();
    }
  });
});

describe('registration rules (spec: Endpoints > Webhooks)', () => {
  it('url: HTTPS only; loopback http only when allowed', () => {
    expect(webhookUrlProblem('https://example.com/h')).toBeUndefined();
    expect(webhookUrlProblem('http://example.com/h')).toMatch(/https/);
    expect(webhookUrlProblem('http://127.0.0.1:8080/h')).toMatch(/https/);
    expect(webhookUrlProblem('http://127.0.0.1:8080/h', { allowLoopbackHttp: true })).toBeUndefined();
    expect(webhookUrlProblem('http://localhost/h', { allowLoopbackHttp: true })).toBeUndefined();
    expect(webhookUrlProblem('http://[::1]/h', { allowLoopbackHttp: true })).toBeUndefined();
    expect(webhookUrlProblem('http://10.0.0.1/h', { allowLoopbackHttp: true })).toMatch(/loopback/);
    expect(webhookUrlProblem('not a url')).toMatch(/absolute/);
    expect(webhookUrlProblem('https://u:p@example.com/')).toMatch(/user name/);
    expect(isLoopbackHost('127.8.9.10')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });

  it('issue paths are the spec keys: url, description, events, events.<i>; duplicates collapse', () => {
    const details = (body: unknown) => {
      const r = WebhookCreateRequest.safeParse(body);
      return r.success ? {} : issuesToDetails(r.error.issues);
    };
    expect(Object.keys(details({ url: 'http://x.example/', events: ['tracking.update'] }))).toEqual(['url']);
    expect(Object.keys(details({ url: 'https://x.example/', events: ['tracking.update', 'nope'] }))).toEqual(['events.1']);
    expect(Object.keys(details({ url: 'https://x.example/', description: 7, events: ['stock.closed'] }))).toEqual(['description']);
    expect(Object.keys(details({ url: 'https://x.example/' }))).toEqual(['events']);
    const ok = webhookCreateRequestSchema({ allowLoopbackHttp: true }).parse({ url: ' http://127.0.0.1:1/h ', events: ['stock.closed', 'stock.closed', 'tracking.update'] });
    expect(ok).toEqual({ url: 'http://127.0.0.1:1/h', events: ['stock.closed', 'tracking.update'] });
  });
});

describe('delivery log (spec: Webhook delivery record; Limits)', () => {
  it('cuts responseBody at 1000 characters without splitting a surrogate pair', () => {
    expect(truncateResponseBody('x'.repeat(1500))).toHaveLength(RESPONSE_BODY_MAX);
    const emoji = 'x'.repeat(999) + '😀';
    expect(truncateResponseBody(emoji)).toBe('x'.repeat(999));
    expect(truncateResponseBody('short')).toBe('short');
  });

  it('lists newest first inside the window, prunes older entries, and forgets an endpoint with its log', () => {
    const reg = new WebhookRegistry();
    reg.add(endpoint({ id: 1 }));
    reg.add(endpoint({ id: 2, accountId: 11 }));
    const rec = (webhookId: number, iso: string) =>
      reg.log({ webhookId, accountId: 10, event: 'shipment.created', status: 'success', responseCode: 200, responseBody: 'y'.repeat(2000), payload: {}, createdAt: new Date(iso), attempt: 1, nextRetryAt: null, test: false });
    rec(1, '2026-09-01T00:00:00Z');
    rec(1, '2026-09-10T00:00:00Z');
    rec(1, '2026-09-10T00:00:00Z');
    rec(2, '2026-09-10T00:00:00Z');
    expect(reg.deliveries.every((d) => d.responseBody.length === 1000)).toBe(true);
    expect(reg.deliveriesOf(1, new Date('2026-09-05T00:00:00Z')).map((d) => d.id)).toEqual([3, 2]);
    reg.prune(new Date('2026-09-05T00:00:00Z'));
    expect(reg.deliveries.map((d) => d.id)).toEqual([2, 3, 4]);
    expect(reg.find(10, 2)).toBeUndefined();
    expect(reg.find(11, 2)?.id).toBe(2);
    expect(reg.remove(1)).toBe(true);
    expect(reg.remove(1)).toBe(false);
    expect(reg.deliveries.map((d) => d.webhookId)).toEqual([2]);
    expect(reg.nextWebhookId()).toBeGreaterThan(700);
  });
});

describe('engine', () => {
  it('classifies answers: 2xx success, 5xx and connection errors retryable, 4xx and 3xx final', async () => {
    const statuses = [200, 204, 302, 400, 404, 410, 500, 503];
    const srv = await server((n) => ({ status: statuses[n - 1] ?? 200, body: `answer ${n}` }));
    const outcomes = [];
    for (const _ of statuses) outcomes.push(await postWebhook(srv.url, '{}', { 'Content-Type': 'application/json' }, 2_000));
    expect(outcomes.map((o) => [o.responseCode, o.ok, o.retryable])).toEqual([
      [200, true, false],
      [204, true, false],
      [302, false, false],
      [400, false, false],
      [404, false, false],
      [410, false, false],
      [500, false, true],
      [503, false, true],
    ]);
    expect(outcomes[0]?.responseBody).toBe('answer 1');
    const reset = await server(() => 'reset');
    const dropped = await postWebhook(reset.url, '{}', {}, 2_000);
    expect(dropped).toMatchObject({ ok: false, responseCode: 0, retryable: true });
    expect(dropped.responseBody).not.toBe('');
  });

  it('while the clock flows by itself, a real timer scaled by the clock rate starts each retry when due', async () => {
    // Simulated time runs 20x faster than real time: the 30 s retry is due after 1.5 real s,
    // long enough that a loaded machine still sees it pending before the timer fires.
    const realStart = Date.now();
    const clock = new SimClock(() => new Date(Date.UTC(2026, 8, 14, 8) + (Date.now() - realStart) * 20));
    const srv = await server((n) => ({ status: n === 1 ? 500 : 200 }));
    const reg = new WebhookRegistry();
    reg.add(endpoint({ url: srv.url }));
    // The receiver is a local listener: local targets allowed, as a local test sandbox would.
    const d = new WebhookDispatcher(reg, { clock, clockRate: 20, timeoutMs: 2_000, targets: () => ({ allowLocalTargets: true }) });
    closers.push(() => d.close());
    d.publish({ kind: 'shipment.created', accountId: 10, payload: { ldv: 'BR1' } });
    await d.idle();
    expect(d.pendingRetries()).toHaveLength(1);
    // No clock.advance: only the real timer can start the retry.
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('retry never ran')), 15_000);
      const poll = setInterval(() => {
        if (srv.hits.length >= 2) {
          clearInterval(poll);
          clearTimeout(t);
          resolve();
        }
      }, 5);
    });
    await d.idle();
    const [first, second] = reg.deliveries;
    expect(first?.status).toBe('failed');
    expect(second?.status).toBe('success');
    const gapMs = (second?.createdAt.getTime() ?? 0) - (first?.createdAt.getTime() ?? 0);
    expect(gapMs).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[0] ?? 0);
    expect(d.pendingRetries()).toHaveLength(0);
  });

  it('publishes only to active endpoints of the account subscribed to the kind, with event and timestamp first', async () => {
    const srv = await server(() => ({ status: 200 }));
    const clock = new SimClock(() => new Date('2026-09-14T08:00:00Z'));
    const reg = new WebhookRegistry();
    reg.add(endpoint({ id: 1, url: srv.url }));
    reg.add(endpoint({ id: 2, url: srv.url, isActive: false }));
    reg.add(endpoint({ id: 3, url: srv.url, events: ['tracking.update'] }));
    reg.add(endpoint({ id: 4, url: srv.url, accountId: 99 }));
    const d = new WebhookDispatcher(reg, { clock, clockRate: 0 });
    closers.push(() => d.close());
    d.publish({ kind: 'shipment.created', accountId: 10, payload: { ldv: 'BR1' } });
    await d.idle();
    expect(reg.deliveries.map((x) => x.webhookId)).toEqual([1]);
    expect(Object.keys(reg.deliveries[0]?.payload ?? {})).toEqual(['event', 'timestamp', 'ldv']);
    expect(reg.deliveries[0]?.payload).toEqual({ event: 'shipment.created', timestamp: '2026-09-14T10:00:00+02:00', ldv: 'BR1' });
  });
});
