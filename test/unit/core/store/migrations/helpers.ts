/**
 * Helpers of the per-step migration tests: a file database at the schema just
 * before a step (the earlier steps applied by the runner), the step applied on
 * its own, and readers of the schema (tables, columns, indexes) to assert on.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { MIGRATIONS, readUserVersion, runMigrations, type Migration } from '../../../../../electron/core/store';
import { tempDir } from '../helpers';

/** A database at `step.version - 1`; `cleanup()` closes it and removes its folder. */
export interface DatabaseBefore {
  db: Database.Database;
  file: string;
  cleanup: () => void;
}

/** The listed migration with `step`'s version, checked to be `step` itself (its file is in the list, in place). */
function listed(step: Migration): Migration {
  const m = MIGRATIONS[step.version - 1];
  if (m !== step) throw new Error(`Migration ${step.version} "${step.name}" is not listed at its place in MIGRATIONS`);
  return m;
}

/**
 * Opens a new file in a temp folder with foreign keys on (as the store opens
 * it) and runs migrations 1..`step.version - 1`: the database as the station
 * before `step` left it, ready for representative rows.
 */
export function databaseBefore(step: Migration): DatabaseBefore {
  listed(step);
  const { dir, cleanup } = tempDir('station-migration-');
  const file = join(dir, 'station.sqlite');
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  runMigrations(db, MIGRATIONS.slice(0, step.version - 1));
  if (readUserVersion(db) !== step.version - 1) throw new Error(`expected user_version ${step.version - 1}`);
  return {
    db,
    file,
    cleanup: () => {
      if (db.open) db.close();
      cleanup();
    },
  };
}

/** Applies `step` alone through the runner (the database must be at `step.version - 1`); returns the versions applied. */
export function applyStep(db: Database.Database, step: Migration): number[] {
  return runMigrations(db, MIGRATIONS.slice(0, listed(step).version));
}

/** Names of the tables (virtual tables included, FTS shadow tables and sqlite_* left out), sorted. */
export function tables(db: Database.Database): string[] {
  return db
    .prepare<[], string>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND name NOT IN (SELECT m.name FROM sqlite_master m JOIN sqlite_master v
           ON v.type = 'table' AND v.sql LIKE 'CREATE VIRTUAL TABLE%' AND m.name LIKE v.name || '_%')
       ORDER BY name`,
    )
    .pluck()
    .all();
}

/** Column names of `table`, in order. */
export function columns(db: Database.Database, table: string): string[] {
  return (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((c) => c.name);
}

/** Names of the explicit indexes of `table` (automatic ones left out), sorted. */
export function indexes(db: Database.Database, table: string): string[] {
  return db
    .prepare<[string], string>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`)
    .pluck()
    .all(table);
}

/** Every row of `sql`, for asserting the data a step kept. */
export function rows(db: Database.Database, sql: string): unknown[] {
  return db.prepare(sql).all();
}
