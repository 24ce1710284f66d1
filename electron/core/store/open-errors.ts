/**
 * Telling apart why a database (or the data folder) could not be used
 * (issue 7 item 8): a healthy file that is only locked by another program,
 * or read-only for this user, must never be taken for a damaged one and
 * moved aside. Each failure becomes a {@link StoreError} whose code says
 * which, and whose message is what the packer reads: what happened, what
 * to do, and that the file was left as it was. Never a raw stack.
 *
 * Sources: SQLite result codes (https://sqlite.org/rescode.html, as
 * better-sqlite3's `SqliteError.code`, extended codes included, e.g.
 * `SQLITE_READONLY_DBMOVED`); Node's `errno` codes for file system calls.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StoreError, type StoreErrorCode } from './errors';

/** Codes of an error thrown by better-sqlite3 (`SQLITE_*`) or by `node:fs` (`EACCES`, ...); undefined otherwise. */
export function errorCodeOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The open-time class of an error code, or undefined for one that says nothing about lock, permission, space or damage. */
export function classOfCode(code: string | undefined): Extract<StoreErrorCode, 'locked' | 'permission_denied' | 'corrupt' | 'disk_full' | 'not_a_database'> | undefined {
  if (code === undefined) return undefined;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'locked';
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH' || code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'permission_denied';
  if (code.startsWith('SQLITE_CORRUPT')) return 'corrupt';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return 'disk_full';
  if (code === 'SQLITE_NOTADB') return 'not_a_database';
  return undefined;
}

/**
 * What this process may not do with `file` and its folder, as a phrase
 * ("the folder /x is read-only"), found by asking the file system; undefined
 * when it may read and write both (then the refusal came from elsewhere,
 * e.g. a read-only mount SQLite noticed first).
 */
function accessProblem(file: string): string | undefined {
  const dir = path.dirname(file);
  const can = (p: string, mode: number) => {
    try {
      fs.accessSync(p, mode);
      return true;
    } catch {
      return false;
    }
  };
  if (!fs.existsSync(dir)) return `the folder ${dir} does not exist`;
  if (!can(dir, fs.constants.W_OK | fs.constants.X_OK)) return `the folder ${dir} is read-only for this user`;
  if (fs.existsSync(file) && !can(file, fs.constants.R_OK)) return `the file ${file} may not be read by this user`;
  if (fs.existsSync(file) && !can(file, fs.constants.W_OK)) return `the file ${file} is read-only for this user`;
  for (const side of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    if (fs.existsSync(side) && !can(side, fs.constants.R_OK | fs.constants.W_OK)) return `the file ${side} is read-only for this user`;
  }
  return undefined;
}

/**
 * The message of a `permission_denied` StoreError for `file`.
 * @param what how the message names the file (default `its database <file>`).
 */
export function permissionMessage(file: string, cause: unknown, what = `its database ${file}`): string {
  const why = accessProblem(file) ?? (errorCodeOf(cause) === 'EROFS' ? 'the file system is mounted read-only' : 'the file or its folder is read-only for this user');
  return (
    `The station may not write ${what}: ${why}. ` +
    `Give the user running the station write access to ${path.dirname(file)} and the files in it, ` +
    'or start it with --data-dir set to a folder it may write. Nothing was changed.'
  );
}

/**
 * Turns an error met while opening, checking or migrating `file` into a
 * StoreError of the right class. An error already a StoreError is kept, except
 * a `migration_failed` whose cause was a lock, a permission, damage or a full
 * disk, which takes that class instead (the migration's SQL was not at fault).
 * `fallback` is the code for anything else (`cannot_open` while opening,
 * `not_a_database` while reading the header).
 * @param busyTimeoutMs how long SQLite waited for the lock (for the message).
 * @param what how a permission message names the file (default `its database <file>`).
 */
export function classifyStoreError(err: unknown, file: string, fallback: 'cannot_open' | 'not_a_database', busyTimeoutMs: number, what?: string): StoreError {
  let cause = err;
  if (err instanceof StoreError) {
    if (err.code !== 'migration_failed' || classOfCode(errorCodeOf(err.cause)) === undefined) return err;
    cause = err.cause;
  }
  const code = errorCodeOf(cause);
  const text = cause instanceof Error ? cause.message : String(cause);
  switch (classOfCode(code)) {
    case 'locked':
      return new StoreError(
        'locked',
        `The database ${file} is locked by another program (still busy after ${Math.round(busyTimeoutMs / 100) / 10} s). ` +
          'Close the other program that has it open (another station, a backup or a database browser), then start again. The file was not changed.',
        undefined,
        { cause },
      );
    case 'permission_denied':
      return new StoreError('permission_denied', permissionMessage(file, cause, what), undefined, { cause });
    case 'corrupt':
      return corruptError(file, [text], cause);
    case 'disk_full':
      return new StoreError('disk_full', `The disk holding ${file} is full. Free some space, then start again. The file was not changed.`, undefined, { cause });
    case 'not_a_database':
      return new StoreError('not_a_database', `${file} is not a station database (${text}).`, undefined, { cause });
    default:
      // SQLite says "unable to open" for a folder it may not write too: ask the file system which.
      if (code?.startsWith('SQLITE_CANTOPEN') && accessProblem(file) !== undefined) {
        return new StoreError('permission_denied', permissionMessage(file, cause, what), undefined, { cause });
      }
      return new StoreError(
        fallback,
        fallback === 'cannot_open' ? `Cannot open the database ${file}: ${text}${code ? ` (${code})` : ''}. The file was not changed.` : `${file} is not a station database (${text}).`,
        undefined,
        { cause },
      );
  }
}

/**
 * The `corrupt` StoreError for `file`: the first problems SQLite listed, and
 * what to do. The file is never moved or changed by the station: it may hold
 * shipments and pickups not yet sent.
 */
export function corruptError(file: string, problems: readonly string[], cause?: unknown): StoreError {
  const shown = problems.slice(0, 3).join('; ');
  const more = problems.length > 3 ? ` and ${problems.length - 3} more` : '';
  return new StoreError(
    'corrupt',
    `The database ${file} is damaged (SQLite quick_check: ${shown}${more}). It was left where it is, unchanged. ` +
      'Stop the station and keep a copy of the file: it may hold shipments not yet sent. Then restore your last backup of it, ' +
      `or rebuild it with the sqlite3 tool (sqlite3 "${file}" ".recover" | sqlite3 recovered.sqlite) and put recovered.sqlite in its place. ` +
      'To start with an empty database instead, move the file away yourself; shipments already sent stay on the platform.',
    undefined,
    cause === undefined ? undefined : { cause },
  );
}
