import { describe, expect, it } from 'vitest';
import type { CarrierDef, ContractDef } from '../../../electron/sandbox/model';
import { ceilKg, normalizePackage, quoteContract, round2, volumetricKg, weightPrice, type QuoteInput } from '../../../electron/sandbox/pricing';
import { italianZone, zoneOf } from '../../../electron/sandbox/zones';

const contract: ContractDef = {
  contractCode: 'T-1',
  contractName: 'Test',
  level: 1,
  slave: false,
  paused: false,
  multiParcel: false,
  cashOnDeliveryMethods: { cash: 'Contanti' },
  codTypes: { cash: 'C' },
  maxParcelKg: 30,
  prices: {
    italy: [
      { maxKg: 5, price: 10 },
      { maxKg: 10, price: 15 },
    ],
    italy_minor_islands: [{ maxKg: 10, price: 12 }],
  },
  overPerKg: 2,
  remoteAreaSurcharge: 7.5,
};
const carrier: CarrierDef = {
  carrierCode: 't',
  carrierName: 'Test carrier',
  canManageStocks: false,
  canRequestPickup: true,
  trackingPrefix: 'TT',
  volumetricDivisor: 4000,
  fuelSurchargePct: 10,
  pickupFee: 5,
  codFee: { fixed: 2, pct: 1 },
  insuranceFee: { pct: 1, min: 3 },
  services: [{ serviceId: 1, serviceCode: 'A', serviceName: 'A', price: 1.25 }],
  contracts: [contract],
  logoUrl: null,
};
const input = (over: Partial<QuoteInput> = {}): QuoteInput => ({
  countryCode: 'IT',
  postalCode: '20123',
  packages: [normalizePackage({ weight: { value: 3, units: 'KG' }, dimensions: { length: 40, width: 20, height: 20, units: 'CM' } })],
  pickupFromAddress: false,
  freePickup: false,
  ...over,
});

