/**
 * Conformance: the recipient address of POST /rates and POST /shipments over
 * HTTP against the sandbox (spec: Value objects > Address; Orders, "An Italian
 * postal code sent without leading zeros is completed", applied to every
 * request address). An Italian CAP is completed or refused with 422, never
 * priced as mainland by default. Also the integer `storeId` filter of
 * GET /shipments, whose message must name the field like `page`'s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { CreatedShipment, RatesResponse, Shipment } from '../../../shared/platform/resources';
import { MONDAY_2026_09_14, pkg, recipient, start, type Caller, type ErrorBody } from '../sandbox/helpers';

const CAP_RULE = 'Italian postal code (CAP) must be 5 digits';

describe('conformance: recipient address rules', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb, a } = await start({ clock: MONDAY_2026_09_14 }));
    sb.state.accounts[0]!.credit.balance = 100_000;
  });
  afterAll(async () => {
    await sb.close();
  });

  const rates = async (postalCode: string, countryCode = 'IT') => {
    const r = await a('POST', '/rates', { recipient: { address: { postalCode, countryCode } }, packages: [pkg(1)] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return RatesResponse.parse(r.body).data;
  };

  describe('Italian postal code (CAP)', () => {
    it.each(['ABCDE', '123456', '2012A', '00 184'])('POST /shipments refuses IT %j with 422 at recipient.address.postalCode', async (pc) => {
      const r = await a<ErrorBody>('POST', '/shipments', { recipient: recipient({ postalCode: pc }), packages: [pkg(1)] });
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(r.body.error.details).toEqual({ 'recipient.address.postalCode': [CAP_RULE] });
    });

    it.each(['ABCDE', '123456'])('POST /rates refuses IT %j with 422 at recipient.address.postalCode', async (pc) => {
      const r = await a<ErrorBody>('POST', '/rates', { recipient: { address: { postalCode: pc, countryCode: 'IT' } }, packages: [pkg(1)] });
      expect(r.status).toBe(422);
      expect(r.body.error.details).toEqual({ 'recipient.address.postalCode': [CAP_RULE] });
    });

    it('quotes Sassari 7100 as 07100 (Sardinia), without mainland-only contracts', async () => {
      const short = await rates('7100');
      const full = await rates('07100');
      const mainland = await rates('20123');
      expect(short.length).toBeGreaterThan(0);
      expect(short).toEqual(full);
      expect(new Set(short.map((x) => x.zone))).toEqual(new Set(['italy_sardinia']));
      // The seeded price lists have contracts serving the mainland only: they must not be offered.
      const sardinian = new Set(short.map((x) => x.contractCode));
      const mainlandOnly = mainland.filter((x) => !sardinian.has(x.contractCode));
      expect(mainlandOnly.length).toBeGreaterThan(0);
    });

    it('POST /shipments completes IT 184 to 00184 (Rome) and stores the completed CAP', async () => {
      const r = await a('POST', '/shipments', { recipient: recipient({ postalCode: '184', city: 'Roma', province: 'RM' }), packages: [pkg(1)] });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const created = CreatedShipment.parse(r.body);
      const d = await a('GET', `/shipments/${created.trackingNumber}`);
      expect(d.status).toBe(200);
      expect(Shipment.parse(d.body).recipient?.address.postalCode).toBe('00184');
    });

    it('applies the CAP rule to San Marino and Vatican City too', async () => {
      const sm = await a<ErrorBody>('POST', '/shipments', { recipient: recipient({ countryCode: 'SM', postalCode: 'SM-47890', city: 'San Marino', province: '' }), packages: [pkg(1)] });
      expect(sm.status).toBe(422);
      expect(sm.body.error.details?.['recipient.address.postalCode']).toEqual([CAP_RULE]);
      // 120 -> 00120 is a valid CAP: the only problem left is the missing customs declaration.
      const va = await a<ErrorBody>('POST', '/shipments', { recipient: recipient({ countryCode: 'VA', postalCode: '120', city: 'Città del Vaticano', province: '' }), packages: [pkg(1)] });
      expect(va.status).toBe(422);
      expect(Object.keys(va.body.error.details ?? {})).toEqual(['customsDetail']);
    });
  });

  describe('country code (ISO 3166-1 alpha-2)', () => {
    const abroad = (countryCode: string) => recipient({ countryCode, postalCode: '1000', city: 'Città', province: '' });

    it('refuses XX as no country, not as a non-EU destination needing customs', async () => {
      const r = await a<ErrorBody>('POST', '/shipments', { recipient: abroad('XX'), packages: [pkg(1)] });
      expect(r.status).toBe(422);
      expect(r.body.error.details).toEqual({ 'recipient.address.countryCode': ['Country code "XX" is not an ISO 3166-1 alpha-2 country code'] });
      const q = await a<ErrorBody>('POST', '/rates', { recipient: { address: { postalCode: '1000', countryCode: 'xx' } }, packages: [pkg(1)] });
      expect(q.status).toBe(422);
      expect(q.body.error.details).toEqual({ 'recipient.address.countryCode': ['Country code "xx" is not an ISO 3166-1 alpha-2 country code'] });
    });

    it('gives a 3-letter code one message', async () => {
      const r = await a<ErrorBody>('POST', '/shipments', { recipient: abroad('ITA'), packages: [pkg(1)] });
      expect(r.status).toBe(422);
      expect(r.body.error.details).toEqual({ 'recipient.address.countryCode': ['Country code must be 2 letters (ISO 3166-1 alpha-2), like IT'] });
    });

    it('still quotes a real country given in lower case', async () => {
      const data = await rates('1010', 'at');
      expect(data.length).toBeGreaterThan(0);
      expect(new Set(data.map((x) => x.zone))).toEqual(new Set(['eu_1']));
    });
  });

  describe('GET /shipments integer filters', () => {
    it.each(['x', '1.5'])('answers storeId=%s with "storeId must be an integer", like page', async (v) => {
      const r = await a<ErrorBody>('GET', `/shipments?storeId=${v}`);
      expect(r.status).toBe(422);
      expect(r.body.error.details).toEqual({ storeId: ['storeId must be an integer'] });
      const p = await a<ErrorBody>('GET', `/shipments?page=${v}`);
      expect(p.body.error.details).toEqual({ page: ['page must be an integer'] });
    });

    it('takes an integer storeId (no sandbox shipment comes from a store)', async () => {
      const r = await a<{ data: unknown[] }>('GET', '/shipments?storeId=7');
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
    });
  });
});
