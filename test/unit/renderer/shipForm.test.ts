/** Quote/ship form: conversion to the platform bodies and field errors from the platform's own schemas. */
import { describe, expect, it } from 'vitest';
import { ShipmentRequest } from '../../../shared/platform';
import type { StationOrder } from '../../../shared/domain/order';
import { parseDecimal } from '../../../renderer/src/lib/format';
import { stripPrefix, asStationError } from '../../../renderer/src/lib/errors';
import {
  draftFromOrder,
  draftToRatesRequest,
  draftToShipmentRequest,
  emptyDraft,
  rateKeyAction,
  shipFormPaths,
  unplacedErrors,
  validateForQuote,
  validateForShip,
} from '../../../renderer/src/lib/shipForm';

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
    const d = draftFromOrder(order);
    d.packages[0]!.weight = '1,25';
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
    const d = emptyDraft();
    d.packages[0]!.weight = '';
    d.packages[0]!.height = 'abc';
    const errors = validateForShip(d, null);
    expect(errors['recipient.name']).toEqual(['Name is required']);
    expect(errors['recipient.address.postalCode']).toEqual(['Postal code is required']);
    expect(errors['packages.0.weight.value']).toEqual(['Weight is required']);
    expect(errors['packages.0.dimensions.height']).toBeDefined();
    // Every message lands on a field of the form.
    expect(unplacedErrors(errors, shipFormPaths(d))).toEqual([]);
  });

  it('requires a COD method the chosen contract offers', () => {
    const d = draftFromOrder(order);
    d.packages[0]!.weight = '2';
    d.codEnabled = true;
    d.codAmount = '24';
    expect(validateForShip(d, { cashOnDeliveryMethods: { cash: 'Contanti' } })['options.cod.method']).toEqual(['Choose how the courier collects the cash']);
    expect(validateForShip(d, { cashOnDeliveryMethods: {} })['options.cod.method']).toEqual(['This contract does not take cash on delivery']);
    d.codMethod = 'cash';
    expect(validateForShip(d, { cashOnDeliveryMethods: { cash: 'Contanti' } })).toEqual({});
    expect(draftToShipmentRequest(d, null).options?.cod).toEqual({ amount: 24, currency: 'EUR', method: 'cash' });
  });

  it('quote needs destination and parcels only (RatesRequest)', () => {
    const d = draftFromOrder(order);
    expect(validateForQuote(d)['packages.0.weight.value']).toEqual(['Weight is required']);
    d.packages[0]!.weight = '0.8';
    expect(validateForQuote(d)).toEqual({});
    expect(draftToRatesRequest(d)).toEqual({
      recipient: { address: { postalCode: '20121', countryCode: 'IT', city: 'Milano', province: 'MI' } },
      packages: [{ weight: { value: 0.8, units: 'KG' }, dimensions: { length: 30, width: 20, height: 15, units: 'CM' } }],
    });
  });

  it('moves platform details of shipments.create onto the form paths', () => {
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
    expect(rateKeyAction('x', 0, 3)).toBeNull();
  });
});
