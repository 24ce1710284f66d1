/**
 * Conformance: GET /delivery-points (spec: Endpoints > Delivery points) and
 * `options.deliveryPoint` of POST /shipments, over HTTP against the sandbox.
 * The content of `data` and the option's shape are the sandbox's choice
 * (shared/platform/lookups.ts, electron/sandbox/README.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { DeliveryPointsResponse, type DeliveryPoint } from '../../../shared/platform/lookups';
import { CreatedShipment } from '../../../shared/platform/resources';
import { MONDAY_2026_09_14, pkg, recipient, start, type Caller, type ErrorBody } from '../sandbox/helpers';

describe('conformance: delivery points', () => {
  let sb: Sandbox;
  let a: Caller;
  let b: Caller;
  beforeAll(async () => {
    ({ sb, a, b } = await start({ clock: MONDAY_2026_09_14 }));
  });
  afterAll(async () => {
    await sb.close();
  });

  async function points(query: string) {
    const r = await a('GET', `/delivery-points?${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return DeliveryPointsResponse.parse(r.body).data;
  }

  it('answers {data: the carrier answer}: BRT points near the place, nearest first, deterministic', async () => {
    const d = await points('city=Milano&postalCode=20123');
    expect(d.carrier).toBe('brt');
    expect(d.searchedAddress).toMatchObject({ city: 'Milano', postalCode: '20123', address: null });
    expect(d.points.length).toBeGreaterThanOrEqual(3);
    expect(d.points.length).toBeLessThanOrEqual(6);
    for (const p of d.points) {
      expect(p.id).toMatch(/^(FP|LK)-20123-\d{2}$/);
      expect(p.type).toBe(p.id.startsWith('LK') ? 'locker' : 'shop');
      expect(p.address).toMatchObject({ city: 'Milano', postalCode: '20123', province: 'MI', countryCode: 'IT' });
      expect(p.openingHours.map((h) => h.day)).toEqual(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']);
      expect(p.codAccepted).toBe(p.type === 'shop');
      expect(p.distanceMeters).toBeGreaterThanOrEqual(0);
    }
    const distances = d.points.map((p) => p.distanceMeters);
    expect(distances).toEqual([...distances].sort((x, y) => x - y));
    expect(await points('city=Milano&postalCode=20123')).toEqual(d);
    // Another client gets the same carrier answer; the carrier filter is optional and case-insensitive.
    expect(DeliveryPointsResponse.parse((await b('GET', '/delivery-points?city=milano&postalCode=20123&carrier=BRT')).body).data).toEqual(d);
  });

  it('measures distances from the address when given (same points, other distances)', async () => {
    const plain = await points('city=Milano&postalCode=20123');
    const near = await points('city=Milano&postalCode=20123&address=Via%20Torino%2015');
    expect(near.searchedAddress.address).toBe('Via Torino 15');
    expect(near.points.map((p) => p.id).sort()).toEqual(plain.points.map((p) => p.id).sort());
    expect(near.points.map((p) => p.distanceMeters)).not.toEqual(plain.points.map((p) => p.distanceMeters));
  });

  it('resolves English names, accents and postal codes without leading zeros', async () => {
    expect((await points('city=Rome&postalCode=184')).searchedAddress).toMatchObject({ city: 'Roma', postalCode: '00184' });
    expect((await points('city=FLORENCE&postalCode=50122')).searchedAddress.city).toBe('Firenze');
    // A typographic apostrophe and another case still name L'Aquila.
    expect((await points('city=l%E2%80%99AQUILA&postalCode=67100')).searchedAddress.city).toBe("L'Aquila");
  });

  it.each([
    ['city=Atlantide&postalCode=00100', 'unknown locality'],
    ['city=Roma&postalCode=20123', 'postal code of another town'],
    ['city=Milano&postalCode=ABC', 'postal code not digits'],
  ])('answers 502 carrier_error when the carrier cannot resolve the place (%s: %s)', async (query) => {
    const r = await a<ErrorBody>('GET', `/delivery-points?${query}`);
    expect(r.status).toBe(502);
    expect(r.body.error.code).toBe('carrier_error');
    expect(r.body.error.message).toMatch(/^BRT: /);
  });

  it.each([
    ['postalCode=20123', ['city']],
    ['city=Milano', ['postalCode']],
    ['', ['city', 'postalCode']],
    ['city=Milano&postalCode=20123&carrier=gls', ['carrier']],
    ['city=&postalCode=20123', ['city']],
  ])('answers 422 for "%s"', async (query, keys) => {
    const r = await a<ErrorBody>('GET', `/delivery-points?${query}`);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(Object.keys(r.body.error.details ?? {}).sort()).toEqual([...keys].sort());
  });

  /** A shop and, when the carrier has one, a locker of Milano (postal codes 20121..20162). */
  async function milanPoints(): Promise<{ shop: DeliveryPoint; locker: DeliveryPoint }> {
    let shop: DeliveryPoint | undefined;
    let locker: DeliveryPoint | undefined;
    for (let cap = 20121; cap <= 20162 && !(shop && locker); cap++) {
      const d = await points(`city=Milano&postalCode=${cap}`);
      shop ??= d.points.find((p) => p.type === 'shop');
      locker ??= d.points.find((p) => p.type === 'locker');
    }
    if (!shop || !locker) throw new Error('no shop or locker in Milano');
    return { shop, locker };
  }

  it('ships to a point with options.deliveryPoint {id}: a BRT contract is chosen and the point is echoed', async () => {
    const { shop } = await milanPoints();
    const r = await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(2)], options: { deliveryPoint: { id: shop.id } } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const s = CreatedShipment.parse(r.body);
    expect(s.carrier.code).toBe('brt');
    const detail = await a<{ options: { deliveryPoint: unknown } }>('GET', `/shipments/${s.trackingNumber}`);
    expect(detail.body.options.deliveryPoint).toEqual({
      carrier: 'brt',
      id: shop.id,
      name: shop.name,
      type: 'shop',
      address: { street: shop.address.street, city: 'Milano', province: 'MI', postalCode: shop.address.postalCode, countryCode: 'IT' },
    });
    // With COD at a shop, and the id in lower case with an explicit carrier.
    const cod = await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], serviceType: 'BRT-EXP-NAZ', options: { cod: { amount: 30 }, deliveryPoint: { id: shop.id.toLowerCase(), carrier: 'brt' } } });
    expect(cod.status, JSON.stringify(cod.body)).toBe(201);
  });

  it('refuses a delivery point that does not fit the shipment', async () => {
    const { shop, locker } = await milanPoints();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ recipient: recipient(), packages: [pkg(1)], options: { deliveryPoint: { id: 'FP-20123-99' } } }, 'options.deliveryPoint.id'],
      [{ recipient: recipient(), packages: [pkg(1)], options: { deliveryPoint: { id: 'nonsense' } } }, 'options.deliveryPoint.id'],
      [{ recipient: recipient(), packages: [pkg(1)], options: { deliveryPoint: {} } }, 'options.deliveryPoint.id'],
      [{ recipient: recipient(), packages: [pkg(1)], options: { deliveryPoint: { id: shop.id, carrier: 'gls' } } }, 'options.deliveryPoint.carrier'],
      [{ recipient: recipient(), packages: [pkg(1)], options: { deliveryPoint: { id: locker.id }, cod: { amount: 20 } } }, 'options.cod'],
      [{ recipient: recipient(), packages: [pkg(25)], options: { deliveryPoint: { id: shop.id } } }, 'options.deliveryPoint.id'],
      [{ recipient: { name: 'Hans', address: { street: 'Hauptstr. 5', city: 'Berlin', postalCode: '10115', countryCode: 'DE' } }, packages: [pkg(1)], options: { deliveryPoint: { id: shop.id } } }, 'options.deliveryPoint.id'],
      [{ recipient: recipient(), packages: [pkg(1)], serviceType: 'GLS-EBP', options: { deliveryPoint: { id: shop.id } } }, 'options.deliveryPoint'],
      [{ recipient: recipient(), packages: [pkg(1)], carrierCode: 'sda', options: { deliveryPoint: { id: shop.id } } }, 'options.deliveryPoint'],
    ];
    const balance = sb.state.accounts[0]!.credit.balance;
    for (const [body, key] of cases) {
      const r = await a<ErrorBody>('POST', '/shipments', body);
      expect(r.status, `${key}: ${JSON.stringify(r.body)}`).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(r.body.error.details, JSON.stringify(r.body)).toHaveProperty([key]);
    }
    expect(sb.state.accounts[0]!.credit.balance).toBe(balance);
  });
});
