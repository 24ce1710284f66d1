/**
 * Wires the outbox executors (electron/core/outbox) to the handlers' follow-up
 * steps: printing after a shipment, events after a pickup or manifest.
 */
import { createManifestExecutor } from '../outbox/manifests';
import { createPickupExecutor } from '../outbox/pickups';
import { createShipmentExecutor } from '../outbox/shipments';
import { eraseExecutor, type OutboxWorkerOptions } from '../outbox/worker';
import { emitAppChanged } from './app';
import type { ContextWithoutOutbox } from './context';
import { afterManifestsCreated } from './manifests';
import { afterShipmentCreated } from './shipments';

/** Executors for `shipment.create`, `pickup.create` and `manifest.create` rows. */
export function createOutboxExecutors(ctx: ContextWithoutOutbox): OutboxWorkerOptions['executors'] {
  const { store, client } = ctx;
  return {
    'shipment.create': eraseExecutor(createShipmentExecutor({ store, client, after: (row, committed) => afterShipmentCreated(ctx, row, committed) })),
    'pickup.create': eraseExecutor(
      createPickupExecutor({
      store,
      client,
      after: (row) => {
        ctx.events.emit('pickups.changed', { id: row.payload.localPickupId });
        emitAppChanged(ctx);
      },
    }),
    ),
    'manifest.create': eraseExecutor(createManifestExecutor({ store, client, after: (row, stored) => afterManifestsCreated(ctx, row, stored) })),
  };
}
