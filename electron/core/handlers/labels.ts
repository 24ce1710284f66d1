/** `labels.*` commands: reprinting a stored label. */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError, type StationErrorCode } from '../../../shared/contract/errors';
import type { StationContext } from './context';
import { isStationErrorCode } from './errors';
import { findLocalShipment } from './lookup';

/** Handlers of the `labels` domain. */
export function createLabelsHandlers(ctx: StationContext) {
  const { store } = ctx;
  return {
    /**
     * Prints the stored ZPL label again as a new `reprint` job, from the bytes
     * kept since shipping (no network). Only a shipment adopted without a label
     * (scanned from another bench) fetches it once with GET /shipments/{ldv}/label.
     * @throws StationError `not_found_locally` (unknown shipment, no label), or the
     *   printer's code (`printer_unreachable`, `printer_timeout`, ...) with the job left `failed`.
     */
    'labels.reprint': async ({ trackingNumber }) => {
      const rec = findLocalShipment(store, trackingNumber);
      if (!rec || rec.trackingNumber === null) throw new StationError('not_found_locally', `Shipment ${trackingNumber} is not known at this station`);
      const shipmentTrackingNumber = rec.trackingNumber;
      if (!store.labels.getLatest(shipmentTrackingNumber, 'ZPL')) {
        const label = await ctx.client.getLabel(shipmentTrackingNumber, 'zpl');
        if (label.zpl) store.labels.saveBase64(shipmentTrackingNumber, 'ZPL', label.zpl);
      }
      const out = await ctx.printer.printLabel(shipmentTrackingNumber, 'reprint');
      if (out.error || !out.job) {
        const code: StationErrorCode = isStationErrorCode(out.error?.code) ? out.error.code : 'printer_error';
        throw new StationError(code, out.error?.message ?? 'The label was not printed');
      }
      ctx.events.emit('shipments.changed', { trackingNumber: shipmentTrackingNumber });
      return out.job;
    },
  } satisfies Pick<Handlers, 'labels.reprint'>;
}
