/**
 * Platform client against an injected fetch: token cache and renewal,
 * timeouts, back-off rules, error envelopes, response validation, client-side
 * rate limits.
 */
import { describe, expect, it } from 'vitest';
import { createPlatformClient, RATE_WINDOW_MARGIN_MS } from '../../../../electron/core/platform/client';
import type { PlatformClientOptions } from '../../../../electron/core/platform/client-api';
import { PlatformError, RateWindowFull } from '../../../../electron/core/platform/errors';
import { SlidingWindowLimiter, type PersistedWindow, type RateWindowStore } from '../../../../electron/core/platform/rate-limit';

const BASE = 'https://acme.example.test/api/2026-09';
const AUTH = 'https://acme.example.test';
const SECRET = 's3cr3t-do-not-log';

interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string | null;
}

type Reply = Response | ((req: Seen, signal: AbortSignal | null | undefined) => Response | Promise<Response>);

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

const credit = { balance: 100, currency: 'EUR', prepaid: true, updatedAt: '2026-09-01T10:00:00+02:00' };

/**
 * A fake platform: token requests answer from `tokens` (or a default token
 * numbered by call), API requests take the next reply from `replies`.
 */
function fakePlatform(replies: Reply[], opts: { expiresIn?: number; tokenReply?: () => Response } = {}) {
  const seen: Seen[] = [];
  const tokenRequests: Seen[] = [];
  let tokenCount = 0;
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const req: Seen = {
      method: init?.method ?? 'GET',
      url,
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : null,
    };
    if (url === `${AUTH}/oauth/token`) {
      tokenRequests.push(req);
      if (opts.tokenReply) return opts.tokenReply();
      tokenCount++;
      return json(200, { access_token: `tok-${tokenCount}`, token_type: 'Bearer', expires_in: opts.expiresIn ?? 3600, scope: 'client-api' });
    }
    seen.push(req);
    const next = replies.shift();
    if (!next) throw new Error(`unexpected request ${req.method} ${url}`);
    return typeof next === 'function' ? next(req, init?.signal) : next;
  };
  return { fetch: fetchImpl as typeof fetch, seen, tokenRequests };
}

