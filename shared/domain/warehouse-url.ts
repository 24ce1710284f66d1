/**
 * What makes a warehouse URL unusable before anything connects (issue 35), one rule for the command
 * line (electron/core/config.ts) and the warehouse link (electron/core/warehouse/connection.ts): it
 * must be PostgreSQL's, and it never carries the password (every user of the machine can read a
 * process's arguments); the password comes from PGPASSWORD or ~/.pgpass, as libpq's does.
 */

/**
 * The problem of `url` as the end of a sentence that names it (`--warehouse must start with postgres://, …`),
 * or null when it may be used. The value is echoed only when it carries no password.
 */
export function warehouseUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `must be a PostgreSQL URL such as postgres://station@db.example:5432/warehouse, got "${url}"`;
  }
  if (u.password !== '') return 'must not carry the password: set PGPASSWORD or a line in ~/.pgpass (every user of this machine can read a URL given here)';
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') return `must start with postgres://, got "${url}"`;
  return null;
}
