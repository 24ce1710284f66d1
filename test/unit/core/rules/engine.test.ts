/** The rule engine (issue 24 item 1): first enabled match wins, every condition, explanations as locale keys and values. */
import { describe, expect, it } from 'vitest';
import { decide, evaluateRule, matchesPattern } from '../../../../electron/core/rules/engine';
import { Rule } from '../../../../shared/contract/rules';
import type { StationOrder } from '../../../../shared/domain/order';

function order(over: Partial<StationOrder> = {}, recipient: Partial<StationOrder['recipient']> = {}): StationOrder {
  return {
    id: 1,
    shop: 'main',
    orderNumber: '#1001',
    createdAt: '2026-11-26T10:00:00Z',
    source: 'shopify_csv',
    recipient: { name: 'Giulia', street: 'Via Roma 1', city: 'Milano', postalCode: '20123', countryCode: 'IT', ...recipient },
    items: [{ sku: 'TAZ-1', name: 'Tazza', quantity: 2, unitPrice: 12 }],
    total: 24,
    currency: 'EUR',
    status: 'open',
    paymentStatus: 'paid',
    delivery: 'ship',
    needsFix: [],
    ...over,
  };
}
const rule = (r: unknown) => Rule.parse(r);

describe('rule engine', () => {
  it('first enabled match wins, with the reasons that held', () => {
    const rules = [
      rule({ name: 'Off', enabled: false, then: { rate: 'fastest' } }),
      rule({ name: 'Francia', when: { countries: ['FR'] }, then: { rate: 'cheapest' } }),
      rule({ name: 'Italia fino a 5 kg', when: { countries: ['it'], weightKg: { max: 5 } }, then: { rate: 'cheapest', shipByItself: true } }),
      rule({ name: 'Tutto', then: { rate: 'cheapest' } }),
    ];
    const { decision, trace } = decide(rules, { order: order(), weightKg: 1.2, parcels: 1 });
    expect(decision.rule).toMatchObject({ index: 3, name: 'Italia fino a 5 kg' });
    expect(decision.reasons).toEqual([
      { key: 'country', params: { country: 'IT' } },
      { key: 'weight.max', params: { value: 1.2, max: 5 } },
    ]);
    expect(trace.map((s) => s.outcome)).toEqual(['disabled', 'failed', 'matched', 'not_reached']);
    expect(trace[1]?.why).toEqual([{ key: 'country.not', params: { country: 'IT' } }]);
  });

  it('an unknown weight fails a weight condition; no rule gives the `none` reason', () => {
    const rules = [rule({ name: 'a', when: { weightKg: { min: 0 } }, then: {} })];
    const { decision, trace } = decide(rules, { order: order(), weightKg: null, parcels: 1 });
    expect(decision).toEqual({ rule: null, reasons: [{ key: 'none', params: {} }] });
    expect(trace[0]?.why).toEqual([{ key: 'weight.unknown', params: {} }]);
    expect(decide([rule({ name: 'b', then: {} })], { order: order(), weightKg: null, parcels: 1 }).decision.reasons).toEqual([{ key: 'always', params: {} }]);
  });

  it('checks zone, territory (Livigno), postcode pattern, shop, total, parcels, SKUs, shipping method, keyword and payment', () => {
    const livigno = order({}, { city: 'Livigno', postalCode: '23041', countryCode: 'IT' });
    expect(evaluateRule(rule({ name: 'x', when: { territories: ['livigno'], zones: ['extra_eu'] }, then: {} }), { order: livigno, weightKg: 1, parcels: 1 })).toEqual({
      ok: true,
      why: [
        { key: 'zone', params: { zone: 'extra_eu' } },
        { key: 'territory', params: { territory: 'livigno' } },
      ],
    });
    expect(evaluateRule(rule({ name: 'x', when: { zones: ['domestic'] }, then: {} }), { order: livigno, weightKg: 1, parcels: 1 }).ok).toBe(false);
    expect(evaluateRule(rule({ name: 'x', when: { zones: ['eu'] }, then: {} }), { order: order({}, { countryCode: 'FR', postalCode: '75001' }), weightKg: 1, parcels: 1 }).ok).toBe(true);
    const full = rule({
      name: 'Milano',
      when: { postcodes: ['20*'], shops: ['MAIN'], total: { min: 10, max: 500 }, parcels: { max: 2 }, skus: { any: ['TAZ-*'], all: ['TAZ-*'] }, shippingMethod: ['express'], keywords: ['fragile'], payment: 'paid' },
      then: {},
    });
    const o = order({ shippingMethod: 'Spedizione Express', notes: 'Merce FRAGILE' });
    expect(evaluateRule(full, { order: o, weightKg: null, parcels: 1 }).why.map((r) => r.key)).toEqual(['shop', 'postcode', 'parcels.max', 'total.between', 'skuAny', 'skuAll', 'shippingMethod', 'keyword', 'payment']);
    expect(evaluateRule(full, { order: o, weightKg: null, parcels: 3 }).why).toEqual([{ key: 'parcels.out', params: { value: 3, max: 2 } }]);
    const mixed = order({ shippingMethod: 'express', notes: 'fragile', items: [{ sku: 'TAZ-1', name: 'T', quantity: 1, unitPrice: 20 }, { sku: 'PIA-2', name: 'P', quantity: 1, unitPrice: 20 }] });
    expect(evaluateRule(full, { order: mixed, weightKg: null, parcels: 1 }).why).toEqual([{ key: 'skuAll.not', params: { sku: 'PIA-2' } }]);
    expect(evaluateRule(rule({ name: 'u', when: { payment: 'unpaid' }, then: {} }), { order: order(), weightKg: null, parcels: 1 }).why).toEqual([{ key: 'payment.not', params: { payment: 'paid' } }]);
    expect(evaluateRule(rule({ name: 't', when: { total: { max: 10 } }, then: {} }), { order: order({ total: undefined }), weightKg: null, parcels: 1 }).why[0]?.key).toBe('total.unknown');
  });

  it('patterns: * is any run, other characters literal, case-insensitive', () => {
    expect(matchesPattern('20123', '20*')).toBe(true);
    expect(matchesPattern('120123', '20*')).toBe(false);
    expect(matchesPattern('taz-1', 'TAZ-*')).toBe(true);
    expect(matchesPattern('TAZ.1', 'TAZ?1')).toBe(false);
    expect(matchesPattern('A.B', 'A.B')).toBe(true);
    expect(matchesPattern('AxB', 'A.B')).toBe(false);
  });
});
