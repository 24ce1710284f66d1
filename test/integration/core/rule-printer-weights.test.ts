/**
 * Issue 24, what was left: a rule's label printer and weights learnt from
 * plain shipments, through the commands against the sandbox.
 * - A rule naming a second label printer (a local TCP listener) sends the
 *   label of the order it covers there, converted with that printer's profile;
 *   other orders print on the label printer in use; a post sent again from
 *   the queue row (not from the rule) still prints on the rule's printer.
 * - A shipment of one SKU (or whose other lines have known weights) teaches
 *   the unit weight: parcel weight minus the box's tare; a changed weight is
 *   a suggestion the packer confirms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StationOrder } from '../../../shared/domain/order';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { startFakePrinter, type FakePrinter } from './printing/fake-printer';
import { orderByNumber, stationFailure } from './helpers';
import { useStation } from './station-fixture';

let big: FakePrinter;
const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 2000, platformRateLimits: false }) });
const invoke = fx.invoke;
const created = '2026-11-20 10:00:00 +0000';
const milano = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
const roma = { name: 'Luca Verdi', a1: 'Via Appia 5', city: 'Roma', zip: '00184', prov: 'RM', country: 'IT' };

/** The profile of the rule's printer: 300 dpi, 102 x 203 mm, darkness 25. */
const BIG_PROFILE = { dpi: 300, widthMm: 102, heightMm: 203, darkness: 25, speedIps: 4, media: 'direct_thermal', topOffsetDots: 0 } as const;

