/**
 * The OpenAPI 3.1 document (openapi.ts, `GET {base_url}/openapi.json`):
 * generated from the shared zod schemas, valid against the OAS 3.1 schema
 * (@readme/openapi-parser, offline), and complete — every route the sandbox
 * registers under the version prefix is in it with a described operation,
 * and every described operation is served.
 */
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, buildSandboxApp, demoSeed, SandboxState, SimClock, type Sandbox } from '../../../electron/sandbox/index';
import { OPERATIONS } from '../../../electron/sandbox/openapi-operations';
import { RATE_LIMITS } from '../../../electron/sandbox/ratelimit';
import { start } from '../sandbox/helpers';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document

/** Every (method, path) fastify serves, read from its own route tree (independent of the sandbox's route list). */
function servedRoutes(tree: string): Array<{ method: string; path: string }> {
  const out: Array<{ method: string; path: string }> = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│├└─ ]*?)(\/\S*)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = Math.max(0, (m[1] ?? '').length / 4 - 1);
    const full = (depth > 0 ? (stack[depth - 1] ?? '') : '') + (m[2] ?? '');
    stack[depth] = full;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter((x) => x !== '' && x !== 'HEAD')) out.push({ method, path: full });
  }
  return out;
}

type OasDocument = Parameters<typeof validate>[0];

const shape = (p: string) => p.replace(/:[A-Za-z0-9_]+|\{[^}]*\}/g, '{}');

