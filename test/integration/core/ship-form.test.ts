/**
 * The Quote and Ship screens' intent (issue 22 item 4) through the commands,
 * against the sandbox: the packer's form as typed goes to `shipping.check`,
 * `shipping.quote` and `shipping.shipOrder` with the chosen rate; the core
 * builds POST /rates and POST /shipments. Proof: the quote equals
 * `shipping.quote` of the request written by hand, the shipment the sandbox
 * stored carries what the form said, bad fields are refused by their
 * `details` path before anything is sent, and a shipment without an order
 * still ships.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CHOOSE_BOX, type ShipFormInput } from '../../../shared/contract/ship-form';
import type { Rate } from '../../../shared/platform';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { orderByNumber, stationFailure } from './helpers';
import { useStation } from './station-fixture';

const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 2000, platformRateLimits: false }) });
const invoke = fx.invoke;
const created = '2026-11-20 10:00:00 +0000';

const noIds = { eori: '', vatNumber: '', taxId: '' };
const noCustoms: ShipFormInput['customs'] = { currency: 'EUR', customsValue: '', incoterm: 'DAP', dutiesPayment: 'RECIPIENT', contentType: 'MERCHANDISE', exportReason: 'SALE', invoiceNumber: '', invoiceDate: '', exporter: noIds, importer: noIds, commodities: [] };

/** The form of order #5001 as the Ship screen fills it, a 1,25 kg parcel in a 30 × 20 × 15 box typed the Italian way. */
function milanoForm(): ShipFormInput {
  return {
    recipient: { name: ' Giulia Bianchi ', company: '', street: 'Via Roma 1', street2: '', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT', phone: '', email: 'a@example.it' },
    parcels: [{ weight: '1,25', length: '30', width: '20', height: '15', box: 'Medium' }],
    reference: 'Bottega #5001',
    codEnabled: false,
    codAmount: '',
    codMethod: '',
    insuranceEnabled: true,
    insuranceAmount: '39,5',
    notes: 'Citofono 3',
    customs: noCustoms,
    deliveryPoint: null,
  };
}

const chosenOf = (r: Rate) => ({ carrierCode: r.carrierCode, contractCode: r.contractCode, cashOnDeliveryMethods: r.cashOnDeliveryMethods });

beforeAll(async () => {
  await invoke('orders.importCsv', {
    fileName: 'bottega.csv',
    shop: 'Bottega',
    content: shopifyCsv([
      ...order({ name: '#5001', id: '4400000005001', created, email: 'a@example.it', ship: { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' }, items: [{ q: '1', n: 'Tazza', p: '39.50', sku: 'TAZ' }], total: '39.50' }),
    ]),
  });
});

describe('the packer’s form: the core builds the wire request', () => {
  it('names the form’s bad fields by their details path, for a quote and for a shipment', async () => {
    const blank: ShipFormInput = { ...milanoForm(), recipient: { ...milanoForm().recipient, name: '', postalCode: '' }, parcels: [{ weight: '', length: '', width: '', height: '', box: '' }] };
    const quote = await invoke('shipping.check', { form: blank, for: 'quote' });
    expect(quote['packages.0.weight.value']).toEqual(['Weight is required']);
    expect(quote['packages.0.dimensions.length']).toEqual([CHOOSE_BOX]);
    expect(quote['recipient.address.postalCode']).toEqual(['Postal code is required']);
    expect(quote['recipient.name']).toBeUndefined();
    const ship = await invoke('shipping.check', { form: blank, for: 'ship' });
    expect(ship['recipient.name']).toEqual(['Name is required']);
    expect(await invoke('shipping.check', { form: milanoForm(), for: 'ship' })).toEqual({});
    const refused = await stationFailure(invoke('shipping.quote', { form: blank }));
    expect(refused.code).toBe('invalid_input');
    expect(refused.details?.['packages.0.weight.value']).toEqual(['Weight is required']);
  });

  it('quotes the form exactly as shipping.quote quotes the platform request written by hand', async () => {
    const rates = await invoke('shipping.quote', { form: milanoForm() });
    expect(rates.length).toBeGreaterThan(0);
    const byHand = await invoke('shipping.quote', {
      request: {
        recipient: { address: { postalCode: '20121', countryCode: 'IT', city: 'Milano', province: 'MI' } },
        packages: [{ weight: { value: 1.25, units: 'KG' }, dimensions: { length: 30, width: 20, height: 15, units: 'CM' } }],
        options: { insurance: { amount: 39.5, currency: 'EUR' } },
      },
    });
    expect(rates).toEqual(byHand);
  });

  it('refuses a COD method the chosen contract does not offer, and a ship without a rate, before anything is sent', async () => {
    const o = await orderByNumber(invoke, '#5001');
    const [rate] = await invoke('shipping.quote', { form: milanoForm() });
    if (!rate) throw new Error('the sandbox quoted nothing');
    const before = fx.sb.state.shipments.length;
    const cod = { ...milanoForm(), codEnabled: true, codAmount: '39,50', codMethod: 'no-such-method' };
    const err = await stationFailure(invoke('shipping.shipOrder', { orderId: o.id, form: cod, rate: chosenOf(rate) }));
    expect(err.code).toBe('invalid_input');
    expect(err.details?.['options.cod.method']?.[0]).toMatch(/cash on delivery|Choose how the courier collects the cash/);
    const noRate = await stationFailure(invoke('shipping.shipOrder', { orderId: o.id, form: milanoForm() }));
    expect(noRate.details?.serviceType).toEqual(['Choose a rate (F2)']);
    const noOrder = await stationFailure(invoke('shipping.shipOrder', {}));
    expect(noOrder.details?.orderId).toEqual(['Order id is required']);
    expect(fx.sb.state.shipments.length).toBe(before);
  });

  it('ships the order with the chosen contract and the form’s recipient, parcel and options, and prints', async () => {
    const o = await orderByNumber(invoke, '#5001');
    const rates = await invoke('shipping.quote', { form: milanoForm() });
    const rate = rates[rates.length - 1];
    if (!rate) throw new Error('the sandbox quoted nothing');
    const r = await invoke('shipping.shipOrder', { orderId: o.id, form: milanoForm(), rate: chosenOf(rate) });
    expect(r.printError).toBeNull();
    expect(r.printJob).not.toBeNull();
    const stored = fx.sb.state.shipments.find((s) => s.trackingNumber === r.shipment.trackingNumber);
    expect(stored).toMatchObject({
      reference: 'Bottega #5001',
      carrierCode: rate.carrierCode,
      contractCode: rate.contractCode,
      recipient: { name: 'Giulia Bianchi', address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' }, email: 'a@example.it' },
      insurance: { amount: 39.5, currency: 'EUR' },
      notes: 'Citofono 3',
      cod: null,
      customsDetail: null,
    });
    expect(stored?.packages.map((p) => [p.weightKg, p.lengthCm, p.widthCm, p.heightCm])).toEqual([[1.25, 30, 20, 15]]);
    expect((await orderByNumber(invoke, '#5001')).status).toBe('shipped');
  });

  it('ships a form without an order (a manual shipment)', async () => {
    const form: ShipFormInput = { ...milanoForm(), reference: '', insuranceEnabled: false, insuranceAmount: '', notes: '', recipient: { ...milanoForm().recipient, name: 'Luca Verdi', email: '' } };
    const [rate] = await invoke('shipping.quote', { form });
    if (!rate) throw new Error('the sandbox quoted nothing');
    const r = await invoke('shipping.shipOrder', { form, rate: chosenOf(rate) });
    const stored = fx.sb.state.shipments.find((s) => s.trackingNumber === r.shipment.trackingNumber);
    // No reference typed: the station gives its own (shipping.shipOrder), as before.
    expect(stored).toMatchObject({ reference: expect.stringMatching(/^ST-/), recipient: { name: 'Luca Verdi' }, insurance: null, notes: null });
  });
});
