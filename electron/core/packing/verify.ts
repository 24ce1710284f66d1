/**
 * `verify.*` and `items.*` commands (issue 14 item 5, scan to verify): the
 * station's setting, the items' alias barcodes and unit weights, and the log
 * of verifications the packer skipped. Matching a scan against the order's
 * lines happens on the bench screen (no round trip per scanned item).
 */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { VerifySettings } from '../../../shared/contract/items';
import { defineSetting, type Store } from '../store';
import type { StationContext } from '../common/context';
import { itemView } from './views';

/** Setting `verify.settings`: off until a station turns it on; 10 % and at least 0.05 kg. */
const VerifySetting = defineSetting('verify.settings', VerifySettings, { enabled: false, tolerancePct: 10, toleranceKg: 0.05 });

/** The station's verify settings (the weight tolerance a label bought ahead is held to, issue 43 item 3). */
export function verifySettingsOf(store: Store): VerifySettings {
  return store.settings.get(VerifySetting);
}

/** Handlers of the `verify` and `items` domains. */
export function createVerifyHandlers(ctx: StationContext) {
  const { store } = ctx;
  return {
    'verify.settings.get': async () => store.settings.get(VerifySetting),
    'verify.settings.set': async (input) => store.settings.set(VerifySetting, input),
    'verify.skip': async (input) => {
      if (!store.orders.getById(input.orderId)) throw new StationError('not_found', `Order ${input.orderId} not found`);
      return { id: store.items.logSkip(input) };
    },
    /**
     * Nothing is stored here: the packers' wrapper (packers/activity.ts) records it, with who and when.
     * @throws StationError `not_found` for an unknown order.
     */
    'verify.mismatch': async ({ orderId }) => {
      if (!store.orders.getById(orderId)) throw new StationError('not_found', `Order ${orderId} not found`);
      return { recorded: true };
    },
    'items.list': async ({ q }) => store.items.list(q ?? '').map(itemView),
    'items.get': async ({ skus }) => store.items.getMany(skus).map(itemView),
    'items.save': async (input) => itemView(store.items.save(input)),
    'items.delete': async ({ sku }) => ({ deleted: store.items.remove(sku) }),
  } satisfies Pick<Handlers, 'verify.settings.get' | 'verify.settings.set' | 'verify.skip' | 'verify.mismatch' | 'items.list' | 'items.get' | 'items.save' | 'items.delete'>;
}
