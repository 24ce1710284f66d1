/**
 * The screen walk's rule for visible text not from the locale files (test/e2e/walk-check.ts
 * `isData`, issue 25 item 5): data passes (the bench's values, codes, numbers, money, dates,
 * units, paths and URIs); any word of a language fails.
 */
import { describe, expect, it } from 'vitest';
import { isData } from '../../e2e/walk-check';

const data = ['Bottega Verdi – banco spedizioni', 'Giulia Bianchi', 'Via Roma 10', 'Milano', 'BRT Espresso Nazionale'];

describe('the walk: what a visible text not from the locale files may be', () => {
  it('passes the bench data, codes, numbers, money, dates, units and paths', () => {
    for (const text of [
      'Giulia Bianchi, Via Roma 10, Milano',
      'BRT — BRT Espresso Nazionale',
      '#1001 BR6828808323 IT MI',
      '7,14 € · 26/11/2026, 14:35',
      '1,5 kg 40×30×30 cm',
      '/tmp/station-e2e-walk/labels socket://10.0.0.5:9100 a@b.it',
      '[HTTP 422 validation_failed]',
    ]) {
      expect(isData(text, data), text).toBe(true);
    }
  });

  it('fails on words of either language', () => {
    for (const text of ['Shipping Station', 'Folder /tmp/labels', 'Shipped', 'Contract is required', 'Ritiro del', 'Milano Small']) {
      expect(isData(text, data), text).toBe(false);
    }
  });
});
