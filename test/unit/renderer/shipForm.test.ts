/**
 * Quote/ship form: the form state of the screens (renderer/src/lib/shipForm*.ts) and the core's
 * conversion of it to the platform bodies with field errors from the platform's own schemas
 * (electron/core/shipping/ship-form.ts).
 */
import { describe, expect, it } from 'vitest';
import { ShipmentRequest } from '../../../shared/platform';
import type { StationOrder } from '../../../shared/domain/order';
import { parseDecimal } from '../../../renderer/src/lib/format';
import { stripPrefix, asStationError } from '../../../renderer/src/lib/errors';
import { draftFromOrder, emptyDraft, rateKeyAction, shipFormPaths, unplacedErrors } from '../../../renderer/src/lib/shipForm';
import { boxChoice, volumetricDecides } from '../../../renderer/src/lib/shipFormParcels';
import { CHOOSE_BOX, commodityPath } from '../../../shared/contract/ship-form';
import {
  checkForQuote as validateForQuote,
  checkForShip as validateForShip,
  ratesRequestOf as draftToRatesRequest,
  shipmentRequestOf as draftToShipmentRequest,
} from '../../../electron/core/shipping/ship-form';
import { BoxSettings, findBox, trainingBoxes } from '../../../shared/contract/boxes';

/** The box every parcel of these tests is packed in: 30 × 20 × 15 cm. */
const MEDIUM = { name: 'Medium', length: '30', width: '20', height: '15' };

