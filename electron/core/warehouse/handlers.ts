/** `warehouse.*` commands: the bench's link to its warehouse (issue 35). */
import type { Handlers } from '../../../shared/contract/commands';
import type { StationContext } from '../common/context';
import { sharedKey } from '../common/services';
import { ClaimTimeoutSetting } from './settings';

/** Handlers of the `warehouse` domain. */
export function createWarehouseHandlers(ctx: StationContext) {
  return {
    /** Whether the warehouse answers, since when, and this bench (a station without a warehouse: not connected, since null). */
    'warehouse.status': async () => ctx.warehouse.status(),
    /** The warehouse's settings as this bench last had them from the warehouse (its own, alone). */
    'warehouse.settings.get': async () => ({ claimTimeoutS: ctx.store.settings.get(ClaimTimeoutSetting) }),
    /**
     * Makes the claim timeout the warehouse's (every bench claims with it within 2 s), then this bench's copy.
     * Supervisor only (packers/activity.ts). @throws StationError `warehouse_offline`, `changed_elsewhere` (nothing changed).
     */
    'warehouse.settings.set': async ({ claimTimeoutS }) => {
      await ctx.warehouse.share([{ key: sharedKey.setting(ClaimTimeoutSetting.key), value: claimTimeoutS }]);
      ctx.store.settings.set(ClaimTimeoutSetting, claimTimeoutS);
      return { claimTimeoutS };
    },
  } satisfies Pick<Handlers, 'warehouse.status' | 'warehouse.settings.get' | 'warehouse.settings.set'>;
}
