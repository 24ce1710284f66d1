/**
 * `npm run warehouse -- --warehouse postgres://user@host:5432/db` (or `STATION_WAREHOUSE_URL`): the
 * supervisor's program of a warehouse (issue 35). Its first part, the one built: it brings the warehouse
 * database to this version's schema (electron/core/warehouse/schema.ts, one transaction, an advisory lock
 * against a second run) and prints one JSON line on stdout, `{"migrated": {"from": n, "to": m}}`, then
 * exits 0. The password never comes on the command line: `PGPASSWORD` or `~/.pgpass`, as libpq.
 * Exit 2: bad arguments or URL (stderr says which); 1: the database refused (unreachable, password,
 * a schema newer than this program).
 */
import pg from 'pg';
import { warehouseClientConfig, WarehouseConfigError } from '../core/warehouse/connection';
import { migrateWarehouse } from '../core/warehouse/schema';

/** The warehouse URL of the command line (`--warehouse URL`, `--warehouse=URL`) or the environment. */
function warehouseUrlOf(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--warehouse=')) return arg.slice('--warehouse='.length);
    if (arg === '--warehouse') {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new WarehouseConfigError('--warehouse needs a value: postgres://user@host:5432/db');
      return next;
    }
    throw new WarehouseConfigError(`unknown option ${arg} (usage: npm run warehouse -- --warehouse postgres://user@host:5432/db)`);
  }
  const fromEnv = env.STATION_WAREHOUSE_URL?.trim();
  if (fromEnv) return fromEnv;
  throw new WarehouseConfigError('give the warehouse database: --warehouse postgres://user@host:5432/db, or STATION_WAREHOUSE_URL');
}

async function main(): Promise<void> {
  let config: pg.ClientConfig;
  try {
    config = warehouseClientConfig(warehouseUrlOf(process.argv.slice(2), process.env)).config;
  } catch (e) {
    process.stderr.write(`warehouse: ${(e as Error).message}\n`);
    process.exit(2);
  }
  const client = new pg.Client(config);
  try {
    await client.connect();
    const migrated = await migrateWarehouse(client);
    process.stdout.write(`${JSON.stringify({ migrated })}\n`);
  } catch (e) {
    process.stderr.write(`warehouse: ${(e as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await client.end().catch(() => undefined);
  }
}

void main();
