import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { ErrorEnvelope } from '../../../shared/platform/common';
import { start, type Caller, type ErrorBody } from './helpers';

describe('sandbox error envelope, 404/405 and bodies', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb, a } = await start());
  });
  afterAll(async () => {
    await sb.close();
  });

  it.each([
    ['PUT', '/shipments', 'GET, POST'],
    ['PATCH', '/shipments/BR0000000000', 'DELETE, GET'],
    ['DELETE', '/carriers', 'GET'],
    ['POST', '/credit', 'GET'],
    ['DELETE', '/manifests', 'GET, POST'],
  ])('%s %s answers 405 method_not_allowed with Allow', async (method, path, allowed) => {
    const r = await a<ErrorBody>(method, path, {});
    expect(r.status).toBe(405);
    expect(ErrorEnvelope.parse(r.body).error.code).toBe('method_not_allowed');
    const allow = (r.headers.get('allow') ?? '').split(', ');
    for (const m of allowed.split(', ')) expect(allow).toContain(m);
  });

  it('answers 405 on the token endpoint for GET', async () => {
    const r = await fetch(`${sb.authUrl}/oauth/token`);
    expect(r.status).toBe(405);
    expect(((await r.json()) as ErrorBody).error.code).toBe('method_not_allowed');
  });

  it('answers 404 not_found in the envelope for an unknown path', async () => {
    for (const path of ['/nothing-here', '/shipments/BR1/label/extra']) {
      const r = await a<ErrorBody>('GET', path);
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toMatch(/application\/json/);
      expect(ErrorEnvelope.parse(r.body).error.code).toBe('not_found');
    }
    const outside = await fetch(`${sb.authUrl}/api/2025-01/carriers`);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as ErrorBody).error.code).toBe('not_found');
  });

  it('answers malformed JSON with 422 validation_failed and details._body', async () => {
    const r = await a<ErrorBody>('POST', '/shipments', '{"recipient": ');
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details).toEqual({ _body: ['Malformed JSON'] });
  });

  it('refuses a body that is not JSON with 422 details._body', async () => {
    const r = await a<ErrorBody>('POST', '/rates', 'postalCode=20100', { 'content-type': 'text/plain' });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(Object.keys(r.body.error.details ?? {})).toEqual(['_body']);
  });

  it('reports each required field of an empty or missing body', async () => {
    for (const body of [undefined, {}]) {
      const r = await a<ErrorBody>('POST', '/shipments', body);
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(Object.keys(r.body.error.details ?? {})).toEqual(expect.arrayContaining(['recipient', 'packages']));
    }
  });

  it('refuses a JSON body that is not an object', async () => {
    const r = await a<ErrorBody>('POST', '/shipments', '[1,2]');
    expect(r.status).toBe(422);
    expect(r.body.error.details).toHaveProperty('_body');
  });

  it('answers JSON even without Accept: application/json', async () => {
    const r = await fetch(`${sb.baseUrl}/carriers`, { headers: { accept: 'text/html' } });
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
  });
});