function makeClient(fetchImpl: typeof fetch, extra: Partial<PlatformClientOptions> = {}) {
  const sleeps: number[] = [];
  let clock = Date.parse('2026-09-10T08:00:00Z');
  const client = createPlatformClient({
    baseUrl: BASE,
    authUrl: AUTH,
    clientId: 'demo-client',
    clientSecret: SECRET,
    fetch: fetchImpl,
    now: () => clock,
    retry: {
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
    },
    ...extra,
  });
  return {
    client,
    sleeps,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

async function caught(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(PlatformError);
    return e as PlatformError;
  }
  throw new Error('expected the call to fail');
}

describe('platform client: OAuth2 token', () => {
  it('requests a client-credentials token with a form body and caches it', async () => {
    const p = fakePlatform([json(200, credit), json(200, credit)]);
    const { client } = makeClient(p.fetch);
    await client.getCredit();
    await client.getCredit();
    expect(p.tokenRequests).toHaveLength(1);
    const t = p.tokenRequests[0]!;
    expect(t.method).toBe('POST');
    expect(t.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(t.body ?? '');
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('client_id')).toBe('demo-client');
    expect(form.get('client_secret')).toBe(SECRET);
    expect(form.get('scope')).toBe('client-api');
    expect(p.seen.map((s) => s.headers.get('authorization'))).toEqual(['Bearer tok-1', 'Bearer tok-1']);
    expect(p.seen[0]!.headers.get('accept')).toBe('application/json');
  });

  it('renews the token 60 s before it expires', async () => {
    const p = fakePlatform([json(200, credit), json(200, credit), json(200, credit)]);
    const { client, advance } = makeClient(p.fetch);
    await client.getCredit();
    advance(3600_000 - 61_000);
    await client.getCredit();
    expect(p.tokenRequests).toHaveLength(1);
    advance(2_000); // now inside the 60 s margin
    await client.getCredit();
    expect(p.tokenRequests).toHaveLength(2);
    expect(p.seen.at(-1)!.headers.get('authorization')).toBe('Bearer tok-2');
  });

  it('renews once on a 401 and repeats the call, even a POST /shipments', async () => {
    const unauth = json(401, { error: { code: 'unauthenticated', message: 'Token expired' } });
    const p = fakePlatform([unauth, json(422, { error: { code: 'validation_failed', message: 'bad', details: { 'recipient.name': ['Name is required'] } } })]);
    const { client } = makeClient(p.fetch);
    const err = await caught(client.createShipment({} as never));
    expect(p.tokenRequests).toHaveLength(2);
    expect(p.seen.map((s) => s.headers.get('authorization'))).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(err.code).toBe('validation_failed');
    expect(err.details).toEqual({ 'recipient.name': ['Name is required'] });
  });

  it('gives up after a second 401', async () => {
    const unauth = () => json(401, { error: { code: 'unauthenticated', message: 'Token revoked' } });
    const p = fakePlatform([unauth(), unauth()]);
    const { client } = makeClient(p.fetch);
    const err = await caught(client.getCredit());
    expect(err.status).toBe(401);
    expect(err.code).toBe('unauthenticated');
    expect(p.seen).toHaveLength(2);
  });

  it('reports refused credentials without echoing the secret', async () => {
    const p = fakePlatform([], { tokenReply: () => json(401, { error: { code: 'unauthenticated', message: 'Invalid client credentials' } }) });
    const { client } = makeClient(p.fetch);
    const err = await caught(client.getCarriers());
    expect(err.code).toBe('unauthenticated');
    expect(err.message).not.toContain(SECRET);
    expect(JSON.stringify(err)).not.toContain(SECRET);
    expect(p.seen).toHaveLength(0);
  });
});

describe('platform client: network failures', () => {
  it('times out an attempt that gets no answer', async () => {
    const hang: Reply = (_req, signal) =>
      new Promise<Response>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason as Error));
      });
    const p = fakePlatform([hang]);
    const { client } = makeClient(p.fetch, { timeoutMs: 30 });
    const err = await caught(client.createShipment({} as never));
    expect(err.code).toBe('timeout');
    expect(err.status).toBe(0);
    expect(err.outcomeUnknown).toBe(true);
    expect(client.connection).toBe('offline');
    expect(p.seen).toHaveLength(1); // a create call is never repeated blindly
  });

  it('maps a refused connection to offline and recovers to online', async () => {
    const p = fakePlatform([
      () => {
        throw new TypeError('fetch failed');
      },
      json(200, credit),
    ]);
    const states: string[] = [];
    const { client } = makeClient(p.fetch);
    client.onConnectionChange((s) => states.push(s));
    expect(client.connection).toBe('unknown');
    const err = await caught(client.getCredit());
    expect(err.code).toBe('offline');
    expect(err.isNetwork).toBe(true);
    await client.getCredit();
    expect(client.connection).toBe('online');
    // token request (online) -> refused API call (offline) -> success (online)
    expect(states).toEqual(['online', 'offline', 'online']);
  });
});

