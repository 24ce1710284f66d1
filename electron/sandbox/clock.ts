/**
 * Simulated clock of the sandbox. Every time the sandbox reads (token expiry,
 * `createdAt`, default list periods, pickup date checks) comes from here, so
 * tests and training sessions can move time without waiting.
 */

/** A source of the current instant. */
export type ClockSource = () => Date;

/**
 * Clock = an injectable base source (default real time) plus an offset that
 * {@link SimClock.advance} and {@link SimClock.set} move.
 */
export class SimClock {
  private offsetMs = 0;

  /** @param base source of "real" time; default `() => new Date()`. */
  constructor(private readonly base: ClockSource = () => new Date()) {}

  /** Current simulated instant. */
  now(): Date {
    return new Date(this.base().getTime() + this.offsetMs);
  }

  /** Current simulated instant in epoch milliseconds. */
  nowMs(): number {
    return this.now().getTime();
  }

  /** Moves simulated time forward by `ms` milliseconds (negative moves back). */
  advance(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`advance(ms): ms must be a finite number, got ${ms}`);
    this.offsetMs += ms;
  }

  /** Sets simulated time so that {@link now} answers `at` (then it flows on with the base source). */
  set(at: Date): void {
    const t = at.getTime();
    if (Number.isNaN(t)) throw new RangeError('set(at): invalid date');
    this.offsetMs = t - this.base().getTime();
  }
}
