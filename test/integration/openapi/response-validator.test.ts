/**
 * The OpenAPI document as integrators read it, and the check every
 * integration test runs against it (setup.ts, response-validator.ts):
 * - the validator really catches drift (extra fields, wrong types, bad
 *   date-times, zero weights, undeclared statuses, codes outside the enum);
 * - the hook is live: answers of this file's sandbox are being checked;
 * - the document declares what the sandbox does: 405/413/default answers,
 *   `error.code` as the spec's enum, `format: date-time` on every `*At`
 *   field, a manifest request that refuses `{}`, an https webhook URL, the
 *   label `format` enums, `reference`/`warehouseId` not nullable, and the
 *   sandbox's own fields flagged `x-sandbox-extension`.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { pkg, recipient, start, type Caller } from '../sandbox/helpers';
import { OpenApiResponseValidator, type ResponseToCheck } from './response-validator';
import { checkedSoFar } from './setup';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document

describe('OpenAPI response validation', () => {
  let sb: Sandbox;
  let a: Caller;
  let doc: Json;
  let v: OpenApiResponseValidator;
  beforeAll(async () => {
    ({ sb, a } = await start());
    const r = await fetch(`${sb.baseUrl}/openapi.json`);
    doc = (await r.json()) as Json;
    v = await OpenApiResponseValidator.create(doc);
  });
  afterAll(async () => {
    await sb.close();
  });

  const json = (method: string, path: string, statusCode: number, body: unknown): ResponseToCheck => ({
    method,
    path,
    statusCode,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify(body),
  });

  it('passes real answers and catches each kind of drift', async () => {
    const created = await a<Json>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'OA-1' });
    expect(created.status).toBe(201);
    const shipment = created.body;
    expect(v.check(json('POST', '/shipments', 201, shipment)).problems).toEqual([]);
    const rates = await a<Json>('POST', '/rates', { recipient: { address: { postalCode: '20123', countryCode: 'IT' } }, packages: [pkg(1)] });
    expect(v.check(json('POST', '/rates', 200, rates.body)).problems).toEqual([]);

    // A field the document does not name.
    expect(v.check(json('GET', `/shipments/${String(shipment.trackingNumber)}`, 200, { ...shipment, secretField: 1 })).problems.join()).toMatch(/secretField/);
    // A wrong type, a date-time without offset, a null where the spec has none.
    expect(v.check(json('GET', '/credit', 200, { balance: '10', currency: 'EUR', prepaid: true, updatedAt: '2026-09-14T10:00:00+02:00' })).problems.join()).toMatch(/balance/);
    expect(v.check(json('GET', '/credit', 200, { balance: 10, currency: 'EUR', prepaid: true, updatedAt: 'yesterday' })).problems.join()).toMatch(/updatedAt/);
    expect(v.check(json('GET', '/credit', 200, { balance: 10, currency: 'EUR', prepaid: true, updatedAt: '2026-09-14T10:00:00' })).problems.join()).toMatch(/updatedAt/);
    expect(v.check(json('POST', '/shipments', 201, { ...shipment, reference: null })).problems.join()).toMatch(/reference/);
    // A zero weight in a rate (spec: Weight value > 0).
    const rate = (rates.body.data as Json[])[0]!;
    expect(v.check(json('POST', '/rates', 200, { data: [{ ...rate, volumetricWeight: { value: 0, units: 'KG' } }] })).problems.join()).toMatch(/volumetricWeight\/value/);
    // A status the operation does not declare; an error code outside the spec's enum.
    expect(v.check(json('GET', '/carriers', 409, { error: { code: 'invalid_state', message: 'x' } })).problems).toEqual(['status 409 is not declared for listCarriers']);
    expect(v.check(json('GET', '/carriers', 401, { error: { code: 'gone', message: 'x' } })).problems.join()).toMatch(/code/);
    // Each status carries only its own codes (spec's error table): a 401 is `unauthenticated`.
    expect(v.check(json('GET', '/carriers', 401, { error: { code: 'not_found', message: 'x' } })).problems.join()).toMatch(/code/);
    expect(v.check(json('GET', '/carriers', 401, { error: { code: 'unauthenticated', message: 'x' } })).problems).toEqual([]);
    expect(v.check(json('GET', '/carriers', 500, { error: { code: 'internal_error', message: 'x' } })).problems).toEqual([]);
    // No body where one is declared, a body where none is, a JSON body not labelled JSON.
    expect(v.check({ method: 'GET', path: '/credit', statusCode: 200, contentType: undefined, body: undefined }).problems.join()).toMatch(/declares a body/);
    expect(v.check(json('DELETE', '/webhooks/1', 204, { ok: true })).problems.join()).toMatch(/without a body/);
    expect(v.check({ ...json('GET', '/credit', 200, { balance: 1, currency: 'EUR', prepaid: true, updatedAt: '2026-09-14T10:00:00+02:00' }), contentType: 'text/plain' }).problems.join()).toMatch(/Content-Type/);
    // Paths and methods outside the document: only 404 / 405 as the envelope.
    expect(v.check(json('GET', '/nowhere', 404, { error: { code: 'not_found', message: 'x' } })).problems).toEqual([]);
    expect(v.check(json('GET', '/nowhere', 200, { ok: true })).problems.length).toBeGreaterThan(0);
    expect(v.check(json('PUT', '/rates', 405, { error: { code: 'method_not_allowed', message: 'x' } })).problems).toEqual([]);
  });

  it('is hooked into every sandbox of the suite: this file\'s answers are being checked', async () => {
    const before = checkedSoFar();
    await a('GET', '/carriers');
    await a('PUT', '/carriers', {});
    expect(checkedSoFar()).toBe(before + 2);
  });

  it('declares the error answers of the spec on every operation, with error.code as the spec\'s enum', () => {
    const codes = doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum as string[];
    expect(codes).toEqual(expect.arrayContaining(['unauthenticated', 'method_not_allowed', 'validation_failed', 'shipment_rejected', 'internal_error', 'http_error']));
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        expect(op.responses.default, `${method} ${path}: default`).toEqual({ $ref: '#/components/responses/InternalError' });
        expect(op.responses['405'], `${method} ${path}: 405`).toEqual({ $ref: '#/components/responses/MethodNotAllowed' });
        if (op.requestBody) expect(op.responses['413'], `${method} ${path}: 413`).toEqual({ $ref: '#/components/responses/PayloadTooLarge' });
        expect(typeof op.description, `${method} ${path}: description`).toBe('string');
      }
    }
    expect(doc.components.responses.MethodNotAllowed.headers.Allow).toBeDefined();
    expect(doc.info.contact).toBeDefined();
  });

  it('gives every *At field format date-time', () => {
    const missing: string[] = [];
    let count = 0;
    const walk = (n: unknown, at: string) => {
      if (Array.isArray(n)) return n.forEach((x, i) => walk(x, `${at}/${i}`));
      if (typeof n !== 'object' || n === null) return;
      for (const [k, x] of Object.entries(n as Json)) {
        if (k === 'properties') {
          for (const [name, s] of Object.entries(x as Json)) {
            if (/At$/.test(name) || name === 'timestamp' || name === 'opened_at') {
              count++;
              if (!JSON.stringify(s).includes('"format":"date-time"')) missing.push(`${at}/${name}`);
            }
          }
        }
        walk(x, `${at}/${k}`);
      }
    };
    walk(doc, '');
    expect(count).toBeGreaterThan(27);
    expect(missing).toEqual([]);
  });

  it('refuses an empty manifest request and a plain-http webhook URL; enumerates the label formats', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const manifest = ajv.compile(doc.components.schemas.ManifestRequest as object);
    expect(manifest({})).toBe(false);
    expect(manifest({ shipmentIds: [] })).toBe(false);
    expect(manifest({ shipmentIds: [1] })).toBe(true);
    expect(manifest({ trackingNumbers: ['BR2026519818'] })).toBe(true);
    expect(manifest({ shipmentIds: [], trackingNumbers: ['BR2026519818'] })).toBe(true);
    const webhook = ajv.compile(doc.components.schemas.WebhookCreateRequest as object);
    expect(webhook({ url: 'https://example.com/hooks', events: ['tracking.update'] })).toBe(true);
    expect(webhook({ url: 'http://example.com/hooks', events: ['tracking.update'] })).toBe(false);
    const label = doc.paths['/shipments/{ldv}/label'].get;
    expect((label.parameters as Json[]).find((p) => p.name === 'format')!.schema.enum).toEqual(['pdf', 'zpl', 'PDF', 'ZPL']);
    expect(JSON.stringify(label.responses['200'])).toContain('"format":{"type":"string","enum":["PDF","ZPL"]}');
  });

  it('types reference and warehouseId as the spec does, and flags the sandbox\'s own fields', () => {
    const shipment = doc.components.schemas.Shipment;
    expect(shipment.properties.reference).toEqual({ type: 'string' });
    expect(shipment.properties.warehouseId.type).toBe('integer');
    for (const f of ['cancelledAt', 'cancelled', 'zone', 'billableWeight', 'volumetricWeight', 'bda', 'options', 'customsDetail']) {
      expect(JSON.stringify(shipment.properties[f]), f).toContain('"x-sandbox-extension":true');
    }
    expect(shipment.properties.createdAt['x-sandbox-extension']).toBeUndefined();
    for (const f of ['contractName', 'contractCode', 'trackingNumbers']) expect(JSON.stringify(doc.components.schemas.Manifest.properties[f]), f).toContain('"x-sandbox-extension":true');
    for (const f of ['address', 'weight', 'carrierName', 'instructions']) expect(JSON.stringify(doc.components.schemas.Pickup.properties[f]), f).toContain('"x-sandbox-extension":true');
    expect(doc.paths['/warehouses'].get['x-sandbox-extension']).toBe(true);
  });
});
