// A bench's warehouse URL (issue 35 item 1): libpq's sslmode, and never a password on the command line.
import { describe, expect, it } from 'vitest';
import { warehouseClientConfig, WarehouseConfigError } from '../../../../electron/core/warehouse/connection';

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
    expect(config.password).toBeUndefined(); // node-postgres then reads PGPASSWORD or ~/.pgpass, as libpq does
    expect(warehouseClientConfig('postgresql://station@10.1.2.3:6432/wh', 's3cret').config).toMatchObject({ port: 6432, password: 's3cret' });
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
