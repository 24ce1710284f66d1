/**
 * Conformance: deprecated interfaces (spec: Versioning 4-5, Shipment field
 * mapping, Response mapping; Errors > Legacy interface errors). The legacy
 * operations run the 2026-09 rules under legacy names and envelopes, with the
 * static API key of each seeded account, and every answer on a deprecated
 * path carries the Deprecation, Sunset and Link headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { MONDAY_2026_09_14, pkg, start, type Caller, type Res } from '../sandbox/helpers';
import { advance, renewingCaller } from './admin-client';

const VERDI_KEY = 'sbx-legacy-bottega-verdi-7f3c9a21';
const ROSSI_KEY = 'sbx-legacy-ceramiche-rossi-4b8e2d60';

interface LegacyError {
  code: number;
  status: 'error';
  message: string;
}
interface LegacyValidation {
  message: string;
  errors: Record<string, string[]>;
}

/** Raw call on the sandbox root (`path` starts with /api/...). */
async function raw<T = unknown>(sb: Sandbox, method: string, path: string, opts: { key?: string; basic?: string; body?: unknown } = {}): Promise<Res<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  if (opts.basic !== undefined) headers.authorization = `Basic ${Buffer.from(opts.basic).toString('base64')}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(sb.authUrl + path, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
  });
  const text = await r.text();
  return { status: r.status, body: (text === '' ? undefined : JSON.parse(text)) as T, headers: r.headers };
}

/** A legacy address (street1/state/country). */
const shipTo = { name: 'Giulia Bianchi', street1: 'Via Torino 15', city: 'Milano', state: 'MI', postalCode: '20123', country: 'IT', phone: '+39 333 1234567' };
const legacyPackage = { length: 30, width: 20, height: 10, weight: 2 };

function expectDeprecated(sb: Sandbox, r: Res, what: string): void {
  expect(r.headers.get('deprecation'), what).toBe('@1788393600');
  expect(r.headers.get('sunset'), what).toBe('Sun, 28 Feb 2027 23:59:59 GMT');
  const link = r.headers.get('link') ?? '';
  expect(link, what).toContain(`<${sb.baseUrl}>; rel="successor-version"`);
  expect(link, what).toMatch(/<http:\/\/[^>]+\/api\/deprecation>; rel="deprecation"/);
}

describe('deprecated interfaces', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb } = await start({ clock: MONDAY_2026_09_14 }));
    a = renewingCaller(sb, 0);
  });
  afterAll(async () => {
    await sb.close();
  });

  it('every answer on a deprecated path carries Deprecation, Sunset and Link — errors and unknown paths too', async () => {
    const answers: Array<[string, Res]> = [
      ['401', await raw(sb, 'POST', '/api/v2/shipping/rates', { body: {} })],
      ['404 unknown path', await raw(sb, 'GET', '/api/v2/nothing-here', { key: VERDI_KEY })],
      ['405', await raw(sb, 'GET', '/api/v2/shipping/create', { key: VERDI_KEY })],
      ['422', await raw(sb, 'POST', '/api/v2/shipping/create', { key: VERDI_KEY, body: {} })],
      ['200', await raw(sb, 'GET', '/api/v2/carriers', { key: VERDI_KEY })],
      ['v2.1', await raw(sb, 'GET', '/api/v2.1/carriers', { key: VERDI_KEY })],
      ['v1', await raw(sb, 'GET', '/api/v1/carriers', { basic: `bottega-verdi-station:${VERDI_KEY}` })],
      ['tracking 400', await raw(sb, 'GET', '/api/tracking/SHORT', { key: VERDI_KEY })],
    ];
    for (const [what, r] of answers) expectDeprecated(sb, r, what);
    expect(answers[0]![1].status).toBe(401);
    expect(answers[0]![1].body).toEqual({ code: 401, status: 'error', message: 'Unauthenticated.' });
    expect(answers[1]![1].status).toBe(404);
    expect((answers[1]![1].body as LegacyError).status).toBe('error');
    expect(answers[2]![1].status).toBe(405);
    expect(answers[2]![1].body).toMatchObject({ code: 405, status: 'error' });
    expect(answers[4]![1].status).toBe(200);
    expect(answers[5]![1].status).toBe(200);
    expect(answers[6]![1].status).toBe(200);
    expect(answers[4]![1].body).toEqual(answers[6]![1].body);
  });

  it('leaves driver-app endpoints and the 2026-09 API without deprecation headers', async () => {
    const driver = await raw<{ error: { code: string } }>(sb, 'GET', '/api/v2/driver/route', { key: VERDI_KEY });
    expect(driver.status).toBe(404);
    expect(driver.body.error.code).toBe('not_found');
    expect(driver.headers.get('deprecation')).toBeNull();
    const current = await a('GET', '/carriers');
    expect(current.headers.get('deprecation')).toBeNull();
    expect(current.headers.get('sunset')).toBeNull();
  });

  it('authenticates with the static API key (bearer on v2, Basic client id + key on v1) and keeps tenancy', async () => {
    expect((await raw(sb, 'GET', '/api/v2/carriers', { key: 'nope' })).status).toBe(401);
    expect((await raw(sb, 'GET', '/api/v1/carriers', { key: VERDI_KEY })).status).toBe(401);
    expect((await raw(sb, 'GET', '/api/v1/carriers', { basic: `ceramiche-rossi-shop:${VERDI_KEY}` })).status).toBe(401);
    // An OAuth client secret is not an API key.
    expect((await raw(sb, 'GET', '/api/v2/carriers', { key: sb.clients[0]!.clientSecret })).status).toBe(401);
    const rossi = await raw<Array<{ contracts: Array<{ contractCode: string }> }>>(sb, 'GET', '/api/v2/carriers', { key: ROSSI_KEY });
    expect(rossi.body.flatMap((c) => c.contracts.map((x) => x.contractCode)).sort()).toEqual(['BRT-NAZ-CR', 'GLS-BUS-CR']);
  });

  it('POST /shipping/rates: legacy body, rates with shipmentCost as a string, carrierCode filter', async () => {
    const r = await raw<Array<{ carrierCode: string; contractCode: string; shipmentCost: string; currency: string }>>(sb, 'POST', '/api/v2/shipping/rates', {
      key: VERDI_KEY,
      body: { shipTo: { postalCode: '20123', country: 'IT' }, packages: [legacyPackage] },
    });
    expect(r.status).toBe(200);
    const current = await a<{ data: Array<{ contractCode: string; price: { total: number } }> }>('POST', '/rates', {
      recipient: { address: { postalCode: '20123', countryCode: 'IT' } },
      packages: [pkg(2)],
    });
    expect(r.body.map((x) => x.contractCode)).toEqual(current.body.data.map((x) => x.contractCode));
    expect(r.body.map((x) => x.shipmentCost)).toEqual(current.body.data.map((x) => x.price.total.toFixed(2)));
    const gls = await raw<Array<{ carrierCode: string }>>(sb, 'POST', '/api/v2/shipping/rates', {
      key: VERDI_KEY,
      body: { carrierCode: 'GLS', shipTo: { postalCode: '20123', country: 'IT' }, packages: [legacyPackage] },
    });
    expect(gls.body.length).toBeGreaterThan(0);
    expect(new Set(gls.body.map((x) => x.carrierCode))).toEqual(new Set(['gls']));
  });

  it('POST /shipping/create: legacy field names in and out; the shipment is a 2026-09 shipment', async () => {
    const r = await raw<Record<string, unknown>>(sb, 'POST', '/api/v2/shipping/create', {
      key: VERDI_KEY,
      body: {
        contractCode: 'BRT-EXP-NAZ',
        label_format: 'zpl',
        shipTo,
        packages: [legacyPackage, { ...legacyPackage, weight: '3.5' }],
        order_id: 'LEG-1001',
        rif_dest: 'CLIENTE-77',
        notes: 'Citofono Bianchi',
        content: 'Ceramiche',
        codValue: 49.9,
        cashOnDeliveryMode: 'cash',
        insuranceValue: 100,
        accessoriServices: [102],
        order_total: 49.9,
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const b = r.body;
    expect(b).toMatchObject({ contractCode: 'BRT-EXP-NAZ', carrierCode: 'brt', order_id: 'LEG-1001', status: 2 });
    expect(typeof b.shipmentId).toBe('number');
    expect(b.shipmentCost).toMatch(/^\d+\.\d{2}$/);
    expect(b.packages).toEqual([
      { pack_number: 1, trackingNumber: b.trackingNumber },
      { pack_number: 2, trackingNumber: expect.stringMatching(/^BR\d{10}$/) as unknown },
    ]);
    expect(Buffer.from(String(b.labelData), 'base64').subarray(0, 4).toString()).toBe('%PDF');
    expect(Buffer.from(String(b.labelZPL), 'base64').toString()).toContain('^XA');

    const d = await a<{
      id: number;
      reference: string;
      cost: { total: number };
      recipient: unknown;
      cod: unknown;
      insurance: unknown;
      packages: Array<{ weight: unknown }>;
    }>('GET', `/shipments/${String(b.trackingNumber)}`);
    expect(d.status).toBe(200);
    expect(d.body.id).toBe(b.shipmentId);
    expect(d.body.reference).toBe('LEG-1001');
    expect(d.body.cost.total.toFixed(2)).toBe(b.shipmentCost);
    expect(d.body.recipient).toMatchObject({ name: 'Giulia Bianchi', reference: 'CLIENTE-77', address: { street: 'Via Torino 15', province: 'MI', countryCode: 'IT' } });
    expect(d.body.cod).toMatchObject({ amount: 49.9, method: 'cash' });
    expect(d.body.insurance).toMatchObject({ amount: 100 });
    expect(d.body.packages[1]!.weight).toEqual({ value: 3.5, units: 'KG' });
  });

  it('answers validation errors as {message, errors} keyed by legacy field names', async () => {
    const r = await raw<LegacyValidation>(sb, 'POST', '/api/v2/shipping/create', {
      key: VERDI_KEY,
      body: { contractCode: 'NOPE', shipTo: { ...shipTo, street1: undefined, country: 'ITA' }, packages: [{ length: 30, width: 20, height: 10 }] },
    });
    expect(r.status).toBe(422);
    expect(typeof r.body.message).toBe('string');
    expect(Object.keys(r.body.errors)).toEqual(expect.arrayContaining(['shipTo.street1', 'shipTo.country', 'packages.0.weight']));
    for (const k of Object.keys(r.body.errors)) expect(k).not.toMatch(/recipient|dimensions|countryCode/);
    const bad = await raw<LegacyValidation>(sb, 'POST', '/api/v2/shipping/create', { key: VERDI_KEY, body: { contractCode: 'NOPE', shipTo, packages: [legacyPackage] } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['contractCode']);
    const malformed = await raw<LegacyValidation>(sb, 'POST', '/api/v2/shipping/create', { key: VERDI_KEY, body: '{"shipTo": ' });
    expect(malformed.status).toBe(422);
    expect(Object.keys(malformed.body.errors)).toEqual(['_body']);
  });

  it('POST /shipping/delete cancels and refunds; a second delete is 409 in the legacy envelope', async () => {
    const c = await raw<{ trackingNumber: string; shipmentCost: string }>(sb, 'POST', '/api/v2/shipping/create', { key: VERDI_KEY, body: { shipTo, packages: [legacyPackage] } });
    const del = await raw(sb, 'POST', '/api/v2/shipping/delete', { key: VERDI_KEY, body: { trackingNumber: c.body.trackingNumber } });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ trackingNumber: c.body.trackingNumber, deleted: true, refunded: c.body.shipmentCost });
    const again = await raw<LegacyError>(sb, 'POST', '/api/v2/shipping/delete', { key: VERDI_KEY, body: { trackingNumber: c.body.trackingNumber } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 409, status: 'error' });
    const missing = await raw<LegacyValidation>(sb, 'POST', '/api/v2/shipping/delete', { key: VERDI_KEY, body: {} });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(['trackingNumber']);
    // Another client's shipment does not exist for this key.
    const other = await raw<LegacyError>(sb, 'POST', '/api/v2/shipping/delete', { key: ROSSI_KEY, body: { trackingNumber: c.body.trackingNumber } });
    expect(other.status).toBe(404);
  });

  it('POST /shippinglist/create makes one list per contract with its PDF; POST /pickup/create books with legacy names', async () => {
    const s = await raw<{ shipmentId: number }>(sb, 'POST', '/api/v2/shipping/create', { key: VERDI_KEY, body: { contractCode: 'BRT-EXP-NAZ', shipTo, packages: [legacyPackage] } });
    const list = await raw<{ shippingLists: Array<{ id: number; carrierCode: string; totalShipments: number; totalCost: string; pdf: string }> }>(sb, 'POST', '/api/v2/shippinglist/create', {
      key: VERDI_KEY,
      body: { shipmentIds: [s.body.shipmentId] },
    });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.shippingLists).toHaveLength(1);
    expect(list.body.shippingLists[0]).toMatchObject({ carrierCode: 'brt', totalShipments: 1 });
    expect(list.body.shippingLists[0]!.totalCost).toMatch(/^\d+\.\d{2}$/);
    expect(Buffer.from(list.body.shippingLists[0]!.pdf, 'base64').subarray(0, 4).toString()).toBe('%PDF');

    const p = await raw<Record<string, unknown>>(sb, 'POST', '/api/v2/pickup/create', {
      key: VERDI_KEY,
      body: { contractCode: 'BRT-EXP-NAZ', pickupDate: '2026-09-15', pickupTime: 'AM', warehouseId: 2, packages: [legacyPackage], notes: 'Suonare al magazzino' },
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body).toMatchObject({ contractCode: 'BRT-EXP-NAZ', pickupDate: '2026-09-15', pickupTime: 'AM', pickupCost: '0.00' });
    expect(String(p.body.pickupId)).toMatch(/R20260915/);
    const bad = await raw<LegacyValidation>(sb, 'POST', '/api/v2/pickup/create', { key: VERDI_KEY, body: { pickupDate: '2026-09-15', packages: [legacyPackage] } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toContain('contractCode');
  });

  it('applies the 2026-09 access rules: 402 in the legacy envelope for a client without subscription', async () => {
    const r = await raw<LegacyError>(sb, 'POST', '/api/v2/shipping/create', { key: 'sbx-legacy-trattoria-blu-nosub', body: { shipTo, packages: [legacyPackage] } });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ code: 402, status: 'error' });
  });

  it('legacy tracking: 400 not 12 characters, 404 unknown or older than 90 days, 204 no events yet, 200 with events', async () => {
    const short = await raw<LegacyError>(sb, 'GET', '/api/tracking/BR123', { key: VERDI_KEY });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: 400, status: 'error' });
    expect((await raw(sb, 'GET', '/api/tracking/BR0000000000', { key: VERDI_KEY })).status).toBe(404);
    const s = await raw<{ trackingNumber: string }>(sb, 'POST', '/api/v2/shipping/create', { key: VERDI_KEY, body: { shipTo, packages: [legacyPackage], order_id: 'TRK-1' } });
    const ldv = s.body.trackingNumber;
    const fresh = await raw(sb, 'GET', `/api/tracking/${ldv}`, { key: VERDI_KEY });
    expect(fresh.status).toBe(204);
    expectDeprecated(sb, fresh, '204');
    // Another client: not found.
    expect((await raw(sb, 'GET', `/api/tracking/${ldv}`, { key: ROSSI_KEY })).status).toBe(404);
    await advance(sb, { days: 2 });
    const t = await raw<Record<string, unknown>>(sb, 'GET', `/api/tracking/${ldv}`, { key: VERDI_KEY });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ ldv, contractCode: 'BRT-EXP-NAZ', order_id: 'TRK-1', vector_name: 'BRT', client_store_id: null });
    expect(t.body).not.toHaveProperty('event');
    expect(t.body).not.toHaveProperty('timestamp');
    const rows = t.body.TrackingDettaglio as Array<{ Data: string; Stato: string; Luogo: string }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]!.Data).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    const current = await a<{ events: unknown[]; status: { code: number } }>('GET', `/shipments/${ldv}/tracking`);
    expect(rows).toHaveLength(current.body.events.length);
    expect(t.body.statusCode).toBe(current.body.status.code);
    // The same answer under /api/v2/tracking/{ldv}.
    expect((await raw(sb, 'GET', `/api/v2/tracking/${ldv}`, { key: VERDI_KEY })).body).toEqual(t.body);
    await advance(sb, { days: 89 });
    expect((await raw(sb, 'GET', `/api/tracking/${ldv}`, { key: VERDI_KEY })).status).toBe(404);
    expect((await a('GET', `/shipments/${ldv}/tracking`)).status).toBe(200);
  });
});

describe('deprecated interfaces: stocks and the legacy webhook', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    ({ sb } = await start({ clock: MONDAY_2026_09_14 }));
  });
  afterAll(async () => {
    await sb.close();
  });

  it('open stocks list and /stock/update (409 when instructions were already sent)', async () => {
    const s = await raw<{ trackingNumber: string }>(sb, 'POST', '/api/v2/shipping/create', {
      key: VERDI_KEY,
      body: { contractCode: 'BRT-EXP-NAZ', shipTo, packages: [legacyPackage], notes: 'sandbox:held' },
    });
    expect(s.status).toBe(200);
    let stocks: Array<Record<string, unknown>> = [];
    for (let day = 0; day < 10 && stocks.length === 0; day++) {
      await advance(sb, { days: 1 });
      const r = await raw<Array<Record<string, unknown>>>(sb, 'GET', '/api/v2/stock/list', { key: VERDI_KEY });
      expect(r.status).toBe(200);
      stocks = r.body;
    }
    expect(stocks).toHaveLength(1);
    expect(stocks[0]).toMatchObject({ ldv: s.body.trackingNumber, status: 'open', vector_name: 'BRT' });
    expect(typeof stocks[0]!.giacenza_id).toBe('string');
    const id = stocks[0]!.stock_id;
    const up = await raw<Record<string, unknown>>(sb, 'POST', '/api/v2/stock/update', { key: VERDI_KEY, body: { stock_id: id, action: 'return_to_sender' } });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ stock_id: id, action: 'return_to_sender' });
    const again = await raw<LegacyError>(sb, 'POST', '/api/v2/stock/update', { key: VERDI_KEY, body: { stock_id: id, action: 'return_to_sender' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 409, status: 'error' });
    const bad = await raw<LegacyValidation>(sb, 'POST', '/api/v2/stock/update', { key: VERDI_KEY, body: { action: 'return_to_sender' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['stock_id']);
    expect((await raw<unknown[]>(sb, 'GET', '/api/v2/stock/list', { key: VERDI_KEY })).body).toEqual([]);
  });

  it('legacy webhook: 404 none, 409 twice, subscriptions 409 without a webhook and 404 unknown; registered as a 2026-09 endpoint', async () => {
    const key = ROSSI_KEY;
    expect((await raw<LegacyError>(sb, 'GET', '/api/v2/webhook', { key })).status).toBe(404);
    expect((await raw(sb, 'DELETE', '/api/v2/webhook', { key })).status).toBe(404);
    expect((await raw(sb, 'GET', '/api/v2/webhook/subscriptions', { key })).status).toBe(409);
    expect((await raw(sb, 'POST', '/api/v2/webhook/subscriptions', { key, body: { ldv: 'BR0000000000' } })).status).toBe(409);
    expect((await raw(sb, 'DELETE', '/api/v2/webhook/subscriptions/BR0000000000', { key })).status).toBe(409);

    const created = await raw<{ id: number; url: string; secret: string; events: string[] }>(sb, 'POST', '/api/v2/webhook', { key, body: { url: 'https://rossi.example/legacy-hook' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.body.events).toEqual(['tracking.update', 'stock.opened', 'stock.closed']);
    const twice = await raw<LegacyError>(sb, 'POST', '/api/v2/webhook', { key, body: { url: 'https://rossi.example/other' } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 409, status: 'error' });
    const invalid = await raw<LegacyValidation>(sb, 'POST', '/api/v2/webhook', { key: VERDI_KEY, body: { url: 'not a url' } });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors)).toContain('url');

    const got = await raw<{ id: number; url: string; isActive: boolean }>(sb, 'GET', '/api/v2/webhook', { key });
    expect(got.body).toMatchObject({ id: created.body.id, url: 'https://rossi.example/legacy-hook', isActive: true });
    expect(got.body).not.toHaveProperty('secret');
    const rossi = renewingCaller(sb, 1);
    const list = await rossi<{ data: Array<{ id: number }> }>('GET', '/webhooks');
    expect(list.body.data.map((w) => w.id)).toContain(created.body.id);

    const s = await raw<{ trackingNumber: string }>(sb, 'POST', '/api/v2/shipping/create', { key, body: { shipTo, packages: [legacyPackage] } });
    expect((await raw(sb, 'POST', '/api/v2/webhook/subscriptions', { key, body: { ldv: 'BR0000000000' } })).status).toBe(404);
    const sub = await raw<{ ldv: string }>(sb, 'POST', '/api/v2/webhook/subscriptions', { key, body: { ldv: s.body.trackingNumber.toLowerCase() } });
    expect(sub.status).toBe(201);
    expect(sub.body.ldv).toBe(s.body.trackingNumber);
    expect((await raw(sb, 'POST', '/api/v2/webhook/subscriptions', { key, body: { ldv: s.body.trackingNumber } })).status).toBe(200);
    expect((await raw<Array<{ ldv: string }>>(sb, 'GET', '/api/v2/webhook/subscriptions', { key })).body.map((x) => x.ldv)).toEqual([s.body.trackingNumber]);
    expect((await raw(sb, 'DELETE', '/api/v2/webhook/subscriptions/BR0000000000', { key })).status).toBe(404);
    expect((await raw(sb, 'DELETE', `/api/v2/webhook/subscriptions/${s.body.trackingNumber}`, { key })).status).toBe(200);
    expect((await raw<unknown[]>(sb, 'GET', '/api/v2/webhook/subscriptions', { key })).body).toEqual([]);

    expect((await raw(sb, 'DELETE', '/api/v2/webhook', { key })).status).toBe(200);
    expect((await raw(sb, 'GET', '/api/v2/webhook', { key })).status).toBe(404);
    expect((await rossi<{ data: unknown[] }>('GET', '/webhooks')).body.data).toEqual([]);
    // Deleting the endpoint by the 2026-09 API removes the legacy webhook too.
    const again = await raw<{ id: number }>(sb, 'POST', '/api/v2/webhook', { key, body: { url: 'https://rossi.example/legacy-hook' } });
    expect((await rossi('DELETE', `/webhooks/${again.body.id}`)).status).toBe(204);
    expect((await raw(sb, 'GET', '/api/v2/webhook', { key })).status).toBe(404);
  });

  it('serves the deprecation page the Link header points to', async () => {
    const r = await raw<{ sunset: string; successor: string; operations: Array<{ earlier: string; current: string }> }>(sb, 'GET', '/api/deprecation');
    expect(r.status).toBe(200);
    expect(r.body.sunset).toBe('2027-02-28T23:59:59Z');
    expect(r.body.successor).toBe(sb.baseUrl);
    expect(r.body.operations).toContainEqual({ earlier: 'POST /shipping/create', current: 'POST /shipments' });
  });
});
