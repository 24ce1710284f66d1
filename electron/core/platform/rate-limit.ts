/**
 * Client-side per-endpoint rate limits (spec: Limits > Rate limits). A call
 * over the limit is delayed until a slot frees, never failed.
 *
 * A sliding-window log rather than a refilling token bucket: a bucket of N
 * tokens refilled at N per minute lets 2N calls through in one minute (a full
 * bucket, then the refill), which a server counting "per minute" answers with
 * 429. Reserving each call's slot at least one window after the N-th previous
 * one never exceeds N calls in any window.
 */

/** Limits per minute from the spec's table (shared with the sandbox, which refuses what this client delays). */
export { SPEC_RATE_LIMITS_PER_MINUTE } from '../../../shared/platform/rate-limits';

/** Waits `ms` milliseconds. */
export type Sleep = (ms: number) => Promise<void>;

/** Default {@link Sleep} on real timers. */
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** At most `limit` calls in any `windowMs` window; extra calls wait their turn (FIFO). */
export class SlidingWindowLimiter {
  /** Start times reserved for the last `limit` calls, non-decreasing. */
  private readonly slots: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly sleep: Sleep,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Rate limit must be a positive integer, got ${limit}`);
  }

  /** Milliseconds the next call would wait now (0 when a slot is free). */
  delayNow(): number {
    const t = this.now();
    return Math.max(0, this.nextSlot(t) - t);
  }

  /** Reserves the next slot and resolves when it starts. Reservation is synchronous, so concurrent callers queue in order. */
  async acquire(): Promise<void> {
    const t = this.now();
    const slot = this.nextSlot(t);
    this.slots.push(slot);
    if (this.slots.length > this.limit) this.slots.splice(0, this.slots.length - this.limit);
    if (slot > t) await this.sleep(slot - t);
  }

  private nextSlot(t: number): number {
    if (this.slots.length < this.limit) return Math.max(t, this.slots.at(-1) ?? t);
    const nth = this.slots[this.slots.length - this.limit] ?? t;
    return Math.max(t, nth + this.windowMs, this.slots.at(-1) ?? t);
  }
}
