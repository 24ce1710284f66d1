/**
 * A warehouse for the tests (issue 35): a database of a test PostgreSQL (./postgres.ts) migrated to this
 * station's schema by its owner, and the wait for a bench's link to say it is connected (or offline).
 */
import pg from 'pg';
import { migrateWarehouse } from '../../electron/core/warehouse/schema';
import type { Invoke } from './commands';
import type { TestPostgres } from './postgres';

/** The warehouse owner's login, as the README makes it ("Run a warehouse"): LOGIN CREATEROLE, owner of the database. */
const SUPERVISOR_LOGIN = 'supervisor';

/** Runs `work` on a connection of `user` to `database` of `server` (the test cluster's one password). */
async function asLogin<T>(server: TestPostgres, database: string, user: string, work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ host: '127.0.0.1', port: server.port, user, database, password: server.password });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/**
 * Creates the warehouse database `name` on `server` exactly as the README's "Run a warehouse" does: a
 * `supervisor` role (LOGIN CREATEROLE; the cluster's test password) owning the database, which migrates it
 * (`npm run warehouse` does this as that role) and then runs `asOwner` on the same connection (a role to
 * create, rows to seed); `schema` stops the migration there (an older warehouse). Never the cluster's superuser: the superuser bypasses row-level security, and the
 * benches' rules would go untested.
 * @returns the owner's URL, without the password (PGPASSWORD or {@link TestPostgres.password}); benches get
 *   their own logins from {@link benchLogin}
 */
export async function createWarehouse(server: TestPostgres, name: string, asOwner?: (db: pg.Client) => Promise<void>, schema?: number): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`);
  await asLogin(server, 'postgres', 'postgres', async (admin) => {
    const exists = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [SUPERVISOR_LOGIN]);
    if (exists.rowCount === 0) await admin.query(`CREATE ROLE ${SUPERVISOR_LOGIN} LOGIN CREATEROLE PASSWORD '${server.password}'`);
    await admin.query(`CREATE DATABASE ${name} OWNER ${SUPERVISOR_LOGIN}`);
  });
  await asLogin(server, name, SUPERVISOR_LOGIN, async (db) => {
    await migrateWarehouse(db, schema);
    await asOwner?.(db);
  });
  return `postgres://${SUPERVISOR_LOGIN}@127.0.0.1:${server.port}/${name}`;
}

/**
 * A bench's own login, as the README tells the supervisor to make one: `CREATE ROLE <login> LOGIN PASSWORD …
 * IN ROLE warehouse_bench`, run by the owner of the warehouse at `ownerUrl` (made once; roles are the
 * cluster's). Its password is the test cluster's one (PGPASSWORD in the tests).
 * @param login a role name (lower-case letters, digits, `_`), e.g. `bench1`
 * @returns the bench's warehouse URL (no password)
 */
export async function benchLogin(server: TestPostgres, ownerUrl: string, login: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(login)) throw new Error(`not a role name: ${login}`);
  const database = new URL(ownerUrl).pathname.slice(1);
  await asLogin(server, database, SUPERVISOR_LOGIN, async (db) => {
    const exists = await db.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [login]);
    if (exists.rowCount === 0) await db.query(`CREATE ROLE ${login} LOGIN PASSWORD '${server.password}' IN ROLE warehouse_bench`);
  });
  return `postgres://${login}@127.0.0.1:${server.port}/${database}`;
}

/** Bench logins handed out in turn (`bench1`, `bench2`, …) for one warehouse: one login per bench, as the README says. */
export function benchLogins(server: TestPostgres, ownerUrl: string, prefix = 'bench'): () => Promise<string> {
  let n = 0;
  return () => benchLogin(server, ownerUrl, `${prefix}${++n}`);
}

/**
 * Polls `warehouse.status` every 50 ms until the link says `connected` is `want` with a `since` (the link
 * connects and notices a loss in the background), at most `ms`.
 * @throws Error naming what was waited for
 */
export async function untilWarehouse(invoke: Invoke, want = true, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await invoke('warehouse.status', {});
    if (s.connected === want && s.since !== null) return s;
    if (Date.now() > end) throw new Error(`the bench's warehouse never ${want ? 'connected' : 'went offline'} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
