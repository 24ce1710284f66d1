/**
 * Client secrets of the desktop app, encrypted with Electron's `safeStorage`
 * (Keychain on macOS, DPAPI on Windows, the Secret Service/kwallet on Linux)
 * and kept as base64 in `<dataDir>/secrets.json` (0600). Refuses to save when
 * encryption is unavailable or, on Linux, would fall back to the
 * `basic_text` backend (a hard-coded key: no protection), and says to use
 * STATION_CLIENT_SECRET instead. No electron import: main passes `safeStorage`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SecretStoreUnavailable } from '../core/account/saved-account';
import type { SecretStore } from '../core/common/services';
import { DATA_FILE_MODE } from '../core/data-dir';

/** The part of Electron's `safeStorage` used here. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only. */
  getSelectedStorageBackend?: () => string;
}

/** A SecretStore over `safeStorage`, kept in `<dataDir>/secrets.json`. */
export function safeStorageSecrets(safeStorage: SafeStorageLike, dataDir: string, platform: NodeJS.Platform = process.platform): SecretStore {
  const file = path.join(dataDir, 'secrets.json');
  const backend = () => (platform === 'linux' && safeStorage.getSelectedStorageBackend ? safeStorage.getSelectedStorageBackend() : null);
  const read = (): Record<string, string> => {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(`${file} cannot be read (${e instanceof Error ? e.message : String(e)}): delete it and save the account again in Settings`);
    }
  };
  const write = (all: Record<string, string>) => {
    const tmp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, JSON.stringify(all), { mode: DATA_FILE_MODE });
    fs.renameSync(tmp, file);
  };
  return {
    get label() {
      const b = backend();
      return `Electron safeStorage${b ? ` (${b})` : ''}`;
    },
    get(account) {
      const enc = read()[account];
      if (enc === undefined || !safeStorage.isEncryptionAvailable()) return null;
      return safeStorage.decryptString(Buffer.from(enc, 'base64'));
    },
    set(account, secret) {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new SecretStoreUnavailable('Encryption is not available on this machine (no OS keychain): set STATION_CLIENT_SECRET in the station\'s environment instead');
      }
      if (backend() === 'basic_text') {
        throw new SecretStoreUnavailable('No secret service (gnome-keyring, kwallet) is running, so the secret would be stored with a fixed key: set STATION_CLIENT_SECRET in the station\'s environment instead');
      }
      write({ ...read(), [account]: safeStorage.encryptString(secret).toString('base64') });
    },
    delete(account) {
      const all = read();
      if (!(account in all)) return;
      delete all[account];
      write(all);
    },
  };
}
