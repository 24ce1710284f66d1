/**
 * The migration list and runner (electron/core/store/migrations/index.ts):
 * numbered 1..n, one file and one test per step, each step in its own
 * transaction, a database newer than the code refused untouched.
 */
import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, readUserVersion, runMigrations, SCHEMA_VERSION, StoreError, type Migration } from '../../../../../electron/core/store';
import { m0003OrdersShops } from '../../../../../electron/core/store/migrations/0003-orders-shops-fulfilment-search';
import { tempDir } from '../helpers';
import { databaseBefore, rows, tables } from './helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

/** The error `fn` throws (undefined when it returns). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** Versions named by the `NNNN-<name><suffix>` files of `folder`, sorted. */
function numberedFiles(folder: string, suffix: string): number[] {
  return readdirSync(folder)
    .filter((f) => /^\d{4}-.+$/.test(f) && f.endsWith(suffix) && (suffix !== '.ts' || !f.endsWith('.test.ts')))
    .map((f) => Number(f.slice(0, 4)))
    .sort((a, b) => a - b);
}

describe('migration list', () => {
  it('is numbered 1..n and SCHEMA_VERSION is the last', () => {
    MIGRATIONS.forEach((m, i) => expect(m.version).toBe(i + 1));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('has one NNNN-<name>.ts file per step and one NNNN-<name>.test.ts beside this test', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(numberedFiles(join(__dirname, '../../../../../electron/core/store/migrations'), '.ts')).toEqual(versions);
    expect(numberedFiles(__dirname, '.test.ts')).toEqual(versions);
  });

  it('rejects a misnumbered list before touching the database', () => {
    const db = new Database(':memory:');
    const bad: Migration[] = [{ version: 2, name: 'skips one', up: () => undefined }];
    expect(() => runMigrations(db, bad)).toThrow(/expected 1/);
    expect(readUserVersion(db)).toBe(0);
    db.close();
  });
});

describe('runMigrations', () => {
  it('applies each step in its own transaction: a failing step is rolled back, earlier ones stay', () => {
    const db = new Database(join(dir, 'fail.sqlite'));
    const steps: Migration[] = [
      { version: 1, name: 'one', up: (d) => d.exec('CREATE TABLE a (x INTEGER)') },
      {
        version: 2,
        name: 'two',
        up: (d) => {
          d.exec('CREATE TABLE b (x INTEGER)');
          throw new Error('boom');
        },
      },
    ];
    const err = thrown(() => runMigrations(db, steps));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('migration_failed');
    expect((err as StoreError).message).toMatch(/Migration 2 "two" failed: Error: boom/);
    expect(readUserVersion(db)).toBe(1);
    const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>).map((t) => t.name);
    expect(names).toEqual(['a']);
    db.close();
  });

  it('rolls back a table rebuild that would break a foreign key, leaves user_version and the rows as they were, and turns foreign keys back on', () => {
    const t = databaseBefore(m0003OrdersShops);
    try {
      const { db } = t;
      db.prepare(
        `INSERT INTO orders (id, order_number, source, created_at, recipient_name, street, city, postal_code, country_code, currency, status, stored_at, updated_at)
         VALUES (1, '#1001', 'manual', 't', 'n', 's', 'c', '00100', 'IT', 'EUR', 'open', 't', 't')`,
      ).run();
      // A dangling key written while foreign keys were off (an older station, a hand edit).
      db.pragma('foreign_keys = OFF');
      db.prepare(`INSERT INTO order_items (order_id, position, name, quantity, unit_price) VALUES (42, 0, 'x', 1, 1)`).run();
      db.pragma('foreign_keys = ON');
      const before = { tables: tables(db), orders: rows(db, 'SELECT * FROM orders'), items: rows(db, 'SELECT * FROM order_items') };

      const err = thrown(() => runMigrations(db));
      expect(err).toMatchObject({ name: 'StoreError', code: 'migration_failed' });
      expect((err as StoreError).message).toMatch(/Migration 3 "orders-shops-fulfilment-search" failed: .*foreign key/);
      expect(readUserVersion(db)).toBe(2);
      expect({ tables: tables(db), orders: rows(db, 'SELECT * FROM orders'), items: rows(db, 'SELECT * FROM order_items') }).toEqual(before);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      t.cleanup();
    }
  });

  it('applies only the missing steps', () => {
    const db = new Database(join(dir, 'partial.sqlite'));
    const ran: number[] = [];
    const steps: Migration[] = [1, 2, 3].map((v) => ({ version: v, name: `m${v}`, up: () => void ran.push(v) }));
    expect(runMigrations(db, steps.slice(0, 2))).toEqual([1, 2]);
    expect(runMigrations(db, steps)).toEqual([3]);
    expect(runMigrations(db, steps)).toEqual([]);
    expect(ran).toEqual([1, 2, 3]);
    db.close();
  });

  it('refuses a database whose user_version is newer than the code, writing nothing', () => {
    const db = new Database(join(dir, 'newer.sqlite'));
    db.exec('CREATE TABLE future_stuff (x INTEGER); INSERT INTO future_stuff VALUES (42);');
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    const ran: number[] = [];
    const steps = MIGRATIONS.map((m) => ({ ...m, up: (d: Database.Database) => (ran.push(m.version), m.up(d)) }));

    const err = thrown(() => runMigrations(db, steps));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('schema_too_new');
    expect((err as StoreError).message).toBe(
      `The database was written by a newer station (schema ${SCHEMA_VERSION + 1}, this version knows up to ${SCHEMA_VERSION}). Update the station; the file was left untouched.`,
    );
    expect(ran).toEqual([]);
    expect(readUserVersion(db)).toBe(SCHEMA_VERSION + 1);
    expect(tables(db)).toEqual(['future_stuff']);
    expect(db.prepare('SELECT x FROM future_stuff').pluck().get()).toBe(42);
    db.close();
  });
});
