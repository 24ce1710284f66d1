/**
 * Conformance: customs on POST /shipments (spec: Shipment request fields,
 * `customsDetail` required outside the EU customs territory; Customs >
 * CustomsDetail, Commodity) over HTTP against the sandbox: the special
 * territories by country and postal code, the commodity rules and the
 * defaults echoed in the shipment detail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { CreatedShipment } from '../../../shared/platform/resources';
import { MONDAY_2026_09_14, customs, pkg, start, type Caller, type ErrorBody } from '../sandbox/helpers';

const to = (countryCode: string, postalCode: string, city = 'Città') => ({ name: 'Destinatario Estero', address: { street: 'Calle Mayor 1', city, postalCode, countryCode } });

describe('conformance: customs declaration on POST /shipments', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb, a } = await start({ clock: MONDAY_2026_09_14 }));
    sb.state.accounts[0]!.credit.balance = 100_000; // many international shipments
  });
  afterAll(async () => {
    await sb.close();
  });

  it.each([
    ['ES', '35001', 'Canary Islands', 'Las Palmas de Gran Canaria'],
    ['ES', '38001', 'Canary Islands', 'Santa Cruz de Tenerife'],
    ['IC', '35500', 'Canary Islands', 'Arrecife'],
    ['ES', '51001', 'Ceuta', 'Ceuta'],
    ['ES', '52001', 'Melilla', 'Melilla'],
    ['EA', '52005', 'Melilla', 'Melilla'],
    ['IT', '23041', 'Livigno', 'Livigno'],
    ['DE', '27498', 'Helgoland', 'Helgoland'],
    ['FI', '22100', 'Åland', 'Mariehamn'],
    ['AX', 'AX-22100', 'Åland', 'Mariehamn'],
  ])('requires customsDetail for %s %s (%s), and ships with one', async (cc, pc, territory, city) => {
    const without = await a<ErrorBody>('POST', '/shipments', { recipient: to(cc, pc, city), packages: [pkg(1)] });
    expect(without.status).toBe(422);
    expect(without.body.error.code).toBe('validation_failed');
    expect(without.body.error.details?.customsDetail?.[0]).toContain(territory);
    const withIt = await a('POST', '/shipments', { recipient: to(cc, pc, city), packages: [pkg(1)], customsDetail: customs() });
    expect(withIt.status, JSON.stringify(withIt.body)).toBe(201);
  });

  it.each([
    ['ES', '28013', 'Madrid'],
    ['ES', '07001', 'Palma'],
    ['IT', '23030', 'Valdidentro'],
    ['IT', '23100', 'Sondrio'],
    ['DE', '27472', 'Cuxhaven'],
    ['FI', '00100', 'Helsinki'],
    ['FR', '75001', 'Paris'],
  ])('needs no declaration inside the EU customs territory: %s %s (%s)', async (cc, pc, city) => {
    const r = await a('POST', '/shipments', { recipient: to(cc, pc, city), packages: [pkg(1)] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });

  it.each([
    ['CH', '8001', 'Zürich'],
    ['GB', 'SW1A 1AA', 'London'],
    ['NO', '0150', 'Oslo'],
    ['SM', '47890', 'San Marino'],
    ['VA', '00120', 'Città del Vaticano'],
    ['US', '10001', 'New York'],
  ])('requires a declaration outside the EU: %s %s (%s)', async (cc, pc, city) => {
    const r = await a<ErrorBody>('POST', '/shipments', { recipient: to(cc, pc, city), packages: [pkg(1)] });
    expect(r.status).toBe(422);
    expect(r.body.error.details).toHaveProperty(['customsDetail']);
  });

  it('applies the defaults (DAP, RECIPIENT, MERCHANDISE, SALE, PCS, totalValue = quantity x unitValue) and echoes them in the detail', async () => {
    const r = await a('POST', '/shipments', { recipient: to('CH', '8001', 'Zürich'), packages: [pkg(2)], customsDetail: customs() });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const s = CreatedShipment.parse(r.body);
    const expected = {
      customsValue: { amount: 120, currency: 'EUR' },
      commodities: [
        {
          description: 'Ceramic bowls',
          quantity: 4,
          unitValue: { amount: 30, currency: 'EUR' },
          weight: { value: 2, units: 'KG' },
          countryOfManufacture: 'IT',
          harmonizedCode: '691200',
          quantityUnits: 'PCS',
          totalValue: { amount: 120, currency: 'EUR' },
          midCode: null,
          sku: null,
        },
      ],
      incoterm: 'DAP',
      dutiesPayment: 'RECIPIENT',
      contentType: 'MERCHANDISE',
      exportReason: 'SALE',
      invoiceNumber: null,
      invoiceDate: null,
      exporter: { eori: null, vatNumber: null, taxId: null },
      importer: { eori: null, vatNumber: null, taxId: null },
    };
    expect((r.body as { customsDetail: unknown }).customsDetail).toEqual(expected);
    const detail = await a<{ customsDetail: unknown }>('GET', `/shipments/${s.trackingNumber}`);
    expect(detail.body.customsDetail).toEqual(expected);
  });

  it('keeps what is sent: incoterm, duties, content, reason, units, ids, invoice, a correct total, lower-case codes normalised', async () => {
    const body = {
      recipient: to('US', '10001', 'New York'),
      packages: [pkg(1)],
      customsDetail: {
        customsValue: { amount: 95.5, currency: 'usd' },
        incoterm: 'DDP',
        dutiesPayment: 'SENDER',
        contentType: 'GIFT',
        exportReason: 'GIFT',
        invoiceNumber: 'INV-2026-0912',
        invoiceDate: '2026-09-12',
        exporter: { eori: 'IT12345678901', vatNumber: 'IT12345678901' },
        importer: { taxId: '12-3456789' },
        commodities: [
          { description: 'Silk scarf', quantity: 2, unitValue: { amount: 35.25, currency: 'USD' }, weight: { value: 200, units: 'G' }, countryOfManufacture: 'it', harmonizedCode: '6214100000', quantityUnits: 'SET', totalValue: { amount: 70.5, currency: 'USD' }, sku: 'SC-01', midCode: 'ITSILMIL123' },
          { description: 'Greeting card', quantity: 1, unitValue: { amount: 25, currency: 'USD' }, weight: { value: 0.05 }, countryOfManufacture: 'IT', harmonizedCode: '490900' },
        ],
      },
    };
    const r = await a<{ customsDetail: Record<string, unknown> & { commodities: Array<Record<string, unknown>> } }>('POST', '/shipments', body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const c = r.body.customsDetail;
    expect(c).toMatchObject({
      customsValue: { amount: 95.5, currency: 'USD' },
      incoterm: 'DDP',
      dutiesPayment: 'SENDER',
      contentType: 'GIFT',
      exportReason: 'GIFT',
      invoiceNumber: 'INV-2026-0912',
      invoiceDate: '2026-09-12',
      exporter: { eori: 'IT12345678901', vatNumber: 'IT12345678901', taxId: null },
      importer: { eori: null, vatNumber: null, taxId: '12-3456789' },
    });
    expect(c.commodities[0]).toMatchObject({ countryOfManufacture: 'IT', quantityUnits: 'SET', totalValue: { amount: 70.5, currency: 'USD' }, sku: 'SC-01', midCode: 'ITSILMIL123', weight: { value: 200, units: 'G' } });
    expect(c.commodities[1]).toMatchObject({ quantityUnits: 'PCS', totalValue: { amount: 25, currency: 'USD' }, weight: { value: 0.05, units: 'KG' } });
  });

  it.each(['PCS', 'PR', 'DOZ', 'KG', 'L', 'M', 'M2', 'M3', 'SET'])('accepts quantity units %s', async (units) => {
    const d = customs();
    const r = await a('POST', '/shipments', { recipient: to('NO', '0150', 'Oslo'), packages: [pkg(1)], customsDetail: { ...d, commodities: [{ ...d.commodities[0], quantityUnits: units }] } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });

  it.each(['EXW', 'FCA', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP', 'FOB', 'CFR', 'CIF'])('accepts incoterm %s', async (incoterm) => {
    const r = await a('POST', '/shipments', { recipient: to('NO', '0150', 'Oslo'), packages: [pkg(1)], customsDetail: { ...customs(), incoterm } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });

  const line = (over: Record<string, unknown>) => {
    const d = customs();
    return { ...d, commodities: [{ ...d.commodities[0], ...over }] };
  };

  it.each([
    ['HS code of 5 digits', line({ harmonizedCode: '69120' }), 'customsDetail.commodities.0.harmonizedCode'],
    ['HS code of 11 digits', line({ harmonizedCode: '69120000001' }), 'customsDetail.commodities.0.harmonizedCode'],
    ['HS code with a dot', line({ harmonizedCode: '6912.00' }), 'customsDetail.commodities.0.harmonizedCode'],
    ['unknown quantity units', line({ quantityUnits: 'BOX' }), 'customsDetail.commodities.0.quantityUnits'],
    ['quantity 0', line({ quantity: 0 }), 'customsDetail.commodities.0.quantity'],
    ['fractional quantity', line({ quantity: 1.5 }), 'customsDetail.commodities.0.quantity'],
    ['description missing', line({ description: undefined }), 'customsDetail.commodities.0.description'],
    ['weight missing', line({ weight: undefined }), 'customsDetail.commodities.0.weight'],
    ['country of manufacture of 3 letters', line({ countryOfManufacture: 'ITA' }), 'customsDetail.commodities.0.countryOfManufacture'],
    ['country of manufacture not letters', line({ countryOfManufacture: 'I1' }), 'customsDetail.commodities.0.countryOfManufacture'],
    ['unit value in another currency', line({ unitValue: { amount: 30, currency: 'USD' } }), 'customsDetail.commodities.0.unitValue.currency'],
    ['total value not quantity x unit value', line({ totalValue: { amount: 100, currency: 'EUR' } }), 'customsDetail.commodities.0.totalValue.amount'],
    ['total value in another currency', line({ totalValue: { amount: 120, currency: 'CHF' } }), 'customsDetail.commodities.0.totalValue.currency'],
    ['no commodities', { ...customs(), commodities: [] }, 'customsDetail.commodities'],
    ['commodities missing', { customsValue: { amount: 10 } }, 'customsDetail.commodities'],
    ['customs value missing', { commodities: customs().commodities }, 'customsDetail.customsValue'],
    ['currency of 4 letters', { ...customs(), customsValue: { amount: 120, currency: 'EURO' } }, 'customsDetail.customsValue.currency'],
    ['currency not letters', { ...customs(), customsValue: { amount: 120, currency: 'E1R' } }, 'customsDetail.customsValue.currency'],
    ['negative customs value', { ...customs(), customsValue: { amount: -1 } }, 'customsDetail.customsValue.amount'],
    ['unknown incoterm', { ...customs(), incoterm: 'XYZ' }, 'customsDetail.incoterm'],
    ['unknown duties payment', { ...customs(), dutiesPayment: 'BUYER' }, 'customsDetail.dutiesPayment'],
    ['unknown content type', { ...customs(), contentType: 'OTHER' }, 'customsDetail.contentType'],
    ['unknown export reason', { ...customs(), exportReason: 'OTHER' }, 'customsDetail.exportReason'],
    ['invoice date not real', { ...customs(), invoiceDate: '2026-02-30' }, 'customsDetail.invoiceDate'],
    ['invoice date malformed', { ...customs(), invoiceDate: '12/09/2026' }, 'customsDetail.invoiceDate'],
  ])('answers 422 for %s', async (_name, customsDetail, key) => {
    const before = sb.state.shipments.length;
    const r = await a<ErrorBody>('POST', '/shipments', { recipient: to('CH', '8001', 'Zürich'), packages: [pkg(1)], customsDetail });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details, JSON.stringify(r.body)).toHaveProperty([key]);
    expect(sb.state.shipments.length).toBe(before);
  });

  it('accepts HS codes of 6 to 10 digits and a null one', async () => {
    for (const harmonizedCode of ['691200', '69120010', '6912001000', null]) {
      const r = await a('POST', '/shipments', { recipient: to('CH', '8001', 'Zürich'), packages: [pkg(1)], customsDetail: line({ harmonizedCode }) });
      expect(r.status, `${String(harmonizedCode)}: ${JSON.stringify(r.body)}`).toBe(201);
    }
  });

  it('names every problem of a declaration at once', async () => {
    const d = customs();
    const r = await a<ErrorBody>('POST', '/shipments', {
      recipient: to('CH', '8001', 'Zürich'),
      packages: [pkg(1)],
      customsDetail: { ...d, commodities: [{ ...d.commodities[0], unitValue: { amount: 30, currency: 'GBP' } }, { ...d.commodities[0], totalValue: { amount: 1, currency: 'EUR' } }] },
    });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.error.details ?? {}).sort()).toEqual(['customsDetail.commodities.0.unitValue.currency', 'customsDetail.commodities.1.totalValue.amount']);
  });
});
