/**
 * The `pgpass` package (node-postgres' own reader of libpq's password file): no types are published for it.
 * It calls back with the password of the first `~/.pgpass` (or `PGPASSFILE`) line matching host, port,
 * database and user, or undefined (no file, a file readable by others, no line).
 */
declare module 'pgpass' {
  interface PgPassConnection {
    host: string;
    port: number;
    database: string;
    user: string;
  }
  function pgpass(connection: PgPassConnection, callback: (password: string | undefined) => void): void;
  export default pgpass;
}
