/** `warehouse.*` commands: the bench's link to its warehouse (issue 35). */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import type { StationContext } from '../common/context';
import { warehouseSecretKey, WarehouseUrlSetting } from './connection';
import { sharedKey } from '../common/services';
import { ClaimTimeoutSetting } from './settings';

/** Handlers of the `warehouse` domain. */
export function createWarehouseHandlers(ctx: StationContext, packerName: () => string | null = () => null) {
  const { store, secrets, warehouse } = ctx;
  /** Whether the secret store holds a password for `url` (false when it cannot be read). */
  const passwordSaved = (url: string | null): boolean => {
    if (url === null) return false;
    try {
      return secrets.get(warehouseSecretKey(url)) !== null;
    } catch {
      return false;
    }
  };
  return {
    /** Whether the warehouse answers, since when, and this bench (a station without a warehouse: not connected, since null). */
    'warehouse.status': async () => warehouse.status(),
    /** The day closed for the whole warehouse by the supervisor's program, asked here (supervisor's PIN: packers/activity.ts). */
    'warehouse.closeDay': async () => warehouse.requestClose(packerName()),
    'warehouse.connection.get': async () => {
      const savedUrl = store.settings.get(WarehouseUrlSetting);
      return { url: warehouse.url, source: warehouse.source, savedUrl, passwordSaved: passwordSaved(savedUrl) };
    },
    'warehouse.connection.set': async ({ url, password }) => {
      const before = store.settings.get(WarehouseUrlSetting);
      if (url !== null && password !== undefined) {
        try {
          secrets.set(warehouseSecretKey(url), password);
        } catch (e) {
          throw new StationError(
            'secret_store_unavailable',
            `The warehouse password could not be saved (${(e as Error).message}): give it as PGPASSWORD or in ~/.pgpass on this machine, and save the URL without it`,
            { password: ['no secret store on this machine'] },
          );
        }
      }
      // The password is saved first: a saved URL never points at a password half-saved.
      store.settings.set(WarehouseUrlSetting, url);
      if (before !== null && (url === null || warehouseSecretKey(before) !== warehouseSecretKey(url))) {
        try {
          secrets.delete(warehouseSecretKey(before));
        } catch {
          // Nothing saved there, or no secret store: nothing to forget.
        }
      }
      return { restartRequired: true as const };
    },
    /** The warehouse's settings as this bench last had them from the warehouse (its own, alone). */
    'warehouse.settings.get': async () => ({ claimTimeoutS: store.settings.get(ClaimTimeoutSetting) }),
    /**
     * Makes the claim timeout the warehouse's (every bench claims with it within 2 s), then this bench's copy.
     * Supervisor only (packers/activity.ts). @throws StationError `warehouse_offline`, `changed_elsewhere` (nothing changed).
     */
    'warehouse.settings.set': async ({ claimTimeoutS }) => {
      await ctx.warehouse.share([{ key: sharedKey.setting(ClaimTimeoutSetting.key), value: claimTimeoutS }]);
      store.settings.set(ClaimTimeoutSetting, claimTimeoutS);
      return { claimTimeoutS };
    },
  } satisfies Pick<Handlers, 'warehouse.status' | 'warehouse.closeDay' | 'warehouse.connection.get' | 'warehouse.connection.set' | 'warehouse.settings.get' | 'warehouse.settings.set'>;
}
