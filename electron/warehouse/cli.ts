/**
 * `npm run warehouse -- --warehouse postgres://user@host:5432/db [--port N] [--host H] [--migrate-only]`
 * (or `STATION_WAREHOUSE_URL`): the supervisor's program of a warehouse (issue 35). It brings the warehouse
 * database to this version's schema (electron/core/warehouse/schema.ts, one transaction, an advisory lock
 * against a second run), then serves the supervisor's page (./server.ts) on `--host` (default 127.0.0.1,
 * loopback) and `--port` (default 0: a free one) and prints one JSON line on stdout,
 * `{"url": "http://127.0.0.1:<port>/", "migrated": {"from": n, "to": m}}`, then serves until SIGINT or
 * SIGTERM (exit 0). With `--migrate-only` it prints `{"migrated": {"from": n, "to": m}}` and exits 0.
 * Nothing else goes to stdout (messages go to stderr), so a parent reads the first line as its readiness.
 * The password never comes on the command line: `PGPASSWORD` or `~/.pgpass`, as libpq.
 * Exit 2: bad arguments or URL (stderr says which); 1: the database refused (unreachable, password,
 * a schema newer than this program), or the page could not listen.
 */
import pg from 'pg';
import { warehouseClientConfig, WarehouseConfigError } from '../core/warehouse/connection';
import { migrateWarehouse } from '../core/warehouse/schema';
import { startSupervisorPage } from './server';

const USAGE = 'usage: npm run warehouse -- --warehouse postgres://user@host:5432/db [--port N] [--host H] [--migrate-only]';

/** What the command line asks. */
interface WarehouseArgs {
  /** The warehouse database's URL (no password). */
  url: string;
  /** TCP port of the page; 0: a free one. */
  port: number;
  /** Address the page listens on. */
  host: string;
  /** Migrate and exit, serving nothing. */
  migrateOnly: boolean;
}

/**
 * The arguments of the command line (`--name value` or `--name=value`); the URL from `STATION_WAREHOUSE_URL` when no `--warehouse`.
 * @throws WarehouseConfigError naming the faulty argument
 */
function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): WarehouseArgs {
  let url: string | undefined;
  let port = 0;
  let host = '127.0.0.1';
  let migrateOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--migrate-only') {
      migrateOnly = true;
      continue;
    }
    const m = /^--(warehouse|port|host)(?:=(.*))?$/.exec(arg);
    if (!m) throw new WarehouseConfigError(`unknown option ${arg} (${USAGE})`);
    const name = m[1]!;
    let value = m[2];
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new WarehouseConfigError(`--${name} needs a value (${USAGE})`);
      value = next;
      i++;
    }
    if (name === 'warehouse') url = value;
    else if (name === 'host') {
      if (value.trim() === '') throw new WarehouseConfigError('--host needs an address, e.g. 127.0.0.1');
      host = value.trim();
    } else {
      if (!/^\d+$/.test(value) || Number(value) > 65535) throw new WarehouseConfigError(`--port must be a TCP port (0-65535), not ${value}`);
      port = Number(value);
    }
  }
  url ??= env.STATION_WAREHOUSE_URL?.trim() || undefined;
  if (url === undefined) throw new WarehouseConfigError('give the warehouse database: --warehouse postgres://user@host:5432/db, or STATION_WAREHOUSE_URL');
  return { url, port, host, migrateOnly };
}

async function main(): Promise<void> {
  let args: WarehouseArgs;
  let config: pg.ClientConfig;
  try {
    args = parseArgs(process.argv.slice(2), process.env);
    config = warehouseClientConfig(args.url).config;
  } catch (e) {
    process.stderr.write(`warehouse: ${(e as Error).message}\n`);
    process.exit(2);
  }
  let migrated: { from: number; to: number };
  const client = new pg.Client(config);
  try {
    await client.connect();
    migrated = await migrateWarehouse(client);
  } catch (e) {
    process.stderr.write(`warehouse: ${(e as Error).message}\n`);
    process.exitCode = 1;
    return;
  } finally {
    await client.end().catch(() => undefined);
  }
  if (args.migrateOnly) {
    process.stdout.write(`${JSON.stringify({ migrated })}\n`);
    return;
  }

  const db = new pg.Pool({ ...config, max: 4 });
  // A connection the server dropped is replaced on the next query; the page says the database did not answer.
  db.on('error', (e) => process.stderr.write(`warehouse: database connection lost: ${e.message}\n`));
  let page: Awaited<ReturnType<typeof startSupervisorPage>>;
  try {
    page = await startSupervisorPage({ db, host: args.host, port: args.port });
  } catch (e) {
    process.stderr.write(`warehouse: the page cannot listen on ${args.host}:${args.port}: ${(e as Error).message}\n`);
    await db.end().catch(() => undefined);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${JSON.stringify({ url: page.url, migrated })}\n`);
  process.stderr.write(`warehouse: the supervisor's page is on ${page.url}; Ctrl+C to stop\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`warehouse: ${signal}, closing\n`);
    page
      .close()
      .then(() => db.end())
      .then(
        () => process.exit(0),
        (e: unknown) => {
          process.stderr.write(`warehouse: close failed: ${String(e)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
