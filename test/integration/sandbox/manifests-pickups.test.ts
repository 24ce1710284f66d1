import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { Paginated } from '../../../shared/platform/common';
import { CreatedShipment, CreditBalance, Manifest, ManifestsCreated, Pickup } from '../../../shared/platform/resources';
import { MONDAY_2026_09_14, pkg, recipient, start, type Caller, type ErrorBody } from './helpers';

describe('sandbox manifests', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb, a } = await start({ clock: MONDAY_2026_09_14 }));
  });
  afterAll(async () => {
    await sb.close();
  });

  async function ship(serviceType: string) {
    const r = await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(2)], serviceType, reference: `R-${serviceType}` });
    expect(r.status).toBe(201);
    return CreatedShipment.parse(r.body);
  }

  it('creates one manifest per contract with a PDF, from ids or tracking numbers', async () => {
    const b1 = await ship('BRT-EXP-NAZ');
    const b2 = await ship('BRT-EXP-NAZ');
    const p1 = await ship('BRT-PRIO-1030');
    const s1 = await ship('SDA-STD');
    const r = await a('POST', '/manifests', { shipmentIds: [b1.id, p1.id], trackingNumbers: [b2.trackingNumber, s1.trackingNumber, b1.trackingNumber] });
    expect(r.status).toBe(201);
    const { data } = ManifestsCreated.parse(r.body);
    expect(data).toHaveLength(3);
    const byContract = new Map(data.map((m) => [m.contractCode, m]));
    const brt = byContract.get('BRT-EXP-NAZ')!;
    expect(brt.carrier).toEqual({ code: 'brt', name: 'BRT' });
    expect(brt.totalShipments).toBe(2);
    expect(brt.totalCost).toBe(Math.round((b1.cost.total + b2.cost.total) * 100) / 100);
    expect(new Set(brt.trackingNumbers)).toEqual(new Set([b1.trackingNumber, b2.trackingNumber]));
    expect(byContract.get('BRT-PRIO-1030')!.totalShipments).toBe(1);
    expect(byContract.get('SDA-STD')!.carrier.code).toBe('sda');
    for (const m of data) {
      const pdf = Buffer.from(m.pdf ?? '', 'base64');
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect((await PDFDocument.load(pdf)).getPageCount()).toBeGreaterThanOrEqual(1);
    }
    // The shipments now carry their manifest and can no longer be cancelled.
    const detail = await a<{ manifestId: number }>('GET', `/shipments/${b1.trackingNumber}`);
    expect(detail.body.manifestId).toBe(brt.id);
    expect((await a('DELETE', `/shipments/${b2.trackingNumber}`)).status).toBe(409);
    // A shipment already in a manifest does not enter another one.
    const again = await a<ErrorBody>('POST', '/manifests', { shipmentIds: [b1.id] });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
  });

  it('leaves out cancelled shipments', async () => {
    const c = await ship('BRT-EXP-NAZ');
    const k = await ship('BRT-EXP-NAZ');
    expect((await a('DELETE', `/shipments/${c.trackingNumber}`)).status).toBe(200);
    const r = await a('POST', '/manifests', { trackingNumbers: [c.trackingNumber, k.trackingNumber] });
    expect(r.status).toBe(201);
    const { data } = ManifestsCreated.parse(r.body);
    expect(data.map((m) => m.trackingNumbers)).toEqual([[k.trackingNumber]]);
  });

  it('validates the body', async () => {
    for (const body of [{}, { shipmentIds: [] }, { shipmentIds: ['x'] }]) {
      const r = await a<ErrorBody>('POST', '/manifests', body);
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(Object.keys(r.body.error.details ?? {})[0]).toMatch(/^shipmentIds/);
    }
  });

  it('lists manifests without PDF and returns the PDF on detail only when asked', async () => {
    const s = await ship('BRT-EXP-NAZ');
    const created = ManifestsCreated.parse((await a('POST', '/manifests', { shipmentIds: [s.id] })).body).data[0]!;
    const l = Paginated(Manifest).parse((await a('GET', '/manifests?per_page=2')).body);
    expect(l.meta.total).toBeGreaterThanOrEqual(3);
    expect(l.data[0]?.id).toBe(created.id);
    for (const m of l.data) expect(m.pdf).toBeUndefined();
    const plain = Manifest.parse((await a('GET', `/manifests/${created.id}`)).body);
    expect(plain.pdf).toBeUndefined();
    expect(plain.totalShipments).toBe(1);
    const withPdf = Manifest.parse((await a('GET', `/manifests/${created.id}?pdf=true`)).body);
    expect(withPdf.pdf).toBe(created.pdf);
    expect((await a('GET', '/manifests/999999')).status).toBe(404);
    expect((await a('GET', '/manifests/abc')).status).toBe(404);
    expect(Paginated(Manifest).parse((await a('GET', '/manifests?to=2026-09-01')).body).meta.total).toBe(0);
  });
});

