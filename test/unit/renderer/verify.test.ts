/** Scan to verify, the matching and weight rules of the bench store (issue 14 item 5). */
import { describe, expect, it } from 'vitest';
import { expectedWeightKg, lineFor, progressOf, type VerifyLine } from '../../../renderer/src/stores/verify';

const line = (sku: string, quantity: number, scanned: number, codes: string[], unitWeightKg: number | null = null): VerifyLine => ({ sku, name: sku, quantity, scanned, codes, unitWeightKg });

describe('scan to verify', () => {
  const lines = [line('TAZ-1', 2, 0, ['taz-1', '8001234567890']), line('PIA-2', 1, 0, ['pia-2', '012345678905'])];

  it('finds the line by SKU or alias barcode, in any case, else -1', () => {
    expect(lineFor(lines, 'taz-1')).toBe(0);
    expect(lineFor(lines, ' 8001234567890 ')).toBe(0);
    expect(lineFor(lines, '012345678905')).toBe(1);
    expect(lineFor(lines, 'PIA-2')).toBe(1);
    expect(lineFor(lines, '4006381333931')).toBe(-1);
  });

  it('prefers a line of the same code that still needs items (two lines, one SKU)', () => {
    const twice = [line('X', 1, 1, ['x']), line('X', 1, 0, ['x'])];
    expect(lineFor(twice, 'x')).toBe(1);
    // All complete: the first, so the caller can say "one too many".
    expect(lineFor([line('X', 1, 1, ['x'])], 'x')).toBe(0);
  });

  it('counts items, not lines: "1 of 3"', () => {
    expect(progressOf([line('TAZ-1', 2, 1, []), line('PIA-2', 1, 0, [])])).toEqual({ scanned: 1, total: 3 });
  });

  it('expects items × unit weight + the box tare; unknown when an item has no weight', () => {
    expect(expectedWeightKg([line('A', 2, 0, [], 0.3), line('B', 1, 0, [], 0.15)], 0.25)).toBe(1);
    expect(expectedWeightKg([line('A', 2, 0, [], 0.3)], null)).toBe(0.6);
    expect(expectedWeightKg([line('A', 2, 0, [], 0.3), line('B', 1, 0, [], null)], 0.25)).toBeNull();
  });
});
