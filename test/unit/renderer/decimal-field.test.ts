/** The one number helper of the bench's form fields (renderer/src/lib/format.ts): typed `1,5` or `1.5`, shown the bench's way. */
import { afterEach, describe, expect, it } from 'vitest';
import { decimalText, parseDecimal, tidyDecimalText } from '../../../renderer/src/lib/format';
import { setLanguage } from '../../../renderer/src/lib/i18n';

afterEach(async () => {
  await setLanguage('en');
});

describe('numbers in form fields', () => {
  it('accepts a decimal comma and a decimal point alike; blank is undefined, junk is NaN', () => {
    expect(parseDecimal('1,5')).toBe(1.5);
    expect(parseDecimal(' 1.5 ')).toBe(1.5);
    expect(parseDecimal('101,6')).toBe(101.6);
    expect(parseDecimal('')).toBeUndefined();
    expect(parseDecimal('1,5 kg')).toBeNaN();
    expect(parseDecimal('1.2.3')).toBeNaN();
  });

  it('shows numbers with a decimal comma on an Italian bench, a point on an English one, never a thousands separator', async () => {
    await setLanguage('it');
    expect(decimalText(101.6)).toBe('101,6');
    expect(decimalText(0.15)).toBe('0,15');
    expect(decimalText(1234.5)).toBe('1234,5');
    expect(decimalText(12.5, 2, 2)).toBe('12,50');
    expect(decimalText(1.2, 3, 3)).toBe('1,200');
    expect(decimalText(Number.NaN)).toBe('');
    await setLanguage('en');
    expect(decimalText(101.6)).toBe('101.6');
    expect(decimalText(1234.5)).toBe('1234.5');
    expect(decimalText(12.5, 2, 2)).toBe('12.50');
  });

  it('tidies a field the packer leaves: a number the bench way, anything else as typed', async () => {
    await setLanguage('it');
    expect(tidyDecimalText('1.5')).toBe('1,5');
    expect(tidyDecimalText('1,5')).toBe('1,5');
    expect(tidyDecimalText('abc')).toBe('abc');
    expect(tidyDecimalText('')).toBe('');
    for (const n of [0.05, 0.4, 25, 152.4, 3.14159]) expect(parseDecimal(decimalText(n, 10))).toBe(n);
    await setLanguage('en');
    expect(tidyDecimalText('1,5')).toBe('1.5');
  });
});
