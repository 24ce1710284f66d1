/** Migration 2 (issue 7): `outbox.posted_at` and the `rate_windows` table, from a version-1 file with an outbox row. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0002OutboxSettleAndRateWindows as step } from '../../../../../electron/core/store/migrations/0002-outbox-posted-at-rate-windows';
import { applyStep, columns, databaseBefore, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 2 "outbox posted_at, rate_windows"', () => {
  it('adds outbox.posted_at (existing rows keep NULL and every other field) and the rate_windows table', () => {
    const { db } = t;
    db.prepare(
      `INSERT INTO outbox (kind, payload, state, attempts, last_error, local_ref, next_attempt_at, created_at, updated_at)
       VALUES ('shipment.create', '{"orderId":1}', 'queued', 2, '{"code":"network"}', 'shipment:1', 'n', 'x', 'y')`,
    ).run();
    const before = rows(db, 'SELECT * FROM outbox');
    expect(tables(db)).not.toContain('rate_windows');

    expect(applyStep(db, step)).toEqual([2]);
    expect(readUserVersion(db)).toBe(2);
    expect(columns(db, 'outbox').at(-1)).toBe('posted_at');
    expect(rows(db, 'SELECT * FROM outbox')).toEqual([{ ...(before[0] as object), posted_at: null }]);
    expect(columns(db, 'rate_windows')).toEqual(['route', 'slots', 'blocked_until', 'updated_at']);
    db.prepare(`INSERT INTO rate_windows (route, slots, blocked_until, updated_at) VALUES ('POST /shipments', '[1,2]', NULL, 'x')`).run();
    expect(() => db.prepare(`INSERT INTO rate_windows (route, slots, updated_at) VALUES ('GET /x', 'not json', 'x')`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`INSERT INTO rate_windows (route, slots, updated_at) VALUES ('POST /shipments', '[]', 'x')`).run()).toThrow(/UNIQUE/);
  });
});
