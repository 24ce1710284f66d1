import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/domain/random';

describe('mulberry32', () => {
  it('gives the reference sequence of mulberry32 for seed 1', () => {
    // First output of the reference C implementation for seed 1.
    expect(mulberry32(1)()).toBe(0.6270739405881613);
  });

  it('replays the same sequence from the same seed and differs for another seed', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const seqA = Array.from({ length: 20 }, () => a());
    expect(Array.from({ length: 20 }, () => b())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c())).not.toEqual(seqA);
  });

  it('stays in [0, 1) and takes only the low 32 bits of the seed', () => {
    const r = mulberry32(7);
    for (let i = 0; i < 1000; i++) {
      const x = r();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
    expect(mulberry32(2 ** 32 + 5)()).toBe(mulberry32(5)());
    expect(mulberry32(-1)()).toBe(mulberry32(2 ** 32 - 1)());
  });
});
