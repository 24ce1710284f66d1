/** Issue 21 item 7: which changes of an order make the Quote/Ship screens show the "order changed" notice. */
import { describe, expect, it } from 'vitest';
import type { StationOrder } from '../../../shared/domain/order';
import { orderChangedSince } from '../../../renderer/src/stores/job';

const base = {
  id: 7,
  shop: 'main',
  orderNumber: '#7001',
  source: 'shopify_csv',
  createdAt: '2026-11-20T10:00:00+00:00',
  status: 'open',
  paymentStatus: 'paid',
  delivery: 'ship',
  needsFix: [],
  recipient: { name: 'Giulia Bianchi', street: 'Via Roma 1', city: 'Milano', postalCode: '20121', countryCode: 'IT' },
  items: [{ name: 'Vaso', quantity: 1, unitPrice: 30, sku: 'VASO', fulfilled: false }],
} as unknown as StationOrder;

describe('an order changed since the form was filled', () => {
  it('is the same order with another address, lines, note, payment or state', () => {
    expect(orderChangedSince(base, { ...base, recipient: { ...base.recipient, city: 'Torino' } })).toBe(true);
    expect(orderChangedSince(base, { ...base, items: [...base.items, { ...base.items[0]!, sku: 'TAZZA' }] })).toBe(true);
    expect(orderChangedSince(base, { ...base, notes: 'Citofono rotto' })).toBe(true);
    expect(orderChangedSince(base, { ...base, status: 'shipped', shipmentTrackingNumber: 'GL1' })).toBe(true);
  });

  it('is not a copy of the same facts, nor another order', () => {
    expect(orderChangedSince(base, structuredClone(base))).toBe(false);
    expect(orderChangedSince(base, { ...base, id: 8, recipient: { ...base.recipient, city: 'Torino' } })).toBe(false);
  });
});
