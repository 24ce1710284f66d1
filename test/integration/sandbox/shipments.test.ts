import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { Paginated } from '../../../shared/platform/common';
import { CancelShipmentResponse, CreatedShipment, CreditBalance, RatesResponse, Shipment, ShipmentLabelResponse } from '../../../shared/platform/resources';
import { MONDAY_2026_09_14, customs, pkg, recipient, start, type Caller, type ErrorBody } from './helpers';

const ShipmentList = Paginated(Shipment);

describe('sandbox shipments', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb, a } = await start({ clock: MONDAY_2026_09_14 }));
  });
  afterAll(async () => {
    await sb.close();
  });

  async function credit(): Promise<number> {
    const r = await a('GET', '/credit');
    expect(r.status).toBe(200);
    return CreditBalance.parse(r.body).balance;
  }

  async function create(body: Record<string, unknown>) {
    const r = await a('POST', '/shipments', body);
    if (r.status !== 201) throw new Error(`expected 201, got ${r.status} ${JSON.stringify(r.body)}`);
    return CreatedShipment.parse(r.body);
  }

  it('creates a shipment with one ZPL and one PDF label per package, debiting its cost', async () => {
    const before = await credit();
    const s = await create({ recipient: recipient(), packages: [pkg(2), pkg(3), pkg(1.5)], reference: 'ORD-1001', serviceType: 'BRT-EXP-NAZ' });
    expect(s.status.key).toBe('shipped');
    expect(s.parcels).toBe(3);
    expect(s.carrier).toEqual({ code: 'brt', name: 'BRT', contractCode: 'BRT-EXP-NAZ', contractName: 'BRT Espresso Nazionale' });
    expect(s.createdAt).toBe('2026-09-14T10:00:00+02:00');

    // 12-character tracking numbers, distinct for each package, the first one is the shipment's.
    const numbers = s.packages.map((p) => p.trackingNumber);
    expect(new Set(numbers).size).toBe(3);
    for (const n of [s.trackingNumber, ...numbers]) expect(n).toMatch(/^[A-Z]{2}\d{10}$/);
    expect(numbers[0]).toBe(s.trackingNumber);
    expect(s.packages.map((p) => p.number)).toEqual([1, 2, 3]);

    const zpl = Buffer.from(s.label.zpl ?? '', 'base64').toString('utf8');
    expect(zpl.match(/\^XA/g)?.length).toBe(3);
    for (const n of numbers) expect(zpl).toContain(n);
    const pdf = Buffer.from(s.label.pdf ?? '', 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(3);
    expect(s.label.format).toBe('PDF');

    expect(s.cost.total).toBeGreaterThan(0);
    expect(await credit()).toBe(Math.round((before - s.cost.total) * 100) / 100);
    // The cost equals the quote of the same contract.
    const quote = RatesResponse.parse((await a('POST', '/rates', { recipient: { address: recipient().address }, packages: [pkg(2), pkg(3), pkg(1.5)] })).body);
    expect(quote.data.find((r) => r.contractCode === 'BRT-EXP-NAZ')?.price.total).toBe(s.cost.total);
  });

  it('defaults serviceType to the first contract of the quote for the destination', async () => {
    for (const [address, extra] of [
      [recipient().address, {}],
      [{ street: 'Hauptstr. 5', city: 'Berlin', postalCode: '10115', countryCode: 'DE' }, {}],
      [{ street: '5th Avenue 1', city: 'New York', postalCode: '10001', countryCode: 'US' }, { customsDetail: customs() }],
    ] as const) {
      const quote = RatesResponse.parse((await a('POST', '/rates', { recipient: { address }, packages: [pkg(1)] })).body);
      const s = await create({ recipient: { name: 'Test', address }, packages: [pkg(1)], ...extra });
      expect(s.carrier.contractCode).toBe(quote.data[0]?.contractCode);
      expect(s.cost.total).toBe(quote.data[0]?.price.total);
    }
  });

  it('uses carrierCode to narrow the default contract and checks it against serviceType', async () => {
    const s = await create({ recipient: recipient(), packages: [pkg(1)], carrierCode: 'gls' });
    expect(s.carrier.code).toBe('gls');
    const bad = await a<ErrorBody>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], carrierCode: 'gls', serviceType: 'BRT-EXP-NAZ' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(bad.body.error.details).toHaveProperty(['carrierCode']);
    const unknown = await a<ErrorBody>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], serviceType: 'NOPE' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toHaveProperty(['serviceType']);
  });

  it('accepts the encrypted code of a reseller contract exactly as received', async () => {
    const carriers = (await a<{ data: Array<{ contracts: Array<{ contractCode: string; slave: boolean }> }> }>('GET', '/carriers')).body.data;
    const slave = carriers.flatMap((c) => c.contracts).find((c) => c.slave)!;
    const s = await create({ recipient: recipient(), packages: [pkg(1)], serviceType: slave.contractCode });
    expect(s.carrier.contractCode).toBe(slave.contractCode);
  });

  it('rejects several packages on a single-parcel contract and a paused contract', async () => {
    const multi = await a<ErrorBody>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1), pkg(1)], serviceType: 'BRT-PRIO-1030' });
    expect(multi.status).toBe(422);
    expect(multi.body.error.code).toBe('shipment_rejected');
    expect(multi.body.error.message).toMatch(/multi-parcel/);
    const paused = await a<ErrorBody>('POST', '/shipments', {
      recipient: recipient({ street: 'Hauptstr. 5', city: 'Berlin', postalCode: '10115', countryCode: 'DE', province: '' }),
      packages: [pkg(1)],
      serviceType: 'BRT-EURO',
    });
    expect(paused.status).toBe(422);
    expect(paused.body.error.code).toBe('shipment_rejected');
  });

  it('checks the COD method against the contract and records COD', async () => {
    const bad = await a<ErrorBody>('POST', '/shipments', {
      recipient: recipient(),
      packages: [pkg(1)],
      serviceType: 'BRT-PRIO-1030',
      options: { cod: { amount: 80, method: 'check' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(bad.body.error.details).toHaveProperty(['options.cod.method']);

    const ok = await create({ recipient: recipient(), packages: [pkg(1)], serviceType: 'BRT-EXP-NAZ', options: { cod: { amount: 80, method: 'cashier_check' } } });
    // The carrier's internal COD code of the method travels with it (`type`, spec: ShipmentOptions cod).
    expect(ok.cod).toEqual({ amount: 80, currency: 'EUR', method: 'cashier_check', type: 'AC', status: 0 });
    expect(ok.cost.breakdown?.cod).toBeGreaterThan(0);

    const noCod = await a<ErrorBody>('POST', '/shipments', {
      recipient: recipient({ street: 'Hauptstr. 5', city: 'Berlin', postalCode: '10115', countryCode: 'DE', province: '' }),
      packages: [pkg(1)],
      serviceType: 'GLS-EBP',
      options: { cod: { amount: 80 } },
    });
    expect(noCod.status).toBe(422);
    expect(noCod.body.error.code).toBe('shipment_rejected');
  });

  it.each([
    ['CH', '8001', 'Zürich'],
    ['GB', 'SW1A 1AA', 'London'],
    ['ES', '35001', 'Las Palmas'],
    ['ES', '51001', 'Ceuta'],
    ['IT', '23041', 'Livigno'],
    ['DE', '27498', 'Helgoland'],
    ['FI', '22100', 'Mariehamn'],
    ['AX', '22100', 'Mariehamn'],
  ])('requires customsDetail for %s %s (%s) and accepts the shipment with it', async (countryCode, postalCode, city) => {
    const to = { name: 'Test', address: { street: 'Main 1', city, postalCode, countryCode } };
    const r = await a<ErrorBody>('POST', '/shipments', { recipient: to, packages: [pkg(1)] });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details).toHaveProperty(['customsDetail']);
    const ok = await a('POST', '/shipments', { recipient: to, packages: [pkg(1)], customsDetail: customs() });
    expect(ok.status).toBe(201);
  });

  it('does not ask customs inside the EU customs territory', async () => {
    for (const [countryCode, postalCode, city] of [['ES', '28001', 'Madrid'], ['FR', '75001', 'Paris'], ['IT', '23030', 'Valdidentro']] as const) {
      const r = await a('POST', '/shipments', { recipient: { name: 'T', address: { street: 'S 1', city, postalCode, countryCode } }, packages: [pkg(1)] });
      expect(r.status).toBe(201);
    }
  });

  it.each([
    [{ packages: [pkg(1)] }, 'recipient'],
    [{ recipient: { ...recipient(), name: '' }, packages: [pkg(1)] }, 'recipient.name'],
    [{ recipient: recipient({ countryCode: 'I' }), packages: [pkg(1)] }, 'recipient.address.countryCode'],
    [{ recipient: recipient(), packages: [pkg(1), { ...pkg(1), weight: { value: -2 } }] }, 'packages.1.weight.value'],
    [{ recipient: recipient(), packages: Array.from({ length: 51 }, () => pkg(1)) }, 'packages'],
    [{ recipient: recipient(), packages: [pkg(1)], reference: 'x'.repeat(101) }, 'reference'],
    [{ recipient: recipient(), packages: [pkg(1)], options: { notes: 'n'.repeat(256) } }, 'options.notes'],
    [{ recipient: recipient(), packages: [pkg(1)], options: { labelFormat: 'PNG' } }, 'options.labelFormat'],
    [{ recipient: recipient(), packages: [pkg(1)], serviceType: 'BRT-EXP-NAZ', options: { accessoryServices: [101, 999] } }, 'options.accessoryServices.1'],
    [{ recipient: recipient(), packages: [pkg(1)], warehouseId: 3 }, 'warehouseId'],
    [{ recipient: { ...recipient(), email: 'not-an-email' }, packages: [pkg(1)] }, 'recipient.email'],
  ])('answers 422 validation_failed naming the field (%#)', async (body, key) => {
    const r = await a<ErrorBody>('POST', '/shipments', body);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details).toHaveProperty([key]);
  });

  it('rejects a shipment the prepaid credit cannot pay, without debiting', async () => {
    const account = sb.state.accounts[0]!;
    const saved = account.credit.balance;
    account.credit.balance = 1;
    try {
      const r = await a<ErrorBody>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)] });
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('shipment_rejected');
      expect(r.body.error.message).toMatch(/credit/i);
      expect(await credit()).toBe(1);
    } finally {
      account.credit.balance = saved;
    }
  });

  it('sends the sender from the chosen pickup point, or the given shipper', async () => {
    const w = sb.state.accounts[0]!.warehouses.find((x) => !x.isDefault)!;
    const s = await create({ recipient: recipient(), packages: [pkg(1)], warehouseId: w.id });
    expect(s.warehouseId).toBe(w.id);
    expect(s.sender?.address).toMatchObject({ city: w.address.city, postalCode: w.address.postalCode });
    const shipper = { name: 'Negozio Centro', address: { street: 'Corso Italia 3', city: 'Pavia', province: 'PV', postalCode: '27100', countryCode: 'IT' } };
    const t = await create({ recipient: recipient(), packages: [pkg(1)], shipper });
    expect(t.sender).toMatchObject(shipper);
  });

  it('returns the detail with sender, recipient, packages, breakdown and dates', async () => {
    const s = await create({
      recipient: recipient(),
      packages: [pkg(4, 40, 30, 20)],
      reference: 'ORD-DETAIL',
      options: { insurance: { amount: 300 }, notes: 'Citofono Bianchi', accessoryServices: [102] },
      serviceType: 'BRT-EXP-NAZ',
    });
    const r = await a('GET', `/shipments/${s.trackingNumber}`);
    expect(r.status).toBe(200);
    const d = Shipment.parse(r.body);
    expect(d.trackingNumber).toBe(s.trackingNumber);
    expect(d.recipient?.name).toBe('Giulia Bianchi');
    expect(d.packages[0]?.weight).toEqual({ value: 4, units: 'KG' });
    expect(d.packages[0]?.dimensions).toEqual({ length: 40, width: 30, height: 20, units: 'CM' });
    expect(d.insurance).toEqual({ amount: 300, currency: 'EUR' });
    const b = d.cost.breakdown!;
    expect(b.services).toBe(sb.state.accounts[0]!.carriers[0]!.services.find((x) => x.serviceId === 102)!.price);
    expect(Object.values(b).reduce((x, v) => x + Math.round((v ?? 0) * 100), 0)).toBe(Math.round(d.cost.total * 100));
    expect(d.dates?.shippedAt).toBe(d.createdAt);
    expect(d.manifestId).toBeNull();
    // Lower case finds the same shipment; a package number is not a shipment path.
    expect((await a('GET', `/shipments/${s.trackingNumber.toLowerCase()}`)).status).toBe(200);
    expect((await a<ErrorBody>('GET', '/shipments/BR0000000000')).status).toBe(404);
  });

  it('serves the label in both formats or the one asked for', async () => {
    const s = await create({ recipient: recipient(), packages: [pkg(1), pkg(1)], options: { labelFormat: 'ZPL' } });
    const both = ShipmentLabelResponse.parse((await a('GET', `/shipments/${s.trackingNumber}/label`)).body);
    expect(both).toEqual({ trackingNumber: s.trackingNumber, format: 'ZPL', pdf: s.label.pdf, zpl: s.label.zpl });
    const pdf = ShipmentLabelResponse.parse((await a('GET', `/shipments/${s.trackingNumber}/label?format=pdf`)).body);
    expect(pdf.format).toBe('PDF');
    expect(pdf.pdf).toBe(s.label.pdf);
    expect(pdf.zpl).toBeNull();
    const zpl = ShipmentLabelResponse.parse((await a('GET', `/shipments/${s.trackingNumber}/label?format=ZPL`)).body);
    expect(zpl.zpl).toBe(s.label.zpl);
    expect(zpl.pdf).toBeNull();
    const bad = await a<ErrorBody>('GET', `/shipments/${s.trackingNumber}/label?format=png`);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toHaveProperty(['format']);
  });

  it('cancels a shipment, refunds its cost and refuses a second cancel with 409', async () => {
    const before = await credit();
    const s = await create({ recipient: recipient(), packages: [pkg(2)] });
    expect(await credit()).toBe(Math.round((before - s.cost.total) * 100) / 100);
    const r = await a('DELETE', `/shipments/${s.trackingNumber}`);
    expect(r.status).toBe(200);
    expect(CancelShipmentResponse.parse(r.body)).toEqual({ trackingNumber: s.trackingNumber, cancelled: true, refunded: s.cost.total });
    expect(await credit()).toBe(before);
    const again = await a<ErrorBody>('DELETE', `/shipments/${s.trackingNumber}`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
    // Cancelled shipments leave the list but keep their detail.
    const list = ShipmentList.parse((await a('GET', `/shipments?trackingNumber=${s.trackingNumber}`)).body);
    expect(list.meta.total).toBe(0);
    expect((await a<{ cancelled: boolean }>('GET', `/shipments/${s.trackingNumber}`)).body.cancelled).toBe(true);
  });

  it('refuses to cancel a shipment in a manifest or in transit with 409 invalid_state', async () => {
    const s = await create({ recipient: recipient(), packages: [pkg(1)] });
    expect((await a('POST', '/manifests', { trackingNumbers: [s.trackingNumber] })).status).toBe(201);
    const r = await a<ErrorBody>('DELETE', `/shipments/${s.trackingNumber}`);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('invalid_state');

    const t = await create({ recipient: recipient(), packages: [pkg(1)] });
    const rec = sb.state.shipments.find((x) => x.trackingNumber === t.trackingNumber)!;
    rec.statusCode = 3; // carrier scan: in transit (tracking arrives in a later slice)
    const u = await a<ErrorBody>('DELETE', `/shipments/${t.trackingNumber}`);
    expect(u.status).toBe(409);
    expect(u.body.error.code).toBe('invalid_state');
  });
});
