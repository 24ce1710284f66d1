/**
 * Open-time error classes of the store (issue 7 item 8): SQLite result codes
 * and errno codes map to lock, permission, damage and space; a
 * migration_failed caused by one of them takes that class; a damaged file
 * found by quick_check is refused with its problems and what to do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError, openStore } from '../../../../electron/core/store';
import { classOfCode, classifyStoreError } from '../../../../electron/core/store/open-errors';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('classOfCode', () => {
  it('tells lock, permission, damage, space and non-databases apart', () => {
    expect(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_LOCKED_SHAREDCACHE'].map(classOfCode)).toEqual(['locked', 'locked', 'locked', 'locked']);
    expect(['SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_PERM', 'EACCES', 'EPERM', 'EROFS'].map(classOfCode)).toEqual(Array(6).fill('permission_denied'));
    expect(['SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX'].map(classOfCode)).toEqual(['corrupt', 'corrupt']);
    expect(['SQLITE_FULL', 'ENOSPC'].map(classOfCode)).toEqual(['disk_full', 'disk_full']);
    expect(classOfCode('SQLITE_NOTADB')).toBe('not_a_database');
    expect([undefined, 'SQLITE_ERROR', 'SQLITE_CONSTRAINT'].map(classOfCode)).toEqual([undefined, undefined, undefined]);
  });

  it('a migration that failed because the file was busy is `locked`, not migration_failed', () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const e = classifyStoreError(new StoreError('migration_failed', 'Migration 3 failed', undefined, { cause: busy }), '/x/station.sqlite', 'cannot_open', 5000);
    expect(e.code).toBe('locked');
    expect(e.message).toBe(
      'The database /x/station.sqlite is locked by another program (still busy after 5 s). Close the other program that has it open (another station, a backup or a database browser), then start again. The file was not changed.',
    );
    const sqlBug = new StoreError('migration_failed', 'Migration 3 failed', undefined, { cause: Object.assign(new Error('no such table'), { code: 'SQLITE_ERROR' }) });
    expect(classifyStoreError(sqlBug, '/x/station.sqlite', 'cannot_open', 5000)).toBe(sqlBug);
  });
});

describe('openStore: PRAGMA quick_check', () => {
  it('refuses a file whose pages are damaged, with the problems and what to do, and leaves it unchanged', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-qc-'));
    dirs.push(dir);
    const file = path.join(dir, 'station.sqlite');
    openStore(file).close();
    // Some pages of rows to damage.
    const db = new Database(file);
    db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, text TEXT)');
    const ins = db.prepare('INSERT INTO filler (text) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 300; i++) ins.run(`row ${i} `.repeat(20));
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const buf = fs.readFileSync(file);
    const pageSize = buf.readUInt16BE(16);
    // Break the cell count of every page past the schema page.
    for (let p = 2; p < buf.length / pageSize; p++) buf.writeUInt16BE(0xffff, p * pageSize + 3);
    fs.writeFileSync(file, buf);
    const before = fs.readFileSync(file);
    let err: unknown;
    try {
      openStore(file).close();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('corrupt');
    expect((err as StoreError).message).toMatch(/is damaged \(SQLite quick_check: .+\)\. It was left where it is, unchanged\./);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });
});
