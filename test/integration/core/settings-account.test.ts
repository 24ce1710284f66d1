/**
 * Settings › Platform account (issue 15 "Private data"): the secret is kept
 * by the secret store and never returned; URLs and client id go to
 * account.json (0600); the next start uses them through resolveConfig; a
 * machine without a secret store (this one: no keyring service) says to use
 * STATION_CLIENT_SECRET. Real station (training mode) and the real
 * @napi-rs/keyring binding.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StationError } from '../../../shared/contract/errors';
import type { AccountView } from '../../../shared/contract/views';
import { accountFile, readSavedAccount, SecretStoreUnavailable } from '../../../electron/core/account/saved-account';
import type { SecretStore } from '../../../electron/core/common/services';
import { resolveConfig } from '../../../electron/core/config';
import { invokeCommand, type Station } from '../../../electron/core/station';
import { startStation } from '../../../electron/shell/start';
import { keyringSecrets } from '../../../electron/host/keyring';
import { safeStorageSecrets } from '../../../electron/main/secret-store';
import { tempDir } from './helpers';

/** An in-memory secret store (what a working OS keyring does). */
function memorySecrets(): SecretStore & { all: Map<string, string> } {
  const all = new Map<string, string>();
  return { all, label: 'test store', get: (k) => all.get(k) ?? null, set: (k, v) => void all.set(k, v), delete: (k) => void all.delete(k) };
}

let tmp: ReturnType<typeof tempDir>;
let station: Station | null = null;
beforeEach(() => {
  tmp = tempDir('station-settings-');
});
afterEach(async () => {
  await station?.close();
  station = null;
  tmp.cleanup();
});

async function start(secrets: SecretStore): Promise<Station> {
  station = await startStation({ dataDir: tmp.dir, platform: { mode: 'sandbox' }, printerUri: `file://${path.join(tmp.dir, 'labels')}`, ignoredArgs: [] }, { secrets });
  return station;
}

async function rejection(p: Promise<unknown>): Promise<StationError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(StationError);
  return e as StationError;
}

describe('settings.account', () => {
  it('saves the account once: secret in the store, never returned; the next start uses it', async () => {
    const secrets = memorySecrets();
    const s = await start(secrets);
    await invokeCommand(s.handlers, 'account.settings.set', { platformUrl: 'https://acme.example.com/api/2026-09/', clientId: 'app-7', clientSecret: 'TOPSECRET' });
    const view = (await invokeCommand(s.handlers, 'account.settings.get', {})) as AccountView;
    expect(view).toMatchObject({ saved: { platformUrl: 'https://acme.example.com/api/2026-09', clientId: 'app-7' }, secretSaved: true, secretStore: 'test store' });
    expect(JSON.stringify(view)).not.toContain('TOPSECRET');
    const fileText = fs.readFileSync(accountFile(tmp.dir), 'utf8');
    expect(fileText).not.toContain('TOPSECRET');
    if (process.platform !== 'win32') expect(fs.statSync(accountFile(tmp.dir)).mode & 0o777).toBe(0o600);
    expect([...secrets.all.values()]).toEqual(['TOPSECRET']);
    // The next start: no platform at launch, the saved account with its secret.
    const c = resolveConfig([], {}, { account: readSavedAccount(tmp.dir), secret: (k) => secrets.get(k) });
    expect(c.platform).toEqual({ mode: 'platform', baseUrl: 'https://acme.example.com/api/2026-09', authUrl: 'https://acme.example.com', clientId: 'app-7', clientSecret: 'TOPSECRET' });
    // Forget: file and secret gone.
    await invokeCommand(s.handlers, 'account.settings.forget', {});
    expect(fs.existsSync(accountFile(tmp.dir))).toBe(false);
    expect(secrets.all.size).toBe(0);
  });

  it('refuses a bad URL naming the field, and saves nothing', async () => {
    const secrets = memorySecrets();
    const s = await start(secrets);
    const e = await rejection(invokeCommand(s.handlers, 'account.settings.set', { platformUrl: 'http://acme.example.com/api/2026-09', clientId: 'a', clientSecret: 's' }));
    expect(e.code).toBe('invalid_input');
    expect(Object.keys(e.details ?? {})).toEqual(['platformUrl']);
    expect(e.message).toMatch(/https/);
    expect(fs.existsSync(accountFile(tmp.dir))).toBe(false);
    expect(secrets.all.size).toBe(0);
  });

  it('with the real OS keyring: saved there, or (no keyring service, as on CI) a message to use STATION_CLIENT_SECRET and no account written', async () => {
    const s = await start(keyringSecrets());
    const input = { platformUrl: 'https://acme.example.com/api/2026-09', clientId: `station-test-${process.pid}`, clientSecret: 'S3CR3T-VALUE' };
    const outcome = await invokeCommand(s.handlers, 'account.settings.set', input).then(() => null, (x: unknown) => x);
    if (outcome === null) {
      // A desktop with a keyring: the secret is there; clean it up again.
      expect(((await invokeCommand(s.handlers, 'account.settings.get', {})) as AccountView).secretSaved).toBe(true);
      await invokeCommand(s.handlers, 'account.settings.forget', {});
      return;
    }
    expect(outcome).toBeInstanceOf(StationError);
    const e = outcome as StationError;
    expect(e.code).toBe('secret_store_unavailable');
    expect(e.message).toContain('STATION_CLIENT_SECRET');
    expect(e.message).not.toContain('S3CR3T-VALUE');
    expect(fs.existsSync(accountFile(tmp.dir))).toBe(false);
  });

  it('safeStorage store: encrypted at rest (0600), refuses the basic_text backend and missing encryption', () => {
    const fake = { isEncryptionAvailable: () => true, encryptString: (t: string) => Buffer.from(t, 'utf8').reverse(), decryptString: (b: Buffer) => Buffer.from(b).reverse().toString('utf8'), getSelectedStorageBackend: () => 'gnome_libsecret' };
    const store = safeStorageSecrets(fake, tmp.dir, 'linux');
    store.set('a@x', 'TOPSECRET');
    const file = path.join(tmp.dir, 'secrets.json');
    expect(fs.readFileSync(file, 'utf8')).not.toContain('TOPSECRET');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(store.get('a@x')).toBe('TOPSECRET');
    expect(store.label).toBe('Electron safeStorage (gnome_libsecret)');
    expect(() => safeStorageSecrets({ ...fake, getSelectedStorageBackend: () => 'basic_text' }, tmp.dir, 'linux').set('b', 's')).toThrow(SecretStoreUnavailable);
    expect(() => safeStorageSecrets({ ...fake, isEncryptionAvailable: () => false }, tmp.dir, 'darwin').set('b', 's')).toThrow(/STATION_CLIENT_SECRET/);
    store.delete('a@x');
    expect(store.get('a@x')).toBeNull();
  });
});
