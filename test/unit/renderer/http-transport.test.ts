/** HTTP transport of the renderer: request shape, token, error envelope, offline, SSE events, token from the address. */
import { describe, expect, it, vi } from 'vitest';
import { StationError } from '../../../shared/contract';
import { createHttpStation, tokenFromLocation, type EventSourceLike, type LinkState } from '../../../renderer/src/transport/http';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

class FakeSource implements EventSourceLike {
  listeners = new Map<string, Array<(ev: { data?: unknown }) => void>>();
  onopen: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  closed = false;
  constructor(public url: string) {}
  addEventListener(type: string, l: (ev: { data?: unknown }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }
  close() {
    this.closed = true;
  }
  fire(type: string, data: string) {
    for (const l of this.listeners.get(type) ?? []) l({ data });
  }
}

describe('createHttpStation', () => {
  it('POSTs the input as JSON to /rpc/<command> with the token header and returns the body', async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { kind: 'unknown', code: 'X' }));
    const api = createHttpStation({ origin: 'http://127.0.0.1:4000', token: 'tok', fetch });
    const out = await api.invoke('scan.resolve', { code: 'X' });
    expect(out).toEqual({ kind: 'unknown', code: 'X' });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://127.0.0.1:4000/rpc/scan.resolve');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"code":"X"}');
    expect((init.headers as Record<string, string>)['x-station-token']).toBe('tok');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('rejects with the envelope error as a StationError, details included', async () => {
    const details = { 'request.recipient.address.postalCode': ['Postal code is required'] };
    const api = createHttpStation({ origin: '', token: 't', fetch: async () => jsonResponse(422, { error: { code: 'validation_failed', message: 'Invalid', details } }) });
    const err = await api.invoke('app.info', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StationError);
    expect(err).toMatchObject({ code: 'validation_failed', message: 'Invalid', details });
  });

  it('names the HTTP status when the answer is not an envelope', async () => {
    const api = createHttpStation({ origin: '', token: 't', fetch: async () => new Response('', { status: 502 }) });
    await expect(api.invoke('app.info', {})).rejects.toMatchObject({ code: 'internal_error', message: 'Station host answered HTTP 502 to app.info' });
  });

  it('turns a network failure into `offline`', async () => {
    const api = createHttpStation({
      origin: '',
      token: 't',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(api.invoke('app.info', {})).rejects.toMatchObject({ code: 'offline' });
  });

  it('opens one EventSource with the token in the query and dispatches parsed payloads', () => {
    const sources: FakeSource[] = [];
    const links: LinkState[] = [];
    const api = createHttpStation({
      origin: 'http://127.0.0.1:4000',
      token: 'a b',
      fetch: async () => jsonResponse(200, null),
      eventSource: (url) => {
        const s = new FakeSource(url);
        sources.push(s);
        return s;
      },
      onLink: (s) => links.push(s),
    });
    const got: unknown[] = [];
    const off = api.on('orders.changed', (p) => got.push(p));
    const other: unknown[] = [];
    api.on('shipments.changed', (p) => other.push(p));
    expect(sources).toHaveLength(1);
    expect(sources[0]!.url).toBe('http://127.0.0.1:4000/events?token=a%20b');
    sources[0]!.onopen?.({});
    sources[0]!.fire('orders.changed', '{"count":2}');
    sources[0]!.fire('orders.changed', 'not json');
    expect(got).toEqual([{ count: 2 }]);
    expect(other).toEqual([]);
    off();
    sources[0]!.fire('orders.changed', '{"count":3}');
    expect(got).toEqual([{ count: 2 }]);
    sources[0]!.onerror?.({});
    expect(links).toEqual(['connecting', 'up', 'down']);
    api.close();
    expect(sources[0]!.closed).toBe(true);
  });
});

describe('tokenFromLocation', () => {
  it('reads #token= first, then ?token=, else null', () => {
    expect(tokenFromLocation({ hash: '#token=abc_-1', search: '?token=zzz' })).toBe('abc_-1');
    expect(tokenFromLocation({ hash: '', search: '?token=q1' })).toBe('q1');
    expect(tokenFromLocation({ hash: '#other=1', search: '' })).toBeNull();
  });
});
