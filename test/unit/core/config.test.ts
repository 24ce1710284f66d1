import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultPrinterUri, resolveConfig } from '../../../electron/core/config';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveConfig', () => {
  it('defaults to training mode in ~/.shipping-station with no explicit printer', () => {
    const c = resolveConfig([], {});
    expect(c.dataDir).toBe(path.join(os.homedir(), '.shipping-station'));
    expect(c.platform).toEqual({ mode: 'sandbox' });
    expect(c.printerUri).toBeUndefined();
    expect(c.ignoredArgs).toEqual([]);
  });

  it('reads options in both forms, command line over environment', () => {
    const c = resolveConfig(
      ['--data-dir', '/tmp/st', '--platform-url=https://acme.example.com/api/2026-09/', '--client-id', 'app-1', '--printer', 'socket://10.0.0.5:9100', '--port', '0'],
      { STATION_DATA_DIR: '/elsewhere', STATION_CLIENT_ID: 'env-id', STATION_CLIENT_SECRET: 'xyz' },
    );
    expect(c.dataDir).toBe('/tmp/st');
    expect(c.platform).toEqual({
      mode: 'platform',
      baseUrl: 'https://acme.example.com/api/2026-09',
      authUrl: 'https://acme.example.com',
      clientId: 'app-1',
      clientSecret: 'xyz',
    });
    expect(c.printerUri).toBe('socket://10.0.0.5:9100');
    expect(c.ignoredArgs).toEqual(['--port', '0']);
  });

  it('takes everything from the environment, with an explicit auth URL', () => {
    const c = resolveConfig([], {
      STATION_DATA_DIR: '~/stations/bench-1',
      STATION_PLATFORM_URL: 'http://127.0.0.1:5123/api/2026-09',
      STATION_AUTH_URL: 'http://127.0.0.1:5123/',
      STATION_CLIENT_ID: 'id',
      STATION_CLIENT_SECRET: 'secret',
      STATION_PRINTER: 'file:///tmp/labels',
    });
    expect(c.dataDir).toBe(path.join(os.homedir(), 'stations/bench-1'));
    expect(c.platform).toMatchObject({ mode: 'platform', baseUrl: 'http://127.0.0.1:5123/api/2026-09', authUrl: 'http://127.0.0.1:5123' });
    expect(c.printerUri).toBe('file:///tmp/labels');
  });

  it('names the option in every error', () => {
    expect(configError(() => resolveConfig(['--data-dir'], {})).option).toBe('--data-dir');
    expect(configError(() => resolveConfig(['--printer', '--data-dir', '/x'], {})).option).toBe('--printer');
    const notUrl = configError(() => resolveConfig(['--platform-url', 'acme', '--client-id', 'a'], { STATION_CLIENT_SECRET: 'b' }));
    expect(notUrl.option).toBe('--platform-url');
    expect(notUrl.message).toContain('--platform-url');
    const plain = configError(() => resolveConfig([], { STATION_PLATFORM_URL: 'http://acme.example.com/api/2026-09', STATION_CLIENT_ID: 'a', STATION_CLIENT_SECRET: 'b' }));
    expect(plain.option).toBe('STATION_PLATFORM_URL');
    expect(plain.message).toMatch(/https/);
    expect(configError(() => resolveConfig(['--platform-url', 'https://a.example.com/api/2026-09'], { STATION_CLIENT_SECRET: 'b' })).option).toBe('--client-id');
    expect(configError(() => resolveConfig(['--platform-url', 'https://a.example.com/api/2026-09', '--client-id', 'a'], {})).option).toBe('STATION_CLIENT_SECRET');
    expect(configError(() => resolveConfig(['--client-id', 'a'], {})).option).toBe('--client-id');
    const printer = configError(() => resolveConfig([], { STATION_PRINTER: 'lpt1' }));
    expect(printer.option).toBe('STATION_PRINTER');
    expect(configError(() => resolveConfig(['--printer', 'http://printer.local/'], {})).message).toBe('--printer must start with socket://, usb://, printer: or file://, got "http://printer.local/"');
    // Every scheme of the one table (shared/print/device-uri-schemes.ts) is taken, the OS queue's included (README "Options").
    for (const uri of ['socket://10.0.0.5:9100', 'usb://Zebra/ZD421?serial=D2J1', 'printer:Zebra_ZD421', 'file:///tmp/labels']) expect(resolveConfig(['--printer', uri], {}).printerUri).toBe(uri);
    expect(configError(() => resolveConfig(['--data-dir='], {})).option).toBe('--data-dir');
  });

  it('never puts the client secret in an error message', () => {
    const e = configError(() => resolveConfig(['--client-secret', 'TOPSECRET'], {}));
    expect(e.message).not.toContain('TOPSECRET');
  });

  it('refuses --client-secret on the command line, in both forms, saying where the secret goes instead', () => {
    for (const argv of [['--client-secret', 's3cret'], ['--client-secret=s3cret'], ['--platform-url', 'https://a.example.com/api/2026-09', '--client-id', 'a', '--client-secret', 's3cret']]) {
      const e = configError(() => resolveConfig(argv, {}));
      expect(e.option).toBe('--client-secret');
      expect(e.message).toMatch(/process list/);
      expect(e.message).toMatch(/STATION_CLIENT_SECRET/);
      expect(e.message).toMatch(/Settings/);
    }
  });

  it('uses the account saved in Settings when none is given at launch, its secret from the secret store', () => {
    const account = { platformUrl: 'https://acme.example.com/api/2026-09', clientId: 'app-9' };
    const asked: string[] = [];
    const secret = (key: string) => (asked.push(key), key === 'app-9@https://acme.example.com/api/2026-09' ? 'from-keyring' : null);
    const c = resolveConfig([], {}, { account, secret });
    expect(c.platform).toEqual({ mode: 'platform', baseUrl: account.platformUrl, authUrl: 'https://acme.example.com', clientId: 'app-9', clientSecret: 'from-keyring' });
    // The environment's secret wins over the store's (CI, headless servers).
    expect(resolveConfig([], { STATION_CLIENT_SECRET: 'env' }, { account, secret }).platform).toMatchObject({ clientSecret: 'env' });
    // A platform given at launch wins over the saved account.
    expect(resolveConfig(['--platform-url', 'https://other.example.com/api/2026-09', '--client-id', 'x'], { STATION_CLIENT_SECRET: 's' }, { account, secret }).platform).toMatchObject({ baseUrl: 'https://other.example.com/api/2026-09', clientId: 'x' });
    // Saved account, no secret anywhere: a clear error, not training mode.
    const e = configError(() => resolveConfig([], {}, { account, secret: () => null }));
    expect(e.option).toBe('STATION_CLIENT_SECRET');
    expect(e.message).toContain('Settings');
    // Nothing saved: training mode.
    expect(resolveConfig([], {}, { account: null, secret }).platform).toEqual({ mode: 'sandbox' });
    expect(asked.length).toBeGreaterThan(0);
  });

  it('joins a warehouse by --warehouse or STATION_WAREHOUSE_URL, never with the password in it (issue 35)', () => {
    expect(resolveConfig(['--warehouse', 'postgres://station@db.lan:5432/warehouse?sslmode=verify-full'], {}).warehouseUrl).toBe('postgres://station@db.lan:5432/warehouse?sslmode=verify-full');
    expect(resolveConfig([], { STATION_WAREHOUSE_URL: 'postgresql://station@db.lan/wh' }).warehouseUrl).toBe('postgresql://station@db.lan/wh');
    expect(resolveConfig([], {}).warehouseUrl).toBeUndefined();
    const withPassword = configError(() => resolveConfig(['--warehouse=postgres://station:s3cret@db.lan/wh'], {}));
    expect(withPassword.option).toBe('--warehouse');
    expect(withPassword.message).toContain('must not carry the password: set PGPASSWORD or a line in ~/.pgpass');
    expect(withPassword.message).not.toContain('s3cret');
    expect(configError(() => resolveConfig([], { STATION_WAREHOUSE_URL: 'mysql://db/wh' })).message).toBe('STATION_WAREHOUSE_URL must start with postgres://, got "mysql://db/wh"');
  });

  it('builds the training printer URI under the data folder', () => {
    expect(defaultPrinterUri('/data/st')).toBe('file:///data/st/labels');
  });
});
