import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { createSandbox } from '../../../electron/sandbox/index';
import { TokenResponse } from '../../../shared/platform/resources';
import { caller, requestToken, tokenFor, type ErrorBody } from './helpers';

describe('sandbox OAuth2 client credentials and bearer check', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await createSandbox({ port: 0 });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('issues a one-hour Bearer token for client-api', async () => {
    const c = sb.clients[0]!;
    const r = await requestToken(sb, { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'client-api' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const t = TokenResponse.parse(r.body);
    expect(t.token_type).toBe('Bearer');
    expect(t.expires_in).toBe(3600);
    expect(t.scope).toBe('client-api');
    expect(t.access_token.length).toBeGreaterThanOrEqual(32);
    const res = await caller(sb, t.access_token)('GET', '/carriers');
    expect(res.status).toBe(200);
  });

  it('accepts HTTP Basic client authentication and a missing scope', async () => {
    const c = sb.clients[1]!;
    const basic = Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64');
    const r = await requestToken(sb, { grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    expect(r.status).toBe(200);
  });

  it.each([
    ['wrong secret', (id: string) => ({ grant_type: 'client_credentials', client_id: id, client_secret: 'nope', scope: 'client-api' })],
    ['unknown client id', () => ({ grant_type: 'client_credentials', client_id: 'who-is-this', client_secret: 'x', scope: 'client-api' })],
    ['wrong grant type', (id: string, secret: string) => ({ grant_type: 'password', client_id: id, client_secret: secret, scope: 'client-api' })],
    ['missing grant type', (id: string, secret: string) => ({ client_id: id, client_secret: secret })],
    ['missing secret', (id: string) => ({ grant_type: 'client_credentials', client_id: id })],
  ])('answers 401 unauthenticated for a %s', async (_name, form) => {
    const c = sb.clients[0]!;
    const r = await requestToken(sb, form(c.clientId, c.clientSecret) as Record<string, string>);
    expect(r.status).toBe(401);
    expect((r.body as ErrorBody).error.code).toBe('unauthenticated');
  });

  it('answers 403 insufficient_scope for another scope', async () => {
    const c = sb.clients[0]!;
    const r = await requestToken(sb, { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'admin' });
    expect(r.status).toBe(403);
    expect((r.body as ErrorBody).error.code).toBe('insufficient_scope');
  });

  it.each([
    ['missing', undefined],
    ['not Bearer', 'Basic abc'],
    ['empty Bearer', 'Bearer '],
    ['garbage token', 'Bearer not-a-token-we-issued'],
    ['two tokens', 'Bearer a b'],
  ])('answers 401 unauthenticated for a %s Authorization header', async (_name, header) => {
    const r = await fetch(`${sb.baseUrl}/carriers`, { headers: { accept: 'application/json', ...(header !== undefined ? { authorization: header } : {}) } });
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await r.json()) as ErrorBody;
    expect(body.error.code).toBe('unauthenticated');
    expect(typeof body.error.message).toBe('string');
  });

  it('refuses a token once an hour of simulated time has passed', async () => {
    const token = await tokenFor(sb, 0);
    const call = caller(sb, token);
    sb.clock.advance(3599_000);
    expect((await call('GET', '/credit')).status).toBe(200);
    sb.clock.advance(1_000);
    const r = await call<ErrorBody>('GET', '/credit');
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthenticated');
    // A fresh token works again at the new simulated time.
    expect((await caller(sb, await tokenFor(sb, 0))('GET', '/credit')).status).toBe(200);
  });

  it('uses an injected clock source for expiry', async () => {
    let now = new Date('2026-09-14T08:00:00Z').getTime();
    const own = await createSandbox({ port: 0, clock: () => new Date(now) });
    try {
      const call = caller(own, await tokenFor(own, 0));
      expect((await call('GET', '/carriers')).status).toBe(200);
      now += 3600_000;
      expect((await call('GET', '/carriers')).status).toBe(401);
    } finally {
      await own.close();
    }
  });
});
