/** The rule line of every order view (issue 24 item 1): the core's decision in English and Italian, numbers in the bench's format. */
import { afterEach, describe, expect, it } from 'vitest';
import { decide } from '../../../electron/core/rules/engine';
import { setLanguage } from '../../../renderer/src/lib/i18n';
import { decisionText, ruleNameText, ruleReasonText } from '../../../renderer/src/lib/ruleText';
import { Rule } from '../../../shared/contract/rules';
import type { StationOrder } from '../../../shared/domain/order';

afterEach(async () => {
  await setLanguage('en');
});

const order: StationOrder = {
  id: 1,
  shop: 'main',
  orderNumber: '#1001',
  createdAt: '2026-11-26T10:00:00Z',
  source: 'manual',
  recipient: { name: 'Giulia', street: 'Via Roma 1', city: 'Milano', postalCode: '20123', countryCode: 'IT' },
  items: [{ sku: 'TAZ', name: 'Tazza', quantity: 1, unitPrice: 12 }],
  currency: 'EUR',
  status: 'open',
  paymentStatus: 'paid',
  delivery: 'ship',
  needsFix: [],
};
const rules = ['Francia', 'Spagna', 'Italia fino a 5 kg'].map((name, i) => Rule.parse({ name, when: { countries: [['FR', 'ES', 'IT'][i]], ...(i === 2 ? { weightKg: { max: 5 } } : {}) }, then: { rate: 'cheapest' } }));

describe('decisionText', () => {
  it('says which rule acted and why, in English and in Italian with a decimal comma', async () => {
    const { decision } = decide(rules, { order, weightKg: 1.2, parcels: 1 });
    expect(decisionText(decision)).toBe("Rule 3 'Italia fino a 5 kg': country IT, weight 1.2 kg ≤ 5");
    await setLanguage('it');
    expect(decisionText(decision)).toBe("Regola 3 'Italia fino a 5 kg': paese IT, peso 1,2 kg ≤ 5");
    // The countdown names the rule in the same words.
    expect(decisionText(decision).startsWith(ruleNameText({ index: 3, name: 'Italia fino a 5 kg' }))).toBe(true);
  });

  it('says when no rule acts, and names a failed condition', async () => {
    const { decision, trace } = decide(rules, { order, weightKg: null, parcels: 1 });
    expect(decisionText(decision)).toBe('No shipping rule covers this order');
    expect(trace[2]?.why.map(ruleReasonText)).toEqual(['weight not known']);
    await setLanguage('it');
    expect(trace[0]?.why.map(ruleReasonText)).toEqual(['paese IT non previsto']);
  });
});
