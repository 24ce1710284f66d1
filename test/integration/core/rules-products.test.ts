/**
 * Shipping rules, product data and shipping by intent (issue 24 phase 1) in
 * the core, through the commands, against the sandbox: rules imported then
 * tested on an order; an invalid file refused with the rule's number and the
 * old rules kept; product CSV → the order's weight; `shipping.shipOrder`
 * ships once, prints, and refuses the second time; the plan of a Livigno
 * order fills the customs lines from product data; several parcels by a
 * rule's limit; a shared rules file followed, its last good copy kept.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StationOrder } from '../../../shared/domain/order';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { orderByNumber, stationFailure } from './helpers';
import { useStation } from './station-fixture';

const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 2000, platformRateLimits: false }) });
const invoke = fx.invoke;
const created = '2026-11-20 10:00:00 +0000';
const milano = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
const livigno = { name: 'Marco Rossi', a1: 'Via Saroch 12', city: 'Livigno', zip: '23041', prov: 'SO', country: 'IT' };

const RULES = {
  version: 1,
  revision: 'r1',
  rules: [
    { name: 'Livigno', when: { territories: ['livigno'] }, then: { rate: 'cheapest', customs: { contentType: 'MERCHANDISE' } } },
    { name: 'Italia pesante', when: { countries: ['IT'], weightKg: { min: 5 } }, then: { rate: 'cheapest', maxParcelKg: 10 } },
    { name: 'Italia fino a 5 kg', when: { countries: ['IT'], weightKg: { max: 5 } }, then: { rate: 'cheapest', shipByItself: true } },
  ],
};

const PRODUCTS = [
  'sku;weightKg;lengthCm;widthCm;heightCm;hsCode;originCountry;description',
  'TAZ;0,35;10;10;12;691200;IT;Tazza in ceramica',
  'OLIO;1,2;8;8;30;150920;IT;Olio extravergine',
  'GHISA;6;30;25;15;732393;DE;Pentola in ghisa',
].join('\n');

beforeAll(async () => {
  await invoke('boxes.settings.set', { presets: [{ name: 'Medium', lengthCm: 40, widthCm: 30, heightCm: 30, tareKg: 0.3, barcode: null }], defaultBox: 'Medium' });
  await invoke('orders.importCsv', {
    fileName: 'bottega.csv',
    shop: 'Bottega',
    content: shopifyCsv([
      ...order({ name: '#4001', id: '4400000004001', created, email: 'a@example.it', ship: milano, items: [{ q: '2', n: 'Tazza', p: '12.00', sku: 'TAZ' }, { q: '1', n: 'Olio', p: '15.00', sku: 'OLIO' }], total: '39.00' }),
      ...order({ name: '#4002', id: '4400000004002', created, email: 'b@example.it', ship: livigno, items: [{ q: '3', n: 'Tazza', p: '12.00', sku: 'TAZ' }, { q: '2', n: 'Olio', p: '15.00', sku: 'OLIO' }], total: '66.00' }),
      ...order({ name: '#4003', id: '4400000004003', created, email: 'c@example.it', ship: milano, items: [{ q: '3', n: 'Pentola', p: '80.00', sku: 'GHISA' }], total: '240.00' }),
      ...order({ name: '#4004', id: '4400000004004', created, email: 'd@example.it', financial: 'pending', ship: milano, items: [{ q: '1', n: 'Tazza', p: '12.00', sku: 'TAZ' }], total: '12.00' }),
      ...order({ name: '#4005', id: '4400000004005', created, email: 'e@example.it', ship: milano, items: [{ q: '1', n: 'Sconosciuto', p: '5.00', sku: 'NOPE' }], total: '5.00' }),
    ]),
  });
});

const byNumber = (n: string): Promise<StationOrder> => orderByNumber(invoke, n);

describe('rules and product data through the commands', () => {
  it('imports rules, exports them back, and an invalid file is refused with the rule number while the old rules stay', async () => {
    const view = await invoke('rules.import', { content: JSON.stringify(RULES) });
    expect(view.rules.map((r) => r.name)).toEqual(['Livigno', 'Italia pesante', 'Italia fino a 5 kg']);
    expect(view.source.path).toBeNull();
    const bad = { version: 1, rules: [RULES.rules[0], { name: 'Rotta', then: { rate: 'slowest' } }] };
    const err = await stationFailure(invoke('rules.import', { content: JSON.stringify(bad) }));
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain("rule 2 'Rotta', field then.rate");
    expect((await invoke('rules.list', {})).rules).toHaveLength(3);
    expect(JSON.parse((await invoke('rules.export', {})).content)).toMatchObject({ version: 1, revision: 'r1', rules: [{ name: 'Livigno', enabled: true }, {}, {}] });
  });

  it('imports product data; a bad row imports nothing; the order weight is the sum of its lines', async () => {
    const bad = await stationFailure(invoke('products.importCsv', { content: 'sku,weightKg\nA,1\nB,x\n' }));
    expect(bad.details).toHaveProperty(['rows.3.weightKg']);
    expect(await invoke('products.list', {})).toEqual([]);
    expect(await invoke('products.importCsv', { content: PRODUCTS })).toEqual({ imported: 3, updated: 0, unchanged: 0 });
    const o = await byNumber('#4001');
    expect(await invoke('products.orderWeight', { orderId: o.id })).toEqual({ weightKg: 1.9, missing: [] });
    expect(await invoke('products.orderWeight', { orderId: (await byNumber('#4005')).id })).toEqual({ weightKg: null, missing: ['NOPE'] });
    expect((await invoke('products.exportCsv', {})).content.split('\r\n')[1]).toBe('GHISA,6,30,25,15,732393,DE,Pentola in ghisa,');
    // The customs declaration reads them under the station's names; the HS code search offers the product's code first.
    expect(await invoke('customs.products', { skus: ['TAZ'] })).toEqual([expect.objectContaining({ sku: 'TAZ', hsCode: '691200', originCountry: 'IT', unitWeightKg: 0.35 })]);
    expect((await invoke('customs.hsCodes.search', { q: '6912' }))[0]).toMatchObject({ code: '691200', description: 'Tazza in ceramica', sku: 'TAZ' });
  });

  it('rules.test says which rule acts and why; move and disable change it', async () => {
    const o = await byNumber('#4001');
    const t = await invoke('rules.test', { orderId: o.id });
    expect(t.weightKg).toBe(1.9);
    expect(t.decision.rule).toMatchObject({ index: 3, name: 'Italia fino a 5 kg' });
    expect(t.decision.reasons).toEqual([
      { key: 'country', params: { country: 'IT' } },
      { key: 'weight.max', params: { value: 1.9, max: 5 } },
    ]);
    expect(t.trace.map((s) => s.outcome)).toEqual(['failed', 'failed', 'matched']);
    expect((await invoke('rules.test', { orderId: o.id, weightKg: 7 })).decision.rule?.name).toBe('Italia pesante');
    await invoke('rules.setEnabled', { index: 3, enabled: false });
    expect((await invoke('rules.test', { orderId: o.id })).decision.rule).toBeNull();
    await invoke('rules.setEnabled', { index: 3, enabled: true });
    expect((await invoke('rules.move', { index: 3, to: 1 })).rules.map((r) => r.name)).toEqual(['Italia fino a 5 kg', 'Livigno', 'Italia pesante']);
    expect((await invoke('rules.move', { index: 1, to: 3 })).rules.map((r) => r.name)).toEqual(['Livigno', 'Italia pesante', 'Italia fino a 5 kg']);
  });

  it('autoShip: a covered order with a known weight ships by itself; an unpaid order without a rule for it does not', async () => {
    const ok = await invoke('shipping.autoShip', { orderId: (await byNumber('#4001')).id });
    expect(ok).toEqual({ ships: true, box: { reason: expect.objectContaining({ key: 'box.smallest', params: { box: 'Medium', size: '40 × 30 × 30' } }), parcels: 1 }, rule: { index: 3, name: 'Italia fino a 5 kg' }, reasons: [], countdownMs: 1500 });
    const unpaid = await invoke('shipping.autoShip', { orderId: (await byNumber('#4004')).id });
    expect(unpaid.ships).toBe(false);
    expect(unpaid.reasons.map((r) => r.key)).toContain('unpaid');
    const unknown = await invoke('shipping.autoShip', { orderId: (await byNumber('#4005')).id });
    // Its weight is unknown, so no rule (each looks at the weight) covers it.
    expect(unknown.reasons.map((r) => r.key)).toEqual(['weight', 'noRule']);
  });

  it('shipOrder ships once through the outbox and prints; the second press is refused and nothing more is sent', async () => {
    const o = await byNumber('#4001');
    const before = fx.sb.state.shipments.length;
    const r = await invoke('shipping.shipOrder', { orderId: o.id });
    expect(r.shipment.trackingNumber).toMatch(/^[A-Z]{2}\d{10}$/);
    expect(r.printError).toBeNull();
    expect(fx.sb.state.shipments.length).toBe(before + 1);
    expect(r.printJob).not.toBeNull();
    // The first shipment of this file: its label is the printer's first job.
    expect((await fx.printer.job(0)).toString('latin1')).toContain('^XA');
    const again = await stationFailure(invoke('shipping.shipOrder', { orderId: o.id }));
    expect(again.code).toBe('invalid_state');
    expect(again.message).toContain('#4001');
    expect(fx.sb.state.shipments.length).toBe(before + 1);
    expect((await byNumber('#4001')).status).toBe('shipped');
  });

  it('refuses an order needing attention (unpaid without a rule for it) and sends nothing', async () => {
    const before = fx.sb.state.shipments.length;
    const err = await stationFailure(invoke('shipping.shipOrder', { orderId: (await byNumber('#4004')).id }));
    expect(err.code).toBe('invalid_state');
    expect(err.details?.orderId?.join(' ')).toContain('not paid');
    expect(fx.sb.state.shipments.length).toBe(before);
  });

  it('plans a Livigno order with the customs lines from product data, and ships it', async () => {
    const o = await byNumber('#4002');
    const plan = await invoke('shipping.plan', { orderId: o.id });
    expect(plan.decision.rule?.name).toBe('Livigno');
    expect(plan.customs).toMatchObject({ required: true, missing: [] });
    expect(plan.request?.customsDetail?.commodities).toEqual([
      expect.objectContaining({ sku: 'TAZ', description: 'Tazza in ceramica', quantity: 3, harmonizedCode: '691200', countryOfManufacture: 'IT', weight: { value: 1.05, units: 'KG' } }),
      expect.objectContaining({ sku: 'OLIO', description: 'Olio extravergine', quantity: 2, harmonizedCode: '150920', countryOfManufacture: 'IT', weight: { value: 2.4, units: 'KG' } }),
    ]);
    expect(plan.request?.customsDetail?.customsValue).toEqual({ amount: 66, currency: 'EUR' });
    expect(plan.attention).toEqual([]);
    const r = await invoke('shipping.shipOrder', { orderId: o.id });
    expect(r.shipment.trackingNumber).toMatch(/^[A-Z]{2}\d{10}$/);
    // Its declaration matched the product data: nothing to confirm.
    expect(await invoke('products.suggestions', {})).toEqual([]);
  });

  it('makes several parcels of one shipment when the lines pass the rule’s parcel limit', async () => {
    const plan = await invoke('shipping.plan', { orderId: (await byNumber('#4003')).id });
    expect(plan.decision.rule?.name).toBe('Italia pesante');
    expect(plan.packages?.map((p) => p.weight.value)).toEqual([6.3, 6.3, 6.3]);
  });

  it('follows a shared rules file: reloads on change, keeps the last good copy when it is invalid or away', async () => {
    const file = join(fx.dir, 'share-rules.json');
    writeFileSync(file, JSON.stringify({ ...RULES, revision: 'r2', rules: RULES.rules.slice(0, 2) }));
    const first = await invoke('rules.follow', { path: file });
    expect(first).toMatchObject({ path: file, error: null, version: { label: 'rev r2' } });
    expect((await invoke('rules.list', {})).rules).toHaveLength(2);
    expect((await stationFailure(invoke('rules.setEnabled', { index: 1, enabled: false }))).code).toBe('invalid_state');

    writeFileSync(file, '{"version":1,"rules":[{"name":"x","then":{"rate":"slow"}}]}');
    const refused = await invoke('rules.follow', { path: file });
    expect(refused.version?.label).toBe('rev r2');
    expect(refused.error).toContain('rule 1');
    expect((await invoke('rules.list', {})).rules).toHaveLength(2);

    rmSync(file);
    const away = await invoke('rules.follow', { path: file });
    expect(away.error).toContain('not reachable');
    expect(away.version?.label).toBe('rev r2');

    writeFileSync(file, JSON.stringify({ version: 1, rules: [RULES.rules[2]] }));
    const back = await invoke('rules.follow', { path: file });
    expect(back.error).toBeNull();
    expect(back.version?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await invoke('rules.list', {})).rules.map((r) => r.name)).toEqual(['Italia fino a 5 kg']);
    expect((await invoke('rules.follow', { path: null })).path).toBeNull();
  });

  it('follows a shared product file: imports it, keeps the data when a row is refused', async () => {
    const file = join(fx.dir, 'share-products.csv');
    writeFileSync(file, 'sku,weightKg,originCountry\nVASO,2,IT\n');
    const first = await invoke('products.follow', { path: file });
    expect(first.error).toBeNull();
    expect(first.version?.label).toMatch(/ · [0-9a-f]{8}$/);
    expect((await invoke('products.list', { q: 'VASO' }))[0]?.unitWeightKg).toBe(2);
    writeFileSync(file, 'sku,weightKg\nVASO,2,5\nPIATTO,due\n');
    const refused = await invoke('products.follow', { path: file });
    expect(refused.error).toContain('row 3, column weightKg');
    expect(refused.version?.hash).toBe(first.version?.hash);
    expect(await invoke('products.list', { q: 'PIATTO' })).toEqual([]);
    expect((await invoke('products.source', {})).path).toBe(file);
  });

  it('learns a changed value from a declaration as a suggestion the packer confirms', async () => {
    await invoke('products.follow', { path: null });
    const o = await byNumber('#4005');
    await invoke('products.importCsv', { content: 'sku,weightKg,originCountry,description,hsCode\nNOPE,0.5,IT,Cosa,392690\n' });
    const plan = await invoke('shipping.plan', { orderId: o.id });
    expect(plan).toMatchObject({ weightKg: 0.5, weightSource: 'products' });
    // A declaration typed at the bench with another HS code: remembered as a suggestion, the product data kept.
    const liv = await byNumber('#4002');
    expect(liv.status).toBe('shipped');
    const r = await invoke('shipping.shipOrder', {
      request: {
        recipient: { name: 'Marco Rossi', address: { street: 'Via Saroch 12', city: 'Livigno', postalCode: '23041', province: 'SO', countryCode: 'IT' } },
        packages: [{ weight: { value: 1, units: 'KG' }, dimensions: { length: 30, width: 20, height: 10, units: 'CM' } }],
        customsDetail: {
          customsValue: { amount: 5, currency: 'EUR' },
          commodities: [{ description: 'Cosa', quantity: 1, unitValue: { amount: 5, currency: 'EUR' }, weight: { value: 0.6, units: 'KG' }, countryOfManufacture: 'IT', harmonizedCode: '392690', sku: 'NOPE' }],
        },
      },
    });
    expect(r.shipment.trackingNumber).toBeTruthy();
    const [s] = await invoke('products.suggestions', {});
    expect(s).toMatchObject({ sku: 'NOPE', field: 'unitWeightKg', current: '0.5', proposed: '0.6' });
    expect((await invoke('products.list', { q: 'NOPE' }))[0]?.unitWeightKg).toBe(0.5);
    expect((await invoke('products.resolveSuggestion', { id: s?.id ?? 0, accept: true })).product?.unitWeightKg).toBe(0.6);
  });

  it('ships an unpaid order with cash on delivery of its total when a rule says so', async () => {
    await invoke('rules.save', { rule: { name: 'Contrassegno', when: { payment: 'unpaid' }, then: { rate: 'cheapest', options: { cod: true } } } });
    const moved = await invoke('rules.move', { index: 2, to: 1 });
    expect(moved.rules.map((r) => r.name)).toEqual(['Contrassegno', 'Italia fino a 5 kg']);
    const o = await byNumber('#4004');
    const plan = await invoke('shipping.plan', { orderId: o.id });
    expect(plan.attention).toEqual([]);
    expect(plan.request?.options?.cod).toEqual({ amount: 12, currency: 'EUR' });
    const r = await invoke('shipping.shipOrder', { orderId: o.id });
    expect(r.shipment.cod).toMatchObject({ amount: 12 });
  });

  it('keeps the countdown of shipping by itself as a setting (ms), refuses 0 naming the field, and says it with autoShip', async () => {
    expect(await invoke('shipping.settings.get', {})).toEqual({ countdownMs: 1500 });
    const err = await stationFailure(invoke('shipping.settings.set', { countdownMs: 0 }));
    expect(err.code).toBe('invalid_input');
    expect(err.details?.countdownMs?.[0]).toBe('Countdown must be at least 100 ms');
    expect(await invoke('shipping.settings.get', {})).toEqual({ countdownMs: 1500 });
    expect(await invoke('shipping.settings.set', { countdownMs: 250 })).toEqual({ countdownMs: 250 });
    const o = await byNumber('#4001');
    expect((await invoke('shipping.autoShip', { orderId: o.id, weightKg: 1 })).countdownMs).toBe(250);
  });
});