describe('sandbox pricing', () => {
  it('normalises grams and millimetres', () => {
    expect(normalizePackage({ weight: { value: 2500, units: 'G' }, dimensions: { length: 100, width: 50, height: 20, units: 'MM' } })).toMatchObject({
      weightKg: 2.5,
      lengthCm: 10,
      widthCm: 5,
      heightCm: 2,
    });
  });

  it('computes volumetric weight and bands', () => {
    expect(volumetricKg(input().packages, 4000)).toBe(4);
    expect(weightPrice(contract.prices.italy!, 5, 2)).toBe(10);
    expect(weightPrice(contract.prices.italy!, 5.01, 2)).toBe(15);
    expect(weightPrice(contract.prices.italy!, 12.2, 2)).toBe(15 + 3 * 2);
    expect(round2(1.005)).toBe(1.01);
  });

  it('rounds weights up to the next 0.01 kg, never to 0', () => {
    expect(ceilKg(0.004)).toBe(0.01);
    expect(ceilKg(0.00001)).toBe(0.01);
    expect(ceilKg(0.01)).toBe(0.01);
    expect(ceilKg(0.010001)).toBe(0.02);
    expect(ceilKg(0.011)).toBe(0.02);
    expect(ceilKg(0.3)).toBe(0.3); // 0.3 * 100 is 30.000000000000004 in floats: not 0.31
    expect(ceilKg(1.1)).toBe(1.1);
    expect(ceilKg(2)).toBe(2);
    expect(ceilKg(2.001)).toBe(2.01);
    expect(ceilKg(0)).toBe(0);
    // A 300 g flat envelope 20x12x0.1 cm: volumetric 24 cm3 / 4000 = 0.006 kg -> 0.01.
    const envelope = normalizePackage({ weight: { value: 300, units: 'G' }, dimensions: { length: 20, width: 12, height: 0.1, units: 'CM' } });
    expect(volumetricKg([envelope], 4000)).toBe(0.01);
    const q = quoteContract(carrier, contract, input({ packages: [envelope] }));
    if (!q.ok) throw new Error(q.reason);
    expect(q.priced.rate.billableWeight).toEqual({ value: 0.3, units: 'KG' });
    expect(q.priced.rate.volumetricWeight).toEqual({ value: 0.01, units: 'KG' });
    // Anything under 5 g used to come out as 0 kg.
    const feather = normalizePackage({ weight: { value: 4, units: 'G' }, dimensions: { length: 1, width: 1, height: 1, units: 'CM' } });
    const f = quoteContract(carrier, contract, input({ packages: [feather] }));
    if (!f.ok) throw new Error(f.reason);
    expect(f.priced.rate.billableWeight.value).toBe(0.01);
    expect(f.priced.rate.volumetricWeight.value).toBe(0.01);
    expect(f.priced.billableKg).toBe(0.01);
  });

  it('prices every part and sums them', () => {
    const q = quoteContract(carrier, contract, input({ codAmount: 100, insuranceAmount: 50, pickupFromAddress: true, serviceIds: [1, 99] }));
    if (!q.ok) throw new Error(q.reason);
    expect(q.priced.billableKg).toBe(4);
    expect(q.priced.breakdown).toEqual({ weight: 10, fuel: 1, insurance: 3, cod: 3, services: 1.25, extra: 0, pickup: 5 });
    expect(q.priced.total).toBe(23.25);
    expect(q.priced.rate.zone).toBe('italy');
    const free = quoteContract(carrier, contract, input({ pickupFromAddress: true, freePickup: true }));
    expect(free.ok && free.priced.breakdown.pickup).toBe(0);
  });

  it('adds the remote-area surcharge in the minor islands zone', () => {
    const q = quoteContract(carrier, contract, input({ postalCode: '80073' }));
    if (!q.ok) throw new Error(q.reason);
    expect(q.priced.breakdown.extra).toBe(7.5);
    expect(q.priced.breakdown.weight).toBe(12);
  });

  it.each([
    [{ countryCode: 'DE', postalCode: '10115' }, /does not serve/],
    [{ codAmount: 10 }, null],
    [{ packages: [...input().packages, ...input().packages] }, /multi-parcel/],
    [{ packages: [normalizePackage({ weight: { value: 31, units: 'KG' }, dimensions: { length: 1, width: 1, height: 1, units: 'CM' } })] }, /30 kg/],
  ])('refuses with a reason (%#)', (over, reason) => {
    const q = quoteContract(carrier, contract, input(over));
    if (reason === null) expect(q.ok).toBe(true);
    else expect(!q.ok && q.reason).toMatch(reason);
  });

  it('refuses paused contracts and COD without methods', () => {
    expect(quoteContract(carrier, { ...contract, paused: true }, input()).ok).toBe(false);
    const q = quoteContract(carrier, { ...contract, cashOnDeliveryMethods: {} }, input({ codAmount: 5 }));
    expect(!q.ok && q.reason).toMatch(/cash on delivery/);
  });

  it.each([
    ['20123', undefined, 'italy'],
    ['98122', undefined, 'italy_calabria_sicily'],
    ['87100', undefined, 'italy_calabria_sicily'],
    ['07100', undefined, 'italy_sardinia'],
    ['30141', undefined, 'italy_minor_islands'],
    ['57037', undefined, 'italy_minor_islands'],
    ['', 'CT', 'italy_calabria_sicily'],
    ['x', 'SS', 'italy_sardinia'],
    ['', 'MI', 'italy'],
  ])('Italian zone of CAP %s / province %s is %s', (cap, prov, zone) => {
    expect(italianZone(cap, prov)).toBe(zone);
  });

  it.each([
    ['FR', '75001', 'eu_1'],
    ['SE', '11122', 'eu_2'],
    ['NO', '0150', 'europe_non_eu'],
    ['IT', '23041', 'europe_non_eu'],
    ['JP', '100-0001', 'world'],
  ])('zone of %s %s is %s', (cc, pc, zone) => {
    expect(zoneOf(cc, pc)).toBe(zone);
  });
});
