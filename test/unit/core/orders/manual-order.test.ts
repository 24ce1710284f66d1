import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualOrder } from '../../../../electron/core/orders';
import { StoreError, type Store } from '../../../../electron/core/store';
import { ManualOrderInput, normalizePostalCode } from '../../../../shared/domain/order';
import { tempStore } from '../store/helpers';

let store: Store;
let cleanup: () => void;
beforeEach(() => ({ store, cleanup } = tempStore()));
afterEach(() => cleanup());

const now = () => new Date('2026-10-01T09:30:00.000Z');
const form = {
  orderNumber: '',
  email: '',
  recipient: {
    name: '  Lucia Romano ',
    company: '',
    street: 'Via Etnea 100',
    street2: '',
    city: 'Catania',
    province: 'ct',
    postalCode: '95131',
    countryCode: 'it',
    phone: '',
    email: '',
  },
  items: [{ sku: '', name: 'Ricambio filtro', quantity: 2, unitPrice: 7.5 }],
  notes: '',
};

function invalid(input: unknown): StoreError {
  try {
    createManualOrder(store, input, { now });
  } catch (e) {
    if (e instanceof StoreError) return e;
    throw e;
  }
  throw new Error('expected a StoreError');
}

describe('createManualOrder', () => {
  it('stores a normalised manual order with a generated number; blank fields become absent', () => {
    const o = createManualOrder(store, form, { now });
    expect(o).toEqual({
      id: expect.any(Number),
      shop: 'main',
      paymentStatus: 'unknown',
      delivery: 'ship',
      needsFix: [],
      orderNumber: 'M-20261001-001',
      createdAt: '2026-10-01T09:30:00.000Z',
      source: 'manual',
      recipient: { name: 'Lucia Romano', street: 'Via Etnea 100', city: 'Catania', province: 'CT', postalCode: '95131', countryCode: 'IT' },
      items: [{ name: 'Ricambio filtro', quantity: 2, unitPrice: 7.5 }],
      currency: 'EUR',
      status: 'open',
    });
    expect(createManualOrder(store, form, { now }).orderNumber).toBe('M-20261001-002');
    expect(store.orders.getByNumber('M-20261001-001')).toEqual(o);
  });

  it('keeps a given order number and refuses it twice', () => {
    createManualOrder(store, { ...form, orderNumber: 'TEL-77' }, { now });
    const e = invalid({ ...form, orderNumber: 'TEL-77' });
    expect(e.code).toBe('conflict');
    expect(e.details).toEqual({ orderNumber: ['Order TEL-77 of shop main already exists'] });
  });

  it('completes an Italian CAP that lost its zeros and rejects one that is not 5 digits', () => {
    const o = createManualOrder(store, { ...form, recipient: { ...form.recipient, postalCode: '184', city: 'Roma', province: 'RM' } }, { now });
    expect(o.recipient.postalCode).toBe('00184');
    const e = invalid({ ...form, recipient: { ...form.recipient, postalCode: '951310' } });
    expect(e.code).toBe('invalid_input');
    expect(e.details).toEqual({ 'recipient.postalCode': ['Postal code for IT must be 5 digits, like 00184'] });
  });

  it('names every bad field with a message a packer can act on', () => {
    const e = invalid({
      email: 'not-an-email',
      recipient: {
        name: '',
        street: 'x'.repeat(151),
        city: 'Roma',
        province: 'Roma',
        postalCode: '00184',
        countryCode: 'Italy',
        phone: '+39'.repeat(11),
      },
      items: [{ name: '', quantity: 0, unitPrice: -1 }],
      currency: 'euro',
    });
    expect(e.details).toEqual({
      email: ['E-mail address is not valid'],
      'recipient.name': ['Recipient name is required'],
      'recipient.street': ['Street is too long (max 150 characters)'],
      'recipient.countryCode': ['Country must be a 2-letter code such as IT'],
      'recipient.phone': ['Phone is too long (max 30 characters)'],
      'items.0.name': ['Item name is required'],
      'items.0.quantity': ['Quantity must be at least 1'],
      'items.0.unitPrice': ['Unit price cannot be negative'],
      currency: ['Currency must be 3 letters, like EUR'],
    });
    expect(store.orders.count()).toBe(0);
  });

  it('checks the Italian province once the rest is valid, and allows a longer one abroad', () => {
    expect(invalid({ ...form, recipient: { ...form.recipient, province: 'Catania' } }).details).toEqual({
      'recipient.province': ['Italian province must be 2 letters, like RM or MI'],
    });
    const fr = createManualOrder(
      store,
      { ...form, recipient: { ...form.recipient, city: 'Paris', province: 'IDF-75', postalCode: '75001', countryCode: 'FR' } },
      { now },
    );
    expect(fr.recipient).toMatchObject({ province: 'IDF-75', postalCode: '75001', countryCode: 'FR' });
    expect(invalid({ ...form, recipient: { ...form.recipient, province: 'x'.repeat(11) } }).details).toEqual({
      'recipient.province': ['Province is too long (max 10 characters)'],
    });
  });

  it('requires a recipient object', () => {
    expect(invalid({ items: [] }).details).toEqual({ recipient: ['Recipient is required'] });
  });
});

describe('ManualOrderInput / normalizePostalCode', () => {
  it('the schema alone gives the form the same messages (no store needed)', () => {
    const r = ManualOrderInput.safeParse({ ...form, items: [{ name: 'x', quantity: 1.5 }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['items.0.quantity', 'Quantity must be a whole number']]);
  });

  it('normalises apostrophes and lost zeros for IT, SM and VA only', () => {
    expect(normalizePostalCode("'00184", 'IT')).toBe('00184');
    expect(normalizePostalCode(' 184 ', 'it')).toBe('00184');
    expect(normalizePostalCode('7890', 'SM')).toBe('07890');
    expect(normalizePostalCode('120', 'VA')).toBe('00120');
    expect(normalizePostalCode('1010', 'AT')).toBe('1010');
    expect(normalizePostalCode("'SW1A 1AA", 'GB')).toBe('SW1A 1AA');
    expect(normalizePostalCode('', 'IT')).toBe('');
  });
});
