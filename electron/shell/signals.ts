/**
 * Stop signals, one rule for every process of the station (the headless
 * host `electron/host/cli.ts`, the Electron main `electron/main/index.ts`;
 * the launcher `electron/launch.ts` forwards them to its Electron child).
 * Issue 21 item 8: one Ctrl+C in the terminal running `npm start` reaches
 * the station twice (from the terminal's process group, and again forwarded
 * by npm); a handler installed with `process.once` let the second one kill
 * the station half-way through its close, leaving the SQLite WAL unmerged and
 * the lock's note behind.
 *
 * - SIGINT, SIGTERM and SIGHUP are handled for the whole life of the process
 *   (never `once`): the default action, death, never comes back.
 * - Signals closer together than `sameWithinMs` (default 1 s) are one press:
 *   the duplicate of a Ctrl+C is not a second Ctrl+C.
 * - First press: `onStop` (begin the clean close). Second: a line saying it
 *   is still closing and that one more forces. Third: `onForce` (end now).
 */

/** The signals that ask the station to stop: Ctrl+C, `kill`, the terminal closing. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** One of {@link STOP_SIGNALS}. */
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** Where signals come from: `process`, or an EventEmitter in tests. */
interface SignalSource {
  on(event: StopSignal, listener: () => void): unknown;
  off(event: StopSignal, listener: () => void): unknown;
}

/** Options of {@link handleStopSignals}. */
export interface StopSignalOptions {
  /** The first press: begin closing cleanly (called once). */
  onStop: (signal: StopSignal) => void;
  /** The third press: end now, the close unfinished (called once). */
  onForce: (signal: StopSignal) => void;
  /** Prints a line for the person at the terminal. */
  say: (line: string) => void;
  /** Signals within this many ms of the previous one count as the same press; default 1000. */
  sameWithinMs?: number;
  /** Clock, ms; default `Date.now`. */
  now?: () => number;
  /** Signal source; default `process`. */
  source?: SignalSource;
}

/**
 * Installs the stop-signal rule of the module doc.
 * @returns a function that removes the listeners (tests; a process keeps them until it exits)
 */
export function handleStopSignals(opts: StopSignalOptions): () => void {
  const source: SignalSource = opts.source ?? process;
  const now = opts.now ?? Date.now;
  const sameWithinMs = opts.sameWithinMs ?? 1000;
  let presses = 0;
  let last = -Infinity;
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      const at = now();
      const duplicate = at - last < sameWithinMs;
      last = at;
      if (duplicate && presses > 0) return;
      presses++;
      if (presses === 1) opts.onStop(signal);
      else if (presses === 2) opts.say(`Shipping Station: ${signal} again, still closing… (once more to stop at once, the close unfinished)`);
      else if (presses === 3) {
        opts.say(`Shipping Station: ${signal} a third time, stopping now without finishing the close`);
        opts.onForce(signal);
      }
    };
    source.on(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) source.off(signal, listener);
  };
}
