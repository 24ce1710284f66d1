/**
 * Headless host security and transport: token on /rpc and /events, Host and
 * Origin checks, error envelope with HTTP status, SSE delivery, static files.
 * A fake station stands in for the core (the host is only a transport).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationError, type EventName, type Handlers, type StationEvents } from '../../../shared/contract';
import { startHost, type HostStation, type RunningHost } from '../../../electron/host/server';

type Listener = (payload: unknown) => void;

function fakeStation(): HostStation & { emit<E extends EventName>(name: E, payload: StationEvents[E]): void; listenerCount(): number; ran: string[] } {
  const listeners = new Map<string, Set<Listener>>();
  const ran: string[] = [];
  const impl = {
    'app.info': async () => ({ ok: true }),
    'scan.resolve': async (input: { code: string }) => ({ kind: 'unknown', code: input.code }),
    'shipments.cancel': async () => {
      throw new StationError('invalid_state', 'Shipment is already in a manifest');
    },
    'credit.get': async () => {
      throw new Error('secret internal detail');
    },
    'account.settings.set': async () => {
      throw new StationError('secret_store_unavailable', 'No secret store on this machine: set STATION_CLIENT_SECRET in the station\'s environment instead');
    },
    'carriers.list': async () => {
      throw new StationError('queued', 'The platform allows 10 POST /pickups requests a minute; the next one can leave in 42 s');
    },
  };
  // Every call is recorded, so a test can assert that a refused request ran nothing.
  const handlers = Object.fromEntries(
    Object.entries(impl).map(([name, fn]) => [name, async (input: never) => (ran.push(name), (fn as (i: never) => Promise<unknown>)(input))]),
  ) as unknown as Handlers;
  return {
    ran,
    handlers,
    events: {
      on(name, listener) {
        const set = listeners.get(name) ?? new Set<Listener>();
        listeners.set(name, set);
        set.add(listener as Listener);
        return () => set.delete(listener as Listener);
      },
    },
    emit(name, payload) {
      for (const l of listeners.get(name) ?? []) l(payload);
    },
    listenerCount() {
      return [...listeners.values()].reduce((a, s) => a + s.size, 0);
    },
  };
}

interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Raw request (node:http lets a test set Host and Origin freely, as an attacker could). */
function request(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

let dir: string;
let station: ReturnType<typeof fakeStation>;
let host: RunningHost;
let hostHeader: string;

const rpc = (command: string, input: unknown, headers: Record<string, string> = {}) =>
  request(host.port, {
    method: 'POST',
    path: `/rpc/${command}`,
    headers: { host: hostHeader, 'content-type': 'application/json', 'x-station-token': host.token, ...headers },
    body: JSON.stringify(input),
  });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'host-test-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>bench</title>');
  station = fakeStation();
  host = await startHost({ station, port: 0, rendererDir: dir });
  hostHeader = `127.0.0.1:${host.port}`;
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('startHost', () => {
  it('listens on loopback with a random token in the URL fragment', () => {
    expect(host.port).toBeGreaterThan(0);
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`);
    expect(host.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('answers a command with its output when the token is right', async () => {
    const res = await rpc('app.info', {});
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses /rpc without the token or with a wrong one (401)', async () => {
    const none = await request(host.port, { method: 'POST', path: '/rpc/app.info', headers: { host: hostHeader, 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body).error.code).toBe('unauthenticated');
    const wrong = await rpc('app.info', {}, { 'x-station-token': `${host.token.slice(0, -1)}x` });
    expect(wrong.status).toBe(401);
  });

  it('refuses a foreign Host header even with the token (DNS rebinding, 403)', async () => {
    const res = await rpc('app.info', {}, { host: `evil.example:${host.port}` });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toEqual({ code: 'forbidden', message: 'Host not allowed' });
    const otherPort = await rpc('app.info', {}, { host: `127.0.0.1:${host.port + 1}` });
    expect(otherPort.status).toBe(403);
  });

  it('accepts localhost:<port> as Host', async () => {
    const res = await rpc('app.info', {}, { host: `localhost:${host.port}` });
    expect(res.status).toBe(200);
  });

  it('refuses a cross-site Origin (403) and accepts its own', async () => {
    const evil = await rpc('app.info', {}, { origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error.message).toBe('Origin not allowed');
    const nul = await rpc('app.info', {}, { origin: 'null' });
    expect(nul.status).toBe(403);
    const same = await rpc('app.info', {}, { origin: `http://127.0.0.1:${host.port}` });
    expect(same.status).toBe(200);
  });

  it('maps station errors to the envelope and a sensible status', async () => {
    const unknown = await rpc('nope.nothing', {});
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe('unknown_command');

    const bad = await rpc('scan.resolve', { code: '' });
    expect(bad.status).toBe(400);
    const body = JSON.parse(bad.body);
    expect(body.error.code).toBe('invalid_input');
    expect(body.error.details.code).toEqual(['Scan or type a code']);

    const state = await rpc('shipments.cancel', { trackingNumber: 'X1' });
    expect(state.status).toBe(409);
    expect(JSON.parse(state.body).error.code).toBe('invalid_state');
  });

  it('answers an unexpected handler failure with internal_error (500)', async () => {
    const res = await rpc('credit.get', {});
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body).error.code).toBe('internal_error');
  });

  it('answers every known condition with its own status, never 500 (no keyring: 501, queued: 503)', async () => {
    const keyring = await rpc('account.settings.set', { platformUrl: 'https://acme.example/api/2026-09', clientId: 'bench', clientSecret: 's3cret' });
    expect([keyring.status, JSON.parse(keyring.body).error.code]).toEqual([501, 'secret_store_unavailable']);
    const queued = await rpc('carriers.list', {});
    expect([queued.status, JSON.parse(queued.body).error.code]).toEqual([503, 'queued']);
  });

  it('accepts only JSON bodies (text/plain is refused with 415)', async () => {
    const res = await request(host.port, { method: 'POST', path: '/rpc/app.info', headers: { host: hostHeader, 'content-type': 'text/plain', 'x-station-token': host.token }, body: '{}' });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body).error.code).toBe('invalid_input');
  });

  it('needs the token on /events and streams station events as SSE', async () => {
    const denied = await request(host.port, { path: '/events', headers: { host: hostHeader } });
    expect(denied.status).toBe(401);
    const foreign = await request(host.port, { path: `/events?token=${host.token}`, headers: { host: 'attacker.example' } });
    expect(foreign.status).toBe(403);

    const before = station.listenerCount();
    const got = await new Promise<{ status: number; type: string | undefined; text: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: host.port, path: `/events?token=${encodeURIComponent(host.token)}`, headers: { host: hostHeader } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
          if (text.includes('retry:') && !text.includes('event:')) station.emit('orders.changed', { count: 3 });
          if (text.includes('\n\n') && text.includes('event: orders.changed')) {
            resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], text });
            req.destroy();
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(got.status).toBe(200);
    expect(got.type).toMatch(/^text\/event-stream/);
    expect(got.text).toContain('event: orders.changed\ndata: {"count":3}\n\n');
    // The stream subscribed to every event while open, and unsubscribes when the client leaves.
    await expect.poll(() => station.listenerCount()).toBe(before);
  });

  it('serves the renderer with a strict CSP, but only to its own Host', async () => {
    const page = await request(host.port, { path: '/', headers: { host: hostHeader } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>bench</title>');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    const rebound = await request(host.port, { path: '/', headers: { host: 'rebind.example' } });
    expect(rebound.status).toBe(403);
  });

  describe('token check on every spelling of a path (issue 7: /%72pc and absolute-form ran commands without the token)', () => {
    /** Sends one raw request line (node:http would normalise the target) and returns the status code. */
    const rawStatus = (requestLine: string, headers: Record<string, string> = {}): Promise<number> =>
      new Promise((resolve, reject) => {
        const s = net.connect(host.port, '127.0.0.1', () => {
          const h = { host: hostHeader, 'content-type': 'application/json', 'content-length': '2', connection: 'close', ...headers };
          s.write(`${requestLine} HTTP/1.1\r\n${Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n{}`);
        });
        let text = '';
        s.setEncoding('utf8');
        s.on('data', (c: string) => {
          text += c;
          // An event stream never ends by itself: the status line is enough.
          if (text.includes('\r\n\r\n')) s.destroy();
        });
        s.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
        s.on('error', reject);
      });

    const commandSpellings = [
      'POST /rpc/app.info',
      'POST /%72pc/app.info',
      'POST /%52pc/app.info',
      'POST /rpc/%61pp.info',
      'POST /rpc/app%2einfo',
      'POST /rpc/app.info%00',
      'POST /rpc/app.info?x=1',
      'POST /rpc/app.info;x=1',
      'POST /rpc;x=1/app.info',
      'POST //rpc/app.info',
      'POST /rpc//app.info',
      'POST /%2Frpc/app.info',
      'POST /./rpc/app.info',
      'POST /x/../rpc/app.info',
      'POST /x/%2e%2e/rpc/app.info',
      'POST /RPC/app.info',
      'POST /Rpc/App.Info',
      'POST /rpc/app.info/',
      'POST /rpc/app.info/.',
      'POST http://127.0.0.1:PORT/rpc/app.info',
      'POST HTTP://127.0.0.1:PORT/%72pc/app.info',
      'POST http://evil.example/rpc/app.info',
      'HEAD /rpc/app.info',
      'OPTIONS /rpc/app.info',
      'OPTIONS *',
      'PUT /rpc/app.info',
      'GET /rpc/app.info',
    ];
    const eventSpellings = [
      'GET /events',
      'GET /%65vents',
      'GET /%45vents',
      'GET /event%73',
      'GET /events?x=1',
      'GET /events;x=1',
      'GET /events/',
      'GET //events',
      'GET /./events',
      'GET /x/../events',
      'GET /EVENTS',
      'GET http://127.0.0.1:PORT/events',
      'GET http://127.0.0.1:PORT/%65vents',
      'HEAD /events',
      'HEAD /%65vents',
      'OPTIONS /events',
    ];

    it.each(commandSpellings)('%s without the token runs no command', async (line) => {
      const before = station.ran.length;
      const status = await rawStatus(line.replace('PORT', String(host.port)));
      expect(status).toBeGreaterThanOrEqual(400);
      expect(station.ran.slice(before)).toEqual([]);
    });

    it.each(eventSpellings)('%s without the token opens no event stream', async (line) => {
      const before = station.listenerCount();
      const status = await rawStatus(line.replace('PORT', String(host.port)));
      expect(status).toBeGreaterThanOrEqual(400);
      expect(station.listenerCount()).toBe(before);
    });

    it('the encoded spellings that route to /rpc and /events answer 401 (checked on the routed path), absolute-form 400', async () => {
      expect(await rawStatus('POST /%72pc/app.info')).toBe(401);
      expect(await rawStatus('GET /%65vents')).toBe(401);
      expect(await rawStatus(`POST http://127.0.0.1:${host.port}/rpc/app.info`)).toBe(400);
      // With the token the same spelling is an ordinary call (the check is on the route, not a blocklist of spellings).
      const before = station.ran.length;
      expect(await rawStatus('POST /%72pc/app.info', { 'x-station-token': host.token })).toBe(200);
      expect(station.ran.slice(before)).toEqual(['app.info']);
    });

    it('absolute-form is refused even with the token', async () => {
      const before = station.ran.length;
      expect(await rawStatus(`POST http://127.0.0.1:${host.port}/rpc/app.info`, { 'x-station-token': host.token })).toBe(400);
      expect(station.ran.slice(before)).toEqual([]);
    });
  });
});
