/** `slips.*` commands: the packing-slip settings and jobs (electron/core/slips, issue 11). */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import type { StationContext } from '../common/context';

/** Handlers of the `slips` domain. */
export function createSlipsHandlers(ctx: StationContext) {
  return {
    'slips.settings.get': async () => ctx.slips.settings(),
    'slips.settings.set': async (input) => ctx.slips.setSettings(input),
    'slips.print': async ({ orderId, trackingNumber }) => {
      if (orderId !== undefined) return ctx.slips.request(orderId);
      const shipment = ctx.store.shipments.getByTrackingNumber(trackingNumber ?? '');
      if (!shipment) throw new StationError('not_found', `Shipment ${trackingNumber ?? ''} not found`);
      if (shipment.orderId === null) throw new StationError('invalid_state', `Shipment ${shipment.trackingNumber} was made without an order: there is nothing to list on a packing slip`);
      return ctx.slips.request(shipment.orderId);
    },
    'slips.list': async ({ orderId }) => ctx.slips.list(orderId),
  } satisfies Pick<Handlers, 'slips.settings.get' | 'slips.settings.set' | 'slips.print' | 'slips.list'>;
}