describe('sandbox pickups', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb, a } = await start({ clock: MONDAY_2026_09_14 }));
  });
  afterAll(async () => {
    await sb.close();
  });

  const balance = async () => CreditBalance.parse((await a('GET', '/credit')).body).balance;

  it('books a pickup at the carrier fee from the default point and debits it', async () => {
    const before = await balance();
    const fee = sb.state.accounts[0]!.carriers.find((c) => c.carrierCode === 'brt')!.pickupFee;
    const r = await a('POST', '/pickups', { serviceType: 'BRT-EXP-NAZ', pickupDate: '2026-09-15', packages: [pkg(3), pkg(4)], pickupTime: 'PM', instructions: 'Rampa 2' });
    expect(r.status).toBe(201);
    const p = Pickup.parse(r.body);
    expect(p.pickupId).toMatch(/\S+/);
    expect(p.cost).toEqual({ total: fee, currency: 'EUR' });
    expect(p.warehouseId).toBe(sb.state.accounts[0]!.warehouses.find((w) => w.isDefault)!.id);
    expect(p.packages).toBe(2);
    expect(p.pickupTime).toBe('PM');
    expect(await balance()).toBe(Math.round((before - fee) * 100) / 100);
    expect(Pickup.parse((await a('GET', `/pickups/${p.id}`)).body)).toEqual(p);
  });

  it('books a free pickup from the point with approved free pickup, with no credit movement', async () => {
    const account = sb.state.accounts[0]!;
    const free = account.warehouses.find((w) => w.freePickup)!;
    const movements = account.movements.length;
    const before = await balance();
    const r = await a('POST', '/pickups', { serviceType: 'BRT-EXP-NAZ', pickupDate: '2026-09-14', packages: [pkg(2)], warehouseId: free.id });
    expect(r.status).toBe(201);
    const p = Pickup.parse(r.body);
    expect(p.cost.total).toBe(0);
    expect(p.warehouseId).toBe(free.id);
    expect(await balance()).toBe(before);
    expect(account.movements.length).toBe(movements);
  });

  it.each([
    [{ pickupDate: '2026-09-13' }, 'pickupDate'], // yesterday
    [{ pickupDate: '2026-09-20' }, 'pickupDate'], // a Sunday
    [{ pickupDate: '2026-02-30' }, 'pickupDate'],
    [{ pickupDate: '15/09/2026' }, 'pickupDate'],
    [{ serviceType: 'SDA-STD' }, 'serviceType'], // carrier takes no pickup bookings
    [{ serviceType: 'NOPE' }, 'serviceType'],
    [{ packages: [] }, 'packages'],
    [{ pickupTime: 'NIGHT' }, 'pickupTime'],
    [{ warehouseId: 3 }, 'warehouseId'], // another client's point
    [{ warehouseId: 1, shipper: recipient() }, 'shipper'],
  ])('answers 422 validation_failed naming the field (%#)', async (patch, key) => {
    const r = await a<ErrorBody>('POST', '/pickups', { serviceType: 'BRT-EXP-NAZ', pickupDate: '2026-09-15', packages: [pkg(1)], ...patch });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details).toHaveProperty([key]);
  });

  it('accepts a Saturday and collects from a given shipper address at the carrier fee', async () => {
    const r = await a('POST', '/pickups', { serviceType: 'GLS-EBP', pickupDate: '2026-09-19', packages: [pkg(1)], shipper: recipient() });
    expect(r.status).toBe(201);
    const p = Pickup.parse(r.body);
    expect(p.warehouseId).toBeNull();
    expect(p.cost.total).toBe(sb.state.accounts[0]!.carriers.find((c) => c.carrierCode === 'gls')!.pickupFee);
  });

  it('lists pickups of the period, paginated', async () => {
    const l = Paginated(Pickup).parse((await a('GET', '/pickups?per_page=2')).body);
    expect(l.meta.total).toBe(3);
    expect(l.data).toHaveLength(2);
    expect(l.data[0]?.pickupDate).toBe('2026-09-19');
    const none = Paginated(Pickup).parse((await a('GET', '/pickups?from=2026-10-01')).body);
    expect(none.meta.total).toBe(0);
    expect((await a('GET', '/pickups/424242')).status).toBe(404);
  });
});
