/**
 * Small helpers shared by the repositories: clock, JSON columns, LIKE
 * escaping and SQLite error recognition.
 */
import { StoreError } from './errors';

/** Source of "now" for timestamps; tests inject a fixed one. */
export type Clock = () => Date;

/** `now` as ISO 8601 UTC text, the format of every timestamp column. */
export function isoNow(clock: Clock): string {
  return clock().toISOString();
}

/**
 * Serialises a value for a JSON text column.
 * @throws StoreError `invalid_input` naming `field` when the value has no JSON form
 *   (undefined, a function, a BigInt, a cycle).
 */
export function toJson(value: unknown, field: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new StoreError('invalid_input', `${field} cannot be stored as JSON: ${String(err)}`, { [field]: ['not JSON'] });
  }
  if (text === undefined) throw new StoreError('invalid_input', `${field} cannot be stored as JSON`, { [field]: ['not JSON'] });
  return text;
}

/** Parses a JSON text column; NULL stays null. */
export function fromJson(text: string | null): unknown {
  return text === null ? null : (JSON.parse(text) as unknown);
}

/** `%q%` pattern for `LIKE ... ESCAPE '\'`, with the user's `%`, `_` and `\` taken literally. */
export function likeContains(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** True for SQLite's UNIQUE / PRIMARY KEY violation (better-sqlite3 `SqliteError.code`). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** NULL -> undefined, for optional fields of the domain objects. */
export function opt<T>(v: T | null): T | undefined {
  return v === null ? undefined : v;
}

/** undefined -> NULL, for binding optional fields. */
export function nul<T>(v: T | undefined): T | null {
  return v === undefined ? null : v;
}

/** Drops keys whose value is undefined, so optional fields are absent rather than `undefined`. */
export function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}
