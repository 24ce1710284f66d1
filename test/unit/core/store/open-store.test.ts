/** `openStore` on a new, an existing, a newer and a broken file (the schema steps themselves: test/unit/core/store/migrations/). */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineSetting, MIGRATIONS, openStore, PAGE_CACHE_KIB, readUserVersion, runMigrations, SCHEMA_VERSION, StoreError } from '../../../../electron/core/store';
import { tempDir } from './helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const columns = (db: Database.Database, table: string) =>
  (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((c) => c.name);

describe('openStore', () => {
  it('opens a new file in WAL mode with foreign keys on, at the current schema version', () => {
    const file = join(dir, 'station.sqlite');
    const store = openStore(file);
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    store.close();
    store.close(); // twice is fine
    const db = new Database(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(readUserVersion(db)).toBe(SCHEMA_VERSION);
    db.close();
  });

  it("bounds the connection's page cache (not better-sqlite3's 16 MB, which kept every label written in memory)", () => {
    const store = openStore(join(dir, 'station.sqlite'));
    expect(PAGE_CACHE_KIB).toBeLessThanOrEqual(4096);
    expect(store.pageCacheKib).toBe(PAGE_CACHE_KIB);
    store.close();
  });

  it('keeps data across reopen without re-running migrations', () => {
    const file = join(dir, 'station.sqlite');
    const a = openStore(file);
    a.settings.set(defineSetting('x.y', z.number(), 0), 7);
    a.close();
    const b = openStore(file);
    expect(b.settings.getRaw('x.y')).toBe(7);
    b.close();
  });

  it('refuses a database written by a newer station and leaves the file untouched', () => {
    const file = join(dir, 'newer.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE future_stuff (x INTEGER); INSERT INTO future_stuff VALUES (42);');
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    const before = sha(file);

    let err: unknown;
    try {
      openStore(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('schema_too_new');
    expect((err as StoreError).message).toContain(`schema ${SCHEMA_VERSION + 5}`);
    expect(sha(file)).toBe(before);
    expect(existsSync(`${file}-wal`)).toBe(false);

    const again = new Database(file, { readonly: true });
    expect(readUserVersion(again)).toBe(SCHEMA_VERSION + 5);
    expect(again.prepare('SELECT x FROM future_stuff').pluck().get()).toBe(42);
    again.close();
  });

  it('says clearly when the file cannot be created', () => {
    expect(() => openStore(join(dir, 'no', 'such', 'folder', 'station.sqlite'))).toThrow(
      expect.objectContaining({ name: 'StoreError', code: 'cannot_open' }),
    );
  });

  it('refuses a file that is not a database and leaves it untouched', () => {
    const file = join(dir, 'notes.sqlite');
    writeFileSync(file, 'these are not the tables you are looking for\n'.repeat(200));
    const before = sha(file);
    expect(() => openStore(file)).toThrow(expect.objectContaining({ name: 'StoreError', code: 'not_a_database' }));
    expect(sha(file)).toBe(before);
  });

  it('upgrades a version-1 file keeping its rows', () => {
    const file = join(dir, 'v1.sqlite');
    const db = new Database(file);
    runMigrations(db, MIGRATIONS.slice(0, 1));
    db.prepare(
      `INSERT INTO orders (id, order_number, source, created_at, recipient_name, street, city, postal_code, country_code, currency, status, stored_at, updated_at)
       VALUES (5, '#1001', 'manual', 't', 'Giulia Rossi', 'Via Roma 1', 'Roma', '00184', 'IT', 'EUR', 'open', 't', 't')`,
    ).run();
    db.close();
    const store = openStore(file);
    try {
      expect(store.schemaVersion).toBe(SCHEMA_VERSION);
      expect(store.orders.getById(5)).toMatchObject({ shop: 'main', orderNumber: '#1001', recipient: { name: 'Giulia Rossi' } });
      const db2 = new Database(file, { readonly: true });
      expect(columns(db2, 'products')).toEqual(['sku', 'description', 'hs_code', 'origin_country', 'unit_weight_kg', 'updated_at', 'length_cm', 'width_cm', 'height_cm', 'ships_alone']);
      db2.close();
    } finally {
      store.close();
    }
  });
});
