/**
 * The order's identity on the platform (issue 21): shop and number, never
 * the same text for two pairs, at most 50 characters (100 with a later
 * shipment's suffix), the same on every station.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SHOP } from '../../../shared/domain/order';
import { MAX_SHIPMENTS_PER_ORDER, ORDER_REFERENCE_MAX, orderReference, shipmentReference } from '../../../shared/domain/order-reference';

type Pair = { shop: string; orderNumber: string };

/** Shops and numbers chosen to collide under a naive `${shop} ${number}` or a cut to 50 characters. */
const LONG_SHOP = 'Bottega artigiana del cuoio fiorentino X'; // 40 characters, the longest shop name
const HOSTILE: Pair[] = [
  { shop: DEFAULT_SHOP, orderNumber: '#2236' },
  { shop: 'UK', orderNumber: '#2236' },
  { shop: 'Istanbul', orderNumber: '#2236' },
  { shop: 'istanbul', orderNumber: '#2236' },
  // A default-shop number that reads like another shop's reference.
  { shop: DEFAULT_SHOP, orderNumber: 'UK #2236' },
  { shop: 'UK', orderNumber: 'UK #2236' },
  { shop: 'UK #2236', orderNumber: '#2236' },
  { shop: 'UK', orderNumber: '#2236 ' },
  { shop: 'U', orderNumber: 'K #2236' },
  // Numbers that look like a later shipment of another number.
  { shop: DEFAULT_SHOP, orderNumber: '#2236-2' },
  { shop: DEFAULT_SHOP, orderNumber: '#2236~' },
  { shop: DEFAULT_SHOP, orderNumber: '#2236-2~' },
  { shop: 'UK', orderNumber: '#2236-2' },
  { shop: DEFAULT_SHOP, orderNumber: 'M-20261120-100' },
  { shop: DEFAULT_SHOP, orderNumber: 'M-20261120-1' },
  { shop: DEFAULT_SHOP, orderNumber: '#2236-99' },
  { shop: DEFAULT_SHOP, orderNumber: '#2236-100' },
  { shop: DEFAULT_SHOP, orderNumber: '#2236-02' },
  { shop: DEFAULT_SHOP, orderNumber: '#2236-2-2' },
  // Numbers that look like the hashed form.
  { shop: DEFAULT_SHOP, orderNumber: '~ABCDEFGHJK' },
  { shop: 'x', orderNumber: '~ABCDEFGHJK' },
  { shop: DEFAULT_SHOP, orderNumber: 'x ~ABCDEFGHJK' },
  // Long shop names that must be shortened: the same first 38 characters.
  { shop: LONG_SHOP, orderNumber: '#2236' },
  { shop: `${LONG_SHOP.slice(0, 39)}Y`, orderNumber: '#2236' },
  { shop: `${LONG_SHOP.slice(0, 30)}`, orderNumber: '#2236' },
  { shop: LONG_SHOP, orderNumber: '#22360' },
  { shop: LONG_SHOP, orderNumber: '#2236-LT-EXPRESS' },
  { shop: `${LONG_SHOP.slice(0, 39)}Y`, orderNumber: '#2236-LT-EXPRESS' },
  { shop: `${LONG_SHOP.slice(0, 20)}`, orderNumber: '#2236-LT-EXPRESS' },
  // A 50-character number, in the default shop and another.
  { shop: DEFAULT_SHOP, orderNumber: 'N'.repeat(50) },
  { shop: 'UK', orderNumber: 'N'.repeat(50) },
  { shop: DEFAULT_SHOP, orderNumber: `${'N'.repeat(49)}M` },
  // Control characters and odd spaces.
  { shop: 'UK', orderNumber: '#2236\n' },
  { shop: 'UK', orderNumber: '#2236\t' },
  { shop: 'UK\n', orderNumber: '#2236' },
  { shop: 'U\u00a0K', orderNumber: '#2236' },
  { shop: 'UK', orderNumber: '#2236\u00a0' },
  { shop: DEFAULT_SHOP, orderNumber: 'a b' },
  { shop: 'a', orderNumber: 'b' },
  { shop: 'Ç', orderNumber: '#1' },
  { shop: 'C\u0327', orderNumber: '#1' },
];

