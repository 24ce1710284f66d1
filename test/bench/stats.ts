/**
 * What the benches share: the median of a run of timings, a command timed the
 * same way everywhere, and the wait for the station's scale to say something.
 */
import { performance } from 'node:perf_hooks';
import type { ScaleView } from '../../shared/contract/views';
import type { StartedStation } from '../../electron/shell/start';

/** Median of `xs` (the mean of the two middle values for an even count); NaN when empty. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * Least-squares slope of `ys` over `xs` (same length, at least two distinct
 * x), in y's units per x's unit; NaN otherwise. The soak reads its memory
 * trend with it: single samples swing by megabytes as the GC and malloc work.
 */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return NaN;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i] as number;
    sy += ys[i] as number;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    sxy += dx * ((ys[i] as number) - my);
    sxx += dx * dx;
  }
  return sxx === 0 ? NaN : sxy / sxx;
}

/** `n` rounded to one decimal. */
const round1 = (n: number): number => Math.round(n * 10) / 10;

/** `fn` called once to warm up, then `runs` times: the median wall time of those, ms, to one decimal. */
export async function timed(fn: () => Promise<unknown>, runs = 11): Promise<number> {
  await fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return round1(median(xs));
}

/** Resolves with the first `scales.changed` view of `station` for which `pred` holds (register before acting). */
export function scaleReached(station: Pick<StartedStation, 'events'>, pred: (v: ScaleView) => boolean): Promise<ScaleView> {
  return new Promise<ScaleView>((resolve) => {
    const off = station.events.on('scales.changed', (v) => {
      if (pred(v)) {
        off();
        resolve(v);
      }
    });
  });
}
