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
  private readonly changeListeners = new Set<() => void>();

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
    this.changed();
  }

  /** Sets simulated time so that {@link now} answers `at` (then it flows on with the base source). */
  set(at: Date): void {
    const t = at.getTime();
    if (Number.isNaN(t)) throw new RangeError('set(at): invalid date');
    this.offsetMs = t - this.base().getTime();
    this.changed();
  }

  /**
   * Calls `listener` after every {@link advance} and {@link set} (not while
   * time merely flows with the base source), so work due on the simulated
   * clock — webhook retries, carrier progress — runs at once. Returns the
   * unsubscribe function. A listener that throws does not stop the others.
   */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => {
      this.changeListeners.delete(listener);
    };
  }

  private changed(): void {
    for (const l of [...this.changeListeners]) {
      try {
        l();
      } catch (err) {
        process.stderr.write(`sandbox: clock listener failed: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
  }
}
