/** `carriers.*` and `warehouses.*` commands: the account's contracts and warehouses. */
import type { Handlers } from '../../../shared/contract/commands';
import type { StationContext } from '../common/context';

/** Handlers of the `carriers` and `warehouses` domains. */
export function createCarriersHandlers(ctx: StationContext) {
  return {
    /** GET /carriers: the client's carriers and contracts (spec: Endpoints > Carriers). */
    'carriers.list': () => ctx.client.getCarriers(),
    /** GET /warehouses: the account's warehouses (sandbox extension). */
    'warehouses.list': () => ctx.client.listWarehouses(),
  } satisfies Pick<Handlers, 'carriers.list' | 'warehouses.list'>;
}