async function postToSandbox(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${new URL(fx.sb.baseUrl).origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
  big = await startFakePrinter('ready');
  await invoke('boxes.settings.set', { presets: [{ name: 'Medium', lengthCm: 40, widthCm: 30, heightCm: 30, tareKg: 0.3, barcode: null }], defaultBox: 'Medium' });
  await invoke('printers.profile.set', { uri: big.uri, profile: BIG_PROFILE });
  await invoke('products.importCsv', { content: 'sku,weightKg,lengthCm,widthCm,heightCm\nVASO,2,20,20,30\nTAZ,0.35,10,10,12\nBIG-TAVOLO,8,40,30,30\n' });
  await invoke('rules.import', {
    content: JSON.stringify({
      version: 1,
      rules: [
        { name: 'Grandi', when: { skus: { any: ['BIG-*'] } }, then: { rate: 'cheapest', printer: big.uri } },
        { name: 'Italia', when: { countries: ['IT'] }, then: { rate: 'cheapest' } },
      ],
    }),
  });
  await invoke('orders.importCsv', {
    fileName: 'bottega.csv',
    shop: 'Bottega',
    content: shopifyCsv([
      ...order({ name: '#5001', id: '4400000005001', created, email: 'a@example.it', ship: milano, items: [{ q: '1', n: 'Tavolo', p: '120.00', sku: 'BIG-TAVOLO' }], total: '120.00' }),
      ...order({ name: '#5002', id: '4400000005002', created, email: 'b@example.it', ship: roma, items: [{ q: '2', n: 'Tazza', p: '12.00', sku: 'TAZ' }], total: '24.00' }),
      ...order({ name: '#5003', id: '4400000005003', created, email: 'c@example.it', ship: roma, items: [{ q: '1', n: 'Tavolo', p: '120.00', sku: 'BIG-TAVOLO' }], total: '120.00' }),
      ...order({ name: '#5004', id: '4400000005004', created, email: 'd@example.it', ship: roma, items: [{ q: '2', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '60.00' }),
      ...order({ name: '#5005', id: '4400000005005', created, email: 'e@example.it', ship: milano, items: [{ q: '2', n: 'Tazza', p: '12.00', sku: 'TAZ' }, { q: '3', n: 'Piatto', p: '9.00', sku: 'PIATTO' }], total: '51.00' }),
    ]),
  });
});

afterAll(async () => {
  await big?.close();
});

const byNumber = (n: string): Promise<StationOrder> => orderByNumber(invoke, n);

describe("a rule's label printer", () => {
  it('plans the rule’s printer, prints the label there with its profile, and another order on the printer in use', async () => {
    const o = await byNumber('#5001');
    const plan = await invoke('shipping.plan', { orderId: o.id });
    expect(plan.decision.rule?.name).toBe('Grandi');
    expect(plan.printerUri).toBe(big.uri);
    const r = await invoke('shipping.shipOrder', { orderId: o.id });
    expect(r.printError).toBeNull();
    expect(r.printJob).toMatchObject({ printerUri: big.uri, state: 'printed' });
    const zpl = (await big.job(0)).toString('latin1');
    // The profile's conversion: darkness first, then the label size in dots at 300 dpi after ^XA.
    expect(zpl.startsWith('~SD25')).toBe(true);
    expect(zpl).toMatch(/\^XA\^PW1205\^LL2398\^PR4\^MTD\^LT0/);

    const other = await invoke('shipping.shipOrder', { orderId: (await byNumber('#5002')).id });
    expect(other.printJob).toMatchObject({ printerUri: fx.printer.uri, state: 'printed' });
    const plain = (await fx.printer.job(0)).toString('latin1');
    expect(plain).toContain('^XA');
    expect(plain).not.toContain('~SD25');
    expect(big.jobs).toHaveLength(1);
  });

  it('keeps the printer in the outbox row: a post sent again from the Ship screen prints on the rule’s printer', async () => {
    const o = await byNumber('#5003');
    await postToSandbox('/__sandbox/faults', { carrierError: { next: 1, endpoints: ['POST /shipments'] } });
    const first = await stationFailure(invoke('shipping.shipOrder', { orderId: o.id }));
    expect(first.code).toBe('carrier_error');
    const [row] = (await invoke('outbox.list', {})).pending.filter((x) => x.kind === 'shipment.create');
    expect(row?.state).toBe('queued');
    // Ctrl+Enter on the Ship screen sends the same row (never a second one); the row says where the label goes.
    const { request } = await invoke('shipping.plan', { orderId: o.id });
    if (!request) throw new Error('no request planned');
    const again = await invoke('shipping.shipOrder', { orderId: o.id, request });
    expect(again.printJob).toMatchObject({ printerUri: big.uri, state: 'printed' });
    expect((await big.job(1)).toString('latin1').startsWith('~SD25')).toBe(true);
    expect(fx.printer.jobs).toHaveLength(1);
  });
});

describe('weights learnt from plain shipments', () => {
  /** Ships an order from the Ship screen: its planned request with the packer's parcel (gross kg, in the Medium box, tare 0.3 kg). */
  async function shipWeighed(orderNumber: string, grossKg: number) {
    const o = await byNumber(orderNumber);
    const { request } = await invoke('shipping.plan', { orderId: o.id, weightKg: grossKg });
    if (!request) throw new Error('no request planned');
    const { postalCode, countryCode, city } = request.recipient.address;
    const rates = await invoke('shipping.quote', { request: { recipient: { address: { postalCode, countryCode, city } }, packages: request.packages } });
    const rate = rates[0];
    if (!rate) throw new Error('no rate');
    return invoke('shipping.shipOrder', { orderId: o.id, request: { ...request, carrierCode: rate.carrierCode, serviceType: rate.contractCode } });
  }

  it('proposes a changed unit weight (parcel minus the box’s tare, per piece) and keeps the product data until the packer confirms', async () => {
    expect((await invoke('products.list', { q: 'VASO' }))[0]?.unitWeightKg).toBe(2);
    // 2 VASO weighed 5.3 kg gross in the Medium box (0.3 kg): 2.5 kg each.
    await shipWeighed('#5004', 5.3);
    expect((await invoke('products.list', { q: 'VASO' }))[0]?.unitWeightKg).toBe(2);
    const [s] = (await invoke('products.suggestions', {})).filter((x) => x.sku === 'VASO');
    expect(s).toMatchObject({ field: 'unitWeightKg', current: '2', proposed: '2.5', source: expect.stringContaining('#5004') });
    expect((await invoke('products.resolveSuggestion', { id: s?.id ?? 0, accept: true })).product?.unitWeightKg).toBe(2.5);
  });

  it('learns the one SKU without a weight when the other lines are known, filling it (nothing was known)', async () => {
    expect(await invoke('products.list', { q: 'PIATTO' })).toEqual([]);
    // 0.3 tare + 2 × 0.35 TAZ = 1 kg known; 2.5 kg gross leaves 1.5 kg for 3 PIATTO.
    await shipWeighed('#5005', 2.5);
    expect((await invoke('products.list', { q: 'PIATTO' }))[0]?.unitWeightKg).toBe(0.5);
    expect((await invoke('products.suggestions', {})).filter((x) => x.sku === 'PIATTO' || x.sku === 'TAZ')).toEqual([]);
  });
});
