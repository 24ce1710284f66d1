/**
 * A warehouse for the tests (issue 35): a database of a test PostgreSQL (./postgres.ts) migrated to this
 * station's schema by its owner, and the wait for a bench's link to say it is connected (or offline).
 */
import pg from 'pg';
import { warehouseClientConfig } from '../../electron/core/warehouse/connection';
import { migrateWarehouse } from '../../electron/core/warehouse/schema';
import type { Invoke } from './commands';
import type { TestPostgres } from './postgres';

/**
 * Creates the database `name` on `server` and migrates it as its owner (the superuser), optionally running
 * `asOwner` on the same connection afterwards (a role to create, rows to seed).
 * @returns its URL, without the password (benches get it as PGPASSWORD, as libpq)
 */
export async function createWarehouse(server: TestPostgres, name: string, asOwner?: (db: pg.Client) => Promise<void>): Promise<string> {
  const url = await server.createDatabase(name);
  const db = new pg.Client(warehouseClientConfig(url, server.password).config);
  await db.connect();
  try {
    await migrateWarehouse(db);
    await asOwner?.(db);
  } finally {
    await db.end();
  }
  return url;
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
