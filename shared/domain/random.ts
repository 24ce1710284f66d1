/**
 * Seeded pseudo-random numbers for everything that must replay the same way
 * from the same seed: the sandbox's faults, tracking numbers and delivery
 * points, and the generated Shopify test CSV.
 *
 * Pure TypeScript (no node:*) so the station, the sandbox and tests share one
 * generator; not for anything secret.
 */

/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): a function returning
 * uniform numbers in [0, 1), the same sequence for the same seed.
 * @param seed any number; only its low 32 bits count (taken unsigned).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