describe('OpenAPI document', () => {
  let sb: Sandbox;
  let doc: Json;
  beforeAll(async () => {
    ({ sb } = await start());
    const r = await fetch(`${sb.baseUrl}/openapi.json`, { headers: { accept: 'application/json' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await r.json()) as Json;
  });
  afterAll(async () => {
    await sb.close();
  });

  it('is served without a token and is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Client Shipping API', version: '2026-09' });
    const result = await validate(structuredClone(doc) as OasDocument);
    expect(result.valid ? [] : result.errors, JSON.stringify(result)).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator really checks: a broken copy is refused.
    const broken = structuredClone(doc);
    delete broken.info;
    broken.paths['/rates'].post.responses = 'none';
    expect((await validate(broken as OasDocument)).valid).toBe(false);
  });

  it('names this sandbox as server and its token endpoint in the oauth2 client-credentials scheme', () => {
    expect(doc.servers).toEqual([{ url: sb.baseUrl }]);
    expect(doc.security).toEqual([{ oauth2: ['client-api'] }]);
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: `${sb.authUrl}/oauth/token`, scopes: { 'client-api': expect.any(String) as unknown } } },
    });
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
  });

  it('lists every route the sandbox serves under the version prefix, each with a described operation', async () => {
    const app = buildSandboxApp(new SandboxState(demoSeed(), new SimClock()));
    try {
      await app.ready();
      const served = servedRoutes(app.printRoutes({ commonPrefix: false })).filter((r) => r.path.startsWith(API_PREFIX + '/'));
      expect(served.length).toBeGreaterThan(30);
      const documented = new Map<string, Json>();
      for (const [path, item] of Object.entries(doc.paths as Json)) {
        for (const [method, op] of Object.entries(item as Json)) documented.set(`${method.toUpperCase()} ${shape(path)}`, op as Json);
      }
      for (const r of served) {
        const key = `${r.method} ${shape(r.path.slice(API_PREFIX.length))}`;
        const op = documented.get(key);
        expect(op, `${key} is served but not in the document`).toBeDefined();
        expect(op?.['x-sandbox-undocumented'], `${key} has no catalogue entry in openapi.ts`).toBeUndefined();
      }
      // And the reverse: everything documented is served.
      const servedKeys = new Set(served.map((r) => `${r.method} ${shape(r.path.slice(API_PREFIX.length))}`));
      for (const key of documented.keys()) expect(servedKeys, `${key} is documented but not served`).toContain(key);
      for (const op of OPERATIONS) expect(servedKeys, `${op.method} ${op.path} of the catalogue is not served`).toContain(`${op.method} ${shape(op.path)}`);
    } finally {
      await app.close();
    }
  });

  it('covers every endpoint of the spec', () => {
    const spec = [
      'GET /carriers', 'POST /rates', 'GET /shipments', 'POST /shipments', 'GET /shipments/{ldv}', 'DELETE /shipments/{ldv}',
      'GET /shipments/{ldv}/label', 'GET /shipments/{ldv}/tracking', 'GET /tracking/bda/{bda}', 'POST /manifests', 'GET /manifests',
      'GET /manifests/{id}', 'GET /stocks', 'GET /stocks/{id}', 'POST /stocks/{id}/actions', 'GET /delivery-points', 'GET /taric',
      'POST /pickups', 'GET /pickups', 'GET /pickups/{id}', 'POST /orders', 'GET /invoices', 'GET /invoices/{id}', 'GET /invoices/{id}/pdf',
      'GET /credit', 'GET /credit/movements', 'GET /cod-lists', 'GET /cod-lists/{id}', 'GET /returns', 'GET /returns/{id}',
      'GET /webhooks', 'POST /webhooks', 'GET /webhooks/{id}', 'DELETE /webhooks/{id}', 'GET /webhooks/{id}/deliveries', 'POST /webhooks/{id}/test',
    ];
    for (const e of spec) {
      const [method = '', path = ''] = e.split(' ');
      expect(doc.paths[path]?.[method.toLowerCase()], e).toBeDefined();
    }
  });

  it('describes parameters, bodies, answers, the error envelope and rate limits', () => {
    const create = doc.paths['/shipments'].post;
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ShipmentRequest' });
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreatedShipment' });
    for (const status of ['401', '402', '403', '404', '422', '429', '502']) expect(create.responses[status], status).toBeDefined();
    expect(create['x-rate-limit-per-minute']).toBe(30);
    expect(doc.components.responses.RateLimited.headers['Retry-After']).toBeDefined();
    expect(doc.components.schemas.ErrorEnvelope.properties.error.required).toEqual(['code', 'message']);

    const list = doc.paths['/shipments'].get;
    const names = (list.parameters as Json[]).map((p) => `${p.in}:${p.name}`);
    expect(names).toEqual(expect.arrayContaining(['query:from', 'query:to', 'query:status', 'query:countryCode', 'query:per_page', 'query:page']));
    const perPage = (list.parameters as Json[]).find((p) => p.name === 'per_page')!;
    expect(perPage.schema).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    expect(doc.paths['/shipments/{ldv}'].get.parameters).toEqual([{ name: 'ldv', in: 'path', required: true, schema: { type: 'string' } }]);
    const taric = (doc.paths['/taric'].get.parameters as Json[]).find((p) => p.name === 'q')!;
    expect(taric.required).toBe(true);
    expect(taric.schema.minLength).toBe(3);

    // Every rate-limited endpoint carries its limit and a 429 answer.
    for (const [key, limit] of Object.entries(RATE_LIMITS)) {
      const [method = '', path = ''] = key.split(' ');
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op?.['x-rate-limit-per-minute'], key).toBe(limit);
      expect(op?.responses['429'], key).toBeDefined();
    }
    // Request schemas keep the validation rules of the zod schemas.
    const shipReq = doc.components.schemas.ShipmentRequest;
    expect(shipReq.required).toEqual(expect.arrayContaining(['recipient', 'packages']));
    expect(shipReq.properties.packages).toMatchObject({ minItems: 1, maxItems: 50 });
  });

  it('documents the four webhook events with their payloads', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(['shipment.created', 'stock.closed', 'stock.opened', 'tracking.update']);
    const tu = doc.webhooks['tracking.update'].post.requestBody.content['application/json'].schema;
    expect(tu).toEqual({ $ref: '#/components/schemas/WebhookTrackingUpdatePayload' });
    expect(Object.keys(doc.components.schemas.WebhookTrackingUpdatePayload.properties)).toEqual(expect.arrayContaining(['event', 'timestamp', 'ldv', 'TrackingDettaglio']));
  });
});
