/**
 * Boxes learnt from the bench (issue 37 item 3) through the commands, against
 * the sandbox. Presets (inner cm): Small 25 × 20 × 10, Medium 30 × 20 × 15,
 * Large 40 × 30 × 20. Two cups fit Small, so the station chooses Small; a
 * packer ships them in Large instead (`shipping.shipOrder` with the box): the
 * next order of two cups plans Small still, with Large waiting in
 * `shipping.learntBoxes.list`; once accepted the plan says "Box Large: chosen by the
 * packer for these items"; an order of three cups (another set) keeps Small;
 * a rule's box still wins for the same set.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { orderByNumber } from './helpers';
import { useStation } from './station-fixture';
import { ISSUE_37_BOXES } from '../../fixtures/boxes/issue-37';

const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 2000, platformRateLimits: false }) });
const invoke = fx.invoke;
const created = '2026-11-20 10:00:00 +0000';
const milano = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
const torino = { name: 'Luca Neri', a1: 'Via Po 3', city: 'Torino', zip: '10123', prov: 'TO', country: 'IT' };
const cups = (name: string, id: string, q: number, ship = milano) => order({ name, id, created, email: 'a@example.it', ship, items: [{ q: String(q), n: 'Tazza', p: '10.00', sku: 'CUP' }], total: '20.00' });

beforeAll(async () => {
  await invoke('boxes.settings.set', ISSUE_37_BOXES);
  await invoke('products.importCsv', { content: ['sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description', 'CUP,0.3,9,9,10,691200,IT,Tazza'].join('\n') });
  const rules = [
    { name: 'Torino in Medium', when: { countries: ['IT'], postcodes: ['10*'] }, then: { rate: 'cheapest', box: 'Medium', shipByItself: true } },
    { name: 'Italia', when: { countries: ['IT'] }, then: { rate: 'cheapest', shipByItself: true } },
  ];
  await invoke('rules.import', { content: JSON.stringify({ version: 1, rules }) });
  await invoke('orders.importCsv', {
    fileName: 'tazze.csv',
    shop: 'Ceramiche',
    content: shopifyCsv([...cups('#7001', '4500000007001', 2), ...cups('#7002', '4500000007002', 2), ...cups('#7003', '4500000007003', 3), ...cups('#7004', '4500000007004', 2, torino)]),
  });
});

const planOf = async (n: string) => invoke('shipping.plan', { orderId: (await orderByNumber(invoke, n)).id });

describe('a box learnt from the bench', () => {
  it('is proposed once the packer ships a set of items in another box, used once accepted, for that set only; a rule’s box still wins', async () => {
    expect((await planOf('#7001')).box?.name).toBe('Small');
    const shipped = await invoke('shipping.shipOrder', { orderId: (await orderByNumber(invoke, '#7001')).id, box: 'Large' });
    expect(shipped.shipment.trackingNumber).toBeTruthy();

    // Learnt as a suggestion: the station still chooses Small until the packer accepts.
    expect(await invoke('shipping.learntBoxes.list', {})).toEqual([
      { key: 'CUP×2', items: [{ sku: 'CUP', quantity: 2 }], box: null, proposed: 'Large', source: expect.stringContaining('shipment'), learntAt: expect.any(String) },
    ]);
    expect((await planOf('#7002')).box?.name).toBe('Small');

    const { learnt } = await invoke('shipping.learntBoxes.resolve', { key: 'CUP×2', accept: true });
    expect(learnt).toMatchObject({ key: 'CUP×2', box: 'Large', proposed: null });
    const plan = await planOf('#7002');
    expect(plan.attention).toEqual([]);
    expect(plan.box?.name).toBe('Large');
    expect(plan.boxReason).toEqual({ key: 'box.learnt', params: { box: 'Large', count: 1 }, message: 'Box Large: chosen by the packer for these items' });
    expect(plan.packages?.[0]?.dimensions).toMatchObject({ length: 40, width: 30, height: 20 });

    // Three cups are another set; a rule's box wins over the learnt one.
    expect((await planOf('#7003')).box?.name).toBe('Small');
    expect((await planOf('#7004')).boxReason).toMatchObject({ key: 'box.rule', params: { box: 'Medium' } });

    // Nothing waits any more: resolving again answers null.
    expect((await invoke('shipping.learntBoxes.resolve', { key: 'CUP×2', accept: true })).learnt).toBeNull();
  });
});
