/**
 * Seeded pseudo-random numbers and a string hash for everything that must
 * replay the same way from the same seed: the sandbox's faults, tracking
 * numbers, carrier scenarios and delivery points, and the generated Shopify
 * test CSV.
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

/**
 * 32-bit FNV-1a hash of a string's UTF-16 code units, unsigned: a stable
 * seed or bucket from a text (a tracking number, a postal code), the same on
 * every run and machine.
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
