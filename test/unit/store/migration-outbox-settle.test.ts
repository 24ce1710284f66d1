/** The migration adding `outbox.posted_at` and `rate_windows` (issue 7): found by name, so renumbering on merge does not break it. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, readUserVersion, runMigrations } from '../../../electron/core/store';
import { tempDir } from './helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const index = MIGRATIONS.findIndex((m) => m.name === 'outbox posted_at, rate_windows');

describe('migration "outbox posted_at, rate_windows"', () => {
  it('adds outbox.posted_at (existing rows keep NULL) and the rate_windows table', () => {
    expect(index).toBeGreaterThan(0);
    const db = new Database(join(dir, 'm.sqlite'));
    runMigrations(db, MIGRATIONS.slice(0, index));
    db.prepare(`INSERT INTO outbox (kind, payload, state, created_at, updated_at) VALUES ('shipment.create', '{}', 'queued', 'x', 'x')`).run();
    expect(runMigrations(db, MIGRATIONS.slice(0, index + 1))).toEqual([index + 1]);
    expect(readUserVersion(db)).toBe(index + 1);
    expect(db.prepare('SELECT posted_at FROM outbox').get()).toEqual({ posted_at: null });
    db.prepare(`INSERT INTO rate_windows (route, slots, blocked_until, updated_at) VALUES ('POST /shipments', '[1,2]', NULL, 'x')`).run();
    expect(() => db.prepare(`INSERT INTO rate_windows (route, slots, updated_at) VALUES ('GET /x', 'not json', 'x')`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`INSERT INTO rate_windows (route, slots, updated_at) VALUES ('POST /shipments', '[]', 'x')`).run()).toThrow(/UNIQUE/);
    db.close();
  });
});
