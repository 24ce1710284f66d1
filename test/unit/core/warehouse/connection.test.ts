// A bench's warehouse URL (issue 35 item 1): libpq's sslmode, and never a password on the command line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { warehouseClientConfig, WarehouseConfigError, warehouseProblem } from '../../../../electron/core/warehouse/connection';

const refusal = (url: string): string => {
  try {
    warehouseClientConfig(url);
  } catch (e) {
    expect(e).toBeInstanceOf(WarehouseConfigError);
    return (e as Error).message;
  }
  throw new Error(`${url} was accepted`);
};

describe('warehouse URL', () => {
  it('reads host, port, user and database, with the default port and no password of its own', () => {
    const { config, address } = warehouseClientConfig('postgres://station@db.lan/warehouse');
    expect(address).toEqual({ host: 'db.lan', port: 5432, database: 'warehouse', user: 'station' });
    expect(config).toMatchObject({ host: 'db.lan', port: 5432, user: 'station', database: 'warehouse', application_name: 'shipping-station', connectionTimeoutMillis: 5000 });
    // No password of its own: asked when the server wants one, from PGPASSWORD or ~/.pgpass, as libpq.
    expect(typeof config.password).toBe('function');
    expect(warehouseClientConfig('postgresql://station@10.1.2.3:6432/wh', 's3cret').config).toMatchObject({ port: 6432, password: 's3cret' });
  });

  it('finds the password as libpq does: PGPASSWORD, else the ~/.pgpass line of host, port, database and user', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgpass-'));
    const saved = { PGPASSWORD: process.env.PGPASSWORD, PGPASSFILE: process.env.PGPASSFILE };
    try {
      const file = path.join(dir, 'pgpass');
      fs.writeFileSync(file, 'other.lan:5432:warehouse:station:not-this\ndb.lan:5432:warehouse:station:from-file\n', { mode: 0o600 });
      process.env.PGPASSFILE = file;
      delete process.env.PGPASSWORD;
      const ask = warehouseClientConfig('postgres://station@db.lan/warehouse').config.password as () => Promise<string>;
      expect(await ask()).toBe('from-file');
      process.env.PGPASSWORD = 'from-env';
      expect(await ask()).toBe('from-env');
      delete process.env.PGPASSWORD;
      const none = warehouseClientConfig('postgres://nobody@db.lan/warehouse').config.password as () => Promise<string>;
      await expect(none()).rejects.toThrow(/^no password for user "nobody": set PGPASSWORD, add a line to ~\/\.pgpass/);
      // A file others may read is not used, as libpq.
      fs.chmodSync(file, 0o644);
      await expect(ask()).rejects.toThrow(/no password/);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps libpq\'s meaning of sslmode', () => {
    expect(warehouseClientConfig('postgres://u@h/d?sslmode=disable').config.ssl).toBe(false);
    expect(warehouseClientConfig('postgres://u@h/d?sslmode=require').config.ssl).toMatchObject({ rejectUnauthorized: false });
    expect(warehouseClientConfig('postgres://u@h/d?sslmode=verify-full').config.ssl).toEqual({});
  });

  it('refuses a password in the URL, another scheme, and a URL without user or database, naming what to do', () => {
    expect(refusal('postgres://station:s3cret@db.lan/warehouse')).toMatch(/must not carry the password.*PGPASSWORD.*~\/\.pgpass/);
    expect(refusal('mysql://station@db.lan/warehouse')).toContain('must start with postgres://');
    expect(refusal('postgres://db.lan/warehouse')).toContain('names no user');
    expect(refusal('postgres://station@db.lan')).toContain('names no database');
    expect(refusal('db.lan:5432')).toContain('must start with postgres://');
    expect(refusal('not a url')).toContain('must be a PostgreSQL URL');
  });
});

describe('why a bench cannot join', () => {
  const address = { host: 'db.lan', port: 5432, database: 'warehouse', user: 'station' };
  const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
  it('says each cause in a sentence with what to do; an unknown one as it came', () => {
    expect(warehouseProblem(pgError('28P01', 'password authentication failed for user "station"'), address)).toBe(
      'the warehouse refused the password of user "station" (password authentication failed for user "station"): check PGPASSWORD, ~/.pgpass or the password saved on this station',
    );
    expect(warehouseProblem(new Error('The server does not support SSL connections'), address)).toMatch(/^the warehouse server at db\.lan:5432 does not offer TLS and the URL asks for it/);
    expect(warehouseProblem(pgError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432'), address)).toBe('nothing answers at db.lan:5432 (connect ECONNREFUSED 10.0.0.5:5432): is PostgreSQL running there, on that port?');
    expect(warehouseProblem(pgError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.lan'), address)).toMatch(/^the host db\.lan is not known/);
    expect(warehouseProblem(new Error('Connection terminated due to connection timeout'), address)).toMatch(/^the warehouse at db\.lan:5432 does not answer/);
    expect(warehouseProblem(pgError('3D000', 'database "warehouse" does not exist'), address)).toMatch(/^the warehouse server has no database "warehouse"/);
    expect(warehouseProblem(pgError('57P01', 'terminating connection due to administrator command'), address)).toMatch(/^the warehouse server is shutting down or starting/);
    expect(warehouseProblem(new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'), address)).toMatch(/^the warehouse asks for a password and this bench has none/);
    expect(warehouseProblem(Object.assign(new Error('The warehouse database is at schema 1 and this station needs 3: run "npm run warehouse"'), { name: 'WarehouseSchemaError' }), address)).toBe(
      'The warehouse database is at schema 1 and this station needs 3: run "npm run warehouse"',
    );
    expect(warehouseProblem(new Error('something else'), address)).toBe('unreachable: something else');
  });
});
