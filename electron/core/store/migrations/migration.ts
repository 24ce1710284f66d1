import type Database from 'better-sqlite3';

/**
 * One schema step, in its own file `NNNN-<name>.ts` beside this one and listed
 * in order in `index.ts`. `up` runs inside a transaction opened by
 * `runMigrations` (index.ts), together with the `user_version` bump.
 */
export interface Migration {
  /** 1, 2, 3, ...: the `PRAGMA user_version` the file holds once this step is applied. */
  version: number;
  /** Human name, kept as released (tests and error messages name the step by it). */
  name: string;
  up(db: Database.Database): void;
  /** Run with `PRAGMA foreign_keys = OFF` (table rebuilds); the runner checks every key before committing. */
  foreignKeysOff?: boolean;
}
