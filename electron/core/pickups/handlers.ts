/**
 * `pickups.*` commands. Booking goes through the outbox like shipping
 * (POST /pickups may cost money): local record + outbox row in one
 * transaction, then sent and awaited.
 */
import type { z } from 'zod';
import type { Handlers } from '../../../shared/contract/commands';
import type { Pickup, PickupRequest } from '../../../shared/platform/resources';
import type { PickupCreatePayload } from './executor';
import { emitAppChanged } from '../account/app';
import type { StationContext } from '../common/context';
import { pickupOf } from './views';
import { createPickupFormHandlers } from './pickup-form';

/** Handlers of the `pickups` domain. */
export function createPickupsHandlers(ctx: StationContext) {
  const { store } = ctx;
  /**
   * Books a pickup (spec: Endpoints > Pickups) and resolves with the platform's Pickup.
   * @throws StationError with the platform's code (`validation_failed` with details,
   *   `subscription_required`, ...: the booking is marked failed), or `offline`/`timeout`
   *   (the booking stays queued and is sent later).
   */
  const book = async (request: z.output<typeof PickupRequest>): Promise<Pickup> => {
    const row = store.tx(() => {
      const rec = store.pickups.createRequested({
        contractCode: request.serviceType,
        pickupDate: request.pickupDate,
        pickupTime: request.pickupTime,
        request,
      });
      const payload: PickupCreatePayload = { localPickupId: rec.id, request };
      return store.outbox.enqueue({ kind: 'pickup.create', payload, localRef: `pickup:${rec.id}` });
    });
    emitAppChanged(ctx);
    return ctx.outbox.process<Pickup>(row.id);
  };
  return {
    ...createPickupFormHandlers(book),
    /** Pickups booked from this station, newest pickup date first. */
    'pickups.list': async () =>
      store.pickups
        .list({ state: 'booked' })
        .map(pickupOf)
        .filter((p): p is Pickup => p !== undefined),
  } satisfies Pick<Handlers, 'pickups.book' | 'pickups.check' | 'pickups.list'>;
}
