/**
 * Client-side per-endpoint rate limits (spec: Limits > Rate limits). A call
 * over the limit is delayed until a slot frees; the platform client refuses
 * it at once instead when that is too far away (client.ts `maxRateWaitMs`).
 *
 * A sliding-window log rather than a refilling token bucket: a bucket of N
 * tokens refilled at N per minute lets 2N calls through in one minute (a full
 * bucket, then the refill), which a server counting "per minute" answers with
 * 429. Reserving each call's slot at least one window after the N-th previous
 * one never exceeds N calls in any window.
 */

import { randomUUID } from 'node:crypto';
import { RateWindowFull } from './errors';

/** Limits per minute from the spec's table (shared with the sandbox, which refuses what this client delays). */
export { SPEC_RATE_LIMITS_PER_MINUTE } from '../../../shared/platform/rate-limits';

/**
 * What the account's shared budget answers one try at a slot (issue 43 item 1): granted; or wait `waitMs` (ms,
 * the budget's own clock) with `ahead` calls before this one; or `unavailable` (the warehouse does not answer:
 * the bench keeps to its share of the limit, {@link SharedRateBudget.benchesAlive}).
 */
/** Whose call takes a slot: a packer's (a scan waiting for its label, a quote on screen) or background work's (labels ahead). */
export type BudgetPriority = 'packer' | 'background';

export type BudgetAnswer = { granted: true } | { granted: false; waitMs: number; ahead: number } | { unavailable: true };

/**
 * The platform account's per-minute limits kept for every bench of a warehouse at once (issue 43 item 1,
 * warehouse/budget.ts): one window per route, a packer's call before background work, first asked first
 * served across benches. The platform client asks it before each limited call when the station has one.
 */
export interface SharedRateBudget {
  /**
   * One try at a slot of `route` for the call `key` (the same key keeps its place in the queue between tries:
   * an outbox row's reference), `limit` calls per `windowMs`.
   */
  take(route: string, limit: number, windowMs: number, key: string, priority: BudgetPriority): Promise<BudgetAnswer>;
  /** The call `key` no longer waits (refused to the packer): it leaves the queue. Never throws. */
  leave(key: string): Promise<void>;
  /** A 429 the platform still sent: holds `route` for every bench for `retryAfterMs` (ms), and counts it. Never throws. */
  block(route: string, retryAfterMs: number | undefined): Promise<void>;
  /** Benches alive at the last heartbeat (≥ 1): while the warehouse is away each keeps to the limit divided by it. */
  benchesAlive(): number;
}

/** Waits `ms` milliseconds. */
export type Sleep = (ms: number) => Promise<void>;

/** Default {@link Sleep} on real timers. */
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** One route's window as persisted: call start times (ms since the epoch) and the Retry-After block (ms) or null. */
export interface PersistedWindow {
  slots: number[];
  blockedUntil: number | null;
}

/**
 * Where the windows are kept across restarts (the station: SQLite table
 * `rate_windows`, store/rate-windows-repo.ts). Keyed by route (`POST /shipments`).
 * A failing store never fails a call: the window then lives in memory only.
 */
export interface RateWindowStore {
  get(route: string): PersistedWindow | undefined;
  save(route: string, window: PersistedWindow): void;
}

/**
 * At most `limit` calls in any `windowMs` window; extra calls wait their
 * turn (FIFO). With a {@link RateWindowStore} the window survives a restart,
 * and {@link SlidingWindowLimiter.blockUntil} (a 429's Retry-After) holds
 * every call of the route until the platform said it may be called again.
 */