const order: StationOrder = {
  id: 7,
  shop: 'main',
  paymentStatus: 'paid',
  delivery: 'ship',
  needsFix: [],
  orderNumber: '#1001',
  email: 'giulia@example.com',
  createdAt: '2026-11-20T10:00:00+01:00',
  source: 'shopify_csv',
  recipient: { name: 'Giulia Bianchi', street: 'Via Roma 12', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT', phone: '+39 333 1234567' },
  items: [{ name: 'Mug', quantity: 2, unitPrice: 12 }],
  total: 24,
  currency: 'EUR',
  status: 'open',
};

describe('ship form', () => {
  it('prefills from the order and builds a ShipmentRequest the platform schema accepts', () => {
    const d = draftFromOrder(order, MEDIUM);
    d.parcels[0]!.weight = '1,25';
    const req = draftToShipmentRequest(d, { carrierCode: 'brt', contractCode: 'BRT-STD' });
    expect(req.recipient.address).toEqual({ street: 'Via Roma 12', street2: undefined, city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT' });
    expect(req.recipient.email).toBe('giulia@example.com');
    expect(req.reference).toBe('#1001');
    expect(req.serviceType).toBe('BRT-STD');
    expect(req.packages[0]!.weight).toEqual({ value: 1.25, units: 'KG' });
    expect(req.packages[0]!.dimensions).toEqual({ length: 30, width: 20, height: 15, units: 'CM' });
    expect(ShipmentRequest.safeParse(req).success).toBe(true);
    expect(validateForShip(d, { cashOnDeliveryMethods: {} })).toEqual({});
  });

  it('keys errors by the spec details paths', () => {
    const d = emptyDraft(MEDIUM);
    d.parcels[0]!.weight = '';
    d.parcels[0]!.height = 'abc';
    const errors = validateForShip(d, null);
    expect(errors['recipient.name']).toEqual(['Name is required']);
    expect(errors['recipient.address.postalCode']).toEqual(['Postal code is required']);
    expect(errors['packages.0.weight.value']).toEqual(['Weight is required']);
    expect(errors['packages.0.dimensions.height']).toBeDefined();
    // Every message lands on a field of the form.
    expect(unplacedErrors(errors, shipFormPaths(d))).toEqual([]);
  });

  it('requires a COD method the chosen contract offers', () => {
    const d = draftFromOrder(order, MEDIUM);
    d.parcels[0]!.weight = '2';
    d.codEnabled = true;
    d.codAmount = '24';
    expect(validateForShip(d, { cashOnDeliveryMethods: { cash: 'Contanti' } })['options.cod.method']).toEqual(['Choose how the courier collects the cash']);
    expect(validateForShip(d, { cashOnDeliveryMethods: {} })['options.cod.method']).toEqual(['This contract does not take cash on delivery']);
    d.codMethod = 'cash';
    expect(validateForShip(d, { cashOnDeliveryMethods: { cash: 'Contanti' } })).toEqual({});
    expect(draftToShipmentRequest(d, null).options?.cod).toEqual({ amount: 24, currency: 'EUR', method: 'cash' });
  });

  it('quote needs destination and parcels only (RatesRequest)', () => {
    const d = draftFromOrder(order, MEDIUM);
    expect(validateForQuote(d)['packages.0.weight.value']).toEqual(['Weight is required']);
    d.parcels[0]!.weight = '0.8';
    expect(validateForQuote(d)).toEqual({});
    expect(draftToRatesRequest(d)).toEqual({
      recipient: { address: { postalCode: '20121', countryCode: 'IT', city: 'Milano', province: 'MI' } },
      packages: [{ weight: { value: 0.8, units: 'KG' }, dimensions: { length: 30, width: 20, height: 15, units: 'CM' } }],
    });
  });

  it('moves platform details of the platform request (shipping.shipOrder) onto the form paths', () => {
    expect(stripPrefix({ 'request.packages.0.weight.value': ['too heavy'], other: ['x'] }, 'request')).toEqual({ 'packages.0.weight.value': ['too heavy'], other: ['x'] });
    expect(asStationError({ code: 'offline', message: 'down' })).toMatchObject({ code: 'offline', message: 'down' });
    expect(asStationError(new Error('boom'))).toMatchObject({ code: 'internal_error', message: 'boom' });
  });
});

describe('parseDecimal', () => {
  it('accepts a decimal comma, blank is undefined, junk is NaN', () => {
    expect(parseDecimal(' 1,5 ')).toBe(1.5);
    expect(parseDecimal('2')).toBe(2);
    expect(parseDecimal('.5')).toBe(0.5);
    expect(parseDecimal('')).toBeUndefined();
    expect(parseDecimal('1.2.3')).toBeNaN();
    expect(parseDecimal('abc')).toBeNaN();
  });
});

describe('rateKeyAction', () => {
  it('digits choose, Enter chooses the highlighted, arrows move within bounds', () => {
    expect(rateKeyAction('2', 0, 3)).toEqual({ choose: 1 });
    expect(rateKeyAction('4', 0, 3)).toBeNull();
    expect(rateKeyAction('0', 0, 3)).toBeNull();
    expect(rateKeyAction('Enter', 2, 3)).toEqual({ choose: 2 });
    expect(rateKeyAction('ArrowDown', 2, 3)).toEqual({ highlight: 2 });
    expect(rateKeyAction('ArrowUp', 0, 3)).toEqual({ highlight: 0 });
    expect(rateKeyAction('ArrowDown', 0, 3)).toEqual({ highlight: 1 });
    expect(rateKeyAction('Enter', 0, 0)).toBeNull();
    // Alt+digit chooses a box preset (App.tsx), never a rate as well; Ctrl/Meta are the browser's.
    expect(rateKeyAction('2', 0, 3, { altKey: true })).toBeNull();
    expect(rateKeyAction('Enter', 0, 3, { ctrlKey: true })).toBeNull();
    expect(rateKeyAction('2', 0, 3, { metaKey: true })).toBeNull();
    expect(rateKeyAction('2', 0, 3, { altKey: false, ctrlKey: false, metaKey: false })).toEqual({ choose: 1 });
    expect(rateKeyAction('x', 0, 3)).toBeNull();
  });
});

describe('customs declaration in the ship form', () => {
  const swiss: StationOrder = {
    ...order,
    orderNumber: '#2003',
    recipient: { name: 'Ruth Meier', street: 'Bahnhofstrasse 10', city: 'Zürich', postalCode: '8001', countryCode: 'CH' },
    items: [
      { sku: 'OLIO', name: 'Olio EVO 500 ml', quantity: 2, unitPrice: 9.9 },
      { sku: 'CAF', name: 'Caffè 250 g', quantity: 1, unitPrice: 7.5 },
    ],
  };

  it('is asked outside the EU customs territory only (Trepalle 23030 yes, Valdidentro 23030 no)', async () => {
    const { customsOf } = await import('../../../renderer/src/lib/shipForm');
    const d = draftFromOrder(order, MEDIUM);
    expect(customsOf(d).required).toBe(false);
    expect(draftToShipmentRequest(d, null).customsDetail).toBeUndefined();
    d.recipient = { ...d.recipient, postalCode: '23030', city: 'Trepalle', province: 'SO' };
    expect(customsOf(d)).toMatchObject({ required: true, territory: 'livigno' });
    d.recipient.city = 'Valdidentro';
    expect(customsOf(d).required).toBe(false);
  });

  it('prefills the lines from the order, names missing fields by their spec path, and builds a valid CustomsDetail', async () => {
    const { applyCustomsMemory } = await import('../../../renderer/src/lib/shipFormCustoms');
    const d = draftFromOrder(swiss, MEDIUM);
    d.parcels[0]!.weight = '1,5';
    expect(d.customs.commodities.map((l) => [l.sku, l.description, l.quantity, l.unitValue])).toEqual([
      ['OLIO', 'Olio EVO 500 ml', '2', '9.90'],
      ['CAF', 'Caffè 250 g', '1', '7.50'],
    ]);
    expect(d.customs.customsValue).toBe('27.30');
    const errors = validateForShip(d, null);
    expect(errors['customsDetail.commodities.0.weight.value']).toBeDefined();
    expect(errors['customsDetail.commodities.1.countryOfManufacture']).toBeDefined();
    expect(unplacedErrors(errors, shipFormPaths(d))).toEqual([]);
    // The form's hsCode/originCountry are the wire's harmonizedCode/countryOfManufacture in `details`.
    expect(commodityPath(1, 'originCountry')).toBe('customsDetail.commodities.1.countryOfManufacture');
    expect(commodityPath(0, 'hsCode')).toBe('customsDetail.commodities.0.harmonizedCode');
    expect(commodityPath(0, 'unitValue')).toBe('customsDetail.commodities.0.unitValue.amount');
    expect(commodityPath(0, 'midCode')).toBe('customsDetail.commodities.0.midCode');

    d.customs = applyCustomsMemory(
      d.customs,
      [
        { sku: 'OLIO', description: 'x', hsCode: '150920', originCountry: 'IT', unitWeightKg: 0.5, updatedAt: '' },
        { sku: 'CAF', description: 'y', hsCode: '090121', originCountry: 'IT', unitWeightKg: 0.25, updatedAt: '' },
      ],
      { exporter: { eori: 'IT12345678901', vatNumber: 'IT12345678901', taxId: null }, importer: { eori: null, vatNumber: 'CHE123456789', taxId: null } },
    );
    expect(d.customs.commodities[0]!.weight).toBe('1');
    expect(validateForShip(d, null)).toEqual({});
    const req = draftToShipmentRequest(d, null);
    expect(ShipmentRequest.safeParse(req).success).toBe(true);
    expect(req.customsDetail).toMatchObject({
      customsValue: { amount: 27.3, currency: 'EUR' },
      commodities: [{ harmonizedCode: '150920', weight: { value: 1, units: 'KG' }, sku: 'OLIO' }, { harmonizedCode: '090121', quantity: 1 }],
      exporter: { eori: 'IT12345678901' },
      importer: { vatNumber: 'CHE123456789' },
    });
  });

  it('says when a declaration has no line', () => {
    const d = draftFromOrder({ ...swiss, items: [] }, MEDIUM);
    expect(validateForShip(d, null)['customsDetail.commodities']?.[0]).toMatch(/CH is outside the EU customs territory/);
  });
});

describe('boxes (issue 11, issue 14 item 3)', () => {
  it('a parcel without a box has no dimensions and the quote asks for a box, once, on the length', () => {
    const d = draftFromOrder(order);
    expect(d.parcels[0]).toEqual({ weight: '', length: '', width: '', height: '', box: '' });
    d.parcels[0]!.weight = '0.5';
    const errors = validateForQuote(d);
    expect(errors).toEqual({ 'packages.0.dimensions.length': [CHOOSE_BOX] });
    expect(validateForShip(d, null)['packages.0.dimensions.length']).toEqual([CHOOSE_BOX]);
    // One dimension typed: the ordinary messages name the missing ones.
    d.parcels[0]!.length = '30';
    const partial = validateForQuote(d);
    expect(partial['packages.0.dimensions.length']).toBeUndefined();
    expect(partial['packages.0.dimensions.width']).toBeDefined();
  });

  it('a preset fills the dimensions as text', () => {
    expect(boxChoice({ name: 'Flat', lengthCm: 35.5, widthCm: 25, heightCm: 3 })).toEqual({ name: 'Flat', length: '35.5', width: '25', height: '3' });
  });

  it('says when the volume decides the price, from the rate the platform gave', () => {
    const d = draftFromOrder(order, MEDIUM);
    d.parcels[0]!.weight = '0,5';
    const byVolume = { billableWeight: { value: 1.8, units: 'KG' as const }, volumetricWeight: { value: 1.8, units: 'KG' as const } };
    expect(volumetricDecides(d, byVolume)).toEqual({ realKg: 0.5, billableKg: 1.8 });
    d.parcels[0]!.weight = '2';
    expect(volumetricDecides(d, { billableWeight: { value: 2, units: 'KG' }, volumetricWeight: { value: 1.8, units: 'KG' } })).toBeNull();
    // Rounded up to the carrier's step by weight: not the volume's doing.
    d.parcels[0]!.weight = '1.2';
    expect(volumetricDecides(d, { billableWeight: { value: 1.5, units: 'KG' }, volumetricWeight: { value: 0.9, units: 'KG' } })).toBeNull();
    d.parcels[0]!.weight = 'x';
    expect(volumetricDecides(d, byVolume)).toBeNull();
  });

  it('finds a box by number, barcode or name; the list refuses duplicates and a default not in it, naming the field', () => {
    const boxes = trainingBoxes('en').presets;
    expect(findBox(boxes, '2')?.name).toBe('Medium');
    expect(findBox(boxes, ' box-l ')?.name).toBe('Large');
    expect(findBox(boxes, 'small')?.name).toBe('Small');
    expect(findBox(boxes, '4')).toBeUndefined();
    expect(findBox(boxes, '')).toBeUndefined();
    expect(BoxSettings.safeParse(trainingBoxes('en')).success).toBe(true);
    const bad = BoxSettings.safeParse({
      presets: [
        { name: 'A', lengthCm: 10, widthCm: 10, heightCm: 10, tareKg: 0.1, barcode: 'X1' },
        { name: 'a', lengthCm: 0, widthCm: 10, heightCm: 10, tareKg: -1, barcode: 'x1' },
      ],
      defaultBox: 'B',
    });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['presets.1.name', 'presets.1.lengthCm', 'presets.1.tareKg', 'presets.1.barcode', 'defaultBox']));
    // A blank barcode is no barcode.
    expect(BoxSettings.parse({ presets: [{ name: 'A', lengthCm: 1, widthCm: 1, heightCm: 1, tareKg: 0, barcode: ' ' }] }).presets[0]!.barcode).toBeNull();
  });
});
