/**
 * A real PostgreSQL for the warehouse tests (issue 35): a throwaway cluster of
 * Debian's `postgresql` package (`initdb` and `pg_ctl` from
 * /usr/lib/postgresql/<version>/bin, version 15 or newer) in a temp folder, on a
 * free loopback port, with password (SCRAM) authentication for TCP. PostgreSQL
 * refuses to run as root, so a root process runs the cluster as the `postgres`
 * user (`runuser -u postgres --`). Never a mock: the station's own SQL runs on it.
 *
 * `stop()` stops the server (`pg_ctl stop -m fast`) and removes the folder;
 * `stopServer()` / `startServer()` take it away and bring it back on the same
 * port and data (the warehouse-offline tests).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The superuser's password of every test cluster (loopback only, thrown away after the run). */
const SUPERUSER_PASSWORD = 'station-test-superuser';

/** A running test cluster. */
export interface TestPostgres {
  /** Loopback port the server listens on. */
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (no password: give {@link password} apart, as a bench would). */
  readonly url: string;
  /** The superuser's password. */
  readonly password: string;
  /** The server's major version, e.g. 15. */
  readonly version: number;
  /** Creates an empty database `name` (letters, digits, `_`); returns its URL, without the password. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server, keeping its data (it can be started again). */
  stopServer(): void;
  /** Starts the stopped server again on the same port and data. */
  startServer(): void;
  /** Stops the server and removes its folder. */
  stop(): void;
}

/** The newest `/usr/lib/postgresql/<n>/bin` with `initdb`, n ≥ 15; throws naming the package to install otherwise. */
function postgresBin(): { bin: string; version: number } {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .map(Number)
        .filter((v) => v >= 15 && fs.existsSync(path.join(root, String(v), 'bin', 'initdb')))
        .sort((a, b) => b - a)
    : [];
  const version = versions[0];
  if (version === undefined) throw new Error("PostgreSQL 15 or newer is not installed: apt-get install postgresql (build/run.sh test installs it)");
  return { bin: path.join(root, String(version), 'bin'), version };
}

/** A free TCP port on 127.0.0.1 (nothing listens on it when it is returned). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Options of {@link startTestPostgres}. */
interface TestPostgresOptions {
  /**
   * The server's `max_connections` (default 200). The warehouse bench runs 50 bench links, each with its
   * pool of 4 and one LISTEN connection: 250 and its own, more than the default allows.
   */
  maxConnections?: number;
}

/**
 * Starts a new cluster and waits until it accepts connections.
 * @throws Error when PostgreSQL is not installed, or `initdb` / `pg_ctl` fail (their output in the message)
 */
export async function startTestPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  const maxConnections = options.maxConnections ?? 200;
  if (!Number.isInteger(maxConnections) || maxConnections < 10) throw new Error(`max_connections must be an integer of at least 10, not ${maxConnections}`);
  const { bin, version } = postgresBin();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-pg-'));
  const data = path.join(dir, 'data');
  const pwfile = path.join(dir, 'pw');
  fs.writeFileSync(pwfile, `${SUPERUSER_PASSWORD}\n`, { mode: 0o600 });
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const run = (cmd: string, args: string[]): void => {
    const argv = asRoot ? ['runuser', '-u', 'postgres', '--', path.join(bin, cmd), ...args] : [path.join(bin, cmd), ...args];
    const res = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', cwd: dir });
    if (res.status !== 0) throw new Error(`${cmd} failed (${res.status}): ${res.stderr || res.stdout}`);
  };
  run('initdb', ['-D', data, '-U', 'postgres', `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  const opts = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=${maxConnections}`;
  const startServer = (): void => run('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stopServer = (): void => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  startServer();
  const url = (database: string): string => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`);
      // Fields, not a connection string: node-postgres lets a string's missing password override the given one.
      const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', password: SUPERUSER_PASSWORD });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    port,
    url: url('postgres'),
    password: SUPERUSER_PASSWORD,
    version,
    stopServer,
    startServer,
    stop() {
      try {
        stopServer();
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
