/**
 * Sliding-window request limiter on the simulated clock, for the one limit
 * this module owns (spec: Limits — `POST /webhooks/{id}/test` 5 per minute).
 */

/** At most `limit` calls per `windowMs` per key; times are epoch ms of the simulated clock. */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  /** @throws RangeError when `limit` < 1 or `windowMs` <= 0. */
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be an integer >= 1, got ${limit}`);
    if (!(windowMs > 0)) throw new RangeError(`windowMs must be > 0, got ${windowMs}`);
  }

  /**
   * Counts a call of `key` at `nowMs` when allowed and answers 0; when the
   * window is full answers the ms until a slot frees (the call is not counted).
   */
  take(key: string, nowMs: number): number {
    const list = (this.hits.get(key) ?? []).filter((t) => t > nowMs - this.windowMs && t <= nowMs);
    if (list.length >= this.limit) {
      this.hits.set(key, list);
      const oldest = list[0] ?? nowMs;
      return Math.max(1, oldest + this.windowMs - nowMs);
    }
    list.push(nowMs);
    this.hits.set(key, list);
    return 0;
  }
}
