import type { Migration } from './migration';

/**
 * Migration: outbox settle window and persistent rate-limit windows (issue 7).
 * - `outbox.posted_at`: when the row's last create call (POST /shipments) was
 *   sent without an answer yet; while set, the row is never posted again
 *   until the settle window after it has passed (outbox/shipments.ts);
 * - `rate_windows`: the platform client's per-route sliding windows (start
 *   times of the last calls, ms since the epoch, JSON array) and the time a
 *   429's Retry-After blocks the route until, kept across restarts.
 */
export const m0002OutboxSettleAndRateWindows: Migration = {
  version: 2,
  name: 'outbox posted_at, rate_windows',
  up(db) {
    db.exec(`
      ALTER TABLE outbox ADD COLUMN posted_at TEXT;
      CREATE TABLE rate_windows (
        route TEXT PRIMARY KEY,
        slots TEXT NOT NULL CHECK (json_valid(slots)),
        blocked_until INTEGER,
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
