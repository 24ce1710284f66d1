/**
 * Retention (issue 27): what the station keeps and for how long, so a data
 * folder stays bounded after years at the bench.
 *
 * - Label bytes (`labels.bytes`, 2–20 KB of ZPL or PDF per shipment) are kept
 *   while a reprint is plausible, {@link RetentionSetting} days (default 90),
 *   then given back: the row stays with `pruned_at` set and empty bytes, and
 *   a reprint fetches the label again (`GET /shipments/{ldv}/label`, spec:
 *   Endpoints > Shipments). A label whose print job is still queued or
 *   printing is never pruned. Those bytes are also what a print job prints:
 *   jobs keep only their facts (state, printer, times).
 * - Outbox rows that are `done` (their request, the platform's answer) are
 *   deleted after the same number of days; what they created lives on in its
 *   own table.
 * - Shipment facts (who, what, where, cost, tracking number, status,
 *   manifest), orders, manifests and print job states are kept.
 *
 * Pruning runs in small steps (at most `batch` rows a statement) in idle
 * moments (store/maintenance.ts), and the pages it frees are given back to
 * the file system with `PRAGMA incremental_vacuum` (the file is in
 * `auto_vacuum = INCREMENTAL`, store/index.ts).
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { defineSetting } from './settings-repo';
import { isoNow, type Clock } from './sql';

/** Days label bytes and done outbox rows are kept: whole days, 7 to 3650; default 90. */
export const RetentionSetting = defineSetting(
  'storage.retentionDays',
  z.number({ error: 'Retention must be a number of days' }).int({ error: 'Retention must be whole days' }).min(7, { error: 'Keep labels at least 7 days' }).max(3650, { error: 'Keep labels at most 3650 days' }),
  90,
);

/** What one {@link Retention.prune} step removed: label byte sets and outbox rows; `more` when a full batch was taken. */
interface PruneResult {
  labels: number;
  outbox: number;
  more: boolean;
}

/** Retention and page reclaiming on the station's connection. */
export interface Retention {
  /**
   * One bounded step: the bytes of at most `batch` labels and at most `batch`
   * done outbox rows older than `days` days (by `created_at` / `updated_at`).
   * Runs in one write transaction. @throws RangeError for days < 1 or batch < 1.
   */
  prune(days: number, batch?: number): PruneResult;
  /** Gives at most `pages` free pages back to the file system (`PRAGMA incremental_vacuum(pages)`); returns the free pages left. */
  reclaim(pages?: number): number;
  /** Free pages in the file (`PRAGMA freelist_count`). */
  freePages(): number;
  /** Labels still holding their bytes: how many, their bytes, the oldest one's `created_at` (ISO) or null. */
  usage(): { labelsKept: number; labelBytes: number; oldestKept: string | null };
}

/** Builds the retention steps on an open database. */
export function createRetention(db: Database.Database, clock: Clock): Retention {
  const pruneLabels = db.prepare<{ cutoff: string; batch: number; now: string }, never>(
    `UPDATE labels SET bytes = X'', pruned_at = @now
     WHERE id IN (SELECT l.id FROM labels l
                  WHERE l.pruned_at IS NULL AND l.created_at < @cutoff
                    AND NOT EXISTS (SELECT 1 FROM print_jobs j WHERE j.label_id = l.id AND j.state IN ('queued', 'printing'))
                  ORDER BY l.created_at LIMIT @batch)`,
  );
  const pruneOutbox = db.prepare<{ cutoff: string; batch: number }, never>(
    `DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE state = 'done' AND updated_at < @cutoff ORDER BY updated_at LIMIT @batch)`,
  );
  const kept = db.prepare<[], { n: number; bytes: number | null; oldest: string | null }>(
    `SELECT count(*) AS n, sum(length(bytes)) AS bytes, min(created_at) AS oldest FROM labels WHERE pruned_at IS NULL`,
  );
  const step = db.transaction((cutoff: string, batch: number): PruneResult => {
    const labels = pruneLabels.run({ cutoff, batch, now: isoNow(clock) }).changes;
    const outbox = pruneOutbox.run({ cutoff, batch }).changes;
    return { labels, outbox, more: labels === batch || outbox === batch };
  });
  const freePages = () => Number(db.pragma('freelist_count', { simple: true }));
  return {
    prune(days, batch = 200) {
      if (!(days >= 1) || !(batch >= 1)) throw new RangeError(`prune: days (${days}) and batch (${batch}) must be at least 1`);
      const cutoff = new Date(clock().getTime() - days * 86_400_000).toISOString();
      return step.immediate(cutoff, Math.floor(batch));
    },
    reclaim(pages = 256) {
      db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
      return freePages();
    },
    freePages,
    usage() {
      const k = kept.get();
      return { labelsKept: k?.n ?? 0, labelBytes: k?.bytes ?? 0, oldestKept: k?.oldest ?? null };
    },
  };
}
