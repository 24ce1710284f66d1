/**
 * The margin of the station's box choice (issue 37, setting `boxes.marginCm`)
 * saved with Settings › Boxes (`boxes.settings.set`) and used by the plan: an
 * item of 30 × 20 × 15 cm fits Medium (30 × 20 × 15 inner) at margin 0 and
 * goes to Large (40 × 30 × 20) at margin 1 cm (Medium then holds 28 × 18 × 13).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { orderByNumber } from './helpers';
import { useStation } from './station-fixture';

const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 2000, platformRateLimits: false }) });
const invoke = fx.invoke;
const milano = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
const presets = [
  { name: 'Small', lengthCm: 25, widthCm: 20, heightCm: 10, tareKg: 0.15, barcode: null },
  { name: 'Medium', lengthCm: 30, widthCm: 20, heightCm: 15, tareKg: 0.25, barcode: null },
  { name: 'Large', lengthCm: 40, widthCm: 30, heightCm: 20, tareKg: 0.4, barcode: null },
];

beforeAll(async () => {
  await invoke('boxes.settings.set', { presets, defaultBox: 'Medium' });
  await invoke('products.importCsv', { content: ['sku,weightKg,lengthCm,widthCm,heightCm', 'BLOCK,1,30,20,15'].join('\n') });
  await invoke('rules.import', { content: JSON.stringify({ version: 1, rules: [{ name: 'Italia', when: { countries: ['IT'] }, then: { rate: 'cheapest', shipByItself: true } }] }) });
  await invoke('orders.importCsv', {
    fileName: 'margin.csv',
    shop: 'Ceramiche',
    content: shopifyCsv(order({ name: '#6001', id: '4500000006001', created: '2026-11-20 10:00:00 +0000', email: 'a@example.it', ship: milano, items: [{ q: '1', n: 'Block', p: '10.00', sku: 'BLOCK' }], total: '10.00' })),
  });
});

describe('the margin of the box choice', () => {
  it('is saved with the boxes and moves an item that fits Medium at 0 cm to Large at 1 cm', async () => {
    const orderId = (await orderByNumber(invoke, '#6001')).id;
    expect((await invoke('boxes.settings.get', {})).marginCm).toBe(0);
    expect((await invoke('shipping.plan', { orderId })).box?.name).toBe('Medium');

    expect((await invoke('boxes.settings.set', { presets, defaultBox: 'Medium', marginCm: 1 })).marginCm).toBe(1);
    expect((await invoke('boxes.settings.get', {})).marginCm).toBe(1);
    const plan = await invoke('shipping.plan', { orderId });
    expect(plan.box?.name).toBe('Large');
    expect(plan.boxReason?.message).toBe('Box Large: BLOCK 30 × 20 × 15 cm does not fit Medium');
  });
});