export class SlidingWindowLimiter {
  /** Start times reserved for the last `limit` calls, non-decreasing. */
  private readonly slots: number[] = [];
  /** No call starts before this time (ms), from a 429's Retry-After. */
  private blockedUntil = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly sleep: Sleep,
    private readonly persist?: { route: string; store: RateWindowStore; onError?: (e: unknown) => void },
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Rate limit must be a positive integer, got ${limit}`);
    if (persist) {
      let saved: PersistedWindow | undefined;
      try {
        saved = persist.store.get(persist.route);
      } catch (e) {
        persist.onError?.(e);
      }
      if (saved) {
        const since = this.now() - this.windowMs;
        const recent = saved.slots.filter((t) => Number.isFinite(t) && t > since).sort((x, y) => x - y);
        this.slots.push(...recent.slice(-this.limit));
        this.blockedUntil = saved.blockedUntil ?? 0;
      }
    }
  }

  /** Calls allowed in one window (the spec's per-minute limit). */
  get perWindow(): number {
    return this.limit;
  }

  /** Milliseconds the next call would wait now (0 when a slot is free). */
  delayNow(): number {
    const t = this.now();
    return Math.max(0, this.nextSlot(t) - t);
  }

  /** Holds every call until `atMs` (a 429's Retry-After); an earlier time than the current block changes nothing. */
  blockUntil(atMs: number): void {
    if (!(atMs > this.blockedUntil)) return;
    this.blockedUntil = atMs;
    this.save();
  }

  /** Reserves the next slot and resolves when it starts. Reservation is synchronous, so concurrent callers queue in order. */
  async acquire(): Promise<void> {
    const t = this.now();
    const slot = this.nextSlot(t);
    this.slots.push(slot);
    if (this.slots.length > this.limit) this.slots.splice(0, this.slots.length - this.limit);
    this.save();
    if (slot > t) await this.sleep(slot - t);
  }

  private save(): void {
    if (!this.persist) return;
    try {
      this.persist.store.save(this.persist.route, { slots: [...this.slots], blockedUntil: this.blockedUntil > 0 ? this.blockedUntil : null });
    } catch (e) {
      this.persist.onError?.(e);
    }
  }

  private nextSlot(t: number): number {
    const floor = Math.max(t, this.blockedUntil);
    if (this.slots.length < this.limit) return Math.max(floor, this.slots.at(-1) ?? floor);
    const nth = this.slots[this.slots.length - this.limit] ?? t;
    return Math.max(floor, nth + this.windowMs, this.slots.at(-1) ?? floor);
  }
}

/** What {@link createRateGate} works with. */
interface RateGateOptions {
  /** A route's window, ms (the spec's minute and a margin for clocks). */
  windowMs: number;
  /** A call whose slot is further away than this is refused at once ({@link RateWindowFull}), ms. */
  maxRateWaitMs: number;
  now: () => number;
  sleep: Sleep;
  /** The warehouse's budget of the account, or null for a bench alone. */
  shared: () => SharedRateBudget | null;
}

/**
 * Where a limited call of the platform client takes its slot (spec: Limits > Rate limits): from the account's
 * shared budget when the bench is in a warehouse that answers (issue 43 item 1), else from the bench's own
 * window — in a warehouse that does not answer, its share of the limit (the limit divided by the benches alive).
 */
export function createRateGate(opts: RateGateOptions) {
  const shares = new Map<string, SlidingWindowLimiter>();
  const shareOf = (route: string, limit: number, benches: number): SlidingWindowLimiter => {
    const perBench = Math.max(1, Math.floor(limit / Math.max(1, benches)));
    const key = `${route} ${perBench}`;
    let l = shares.get(key);
    if (!l) {
      l = new SlidingWindowLimiter(perBench, opts.windowMs, opts.now, opts.sleep);
      shares.set(key, l);
    }
    return l;
  };
  /**
   * Takes the call's slot from the shared budget: waits while its turn is at most `maxRateWaitMs` away,
   * refuses at once when it is further (with the calls before it).
   * @returns false when the budget does not answer (the caller keeps to the bench's share)
   */
  const takeShared = async (shared: SharedRateBudget, route: string, limit: number, givenKey: string | undefined, priority: BudgetPriority): Promise<boolean> => {
    const key = givenKey ?? `call:${randomUUID()}`;
    for (;;) {
      const answer = await shared.take(route, limit, opts.windowMs, key, priority).catch((): BudgetAnswer => ({ unavailable: true }));
      if ('unavailable' in answer) return false;
      if (answer.granted) return true;
      // Background work never waits in line: refused, it tries again later (labels ahead yield to packers).
      if (answer.waitMs > opts.maxRateWaitMs || priority === 'background') {
        // A keyed packer's call (an outbox row) keeps its place for its next try; a call the packer waits for, and background work, leave.
        if (givenKey === undefined || priority === 'background') void shared.leave(key);
        throw new RateWindowFull(route, answer.waitMs, limit, answer.ahead);
      }
      await opts.sleep(Math.min(answer.waitMs, 250));
    }
  };
  return {
    /**
     * Resolves when the call of `route` may start.
     * @param limiter the route's own window (kept across restarts), the bench's limit alone
     * @param key the call's key in the shared queue (an outbox row's reference), or undefined
     * @param priority a packer's call, or background work's: the latter only on the warehouse's budget
     * @throws RateWindowFull when the call's slot is more than `maxRateWaitMs` away, or a background call
     *   without the warehouse's budget
     */
    async acquire(route: string, limiter: SlidingWindowLimiter, key: string | undefined, priority: BudgetPriority = 'packer'): Promise<void> {
      const shared = opts.shared();
      if (shared && (await takeShared(shared, route, limiter.perWindow, key, priority))) return;
      // Background work (labels ahead) runs only on the warehouse's budget: without it, it waits for none.
      if (priority === 'background') throw new RateWindowFull(route, opts.windowMs, limiter.perWindow);
      const local = shared ? shareOf(route, limiter.perWindow, shared.benchesAlive()) : limiter;
      const wait = Math.max(local.delayNow(), limiter.delayNow());
      if (wait > opts.maxRateWaitMs) throw new RateWindowFull(route, wait, local.perWindow);
      if (local !== limiter) await local.acquire();
      await limiter.acquire();
    },
  };
}
