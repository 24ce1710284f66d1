/**
 * The box that fits and the split when none does (issue 37 items 1-2) in the
 * plan, through the commands, against the sandbox. Presets (inner cm, tare
 * kg): Small 25 × 20 × 10 (0.15), Medium 30 × 20 × 15 (0.25, the default),
 * Large 40 × 30 × 20 (0.4). The issue's three orders plan their box and why;
 * the split order plans two parcels with their items and weights; a rule's
 * box wins when it fits and is refused with the reason when it does not; an
 * item of unknown size keeps the default box; goods that ship alone (the
 * product CSV's `shipsAlone`) get a parcel of their own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { StationOrder } from '../../../shared/domain/order';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { orderByNumber } from './helpers';
import { useStation } from './station-fixture';
import { ISSUE_37_BOXES, ISSUE_37_PRODUCT_ROWS } from '../../fixtures/boxes/issue-37';

const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 2000, platformRateLimits: false }) });
const invoke = fx.invoke;
const created = '2026-11-20 10:00:00 +0000';
const milano = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
const torino = { name: 'Luca Neri', a1: 'Via Po 3', city: 'Torino', zip: '10123', prov: 'TO', country: 'IT' };

const RULES = {
  version: 1,
  rules: [
    { name: 'Torino in Medium', when: { countries: ['IT'], postcodes: ['10*'] }, then: { rate: 'cheapest', box: 'Medium', shipByItself: true } },
    { name: 'Italia', when: { countries: ['IT'] }, then: { rate: 'cheapest', shipByItself: true } },
  ],
};

const PRODUCTS = [
  'sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description,shipsAlone',
  ...ISSUE_37_PRODUCT_ROWS,
  'NOSIZE,0.5,,,,691200,IT,Senza misure',
  'CAR-GL,0.7,12,12,25,701349,IT,Caraffa in vetro,yes',
].join('\n');

beforeAll(async () => {
  await invoke('boxes.settings.set', ISSUE_37_BOXES);
  await invoke('products.importCsv', { content: PRODUCTS });
  await invoke('rules.import', { content: JSON.stringify(RULES) });
  const item = (sku: string, q: number) => ({ q: String(q), n: sku, p: '10.00', sku });
  await invoke('orders.importCsv', {
    fileName: 'ceramiche.csv',
    shop: 'Ceramiche',
    content: shopifyCsv([
      ...order({ name: '#5001', id: '4500000005001', created, email: 'a@example.it', ship: milano, items: [item('CUP', 2), item('TE-1L', 1)], total: '30.00' }),
      ...order({ name: '#5002', id: '4500000005002', created, email: 'b@example.it', ship: milano, items: [item('PP-27', 3), item('BW-14', 3), item('TU-30', 1)], total: '70.00' }),
      ...order({ name: '#5003', id: '4500000005003', created, email: 'c@example.it', ship: milano, items: [item('VS-DEC', 1)], total: '10.00' }),
      ...order({ name: '#5004', id: '4500000005004', created, email: 'd@example.it', ship: torino, items: [item('TE-1L', 1)], total: '10.00' }),
      ...order({ name: '#5005', id: '4500000005005', created, email: 'e@example.it', ship: torino, items: [item('CUP', 2)], total: '20.00' }),
      ...order({ name: '#5007', id: '4500000005007', created, email: 'g@example.it', ship: milano, items: [item('CUP', 2), item('CAR-GL', 1)], total: '30.00' }),
      ...order({ name: '#5006', id: '4500000005006', created, email: 'f@example.it', ship: milano, items: [item('CUP', 1), item('NOSIZE', 1)], total: '20.00' }),
    ]),
  });
});

const byNumber = (n: string): Promise<StationOrder> => orderByNumber(invoke, n);
const planOf = async (n: string) => invoke('shipping.plan', { orderId: (await byNumber(n)).id });

describe('the box that fits, in the plan', () => {
  it('2 cups and the teapot: Large, because the teapot does not fit Medium; it ships by itself', async () => {
    const plan = await planOf('#5001');
    expect(plan.attention).toEqual([]);
    expect(plan.box?.name).toBe('Large');
    expect(plan.boxReason?.message).toBe('Box Large: TE-1L 22 × 18 × 16 cm does not fit Medium');
    expect(plan.parcels).toEqual([{ box: expect.objectContaining({ name: 'Large' }), items: expect.arrayContaining([{ sku: 'TE-1L', quantity: 1 }, { sku: 'CUP', quantity: 2 }]), weightKg: 1.9 }]);
    expect(plan.parcels[0]?.items).toHaveLength(2);
    expect(plan.packages).toEqual([{ weight: { value: 1.9, units: 'KG' }, dimensions: { length: 40, width: 30, height: 20, units: 'CM' } }]);
    const auto = await invoke('shipping.autoShip', { orderId: (await byNumber('#5001')).id });
    expect(auto).toMatchObject({ ships: true, box: { reason: { key: 'box.pieceTooBig', params: { box: 'Large', sku: 'TE-1L', smaller: 'Medium' } }, parcels: 1 } });
  });

  it('plates, bowls and the tureen: two parcels, each with its box, items and weight (product data plus tare)', async () => {
    const plan = await planOf('#5002');
    expect(plan.attention).toEqual([]);
    expect(plan.boxReason).toMatchObject({ key: 'box.split', params: { count: 2 } });
    expect(plan.parcels).toHaveLength(2);
    expect(plan.parcels.flatMap((p) => p.items).reduce((s, i) => s + i.quantity, 0)).toBe(7);
    expect(plan.packages).toHaveLength(2);
    plan.parcels.forEach((p, i) => {
      expect(plan.packages?.[i]?.weight.value).toBe(p.weightKg);
      expect(plan.packages?.[i]?.dimensions).toMatchObject({ length: p.box?.lengthCm, width: p.box?.widthCm, height: p.box?.heightCm });
    });
    // 3 × 0.6 + 3 × 0.3 + 2.1 of goods, and each parcel's tare.
    const tares = plan.parcels.reduce((s, p) => s + (p.box?.tareKg ?? 0), 0);
    expect(plan.packages?.reduce((s, p) => s + p.weight.value, 0)).toBeCloseTo(4.8 + tares, 3);
    expect((await invoke('shipping.autoShip', { orderId: (await byNumber('#5002')).id })).ships).toBe(true);
  });

  it('the decorated vase: Large, on its side', async () => {
    const plan = await planOf('#5003');
    expect(plan.attention).toEqual([]);
    expect(plan.boxReason?.message).toBe('Box Large: VS-DEC 20 × 20 × 30 cm does not fit Medium');
  });

  it("a rule's box wins when it fits and is refused with the reason when it does not", async () => {
    const fits = await planOf('#5005');
    expect(fits.box?.name).toBe('Medium');
    expect(fits.boxReason).toMatchObject({ key: 'box.rule', message: "Box Medium: the rule's box" });
    const refused = await planOf('#5004');
    expect(refused.attention).toEqual([{ key: 'box.ruleRefused', params: { box: 'Medium', sku: 'TE-1L', size: '22 × 18 × 16' }, message: "The rule's box Medium is refused: TE-1L 22 × 18 × 16 cm does not fit it" }]);
    expect(refused.request).toBeNull();
  });

  it('an item of unknown size keeps the default box, and says so', async () => {
    const plan = await planOf('#5006');
    expect(plan.box?.name).toBe('Medium');
    expect(plan.boxReason).toMatchObject({ key: 'box.default', params: { box: 'Medium', sku: 'NOSIZE' } });
  });

  it('the glass carafe (product data: ships alone) gets a parcel of its own', async () => {
    const plan = await planOf('#5007');
    expect(plan.attention).toEqual([]);
    expect(plan.boxReason).toMatchObject({ key: 'box.alone', params: { count: 2, skus: 'CAR-GL' } });
    expect(plan.parcels.map((p) => [p.box?.name, p.items])).toEqual([
      ['Medium', [{ sku: 'CAR-GL', quantity: 1 }]],
      ['Small', [{ sku: 'CUP', quantity: 2 }]],
    ]);
    expect(plan.packages?.map((p) => p.weight.value)).toEqual([0.95, 0.75]);
  });

  it('the packer’s box is used as chosen', async () => {
    const plan = await invoke('shipping.plan', { orderId: (await byNumber('#5001')).id, box: 'Large' });
    expect(plan.boxReason).toMatchObject({ key: 'box.packer', params: { box: 'Large' } });
    const small = await invoke('shipping.plan', { orderId: (await byNumber('#5001')).id, box: 'Small' });
    expect(small.attention.map((a) => a.message)).toEqual(['TE-1L 22 × 18 × 16 cm does not fit Small']);
  });
});
