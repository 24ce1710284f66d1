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

describe('the parcel weight against the items (with a scale)', () => {
  it('warns when the weight is off by more than the tolerance, and stays quiet within it', async () => {
    const { useVerify } = await import('../../../renderer/src/stores/verify');
    const { useApp } = await import('../../../renderer/src/stores/app');
    useVerify.setState({ settings: { enabled: true, tolerancePct: 10, toleranceKg: 0.05 }, orderId: 1, orderNumber: '#1', lines: [line('A', 2, 2, ['a'], 0.3)] });
    // Expected 0.6 + 0.25 = 0.85 kg; 10 % = 0.085 kg allowed.
    useVerify.getState().checkWeight(0.9, 0.25);
    expect(useApp.getState().banner?.outcome).toBeUndefined();
    useVerify.getState().checkWeight(1.15, 0.25);
    expect(useApp.getState().banner).toMatchObject({ outcome: 'attention', title: 'CHECK THE PARCEL: 1.150 kg on the scale, 0.850 kg expected' });
    // An item without a weight: nothing to compare with.
    useApp.setState({ banner: null });
    useVerify.setState({ lines: [line('A', 2, 2, ['a'], null)] });
    useVerify.getState().checkWeight(5, 0.25);
    expect(useApp.getState().banner).toBeNull();
  });
});

describe('the same order scanned again keeps its progress (issue 24 item 7)', () => {
  const order = {
    id: 7,
    orderNumber: '#1007',
    items: [
      { sku: 'TAZ-1', name: 'Tazza', quantity: 2, unitPrice: 5 },
      { sku: 'PIA-2', name: 'Piatto', quantity: 1, unitPrice: 9 },
    ],
  };

  it('resumes after Esc with what was scanned; the order barcode while verifying is not a wrong item', async () => {
    const { useVerify, sameOrderNumber } = await import('../../../renderer/src/stores/verify');
    const { useApp } = await import('../../../renderer/src/stores/app');
    type Order = Parameters<ReturnType<typeof useVerify.getState>['begin']>[0];
    const o = order as unknown as Order;
    useVerify.setState({ settings: { enabled: true, tolerancePct: 10, toleranceKg: 0.05 }, orderId: null, orderNumber: '', lines: [], active: false, skipped: false });
    expect(useVerify.getState().begin(o)).toBe(true);
    expect(useVerify.getState().takeScan('taz-1')).toBe(true);
    expect(progressOf(useVerify.getState().lines)).toEqual({ scanned: 1, total: 3 });
    // The order's own barcode again: nothing counted, no wrong-item outcome.
    expect(useVerify.getState().takeScan('1007')).toBe(true);
    expect(progressOf(useVerify.getState().lines)).toEqual({ scanned: 1, total: 3 });
    expect(useApp.getState().banner?.outcome).not.toBe('wrong_item');
    expect(useApp.getState().banner?.title).toContain('1 of 3');
    useVerify.getState().abandon();
    expect(useVerify.getState().active).toBe(false);
    // Scanned again: resumes at 1 of 3.
    expect(useVerify.getState().begin(o)).toBe(true);
    expect(progressOf(useVerify.getState().lines)).toEqual({ scanned: 1, total: 3 });
    expect(useVerify.getState().takeScan('taz-1')).toBe(true);
    expect(useVerify.getState().takeScan('pia-2')).toBe(true);
    expect(useVerify.getState().active).toBe(false);
    // Complete: scanning the order once more does not ask for its items again.
    expect(useVerify.getState().begin(o)).toBe(false);
    expect(useVerify.getState().shipBlock(7)).toBeNull();
    // Another order starts from nothing.
    expect(useVerify.getState().begin({ ...o, id: 8, orderNumber: '#1008' })).toBe(true);
    expect(progressOf(useVerify.getState().lines)).toEqual({ scanned: 0, total: 3 });
    expect(sameOrderNumber('#1008', '#1008')).toBe(true);
    expect(sameOrderNumber(' 1008 ', '#1008')).toBe(true);
    expect(sameOrderNumber('', '')).toBe(false);
  });
});
