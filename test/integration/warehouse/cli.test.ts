/**
 * `npm run warehouse -- --migrate-only` (electron/warehouse/cli.ts, issue 35) against a real PostgreSQL: it
 * migrates the warehouse database from empty, again without change, refuses a password in the URL, an
 * unknown option or a bad port (exit 2) and a database newer than itself (exit 1, also without
 * --migrate-only: it serves nothing), each said on stderr. Serving the page: page.test.ts.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warehouseClientConfig } from '../../../electron/core/warehouse/connection';
import { WAREHOUSE_SCHEMA_VERSION } from '../../../electron/core/warehouse/schema';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';

const ROOT = path.resolve(__dirname, '../../..');
let server: TestPostgres;
let url: string;

/** Runs the CLI with `args`, the test server's password in PGPASSWORD. */
function warehouse(args: string[], env: Record<string, string> = {}) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/warehouse/cli.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, PGPASSWORD: server.password, STATION_WAREHOUSE_URL: '', ...env },
    timeout: 60_000,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

beforeAll(async () => {
  server = await startTestPostgres();
  url = await server.createDatabase('warehouse');
}, 60_000);

afterAll(() => server?.stop());

describe('npm run warehouse', () => {
  it('migrates the warehouse database, then finds nothing to do; one JSON line on stdout', () => {
    const first = warehouse(['--warehouse', url, '--migrate-only']);
    expect(first).toMatchObject({ status: 0, stderr: '' });
    expect(first.stdout).toBe(`${JSON.stringify({ migrated: { from: 0, to: WAREHOUSE_SCHEMA_VERSION } })}\n`);
    const again = warehouse(['--migrate-only'], { STATION_WAREHOUSE_URL: url });
    expect(JSON.parse(again.stdout)).toEqual({ migrated: { from: WAREHOUSE_SCHEMA_VERSION, to: WAREHOUSE_SCHEMA_VERSION } });
  });

  it('refuses a password in the URL and no URL at all (exit 2), and a newer database (exit 1)', async () => {
    const withPassword = warehouse([`--warehouse=postgres://postgres:${server.password}@127.0.0.1:${server.port}/warehouse`, '--migrate-only']);
    expect(withPassword.status).toBe(2);
    expect(withPassword.stderr).toContain('must not carry the password');
    expect(withPassword.stderr).not.toContain(server.password);
    expect(warehouse([]).status).toBe(2);
    expect(warehouse(['--warehouse', url, '--port', 'http']).stderr).toContain('--port must be a TCP port');
    expect(warehouse(['--warehouse', url, '--bogus']).status).toBe(2);
    const db = new pg.Client(warehouseClientConfig(url, server.password).config);
    await db.connect();
    await db.query('UPDATE warehouse_schema SET version = version + 1');
    await db.end();
    const newer = warehouse(['--warehouse', url]);
    expect(newer.status).toBe(1);
    expect(newer.stderr).toContain('update it first');
    expect(newer.stdout).toBe('');
  });
});
