/**
 * The platform client's rate-limit windows (table `rate_windows`), kept
 * across restarts (issue 7): a station that restarts must not walk into the
 * platform's 429s because it forgot the calls it made a minute ago.
 * Per route (`POST /shipments`): the start times (ms since the epoch) of the
 * last calls, and the time a 429's `Retry-After` blocks the route until.
 * Used through platform/rate-limit.ts {@link RateWindowStore}.
 */
import type Database from 'better-sqlite3';
import { fromJson, isoNow, toJson, type Clock } from './sql';

/** One route's window: call start times (ms, non-decreasing) and the Retry-After block (ms) or null. */
interface RateWindow {
  slots: number[];
  blockedUntil: number | null;
}

/** Repository of rate-limit windows. */
export interface RateWindowsRepo {
  /** The stored window of `route`, or undefined when none. A malformed row reads as undefined (the window starts empty). */
  get(route: string): RateWindow | undefined;
  /** Replaces the window of `route`. */
  save(route: string, window: RateWindow): void;
}

/** Builds the repository on an open database. */
export function createRateWindowsRepo(db: Database.Database, clock: Clock): RateWindowsRepo {
  const select = db.prepare<[string], { slots: string; blocked_until: number | null }>(`SELECT slots, blocked_until FROM rate_windows WHERE route = ?`);
  const upsert = db.prepare<[string, string, number | null, string], never>(
    `INSERT INTO rate_windows (route, slots, blocked_until, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (route) DO UPDATE SET slots = excluded.slots, blocked_until = excluded.blocked_until, updated_at = excluded.updated_at`,
  );
  return {
    get(route) {
      const r = select.get(route);
      if (!r) return undefined;
      const slots = fromJson(r.slots);
      if (!Array.isArray(slots) || !slots.every((n) => typeof n === 'number' && Number.isFinite(n))) return undefined;
      return { slots: slots as number[], blockedUntil: typeof r.blocked_until === 'number' ? r.blocked_until : null };
    },
    save(route, w) {
      upsert.run(route, toJson(w.slots, 'slots'), w.blockedUntil === null ? null : Math.round(w.blockedUntil), isoNow(clock));
    },
  };
}
