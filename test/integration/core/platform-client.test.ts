/**
 * The platform client against the real sandbox over HTTP (port 0): every
 * method, typed errors from real envelopes, token renewal when the platform
 * expires the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../../electron/core/platform/client';
import type { PlatformClient } from '../../../electron/core/platform/client-api';
import { PlatformError } from '../../../electron/core/platform/errors';
import type { Sandbox } from '../../../electron/sandbox/index';
import { clientFor, parcel, pickupDate, recipient, rejection, startSandbox, switchableFetch } from './helpers';

let sb: Sandbox;
let client: PlatformClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = clientFor(sb, 0);
});
afterAll(async () => {
  await sb.close();
});

/** The PlatformError a client call rejects with. */
function failure(p: Promise<unknown>): Promise<PlatformError> {
  return rejection(p, PlatformError);
}

describe('platform client against the sandbox', () => {
  it('reads carriers, warehouses and credit', async () => {
    const carriers = await client.getCarriers();
    expect(carriers.length).toBeGreaterThan(0);
    expect(carriers.every((c) => c.contracts.length > 0)).toBe(true);
    const warehouses = await client.listWarehouses();
    expect(warehouses.some((w) => w.isDefault)).toBe(true);
    const credit = await client.getCredit();
    expect(credit.currency).toBe('EUR');
    expect(typeof credit.balance).toBe('number');
    expect(client.connection).toBe('online');
  });

  it('accepts its own quote for a 300 g envelope and a 4 g parcel (weights > 0, rounded up to 0.01 kg)', async () => {
    for (const weight of [{ value: 300, units: 'G' as const }, { value: 4, units: 'G' as const }]) {
      const rates = await client.quote({ recipient: { address: { postalCode: '20123', countryCode: 'IT' } }, packages: [{ weight, dimensions: { length: 20, width: 12, height: 0.1, units: 'CM' } }] });
      expect(rates.length).toBeGreaterThan(0);
      for (const r of rates) {
        expect(r.billableWeight.value).toBeGreaterThanOrEqual(0.01);
        expect(r.volumetricWeight.value).toBe(0.01);
      }
    }
  });

  it('quotes, ships, finds by reference, fetches label and detail, cancels with a refund', async () => {
    const rates = await client.quote({ recipient: { address: { postalCode: '20123', countryCode: 'IT' } }, packages: [parcel()] });
    expect(rates.length).toBeGreaterThan(0);
    const rate = rates[0]!;
    const before = await client.getCredit();

    const reference = `IT-CLIENT-${Date.now()}`;
    const created = await client.createShipment({ recipient: recipient(), packages: [parcel()], serviceType: rate.contractCode, reference });
    expect(created.reference).toBe(reference);
    expect(created.label.zpl).toBeTruthy();
    expect(Buffer.from(created.label.zpl ?? '', 'base64').toString('utf8')).toContain(created.trackingNumber);
    const afterShip = await client.getCredit();
    expect(afterShip.balance).toBeCloseTo(before.balance - created.cost.total, 2);

    const found = await client.listShipments({ reference });
    expect(found.data.map((s) => s.trackingNumber)).toEqual([created.trackingNumber]);
    expect(found.meta.total).toBe(1);

    const detail = await client.getShipment(created.trackingNumber);
    expect(detail.recipient?.name).toBe('Giulia Bianchi');
    const label = await client.getLabel(created.trackingNumber, 'zpl');
    expect(label.zpl).toBe(created.label.zpl);
    expect(label.pdf).toBeNull();

    const cancelled = await client.cancelShipment(created.trackingNumber);
    expect(cancelled).toEqual({ trackingNumber: created.trackingNumber, cancelled: true, refunded: created.cost.total });
    expect((await client.getCredit()).balance).toBeCloseTo(before.balance, 2);
    const again = await failure(client.cancelShipment(created.trackingNumber));
    expect([again.status, again.code]).toEqual([409, 'invalid_state']);
  });

  it('passes validation details through with their field paths', async () => {
    const err = await failure(
      client.createShipment({ recipient: { ...recipient(), address: { ...recipient().address, postalCode: '' } }, packages: [parcel()] }),
    );
    expect(err.status).toBe(422);
    expect(err.code).toBe('validation_failed');
    expect(Object.keys(err.details ?? {})).toContain('recipient.address.postalCode');
  });

  it('answers not_found for an unknown or foreign tracking number', async () => {
    const mine = await client.createShipment({ recipient: recipient(), packages: [parcel()], reference: `FOREIGN-${Date.now()}` });
    const other = clientFor(sb, 1);
    const err = await failure(other.getShipment(mine.trackingNumber));
    expect([err.status, err.code]).toEqual([404, 'not_found']);
    expect((await failure(client.getShipment('ZZ000000000'))).code).toBe('not_found');
  });

  it('closes the day: manifests with PDF, then manifested shipments cannot be cancelled', async () => {
    const s = await client.createShipment({ recipient: recipient(), packages: [parcel()], reference: `MANIFEST-${Date.now()}` });
    const manifests = await client.createManifests({ trackingNumbers: [s.trackingNumber] });
    expect(manifests).toHaveLength(1);
    const m = manifests[0]!;
    expect(Buffer.from(m.pdf ?? '', 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(m.trackingNumbers).toContain(s.trackingNumber);
    const listed = await client.listManifests();
    expect(listed.map((x) => x.id)).toContain(m.id);
    expect((await client.getManifest(m.id)).pdf).toBeUndefined();
    expect((await client.getManifest(m.id, true)).pdf).toBe(m.pdf);
    expect((await failure(client.cancelShipment(s.trackingNumber))).code).toBe('invalid_state');
    // Nothing left to close: 404.
    expect((await failure(client.createManifests({ trackingNumbers: [s.trackingNumber] }))).status).toBe(404);
  });

  it('books and reads pickups', async () => {
    const carriers = await client.getCarriers();
    const contract = carriers.find((c) => c.canRequestPickup)?.contracts[0];
    expect(contract).toBeDefined();
    const date = pickupDate();
    const p = await client.createPickup({ serviceType: contract!.contractCode, pickupDate: date, packages: [parcel()] });
    expect(p.pickupId).toBeTruthy();
    expect((await client.getPickup(p.id)).pickupId).toBe(p.pickupId);
    const list = await client.listPickups({ from: date, to: date });
    expect(list.data.map((x) => x.id)).toContain(p.id);
  });

  it('renews the token when the platform has expired it', async () => {
    const { fetch, state } = switchableFetch();
    const c = clientFor(sb, 0, { fetch });
    await c.getCredit();
    sb.clock.advance(2 * 3600_000); // the sandbox now considers the token expired
    await c.getCredit();
    expect(state.calls.filter((x) => x === 'POST /oauth/token')).toHaveLength(2);
    expect(state.calls.filter((x) => x.endsWith('/credit'))).toHaveLength(3); // ok, 401, ok
  });

  it('refuses wrong credentials with unauthenticated', async () => {
    const bad = createPlatformClient({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: 'nobody', clientSecret: 'wrong' });
    const err = await failure(bad.getCarriers());
    expect([err.status, err.code]).toEqual([401, 'unauthenticated']);
  });

  it('reports offline when nothing listens', async () => {
    const gone = createPlatformClient({ baseUrl: 'http://127.0.0.1:9/api/2026-09', authUrl: 'http://127.0.0.1:9', clientId: 'a', clientSecret: 'b', timeoutMs: 2000 });
    const err = await failure(gone.getCredit());
    expect(err.code).toBe('offline');
    expect(gone.connection).toBe('offline');
  });
});
