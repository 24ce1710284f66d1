/**
 * The outbox's executors, one per kind of row, each from the domain that owns
 * the row (shipping, pickups, manifests, stocks, orders), wired to the
 * follow-up steps of their handlers: printing after a shipment, events after
 * a pickup, manifest or stock instruction. Composition, like commands.ts: the
 * outbox engine (outbox/worker.ts) knows no domain (ARCHITECTURE.md "Domains
 * of the core").
 */
import { emitAppChanged } from './account/app';
import type { ContextWithoutOutbox } from './common/context';
import { createManifestExecutor } from './manifests/executor';
import { afterManifestsCreated } from './manifests/handlers';
import { createOrdersSubmitExecutor } from './orders/submit-executor';
import { eraseExecutor, type OutboxWorkerOptions } from './outbox/worker';
import { createPickupExecutor } from './pickups/executor';
import { createShipmentExecutor } from './shipping/shipment-executor';
import { afterShipmentCreated, shipResultOfDone } from './shipping/shipments';
import { createStockExecutor } from './stocks/executor';

/** Settle rule of `shipment.create` rows (shipping/shipment-executor.ts); defaults there. */
export interface ShipmentSettleOptions {
  settleMs?: number;
  pollMs?: number;
}

/** Executors for `shipment.create`, `pickup.create`, `manifest.create` and `orders.submit` rows. */
export function createOutboxExecutors(ctx: ContextWithoutOutbox, settle: ShipmentSettleOptions = {}): OutboxWorkerOptions['executors'] {
  const { store, client } = ctx;
  return {
    'shipment.create': eraseExecutor(
      createShipmentExecutor({
        store,
        client,
        printerUri: () => ctx.printer.uri,
        inCommit: (orderId, trackingNumber, payload) => {
          // The shipment is the bench's whenever it is sent (issue 42 item 6): its `ship` activity is written with
          // it, in the same transaction, so the warehouse hears of a queued press sent later as of any other.
          const who = payload.pressedBy ?? { packerId: null, packerName: null, stationName: null };
          store.activity.record({ action: 'ship', ...who, trackingNumber, orderId: orderId ?? null });
          void ctx.slips.queueWithLabel(orderId, trackingNumber);
        },
        ...(settle.settleMs !== undefined ? { settleMs: settle.settleMs } : {}),
        ...(settle.pollMs !== undefined ? { pollMs: settle.pollMs } : {}),
        now: () => new Date(ctx.now()),
        after: (row, committed) => afterShipmentCreated(ctx, row, committed),
        doneOutcome: async (row) => shipResultOfDone(ctx, row),
      }),
    ),
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
    'stock.instruct': eraseExecutor(
      createStockExecutor({
        client,
        after: (row, stock) => {
          ctx.events.emit('stocks.changed', { id: stock.id });
          if (row.payload.trackingNumber) ctx.events.emit('shipments.changed', { trackingNumber: row.payload.trackingNumber });
          emitAppChanged(ctx);
        },
      }),
    ),
    'orders.submit': eraseExecutor(createOrdersSubmitExecutor({ store, client, after: () => emitAppChanged(ctx) })),
  };
}
