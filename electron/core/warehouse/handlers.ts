/** `warehouse.*` commands: the bench's link to its warehouse (issue 35). */
import type { Handlers } from '../../../shared/contract/commands';
import type { StationContext } from '../common/context';

/** Handlers of the `warehouse` domain. */
export function createWarehouseHandlers(ctx: StationContext) {
  return {
    /** Whether the warehouse answers, since when, and this bench (a station without a warehouse: not connected, since null). */
    'warehouse.status': async () => ctx.warehouse.status(),
  } satisfies Pick<Handlers, 'warehouse.status'>;
}
