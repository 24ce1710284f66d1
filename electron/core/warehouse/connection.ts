/**
 * How a bench reaches its warehouse (issue 35 item 1): a PostgreSQL URL
 * (`postgres://user@host:5432/db?sslmode=verify-full`, from `--warehouse` or
 * `STATION_WAREHOUSE_URL`), read with libpq's meaning of `sslmode` (disable,
 * prefer, require, verify-ca, verify-full). The password is never in the URL
 * (a process's arguments are readable by every user of the machine): it comes
 * as libpq's does, from `PGPASSWORD` or `~/.pgpass` (node-postgres reads both
 * when no password is given), or from the OS secret store passed in.
 */
import { parse } from 'pg-connection-string';
import pgpass from 'pgpass';
import type { ClientConfig } from 'pg';
import { z } from 'zod';
import { warehouseUrlProblem } from '../../../shared/domain/warehouse-url';
import { defineSetting } from '../store';

/** Setting `warehouse.url`: the warehouse this bench joins at its start when no `--warehouse` is given (Settings › Station); null: alone. */
export const WarehouseUrlSetting = defineSetting('warehouse.url', z.string().max(500).nullable(), null);

/**
 * The OS secret store's account of a warehouse URL's password: `warehouse:<user>@<host>:<port>/<database>`
 * (a password belongs to a user of one server and database, whatever the URL's other parameters).
 * @throws WarehouseConfigError when the URL is not usable
 */
export function warehouseSecretKey(url: string): string {
  const { address } = warehouseClientConfig(url);
  return `warehouse:${address.user}@${address.host}:${address.port}/${address.database}`;
}

/** A warehouse URL that cannot be used; `message` names the fault and what to do. */
export class WarehouseConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WarehouseConfigError';
  }
}

/** Where the warehouse is, without secrets: for messages, logs and `warehouse.status`. */
export interface WarehouseAddress {
  host: string;
  port: number;
  database: string;
  user: string;
}

/**
 * The password as libpq finds it when the station keeps none: `PGPASSWORD`, else the `~/.pgpass` (or
 * `PGPASSFILE`) line of this host, port, database and user. node-postgres asks only when the server wants
 * a password.
 * @throws Error naming both ways when neither has one (node-postgres reports it as the connection's error)
 */
async function libpqPassword(address: WarehouseAddress): Promise<string> {
  const fromEnv = process.env.PGPASSWORD;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const fromFile = await new Promise<string | undefined>((resolve) => pgpass(address, resolve));
  if (fromFile !== undefined) return fromFile;
  throw new Error(`no password for user "${address.user}": set PGPASSWORD, add a line to ~/.pgpass (mode 0600), or save it in Settings › Warehouse`);
}

/**
 * The node-postgres configuration of a warehouse URL.
 * @param url `postgres://` or `postgresql://` URL; `sslmode` as libpq spells it
 * @param password from the OS secret store, when the station keeps one; otherwise `PGPASSWORD` / `~/.pgpass`
 * @returns the client configuration (application name `shipping-station`, connect timeout 5 s) and the address
 * @throws WarehouseConfigError when the URL does not parse, is not PostgreSQL's, names no host, user or
 *   database, or carries a password
 */
export function warehouseClientConfig(url: string, password?: string): { config: ClientConfig; address: WarehouseAddress } {
  const problem = warehouseUrlProblem(url);
  if (problem !== null) throw new WarehouseConfigError(`The warehouse URL ${problem}`);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(url, { useLibpqCompat: true });
  } catch (e) {
    throw new WarehouseConfigError(`The warehouse URL is not usable: ${(e as Error).message}`);
  }
  const host = parsed.host ?? '';
  const user = parsed.user ?? '';
  const database = parsed.database ?? '';
  if (host === '') throw new WarehouseConfigError('The warehouse URL names no host');
  if (user === '') throw new WarehouseConfigError('The warehouse URL names no user (postgres://<user>@host/db)');
  if (database === '') throw new WarehouseConfigError('The warehouse URL names no database (postgres://user@host/<database>)');
  const port = parsed.port ? Number(parsed.port) : 5432;
  const config: ClientConfig = {
    host,
    port,
    user,
    database,
    application_name: 'shipping-station',
    connectionTimeoutMillis: 5000,
    password: password ?? (() => libpqPassword({ host, port, database, user })),
    ...(parsed.ssl !== undefined ? { ssl: parsed.ssl as ClientConfig['ssl'] } : {}),
  };
  return { config, address: { host, port, database, user } };
}

/**
 * Why a bench cannot join its warehouse, as one sentence for its log (issue 35 item 7: a wrong password, a
 * refused TLS, an unreachable host, a schema of another version each said plainly, with what to do), from the
 * error of node-postgres or of the schema check. Never carries a password (neither error holds one).
 */
export function warehouseProblem(e: unknown, address: WarehouseAddress): string {
  const err = e as { code?: unknown; message?: unknown; name?: unknown };
  const code = typeof err.code === 'string' ? err.code : '';
  const message = typeof err.message === 'string' ? err.message : String(e);
  const at = `${address.host}:${address.port}`;
  // The schema check's own sentence says what to run or to update (warehouse/schema.ts).
  if (err.name === 'WarehouseSchemaError') return message;
  if (code === '28P01') return `the warehouse refused the password of user "${address.user}" (${message}): check PGPASSWORD, ~/.pgpass or the password saved on this station`;
  if (code === '28000') return `the warehouse refused user "${address.user}" (${message}): ask its administrator to let this bench in (pg_hba.conf, the role)`;
  if (code === '3D000') return `the warehouse server has no database "${address.database}" (${message}): check the warehouse URL`;
  if (/password must be a string|^no password for user/.test(message)) return `the warehouse asks for a password and this bench has none: set PGPASSWORD or ~/.pgpass, or save it on this station`;
  if (/does not support SSL/i.test(message)) return `the warehouse server at ${at} does not offer TLS and the URL asks for it (sslmode): turn on ssl on the server, or change sslmode in the URL if the network is trusted`;
  if (/certificate|self[- ]signed|SSL|TLS/i.test(message) && code !== 'ECONNREFUSED') return `the TLS connection to the warehouse at ${at} was refused (${message}): check the server's certificate and sslmode`;
  if (code.startsWith('57P')) return `the warehouse server is shutting down or starting (${message}): this bench tries again at each heartbeat`;
  if (/Connection terminated unexpectedly/.test(message)) return `the connection to the warehouse at ${at} broke (${message}): this bench tries again at each heartbeat`;
  if (code === 'ECONNREFUSED') return `nothing answers at ${at} (${message}): is PostgreSQL running there, on that port?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host ${address.host} is not known (${message}): check the warehouse URL and the network`;
  if (code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || /timeout/i.test(message)) return `the warehouse at ${at} does not answer (${message}): check the network`;
  return `unreachable: ${message}`;
}
