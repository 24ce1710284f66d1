import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { Paginated } from '../../../shared/platform/common';
import { CarriersResponse, CreatedShipment, CreditBalance, Manifest, ManifestsCreated, Pickup, Shipment, Warehouse } from '../../../shared/platform/resources';
import { z } from 'zod';
import { MONDAY_2026_09_14, pkg, recipient, start, type Caller, type ErrorBody } from './helpers';

describe('sandbox tenancy: another client\'s resources answer 404', () => {
  let sb: Sandbox;
  let a: Caller;
  let b: Caller;
  let shipment: z.infer<typeof CreatedShipment>;
  let second: z.infer<typeof CreatedShipment>;
  let manifestId: number;
  let pickupId: number;

  beforeAll(async () => {
    ({ sb, a, b } = await start({ clock: MONDAY_2026_09_14 }));
    shipment = CreatedShipment.parse((await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1), pkg(2)] })).body);
    second = CreatedShipment.parse((await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)] })).body);
    const m = await a('POST', '/manifests', { shipmentIds: [shipment.id] });
    manifestId = ManifestsCreated.parse(m.body).data[0]!.id;
    const p = await a('POST', '/pickups', { serviceType: 'BRT-EXP-NAZ', pickupDate: '2026-09-15', packages: [pkg(1)] });
    pickupId = Pickup.parse(p.body).id;
  });
  afterAll(async () => {
    await sb.close();
  });

  it('the owner sees them', async () => {
    expect((await a('GET', `/shipments/${shipment.trackingNumber}`)).status).toBe(200);
    expect((await a('GET', `/manifests/${manifestId}`)).status).toBe(200);
    expect((await a('GET', `/pickups/${pickupId}`)).status).toBe(200);
  });

  it.each([
    ['GET', () => `/shipments/${shipment.trackingNumber}`],
    ['GET', () => `/shipments/${shipment.trackingNumber}/label`],
    ['GET', () => `/shipments/${shipment.trackingNumber}/label?format=zpl`],
    ['DELETE', () => `/shipments/${second.trackingNumber}`],
    ['GET', () => `/manifests/${manifestId}`],
    ['GET', () => `/manifests/${manifestId}?pdf=true`],
    ['GET', () => `/pickups/${pickupId}`],
  ])('%s %s answers 404 not_found to the other client', async (method, path) => {
    const r = await b<ErrorBody>(method, path());
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });

  it('the other client cannot cancel or manifest the shipment, and it stays intact', async () => {
    expect((await b('DELETE', `/shipments/${second.trackingNumber}`)).status).toBe(404);
    const m = await b<ErrorBody>('POST', '/manifests', { shipmentIds: [second.id], trackingNumbers: [second.trackingNumber] });
    expect(m.status).toBe(404);
    const d = await a<{ manifestId: number | null; cancelled: boolean }>('GET', `/shipments/${second.trackingNumber}`);
    expect(d.body.manifestId).toBeNull();
    expect(d.body.cancelled).toBe(false);
  });

  it('lists, carriers, credit and pickup points are the client\'s own', async () => {
    const shipments = Paginated(Shipment).parse((await b('GET', '/shipments')).body);
    expect(shipments.meta.total).toBe(0);
    expect(Paginated(Shipment).parse((await b('GET', `/shipments?trackingNumber=${shipment.trackingNumber}`)).body).data).toEqual([]);
    expect(Paginated(Manifest).parse((await b('GET', '/manifests')).body).meta.total).toBe(0);
    expect(Paginated(Pickup).parse((await b('GET', '/pickups')).body).meta.total).toBe(0);

    const ca = CarriersResponse.parse((await a('GET', '/carriers')).body).data.flatMap((c) => c.contracts.map((k) => k.contractCode));
    const cb = CarriersResponse.parse((await b('GET', '/carriers')).body).data.flatMap((c) => c.contracts.map((k) => k.contractCode));
    expect(cb.filter((c) => ca.includes(c))).toEqual([]);

    const creditA = CreditBalance.parse((await a('GET', '/credit')).body);
    const creditB = CreditBalance.parse((await b('GET', '/credit')).body);
    expect(creditB.balance).toBe(sb.state.accounts[1]!.credit.balance);
    expect(creditA.balance).toBeLessThan(500);

    const wa = z.object({ data: z.array(Warehouse) }).parse((await a('GET', '/warehouses')).body).data;
    const wb = z.object({ data: z.array(Warehouse) }).parse((await b('GET', '/warehouses')).body).data;
    expect(wa.map((w) => w.name)).toEqual(['Magazzino Milano', 'Deposito Bologna']);
    expect(wa.filter((w) => w.isDefault)).toHaveLength(1);
    expect(wa.find((w) => w.name === 'Deposito Bologna')?.freePickup).toBe(true);
    expect(wb.some((w) => wa.some((x) => x.id === w.id))).toBe(false);
  });

  it('the other client cannot use the first client\'s contracts or pickup points', async () => {
    const s = await b<ErrorBody>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], serviceType: 'BRT-EXP-NAZ' });
    expect(s.status).toBe(422);
    expect(s.body.error.details).toHaveProperty(['serviceType']);
    const w = await b<ErrorBody>('POST', '/rates', { recipient: { address: { postalCode: '20123', countryCode: 'IT' } }, packages: [pkg(1)], warehouseId: 1 });
    expect(w.status).toBe(422);
    expect(w.body.error.details).toHaveProperty(['warehouseId']);
  });
});
