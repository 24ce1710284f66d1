/**
 * Connections of the supervisor's page tests to a warehouse made as the README says (test/support/warehouse.ts
 * `createWarehouse`: the `supervisor` role owns it; `benchLogin`: each bench its own login in
 * `warehouse_bench`), as one of those logins: the URL names it, the password is the test cluster's one.
 */
import pg from 'pg';
import { warehouseClientConfig } from '../../../electron/core/warehouse/connection';
import type { TestPostgres } from '../../support/postgres';

/**
 * Runs `work` connected to the warehouse at `url` as the login the URL names, then disconnects.
 * @throws what `work` or the connection throws
 */
export async function asLogin<T>(server: TestPostgres, url: string, work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client(warehouseClientConfig(url, server.password).config);
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** A pool of the warehouse at `url` as the login it names (the supervisor's, as `npm run warehouse` holds it). */
export function poolAs(server: TestPostgres, url: string): pg.Pool {
  return new pg.Pool({ ...warehouseClientConfig(url, server.password).config, max: 4 });
}
