/**
 * Errors of the SQLite store. Callers match on `code`, never on `message`
 * (DESIGN.md "One contract"); `details` maps a field path to messages, like
 * the spec's error envelope.
 */
import type { FieldErrors } from '../../../shared/platform/common';

/**
 * Why a store operation failed:
 * - `schema_too_new`: the file was written by a newer station (its `PRAGMA user_version`
 *   is above the last migration this code knows); it is left untouched;
 * - `cannot_open`: the file cannot be opened or created for another reason (missing folder, I/O error);
 * - `not_a_database`: the file exists but is not an SQLite database (its header is not SQLite's);
 * - `migration_failed`: a migration step's own SQL failed; its transaction was rolled back;
 * - `already_running`: another station holds the data folder's lock (store/lock.ts);
 * - `locked`: another program holds the database's lock longer than the busy timeout;
 * - `permission_denied`: the file, its folder or the file system is read-only for this user
 *   (EACCES, EPERM, EROFS, SQLITE_READONLY, SQLITE_PERM);
 * - `corrupt`: SQLite reports damage (`PRAGMA quick_check` not "ok", SQLITE_CORRUPT); the
 *   file is left in place;
 * - `disk_full`: no space left to write (SQLITE_FULL, ENOSPC);
 *
 * The open-time codes `already_running`, `locked`, `permission_denied`, `corrupt` and
 * `disk_full` say the file is healthy or may be repaired: nobody moves such a file aside.
 * - `not_found`: no row with that id / key;
 * - `conflict`: a unique value is already taken (order number, tracking number);
 * - `invalid_state`: the row is not in a state that allows the change (e.g. completing an
 *   outbox row that is not `sending`);
 * - `invalid_input`: a value cannot be stored (bad base64, setting failing its schema).
 */
export type StoreErrorCode =
  | 'schema_too_new'
  | 'cannot_open'
  | 'not_a_database'
  | 'migration_failed'
  | 'already_running'
  | 'locked'
  | 'permission_denied'
  | 'corrupt'
  | 'disk_full'
  | 'not_found'
  | 'conflict'
  | 'invalid_state'
  | 'invalid_input';

/** Error thrown by `openStore` and the repositories. */
export class StoreError extends Error {
  constructor(
    public readonly code: StoreErrorCode,
    message: string,
    public readonly details?: FieldErrors,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}
