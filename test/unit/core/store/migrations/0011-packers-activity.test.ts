/** Migration 11 (issue 26): packers (unique badge, role checked) and activity indexed by day, from a version-9 file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0011PackersActivity as step } from '../../../../../electron/core/store/migrations/0011-packers-activity';
import { applyStep, columns, databaseBefore, indexes, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 11 "packers and activity"', () => {
  it('adds packers and activity, the day index, and refuses a shared badge or an unknown role or action', () => {
    const { db } = t;
    expect(applyStep(db, step)).toEqual([11]);
    expect(readUserVersion(db)).toBe(11);
    expect(columns(db, 'packers')).toEqual(['id', 'name', 'badge', 'pin_hash', 'role', 'removed_at', 'created_at', 'updated_at']);
    expect(columns(db, 'activity')).toEqual(['id', 'day', 'at', 'action', 'packer_id', 'packer_name', 'station_name', 'tracking_number', 'order_id', 'subject']);
    expect(indexes(db, 'activity')).toEqual(['activity_day', 'activity_tracking']);
    const add = db.prepare("INSERT INTO packers (name, badge, role, created_at, updated_at) VALUES (?, ?, ?, 't', 't')");
    add.run('Anna', 'BADGE-1', 'supervisor');
    expect(() => add.run('Marco', 'BADGE-1', 'packer')).toThrow(/UNIQUE/);
    expect(() => add.run('Marco', 'BADGE-2', 'boss')).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO activity (day, at, action) VALUES ('2026-11-26', 't', 'dance')").run()).toThrow(/CHECK/);
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT * FROM activity WHERE day BETWEEN '2026-11-01' AND '2026-11-30' AND action = 'ship'").all() as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(' ')).toContain('activity_day');
  });
});
