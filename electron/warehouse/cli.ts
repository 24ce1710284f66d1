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
 *
 * The platform's events (issue 44): with the platform account (`--platform-url`, `--auth-url` (default the
 * platform URL's origin), `--client-id`, `STATION_CLIENT_SECRET`; or the same `STATION_*` variables as a bench)
 * and `--public-url https://…` (the warehouse's address as the platform reaches it, through its reverse proxy),
 * it registers `<public url>/platform/events` for the four events (./endpoint.ts; again at every start: the
 * old endpoint is replaced) and the JSON line adds `"webhook": {"id", "url"}`. With the account alone, the
 * warehouse learns by its catch-up only (./catch-up.ts). The secrets are never printed.
 * Exit 2: bad arguments or URL (stderr says which); 1: the database refused (unreachable, password,
 * a schema newer than this program), or the page could not listen.
 */
import pg from 'pg';
import { warehouseClientConfig, WarehouseConfigError } from '../core/warehouse/connection';
import { migrateWarehouse } from '../core/warehouse/schema';
import { startSupervisorPage } from './server';
import { endpointSecret, endpointUrl, registerEndpoint } from './endpoint';
import { createWarehousePlatform, type WarehousePlatformConfig } from './platform';
import { startCloseRequests } from './close-requests';

const USAGE =
  'usage: npm run warehouse -- --warehouse postgres://user@host:5432/db [--port N] [--host H] [--migrate-only] [--platform-url URL --client-id ID [--auth-url URL]] [--public-url https://…]';

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
  /** The platform account, when given (registration, catch-up, the page's endpoint panel). */
  platform: WarehousePlatformConfig | null;
  /** The warehouse's public address for the platform's events, when given. */
  publicUrl: string | null;
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
  const given: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--migrate-only') {
      migrateOnly = true;
      continue;
    }
    const m = /^--(warehouse|port|host|platform-url|auth-url|client-id|public-url)(?:=(.*))?$/.exec(arg);
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
    else if (name !== 'port' && name !== 'host') given[name] = value.trim();
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
  const platformUrl = given['platform-url'] ?? env.STATION_PLATFORM_URL?.trim();
  const clientId = given['client-id'] ?? env.STATION_CLIENT_ID?.trim();
  let platform: WarehousePlatformConfig | null = null;
  if (platformUrl) {
    if (!clientId) throw new WarehouseConfigError('--platform-url needs --client-id (or STATION_CLIENT_ID)');
    const clientSecret = env.STATION_CLIENT_SECRET?.trim();
    if (!clientSecret) throw new WarehouseConfigError('--platform-url needs the client secret in STATION_CLIENT_SECRET (never on the command line)');
    let origin: string;
    try {
      origin = new URL(platformUrl).origin;
    } catch {
      throw new WarehouseConfigError(`--platform-url must be an absolute URL, e.g. https://acme.example.com/api/2026-09, not ${platformUrl}`);
    }
    platform = { baseUrl: platformUrl, authUrl: given['auth-url'] ?? env.STATION_AUTH_URL?.trim() ?? origin, clientId, clientSecret };
  }
  const publicUrl = given['public-url'] ?? null;
  if (publicUrl !== null) {
    if (!platform) throw new WarehouseConfigError('--public-url needs the platform account: --platform-url, --client-id and STATION_CLIENT_SECRET');
    try {
      endpointUrl(publicUrl);
    } catch (e) {
      throw new WarehouseConfigError((e as Error).message);
    }
  }
  return { url, port, host, migrateOnly, platform, publicUrl };
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
  const platform = args.platform ? createWarehousePlatform(args.platform) : null;
  // The receiver checks signatures with the secret kept in the warehouse (an earlier run's, until replaced).
  let secret: string | null = await endpointSecret(db).catch(() => null);
  let page: Awaited<ReturnType<typeof startSupervisorPage>>;
  try {
    page = await startSupervisorPage({ db, host: args.host, port: args.port, platform, events: { secret: () => secret } });
  } catch (e) {
    process.stderr.write(`warehouse: the page cannot listen on ${args.host}:${args.port}: ${(e as Error).message}\n`);
    await db.end().catch(() => undefined);
    process.exitCode = 1;
    return;
  }
  let webhook: { id: number; url: string } | undefined;
  if (platform && args.publicUrl !== null) {
    try {
      const made = await registerEndpoint(platform, db, args.publicUrl);
      secret = made.secret;
      webhook = { id: made.id, url: made.url };
    } catch (e) {
      // The page still serves; the catch-up keeps the warehouse informed meanwhile.
      process.stderr.write(`warehouse: the platform did not register ${args.publicUrl}: ${(e as Error).message}; the warehouse catches up by asking the platform instead\n`);
    }
  }
  // A close of the day asked at a bench with the supervisor's PIN is carried out here, as the page closes it.
  const closeRequests = startCloseRequests({ db, platform, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${JSON.stringify({ url: page.url, migrated, ...(webhook ? { webhook } : {}) })}\n`);
  process.stderr.write(`warehouse: the supervisor's page is on ${page.url}; Ctrl+C to stop\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`warehouse: ${signal}, closing\n`);
    closeRequests
      .stop()
      .then(() => page.close())
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
