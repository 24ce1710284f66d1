/**
 * Migration 16 (issue 35 item 2): every packer gets `uid`, the id the warehouse shares it by; packers
 * written before get a random one each (unique), and the repository gives new packers their own and
 * takes packers from the warehouse by it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0016PackersWarehouseUid as step } from '../../../../../electron/core/store/migrations/0016-packers-warehouse-uid';
import { createPackersRepo } from '../../../../../electron/core/store/packers-repo';
import { applyStep, columns, databaseBefore, indexes, rows, tables, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 16 "packers warehouse uid"', () => {
  it('gives every packer a unique uid, keeping every row', () => {
    const { db } = t;
    const insert = db.prepare<[string, string | null, string]>(`INSERT INTO packers (name, badge, role, created_at, updated_at) VALUES (?, ?, ?, 't', 't')`);
    insert.run('Anna', 'B-1', 'supervisor');
    insert.run('Luca', null, 'packer');
    const before = rows(db, 'SELECT id, name, badge, role FROM packers ORDER BY id');
    const otherTables = tables(db);

    expect(applyStep(db, step)).toEqual([16]);
    expect(readUserVersion(db)).toBe(16);
    expect(tables(db)).toEqual(otherTables);
    expect(columns(db, 'packers')).toContain('uid');
    expect(indexes(db, 'packers')).toContain('packers_uid');
    expect(rows(db, 'SELECT id, name, badge, role FROM packers ORDER BY id')).toEqual(before);
    const uids = (rows(db, 'SELECT uid FROM packers') as Array<{ uid: string }>).map((r) => r.uid);
    expect(uids.every((u) => /^[0-9a-f]{32}$/.test(u))).toBe(true);
    expect(new Set(uids).size).toBe(2);
    expect(() => db.prepare(`UPDATE packers SET uid = ? WHERE uid <> ?`).run(uids[0], uids[0])).toThrow(/UNIQUE/);
  });

  it('the repository shares packers by uid and takes them back from the warehouse', () => {
    const { db } = t;
    applyStep(db, step);
    const repo = createPackersRepo(db, () => new Date('2026-11-28T10:00:00Z'));
    const anna = repo.save({ name: 'Anna', pin: '4821', role: 'supervisor' });
    const shared = repo.shared(anna.id)!;
    expect(shared).toMatchObject({ name: 'Anna', badge: null, role: 'supervisor', pinHash: expect.stringMatching(/^scrypt\$/) });
    // A packer added at another bench arrives with its uid and badge; a local packer with that badge gives it up.
    repo.save({ name: 'Luca', badge: 'B-7', role: 'packer' });
    repo.applyShared('remote-uid-1', { uid: 'remote-uid-1', name: 'Marta', badge: 'B-7', pinHash: null, role: 'packer' });
    expect(repo.byBadge('B-7')?.name).toBe('Marta');
    expect(repo.list().find((p) => p.name === 'Luca')?.badge).toBeNull();
    // Changed, then removed, by the warehouse.
    repo.applyShared('remote-uid-1', { uid: 'remote-uid-1', name: 'Marta R.', badge: 'B-7', pinHash: shared.pinHash, role: 'packer' });
    expect(repo.byPin('4821')?.name).toBe('Anna');
    expect(repo.allShared().map((p) => p.name)).toEqual(['Anna', 'Luca', 'Marta R.']);
    repo.applyShared('remote-uid-1', null);
    expect(repo.list().map((p) => p.name)).toEqual(['Anna', 'Luca']);
  });
});
