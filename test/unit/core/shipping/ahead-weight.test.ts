/** The scale's weight against a label bought ahead (issue 43 item 3): within the verify tolerance, percent or kg, whichever is larger. */
import { describe, expect, it } from 'vitest';
import { weightFits } from '../../../../electron/core/shipping/ahead-use';

describe('weightFits', () => {
  const tolerance = { tolerancePct: 10, toleranceKg: 0.05 };

  it('takes the percentage of the label’s weight when it is larger than the kilograms', () => {
    expect(weightFits(2.2, 2, tolerance)).toBe(true);
    expect(weightFits(1.8, 2, tolerance)).toBe(true);
    expect(weightFits(2.21, 2, tolerance)).toBe(false);
    expect(weightFits(1.79, 2, tolerance)).toBe(false);
  });

  it('takes the kilograms when the percentage is smaller (light parcels)', () => {
    expect(weightFits(0.25, 0.2, tolerance)).toBe(true);
    expect(weightFits(0.26, 0.2, tolerance)).toBe(false);
  });
});