describe('platform client: retries', () => {
  it('honours Retry-After on 429, also for POST /shipments', async () => {
    const p = fakePlatform([
      json(429, { error: { code: 'rate_limited', message: 'Too many requests' } }, { 'Retry-After': '2' }),
      json(429, { error: { code: 'rate_limited', message: 'Too many requests' } }, { 'Retry-After': '1' }),
      json(402, { error: { code: 'subscription_required', message: 'No subscription' } }),
    ]);
    const { client, sleeps } = makeClient(p.fetch, { rateLimits: false });
    const err = await caught(client.createShipment({} as never));
    expect(err.code).toBe('subscription_required');
    expect(err.status).toBe(402);
    expect(p.seen).toHaveLength(3);
    // Retry-After plus at most 100 ms of jitter (random() = 0.5 -> 50 ms)
    expect(sleeps).toEqual([2050, 1050]);
  });

  it('returns the 429 when Retry-After is longer than the caller will wait', async () => {
    const p = fakePlatform([json(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'Retry-After': '120' })]);
    const { client, sleeps } = makeClient(p.fetch);
    const err = await caught(client.getCredit());
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(120_000);
    expect(sleeps).toEqual([]);
  });

  it('backs off with jitter on 5xx for a safe call', async () => {
    const p = fakePlatform([
      json(503, { error: { code: 'internal_error', message: 'down' } }),
      json(502, { error: { code: 'http_error', message: 'bad gateway' } }),
      json(200, { data: [] }),
    ]);
    const { client, sleeps } = makeClient(p.fetch);
    const rates = await client.quote({ recipient: { address: { postalCode: '20121', countryCode: 'IT' } }, packages: [] } as never);
    expect(rates).toEqual([]);
    expect(p.seen).toHaveLength(3);
    // full jitter with random() = 0.5: base 500 -> 250, then 1000 -> 500
    expect(sleeps).toEqual([250, 500]);
  });

  it("never repeats the carrier's refusal (502 carrier_error): its message goes back at once", async () => {
    const p = fakePlatform([json(502, { error: { code: 'carrier_error', message: 'BRT: località "Xyz" non trovata' } })]);
    const { client, sleeps } = makeClient(p.fetch);
    const err = await caught(client.searchDeliveryPoints({ city: 'Xyz', postalCode: '00000' }));
    expect([err.status, err.code, err.message]).toEqual([502, 'carrier_error', 'BRT: località "Xyz" non trovata']);
    expect(p.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('stops after the configured attempts', async () => {
    const p = fakePlatform([json(500, { error: { code: 'internal_error', message: 'a' } }), json(500, { error: { code: 'internal_error', message: 'b' } })]);
    const { client } = makeClient(p.fetch, { retry: { attempts: 2, sleep: async () => {}, random: () => 0 } });
    const err = await caught(client.getCarriers());
    expect(err.code).toBe('internal_error');
    expect(err.message).toBe('b');
    expect(p.seen).toHaveLength(2);
  });

  it('never repeats a create call after a 5xx', async () => {
    for (const create of [
      (c: ReturnType<typeof makeClient>['client']) => c.createShipment({} as never),
      (c: ReturnType<typeof makeClient>['client']) => c.createPickup({} as never),
      (c: ReturnType<typeof makeClient>['client']) => c.createManifests({ trackingNumbers: ['X'] }),
    ]) {
      const p = fakePlatform([json(500, { error: { code: 'internal_error', message: 'boom' } })]);
      const { client, sleeps } = makeClient(p.fetch);
      const err = await caught(create(client));
      expect(err.outcomeUnknown).toBe(true);
      expect(p.seen).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });

  it('never retries a 4xx other than 429', async () => {
    for (const [status, code] of [
      [404, 'not_found'],
      [409, 'invalid_state'],
      [422, 'shipment_rejected'],
      [403, 'forbidden'],
    ] as const) {
      const p = fakePlatform([json(status, { error: { code, message: `m${status}` } })]);
      const { client, sleeps } = makeClient(p.fetch);
      const err = await caught(client.getShipment('LDV1'));
      expect(err.status).toBe(status);
      expect(err.code).toBe(code);
      expect(err.outcomeUnknown).toBe(false);
      expect(p.seen).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });
});

describe('platform client: responses', () => {
  it('rejects a 2xx body that does not match the schema, naming the path', async () => {
    const p = fakePlatform([json(200, { balance: 'lots', currency: 'EUR' })]);
    const { client } = makeClient(p.fetch);
    const err = await caught(client.getCredit());
    expect(err.code).toBe('http_error');
    expect(err.message).toContain('GET /credit');
    expect(err.message).toContain('balance');
  });

  it('turns a non-envelope error and an unknown code into http_error', async () => {
    const p = fakePlatform([new Response('<html>oops</html>', { status: 418 }), json(400, { error: { code: 'teapot', message: 'short and stout' } })]);
    const { client } = makeClient(p.fetch);
    const a = await caught(client.getCredit());
    expect([a.status, a.code]).toEqual([418, 'http_error']);
    const b = await caught(client.getCredit());
    expect([b.status, b.code]).toEqual([400, 'http_error']);
    expect(b.message).toContain('teapot');
  });

  it('encodes path parameters and query strings', async () => {
    const page = { data: [], links: { first: null, last: null, prev: null, next: null }, meta: { current_page: 1, last_page: 1, per_page: 50, total: 0, from: null, to: null } };
    const p = fakePlatform([json(200, page), json(200, { trackingNumber: 'A/B', format: 'ZPL', pdf: null, zpl: 'Xl4=' })]);
    const { client } = makeClient(p.fetch);
    await client.listShipments({ reference: '#1001 A', per_page: 5 });
    await client.getLabel('A/B', 'zpl');
    expect(p.seen[0]!.url).toBe(`${BASE}/shipments?reference=%231001+A&per_page=5`);
    expect(p.seen[1]!.url).toBe(`${BASE}/shipments/A%2FB/label?format=zpl`);
  });
});

describe('platform client: client-side rate limits', () => {
  it('delays the call over the per-minute limit when the caller may wait that long', async () => {
    const manifests = () => json(201, { data: [] });
    const p = fakePlatform([manifests(), manifests(), manifests()]);
    const { client, sleeps } = makeClient(p.fetch, { rateLimits: { 'POST /manifests': 2 }, maxRateWaitMs: Infinity });
    await client.createManifests({ trackingNumbers: ['A'] });
    await client.createManifests({ trackingNumbers: ['B'] });
    expect(sleeps).toEqual([]);
    await client.createManifests({ trackingNumbers: ['C'] });
    expect(sleeps).toEqual([60_000 + RATE_WINDOW_MARGIN_MS]);
    expect(p.seen).toHaveLength(3);
  });

  it('refuses at once, saying when, a call whose slot is further away than the caller may wait', async () => {
    const manifests = () => json(201, { data: [] });
    const p = fakePlatform([manifests(), manifests(), manifests()]);
    const { client, sleeps } = makeClient(p.fetch, { rateLimits: { 'POST /manifests': 2 } });
    await client.createManifests({ trackingNumbers: ['A'] });
    await client.createManifests({ trackingNumbers: ['B'] });
    const err = await caught(client.createManifests({ trackingNumbers: ['C'] }));
    expect(err).toBeInstanceOf(RateWindowFull);
    expect([err.status, err.code, err.notSent, err.retryAfterMs]).toEqual([429, 'rate_limited', true, 60_000 + RATE_WINDOW_MARGIN_MS]);
    expect(err.message).toBe('The platform allows 2 POST /manifests requests a minute; the next one can leave in 61 s');
    expect(sleeps).toEqual([]);
    expect(p.seen).toHaveLength(2);
  });

  it('never lets more than N calls into any window, even after a burst', async () => {
    let t = 0;
    const starts: number[] = [];
    const limiter = new SlidingWindowLimiter(3, 1000, () => t, async (ms) => {
      t += ms;
    });
    for (let i = 0; i < 10; i++) {
      await limiter.acquire();
      starts.push(t);
      t += 100;
    }
    for (const s of starts) {
      expect(starts.filter((x) => x >= s && x < s + 1000).length).toBeLessThanOrEqual(3);
    }
    expect(starts.slice(0, 4)).toEqual([0, 100, 200, 1000]);
  });
});

describe('platform client: tracking', () => {
  const record = {
    trackingNumber: 'BRT000000001',
    carrierTrackingNumber: 'BRT000000001',
    bda: '26091000100001',
    reference: '#1001',
    carrier: { code: 'brt', name: 'BRT' },
    status: { code: 3, key: 'in_transit', label: 'In transit' },
    estimatedDeliveryDate: '2026-09-11',
    deliveredAt: null,
    stockId: null,
    cancelled: false,
    events: [
      { timestamp: '2026-09-10T14:10:00+02:00', status: { code: 3, key: 'in_transit', label: 'In transit' }, description: 'In transito', location: 'MILANO' },
      { timestamp: '2026-09-10T11:00:00+02:00', status: { code: 2, key: 'shipped', label: 'Shipped' }, description: 'Spedizione ritirata dal corriere', location: 'MILANO' },
    ],
    futureField: 'ignored', // versioning rule 2: unknown fields are accepted
  };

  it('GETs /shipments/{ldv}/tracking and parses the record with the shared schema', async () => {
    const p = fakePlatform([json(200, record)]);
    const { client } = makeClient(p.fetch);
    const r = await client.getTracking('BRT 0001/x');
    expect(p.seen[0]!.method).toBe('GET');
    expect(p.seen[0]!.url).toBe(`${BASE}/shipments/BRT%200001%2Fx/tracking`);
    expect(r.status.key).toBe('in_transit');
    expect(r.events.map((e) => e.description)).toEqual(['In transito', 'Spedizione ritirata dal corriere']);
    expect(r.estimatedDeliveryDate).toBe('2026-09-11');
  });

  it('repeats on a 5xx like every GET and waits out a 429', async () => {
    const p = fakePlatform([
      json(503, { error: { code: 'internal_error', message: 'busy' } }),
      json(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'Retry-After': '3' }),
      json(200, record),
    ]);
    const { client, sleeps } = makeClient(p.fetch);
    const r = await client.getTracking('BRT000000001');
    expect(r.trackingNumber).toBe('BRT000000001');
    expect(p.seen).toHaveLength(3);
    expect(sleeps).toEqual([250, 3050]);
  });

  it('renews the token on a 401 (expired after an hour) and passes a 404 through unchanged', async () => {
    const p = fakePlatform([
      json(401, { error: { code: 'unauthenticated', message: 'Token expired' } }),
      json(404, { error: { code: 'not_found', message: 'Shipment X not found' } }),
    ]);
    const { client } = makeClient(p.fetch);
    const err = await caught(client.getTracking('X'));
    expect(p.tokenRequests).toHaveLength(2);
    expect([err.status, err.code]).toEqual([404, 'not_found']);
  });

  it('refuses a record that does not match the schema, naming the field', async () => {
    const p = fakePlatform([json(200, { ...record, events: [{ timestamp: '2026-09-10T11:00:00+02:00', description: 'x', location: 'y' }] })]);
    const { client } = makeClient(p.fetch);
    const err = await caught(client.getTracking('BRT000000001'));
    expect(err.code).toBe('http_error');
    expect(err.message).toContain('events.0.status');
  });
});

describe('platform client: error route', () => {
  it('names the failed call by its route template, with or without an answer', async () => {
    const p = fakePlatform([json(422, { error: { code: 'validation_failed', message: 'bad' } })]);
    const { client } = makeClient(p.fetch);
    expect((await caught(client.createShipment({} as never))).route).toBe('POST /shipments');
    const down = makeClient((async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch);
    const err = await caught(down.client.getShipment('X'));
    expect([err.code, err.route]).toEqual(['offline', 'POST /oauth/token']);
  });
});

describe('platform client: rate-limit windows kept across restarts (issue 7)', () => {
  const memoryStore = (): RateWindowStore & { map: Map<string, PersistedWindow> } => {
    const map = new Map<string, PersistedWindow>();
    return { map, get: (r) => map.get(r), save: (r, w) => void map.set(r, structuredClone(w)) };
  };

  it('a restarted client remembers the calls of the last minute and waits for the platform\'s window', async () => {
    const store = memoryStore();
    const manifests = () => json(201, { data: [] });
    const p1 = fakePlatform([manifests(), manifests()]);
    const first = makeClient(p1.fetch, { rateLimits: { 'POST /manifests': 2 }, rateWindows: store, maxRateWaitMs: Infinity });
    await first.client.createManifests({ trackingNumbers: ['A'] });
    await first.client.createManifests({ trackingNumbers: ['B'] });
    expect(store.map.get('POST /manifests')?.slots).toHaveLength(2);
    // "Restart": a new client on the same store, same clock.
    const p2 = fakePlatform([manifests()]);
    const second = makeClient(p2.fetch, { rateLimits: { 'POST /manifests': 2 }, rateWindows: store, maxRateWaitMs: Infinity });
    await second.client.createManifests({ trackingNumbers: ['C'] });
    expect(second.sleeps).toEqual([60_000 + RATE_WINDOW_MARGIN_MS]);
  });

  it('honours Retry-After for every later call of the route, also after a restart', async () => {
    const store = memoryStore();
    const p1 = fakePlatform([json(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'Retry-After': '45' })]);
    const first = makeClient(p1.fetch, { rateLimits: { 'POST /manifests': 5 }, rateWindows: store, retry: { attempts: 1 } });
    await expect(first.client.createManifests({ trackingNumbers: ['A'] })).rejects.toMatchObject({ status: 429, retryAfterMs: 45_000 });
    expect(store.map.get('POST /manifests')?.blockedUntil).toBe(Date.parse('2026-09-10T08:00:00Z') + 45_000);
    const p2 = fakePlatform([json(201, { data: [] })]);
    const second = makeClient(p2.fetch, { rateLimits: { 'POST /manifests': 5 }, rateWindows: store, maxRateWaitMs: Infinity });
    await second.client.createManifests({ trackingNumbers: ['B'] });
    expect(second.sleeps).toEqual([45_000]);
  });
});