describe('orderReference', () => {
  it('reads as shop and number: the number alone for the default shop', () => {
    expect(orderReference({ shop: DEFAULT_SHOP, orderNumber: '#2236' })).toBe('#2236');
    expect(orderReference({ shop: 'Istanbul', orderNumber: '#2236' })).toBe('Istanbul #2236');
    expect(orderReference({ shop: 'Bottega Verdi', orderNumber: '#1001' })).toBe('Bottega Verdi #1001');
    // A number ending like a later shipment's suffix (a split order) is marked so it cannot be one.
    expect(orderReference({ shop: DEFAULT_SHOP, orderNumber: '#1001-2' })).toBe('#1001-2~');
    expect(orderReference({ shop: 'UK', orderNumber: '#1001-99' })).toBe('UK #1001-99~');
    // Numbers that cannot be a suffix stay as they are: a prefix, the station's manual numbers, -1, a leading zero.
    for (const n of ['SO-1001', 'M-20261120-100', 'M-20261120-007', '#1001-1', '#1001-05', '#1001-100']) {
      expect(orderReference({ shop: DEFAULT_SHOP, orderNumber: n })).toBe(n);
    }
  });

  it('is injective on hostile pairs, with and without later-shipment suffixes, and stays within the spec limits', () => {
    const seen = new Map<string, string>();
    for (const p of HOSTILE) {
      for (const n of [1, 2, 3, 10, 12, 99]) {
        const ref = shipmentReference(p, n);
        const who = `${JSON.stringify(p)} n=${n}`;
        expect(seen.get(ref), `${who} collides`).toBeUndefined();
        seen.set(ref, who);
        expect(ref.length).toBeLessThanOrEqual(100);
      }
      expect(orderReference(p).length).toBeLessThanOrEqual(ORDER_REFERENCE_MAX);
    }
    expect(seen.size).toBe(HOSTILE.length * 6);
  });

  it('is injective over many generated pairs (shop names up to 40, numbers up to 50 characters)', () => {
    const shops = [DEFAULT_SHOP, 'UK', 'Istanbul', LONG_SHOP, `${LONG_SHOP.slice(0, 39)}Z`, 'main2', 'a b c'];
    const seen = new Set<string>();
    let count = 0;
    for (const shop of shops) {
      for (let i = 0; i < 1500; i++) {
        const orderNumber = i % 3 === 0 ? `#${1000 + i}` : i % 3 === 1 ? `#${1000 + i}-${i % 7}` : `${'Q'.repeat(40)}-${i}`;
        for (const n of [1, 2, 3]) {
          seen.add(shipmentReference({ shop, orderNumber }, n));
          count++;
        }
      }
    }
    expect(seen.size).toBe(count);
  });

  it('shortens long pairs to 50 characters with a hash, keeping the number readable', () => {
    // 40 + 1 + 5 characters fit as they are.
    expect(orderReference({ shop: LONG_SHOP, orderNumber: '#2236' })).toBe(`${LONG_SHOP} #2236`);
    const ref = orderReference({ shop: LONG_SHOP, orderNumber: '#2236-LT-EXPRESS' });
    expect(ref.length).toBeLessThanOrEqual(ORDER_REFERENCE_MAX);
    expect(ref).toMatch(/^Bottega artigiana del #2236-LT-EXPRESS ~[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(orderReference({ shop: `${LONG_SHOP.slice(0, 39)}Y`, orderNumber: '#2236-LT-EXPRESS' })).not.toBe(ref);
  });

  it('is deterministic: the same pair gives the same text, whoever computes it', () => {
    for (const p of HOSTILE) expect(orderReference({ ...p })).toBe(orderReference(p));
    // Fixed values: a change here breaks finding shipments already on the platform.
    expect(orderReference({ shop: LONG_SHOP, orderNumber: '#2236-LT-EXPRESS' })).toBe('Bottega artigiana del #2236-LT-EXPRESS ~53SMZ4EJCQ');
    expect(orderReference({ shop: 'UK', orderNumber: '#2236\n' })).toBe('UK #2236 ~WX8G8RY67R');
    expect(orderReference({ shop: DEFAULT_SHOP, orderNumber: 'x ~ABCDEFGHJK' })).toBe('x ~ABCDEFGHJK ~VP3544T6CT');
  });

  it('shipmentReference numbers later shipments -2, -3 and refuses a count below 1', () => {
    const p = { shop: 'UK', orderNumber: '#2236' };
    expect([1, 2, 3].map((n) => shipmentReference(p, n))).toEqual(['UK #2236', 'UK #2236-2', 'UK #2236-3']);
    expect(shipmentReference(p, MAX_SHIPMENTS_PER_ORDER)).toBe('UK #2236-99');
    expect(() => shipmentReference(p, 0)).toThrow(RangeError);
    expect(() => shipmentReference(p, 100)).toThrow(RangeError);
    expect(() => shipmentReference(p, 1.5)).toThrow(/integer from 1 to 99/);
  });
});
