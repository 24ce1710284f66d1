/**
 * Client secrets of the headless host in the OS keyring (Secret Service on
 * Linux, Keychain on macOS, Credential Manager on Windows) through
 * `@napi-rs/keyring`, service "Shipping Station". On a machine with no
 * keyring service running (a server without D-Bus/Secret Service) saving
 * fails with a message that says to use STATION_CLIENT_SECRET instead.
 * The package is loaded on first use, not at start.
 */
import { createRequire } from 'node:module';
import { SecretStoreUnavailable } from '../core/account/saved-account';
import type { SecretStore } from '../core/common/services';

/** Service name of the station's keyring entries. */
const KEYRING_SERVICE = 'Shipping Station';

interface KeyringEntry {
  getPassword(): string | null;
  setPassword(password: string): void;
  deletePassword(): boolean;
}
type EntryClass = new (service: string, account: string) => KeyringEntry;

/** The keyring binding's Entry class, or the error loading it (a platform without a prebuilt binding). */
function loadEntry(): EntryClass | Error {
  try {
    const require = createRequire(import.meta.url);
    return (require('@napi-rs/keyring') as { Entry: EntryClass }).Entry;
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** A SecretStore over the OS keyring; the binding is loaded on first use (`load` is injectable for tests). */
export function keyringSecrets(load: () => EntryClass | Error = loadEntry): SecretStore {
  let loaded: EntryClass | Error | undefined;
  const entry = () => (loaded ??= load());
  const unavailable = (why: string, cause?: unknown) =>
    new SecretStoreUnavailable(`The OS keyring cannot keep the secret here (${why}): set STATION_CLIENT_SECRET in the station's environment instead`, { cause });
  return {
    get label() {
      const Entry = entry();
      return Entry instanceof Error ? `none (keyring binding not loaded: ${Entry.message}); STATION_CLIENT_SECRET from the environment` : 'OS keyring (@napi-rs/keyring)';
    },
    get(account) {
      const Entry = entry();
      if (Entry instanceof Error) return null;
      return new Entry(KEYRING_SERVICE, account).getPassword();
    },
    set(account, secret) {
      const Entry = entry();
      if (Entry instanceof Error) throw unavailable(`binding not loaded: ${Entry.message}`, Entry);
      try {
        new Entry(KEYRING_SERVICE, account).setPassword(secret);
      } catch (e) {
        throw unavailable(`no keyring service is running or it refused: ${e instanceof Error ? e.message : String(e)}`, e);
      }
    },
    delete(account) {
      const Entry = entry();
      if (Entry instanceof Error) return;
      try {
        new Entry(KEYRING_SERVICE, account).deletePassword();
      } catch {
        // nothing saved, or no keyring: nothing to delete
      }
    },
  };
}
