/**
 * `settings.*` commands: the platform account entered once in Settings
 * (issue 15 "Private data"). The client secret goes to the OS secret store
 * (ctx.secrets) and never back to the renderer; URLs and client id to
 * `<dataDir>/account.json`. Takes effect at the next start.
 */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { forgetSavedAccount, readSavedAccount, SecretStoreUnavailable, writeSavedAccount, type SavedAccount } from './saved-account';
import { ConfigError, resolveConfig, secretAccountKey } from '../config';
import type { StationContext } from '../common/context';

/** Settings field a ConfigError from resolveConfig belongs to. */
function fieldOf(option: string): string {
  if (option.includes('auth')) return 'authUrl';
  if (option.includes('client-id') || option.includes('CLIENT_ID')) return 'clientId';
  return 'platformUrl';
}

/** Handlers of the `settings` domain. */
export function createSettingsHandlers(ctx: StationContext) {
  const savedOrError = (): SavedAccount | null => {
    try {
      return readSavedAccount(ctx.dataDir);
    } catch (e) {
      throw new StationError('invalid_input', e instanceof Error ? e.message : String(e));
    }
  };
  return {
    'account.settings.get': async () => {
      const saved = savedOrError();
      let secretSaved = false;
      if (saved) {
        try {
          secretSaved = ctx.secrets.get(secretAccountKey(saved)) !== null;
        } catch {
          secretSaved = false; // a locked keyring: shown as "not saved"; saving again says why
        }
      }
      return {
        saved: saved ? { platformUrl: saved.platformUrl, ...(saved.authUrl ? { authUrl: saved.authUrl } : {}), clientId: saved.clientId } : null,
        secretSaved,
        secretStore: ctx.secrets.label,
        secretFromEnvironment: (process.env.STATION_CLIENT_SECRET ?? '').trim() !== '',
      };
    },
    'account.settings.set': async (input) => {
      // The same rules as at launch (https, or http on localhost; auth URL derived when empty).
      let account: SavedAccount;
      try {
        const c = resolveConfig(['--platform-url', input.platformUrl, ...(input.authUrl ? ['--auth-url', input.authUrl] : []), '--client-id', input.clientId], { STATION_CLIENT_SECRET: input.clientSecret });
        if (c.platform.mode !== 'platform') throw new Error('unreachable: a platform URL was given');
        account = { platformUrl: c.platform.baseUrl, ...(input.authUrl ? { authUrl: c.platform.authUrl } : {}), clientId: c.platform.clientId };
      } catch (e) {
        if (e instanceof ConfigError) {
          const field = fieldOf(e.option);
          throw new StationError('invalid_input', e.message.replace(/--platform-url|--auth-url|--client-id/g, (f) => ({ '--platform-url': 'Platform URL', '--auth-url': 'Auth URL', '--client-id': 'Client id' })[f] ?? f), { [field]: [e.message] });
        }
        throw e;
      }
      try {
        ctx.secrets.set(secretAccountKey(account), input.clientSecret);
      } catch (e) {
        if (e instanceof SecretStoreUnavailable) throw new StationError('secret_store_unavailable', e.message);
        throw new StationError('secret_store_unavailable', `The secret could not be saved (${e instanceof Error ? e.message : String(e)}); set STATION_CLIENT_SECRET in the station's environment instead`);
      }
      // The secret is stored first: an account file never points at a secret that is missing.
      const previous = savedOrError();
      writeSavedAccount(ctx.dataDir, account);
      if (previous && secretAccountKey(previous) !== secretAccountKey(account)) ctx.secrets.delete(secretAccountKey(previous));
      return { restartRequired: true as const };
    },
    'account.settings.forget': async () => {
      const saved = savedOrError();
      forgetSavedAccount(ctx.dataDir);
      if (saved) ctx.secrets.delete(secretAccountKey(saved));
      return { restartRequired: true as const };
    },
  } satisfies Pick<Handlers, 'account.settings.get' | 'account.settings.set' | 'account.settings.forget'>;
}
