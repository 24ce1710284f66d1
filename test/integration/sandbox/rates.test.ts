import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import type { Account, CarrierDef, ContractDef } from '../../../electron/sandbox/model';
import { Weight } from '../../../shared/platform/common';
import { CreatedShipment, RatesResponse, Shipment, type Rate } from '../../../shared/platform/resources';
import { pkg, recipient, start, type Caller, type ErrorBody } from './helpers';

const cents = (n: number) => Math.round(n * 100);

describe('sandbox POST /rates', () => {
  let sb: Sandbox;
  let a: Caller;
  let account: Account;
  beforeAll(async () => {
    ({ sb, a } = await start());
    account = sb.state.accounts[0]!;
  });
  afterAll(async () => {
    await sb.close();
  });

  const lookup = (r: Rate): { carrier: CarrierDef; contract: ContractDef } => {
    const carrier = account.carriers.find((c) => c.carrierCode === r.carrierCode)!;
    return { carrier, contract: carrier.contracts.find((c) => c.contractCode === r.contractCode)! };
  };

  async function rates(body: unknown): Promise<Rate[]> {
    const r = await a('POST', '/rates', body);
    expect(r.status).toBe(200);
    return RatesResponse.parse(r.body).data;
  }

  const to = (postalCode: string, countryCode = 'IT') => ({ address: { postalCode, countryCode } });

  it('never answers a zero weight: a 300 g envelope and a 4 g parcel are billed at least 0.01 kg, and stay so once shipped', async () => {
    const envelope = { weight: { value: 300, units: 'G' }, dimensions: { length: 20, width: 12, height: 0.1, units: 'CM' } };
    const feather = { weight: { value: 4, units: 'G' }, dimensions: { length: 2, width: 2, height: 1, units: 'CM' } };
    for (const [p, billable] of [
      [envelope, 0.3],
      [feather, 0.01],
    ] as const) {
      const list = await rates({ recipient: to('20123'), packages: [p] });
      expect(list.length).toBeGreaterThan(0);
      for (const r of list) {
        // The spec's Weight (value > 0) accepts both weights the station will read back.
        expect(Weight.safeParse(r.billableWeight).success).toBe(true);
        expect(Weight.safeParse(r.volumetricWeight).success).toBe(true);
        expect(r.volumetricWeight).toEqual({ value: 0.01, units: 'KG' });
        expect(r.billableWeight).toEqual({ value: billable, units: 'KG' });
      }
      const created = await a('POST', '/shipments', { recipient: recipient(), packages: [p], serviceType: list[0]!.contractCode });
      expect(created.status).toBe(201);
      const ldv = CreatedShipment.parse(created.body).trackingNumber;
      const detail = await a<Record<string, unknown>>('GET', `/shipments/${ldv}`);
      Shipment.parse(detail.body);
      expect(detail.body.billableWeight).toEqual({ value: billable, units: 'KG' });
      expect(detail.body.volumetricWeight).toEqual({ value: 0.01, units: 'KG' });
    }
  });

  it('computes volumetric weight with each carrier divisor and bills the greater weight', async () => {
    const bulky = pkg(5, 60, 40, 40); // 96 000 cm³
    const data = await rates({ recipient: to('20123'), packages: [bulky] });
    expect(data.length).toBeGreaterThan(1);
    const divisors = new Set<number>();
    for (const r of data) {
      const { carrier } = lookup(r);
      divisors.add(carrier.volumetricDivisor);
      const vol = Math.round(((60 * 40 * 40) / carrier.volumetricDivisor) * 100) / 100;
      expect(r.volumetricWeight).toEqual({ value: vol, units: 'KG' });
      expect(r.billableWeight.value).toBe(Math.max(5, vol));
    }
    expect(divisors.size).toBeGreaterThan(1); // 5000 and 4000 are both exercised

    const dense = await rates({ recipient: to('20123'), packages: [pkg(12, 20, 20, 20)] });
    for (const r of dense) {
      expect(r.volumetricWeight.value).toBeLessThan(12);
      expect(r.billableWeight.value).toBe(12);
    }
  });

  it('sums real and volumetric weight over all packages and converts G and MM', async () => {
    const data = await rates({
      recipient: to('20123'),
      packages: [
        { weight: { value: 1500, units: 'G' }, dimensions: { length: 300, width: 200, height: 100, units: 'MM' } },
        pkg(2.5, 30, 20, 10),
      ],
    });
    const brt = data.find((r) => r.carrierCode === 'brt')!;
    expect(brt.billableWeight.value).toBe(4);
    expect(brt.volumetricWeight.value).toBe(Math.round(((2 * 6000) / 5000) * 100) / 100);
  });

  it('prices the weight band of the zone, fuel as a percentage, and the breakdown adds up to the total', async () => {
    const data = await rates({ recipient: to('20123'), packages: [pkg(7, 30, 20, 10)] });
    for (const r of data) {
      const { carrier, contract } = lookup(r);
      const bands = contract.prices[r.zone as keyof ContractDef['prices']]!;
      const band = bands.find((b) => r.billableWeight.value <= b.maxKg)!;
      expect(r.price.breakdown.weight).toBe(band.price);
      expect(r.price.breakdown.fuel).toBe(Math.round(band.price * carrier.fuelSurchargePct) / 100);
      const sum = Object.values(r.price.breakdown).reduce((s, v) => s + cents(v), 0);
      expect(sum).toBe(cents(r.price.total));
      expect(r.price.currency).toBe('EUR');
    }
  });

  it.each([
    ['20123', 'IT', 'italy'],
    ['00184', 'IT', 'italy'],
    ['90133', 'IT', 'italy_calabria_sicily'],
    ['89127', 'IT', 'italy_calabria_sicily'],
    ['09124', 'IT', 'italy_sardinia'],
    ['30124', 'IT', 'italy_minor_islands'],
    ['80073', 'IT', 'italy_minor_islands'],
    ['10115', 'DE', 'eu_1'],
    ['00-001', 'PL', 'eu_2'],
    ['8001', 'CH', 'europe_non_eu'],
    ['35001', 'ES', 'europe_non_eu'],
    ['10001', 'US', 'world'],
  ])('matches %s %s to zone %s', async (postalCode, countryCode, zone) => {
    const data = await rates({ recipient: to(postalCode, countryCode), packages: [pkg(1)] });
    expect(data.length).toBeGreaterThan(0);
    for (const r of data) expect(r.zone).toBe(zone);
  });

  it('adds the remote-area surcharge as extra for the Venice lagoon and minor islands', async () => {
    const [venice, milan] = await Promise.all([
      rates({ recipient: to('30124'), packages: [pkg(2)] }),
      rates({ recipient: to('20123'), packages: [pkg(2)] }),
    ]);
    const vBrt = venice.find((r) => r.contractCode === 'BRT-EXP-NAZ')!;
    const mBrt = milan.find((r) => r.contractCode === 'BRT-EXP-NAZ')!;
    expect(vBrt.price.breakdown.extra).toBe(lookup(vBrt).contract.remoteAreaSurcharge);
    expect(vBrt.price.breakdown.extra).toBeGreaterThan(0);
    expect(mBrt.price.breakdown.extra).toBe(0);
    // Contracts without the minor-islands zone do not answer there.
    expect(venice.some((r) => r.contractName.includes('GLS Economy'))).toBe(false);
    expect(milan.some((r) => r.contractName.includes('GLS Economy'))).toBe(true);
  });

  it('prices COD as fixed + percent and leaves out contracts without COD', async () => {
    const amount = 250;
    const data = await rates({ recipient: to('20123'), packages: [pkg(2)], options: { cod: { amount, currency: 'EUR' } } });
    expect(data.length).toBeGreaterThan(0);
    for (const r of data) {
      const { carrier, contract } = lookup(r);
      expect(Object.keys(contract.cashOnDeliveryMethods).length).toBeGreaterThan(0);
      expect(r.cashOnDeliveryMethods).toEqual(contract.cashOnDeliveryMethods);
      expect(r.price.breakdown.cod).toBe(Math.round((carrier.codFee.fixed + (amount * carrier.codFee.pct) / 100) * 100) / 100);
    }
    // No international contract of the demo account collects COD.
    const abroad = { recipient: to('10115', 'DE'), packages: [pkg(2)] };
    expect((await rates(abroad)).length).toBeGreaterThan(0);
    expect(await rates({ ...abroad, options: { cod: { amount } } })).toEqual([]);
  });

  it('keeps only contracts that know the carrier COD type', async () => {
    const data = await rates({ recipient: to('20123'), packages: [pkg(2)], options: { cod: { amount: 10, type: 'AB' } } });
    expect(data.map((r) => r.contractCode)).toEqual(['BRT-EXP-NAZ']);
  });

  it('prices insurance as a percentage with a minimum', async () => {
    const small = await rates({ recipient: to('20123'), packages: [pkg(2)], options: { insurance: { amount: 50 } } });
    const large = await rates({ recipient: to('20123'), packages: [pkg(2)], options: { insurance: { amount: 5000 } } });
    for (const r of small) expect(r.price.breakdown.insurance).toBe(lookup(r).carrier.insuranceFee.min);
    for (const r of large) {
      const { carrier } = lookup(r);
      expect(r.price.breakdown.insurance).toBe(Math.round(5000 * carrier.insuranceFee.pct) / 100);
      expect(r.price.breakdown.insurance).toBeGreaterThan(carrier.insuranceFee.min);
    }
  });

  it('charges the pickup fee when collection is asked, zero from the free-pickup point', async () => {
    const warehouses = account.warehouses;
    const free = warehouses.find((w) => w.freePickup)!;
    const paid = warehouses.find((w) => !w.freePickup)!;
    const base = { recipient: to('20123'), packages: [pkg(2)], options: { pickupFromAddress: true } };
    const fromPaid = await rates({ ...base, warehouseId: paid.id });
    const fromFree = await rates({ ...base, warehouseId: free.id });
    const brtPaid = fromPaid.find((r) => r.contractCode === 'BRT-EXP-NAZ')!;
    expect(brtPaid.price.breakdown.pickup).toBe(lookup(brtPaid).carrier.pickupFee);
    expect(brtPaid.price.breakdown.pickup).toBeGreaterThan(0);
    for (const r of fromFree) expect(r.price.breakdown.pickup).toBe(0);
    const noPickup = await rates({ recipient: to('20123'), packages: [pkg(2)], warehouseId: paid.id });
    for (const r of noPickup) expect(r.price.breakdown.pickup).toBe(0);
  });

  it('never offers a paused contract and offers only multi-parcel contracts for several packages', async () => {
    const paused = account.carriers.flatMap((c) => c.contracts).filter((c) => c.paused).map((c) => c.contractCode);
    expect(paused.length).toBeGreaterThan(0);
    const eu = await rates({ recipient: to('10115', 'DE'), packages: [pkg(2)] });
    for (const r of eu) expect(paused).not.toContain(r.contractCode);

    const multi = await rates({ recipient: to('20123'), packages: [pkg(2), pkg(3)] });
    expect(multi.length).toBeGreaterThan(0);
    for (const r of multi) expect(lookup(r).contract.multiParcel).toBe(true);
    const single = await rates({ recipient: to('20123'), packages: [pkg(2)] });
    expect(single.some((r) => !lookup(r).contract.multiParcel)).toBe(true);
  });

  it('answers an empty list when no contract can take the packages', async () => {
    expect(await rates({ recipient: to('20123'), packages: [pkg(95)] })).toEqual([]);
  });

  it.each([
    [{ recipient: to('20123', 'ITA'), packages: [pkg(1)] }, 'recipient.address.countryCode'],
    [{ recipient: to('20123'), packages: [{ ...pkg(1), weight: { value: 0 } }] }, 'packages.0.weight.value'],
    [{ recipient: to('20123'), packages: [pkg(1), { ...pkg(1), dimensions: { length: 10, width: -1, height: 5 } }] }, 'packages.1.dimensions.width'],
    [{ recipient: to('20123'), packages: [] }, 'packages'],
    [{ recipient: { address: { countryCode: 'IT' } }, packages: [pkg(1)] }, 'recipient.address.postalCode'],
    [{ recipient: { address: { postalCode: '20123', countryCode: 'IT', province: 'Milano' } }, packages: [pkg(1)] }, 'recipient.address.province'],
    [{ recipient: to('20123'), packages: [pkg(1)], options: { cod: { amount: 10, currency: 'USD' } } }, 'options.cod.currency'],
    [{ recipient: to('20123'), packages: [pkg(1)], warehouseId: 999 }, 'warehouseId'],
  ])('answers 422 validation_failed naming the field (%#: %s)', async (body, key) => {
    const r = await a<ErrorBody>('POST', '/rates', body);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details).toHaveProperty([key]);
  });
});
