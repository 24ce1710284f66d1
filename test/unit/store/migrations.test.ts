import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineSetting,
  MIGRATIONS,
  openStore,
  readUserVersion,
  runMigrations,
  SCHEMA_VERSION,
  StoreError,
  type Migration,
} from '../../../electron/core/store';
import { tempDir } from './helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const columns = (db: Database.Database, table: string) =>
  (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((c) => c.name);

describe('migration list', () => {
  it('is numbered 1..n and SCHEMA_VERSION is the last', () => {
    MIGRATIONS.forEach((m, i) => expect(m.version).toBe(i + 1));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('rejects a misnumbered list before touching the database', () => {
    const db = new Database(':memory:');
    const bad: Migration[] = [{ version: 2, name: 'skips one', up: () => undefined }];
    expect(() => runMigrations(db, bad)).toThrow(/expected 1/);
    expect(readUserVersion(db)).toBe(0);
    db.close();
  });
});

describe('migration 1 (initial)', () => {
  it('creates every table with its columns and sets user_version 1', () => {
    const db = new Database(join(dir, 'm1.sqlite'));
    expect(runMigrations(db, MIGRATIONS.slice(0, 1))).toEqual([1]);
    expect(readUserVersion(db)).toBe(1);
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as Array<{ name: string }>).map(
      (t) => t.name,
    );
    expect(tables).toEqual(
      ['labels', 'manifests', 'order_items', 'orders', 'outbox', 'pickups', 'print_jobs', 'settings', 'shipments'].sort(),
    );
    expect(columns(db, 'shipments')).toEqual(
      expect.arrayContaining([
        'tracking_number',
        'order_id',
        'reference',
        'contract_code',
        'carrier_code',
        'status_key',
        'cost_total',
        'currency',
        'manifest_id',
        'cancelled_at',
        'platform',
        'created_at',
      ]),
    );
    expect(columns(db, 'outbox')).toEqual(
      expect.arrayContaining(['kind', 'payload', 'state', 'attempts', 'last_error', 'result', 'local_ref', 'created_at', 'updated_at']),
    );
    expect(columns(db, 'print_jobs')).toEqual(
      expect.arrayContaining(['label_id', 'printer_uri', 'state', 'attempts', 'last_error', 'bytes_written', 'printed_at', 'requested_by']),
    );
    expect(columns(db, 'labels')).toEqual(expect.arrayContaining(['tracking_number', 'format', 'bytes', 'created_at']));
    expect(columns(db, 'manifests')).toEqual(
      expect.arrayContaining(['platform_id', 'carrier_code', 'pdf', 'total_shipments', 'total_cost', 'created_at']),
    );
    db.close();
  });

  it('enforces CHECK, UNIQUE and foreign-key rules', () => {
    const db = new Database(join(dir, 'm1.sqlite'));
    db.pragma('foreign_keys = ON');
    runMigrations(db, MIGRATIONS.slice(0, 1));
    const order = (n: string, status = 'open') =>
      db
        .prepare(
          `INSERT INTO orders (order_number, source, created_at, recipient_name, street, city, postal_code, country_code,
             currency, status, stored_at, updated_at)
           VALUES (?, 'manual', 't', 'n', 's', 'c', '00100', 'IT', 'EUR', ?, 't', 't')`,
        )
        .run(n, status);
    order('#1');
    expect(() => order('#1')).toThrow(/UNIQUE/);
    expect(() => order('#2', 'lost')).toThrow(/CHECK/);
    expect(() =>
      db.prepare(`INSERT INTO order_items (order_id, position, name, quantity, unit_price) VALUES (999, 0, 'x', 1, 1)`).run(),
    ).toThrow(/FOREIGN KEY/);
    expect(() =>
      db.prepare(`INSERT INTO labels (tracking_number, format, bytes, created_at) VALUES ('NOPE', 'ZPL', x'00', 't')`).run(),
    ).toThrow(/FOREIGN KEY/);
    expect(() =>
      db.prepare(`INSERT INTO outbox (kind, payload, state, created_at, updated_at) VALUES ('x', 'not json', 'queued', 't', 't')`).run(),
    ).toThrow(/CHECK/);
    // STRICT tables refuse a wrongly typed value instead of storing it.
    expect(() =>
      db
        .prepare(`INSERT INTO print_jobs (label_id, printer_uri, state, attempts, requested_by, created_at, updated_at)
                  VALUES (1, 'u', 'queued', 'many', 'auto', 't', 't')`)
        .run(),
    ).toThrow(/datatype|cannot store/i);
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
    const err = (() => {
      try {
        runMigrations(db, steps);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('migration_failed');
    expect((err as StoreError).message).toMatch(/Migration 2 "two" failed: Error: boom/);
    expect(readUserVersion(db)).toBe(1);
    const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>).map((t) => t.name);
    expect(names).toEqual(['a']);
    db.close();
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
});

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
});

describe('migration 4: customs products', () => {
  it('creates customs_products and the repository remembers per SKU', () => {
    const store = openStore(join(dir, 'c.sqlite'));
    try {
      expect(store.schemaVersion).toBeGreaterThanOrEqual(4);
      store.customsProducts.remember([{ sku: 'TS-01', description: 'T-shirt', harmonizedCode: '610910', countryOfManufacture: 'pt', unitWeightKg: 0.2 }]);
      store.customsProducts.remember([{ sku: 'TS-01', description: 'T-shirt cotone', harmonizedCode: '61091000', countryOfManufacture: 'PT', unitWeightKg: 0.25 }]);
      const [p] = store.customsProducts.getMany(['TS-01', 'NOPE']);
      expect(p).toMatchObject({ sku: 'TS-01', description: 'T-shirt cotone', harmonizedCode: '61091000', countryOfManufacture: 'PT', unitWeightKg: 0.25 });
      expect(store.customsProducts.getMany(['NOPE'])).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('refuses a bad HS code naming the field, and keeps what was saved', () => {
    const store = openStore(join(dir, 'c.sqlite'));
    try {
      store.customsProducts.remember([{ sku: 'A', description: 'a', harmonizedCode: '610910', countryOfManufacture: 'IT', unitWeightKg: null }]);
      expect(() => store.customsProducts.remember([{ sku: 'A', description: 'a', harmonizedCode: '61', countryOfManufacture: 'IT', unitWeightKg: null }])).toThrow(
        expect.objectContaining({ code: 'invalid_input', details: { harmonizedCode: ['HS code must be 6 to 10 digits'] } }),
      );
      expect(store.customsProducts.getMany(['A'])[0]?.harmonizedCode).toBe('610910');
    } finally {
      store.close();
    }
  });

  it('upgrades a version-1 file keeping its rows', () => {
    const file = join(dir, 'v1.sqlite');
    const db = new Database(file);
    runMigrations(db, MIGRATIONS.slice(0, 1));
    db.close();
    const store = openStore(file);
    try {
      expect(store.schemaVersion).toBe(SCHEMA_VERSION);
      const db2 = new Database(file, { readonly: true });
      expect(columns(db2, 'customs_products')).toEqual(['sku', 'description', 'harmonized_code', 'country_of_manufacture', 'unit_weight_kg', 'updated_at']);
      db2.close();
    } finally {
      store.close();
    }
  });
});
