/** `labels.*` commands: reprinting a stored label. */
import type { Handlers } from '../../../../shared/contract/commands';
import { StationError, type StationErrorCode } from '../../../../shared/contract/errors';
import type { StationContext } from '../../common/context';
import { isStationErrorCode } from '../../common/errors';
import type { ShipmentRecord, Store } from '../../store';

/**
 * Finds the stored shipment of a tracking number (the shipment's own or one of its parcels'),
 * or undefined; given by the shipping domain (shipping/lookup.ts `findLocalShipment`), which
 * printing does not use.
 */
export type FindLocalShipment = (store: Store, trackingNumber: string) => ShipmentRecord | undefined;

/** Handlers of the `labels` domain; `findLocalShipment` resolves the tracking number a packer scanned. */
export function createLabelsHandlers(ctx: StationContext, findLocalShipment: FindLocalShipment) {
  const { store } = ctx;
  return {
    /**
     * Prints the stored ZPL label again as a new `reprint` job, from the bytes
     * kept since shipping (no network). Only a shipment adopted without a label
     * (scanned from another bench) fetches it once with GET /shipments/{ldv}/label.
     * Answers the job `printed`, or `queued` with `lastError` saying why it waits (it prints
     * by itself later; a reprint while the label waits joins that job).
     * @throws StationError `not_found_locally` (unknown shipment, no label), or the
     *   printer's code (`printer_timeout`, `printer_error`, ...) with the job left `failed`.
     */
    'labels.reprint': async ({ trackingNumber }) => {
      const rec = findLocalShipment(store, trackingNumber);
      if (!rec || rec.trackingNumber === null) throw new StationError('not_found_locally', `Shipment ${trackingNumber} is not known at this station`);
      const shipmentTrackingNumber = rec.trackingNumber;
      if (!store.labels.getLatest(shipmentTrackingNumber, 'ZPL') && !store.labels.getLatest(shipmentTrackingNumber, 'PDF')) {
        // PDF-only carriers answer zpl: null and the PDF: the printer service rasterises it.
        const label = await ctx.client.getLabel(shipmentTrackingNumber, 'zpl');
        if (label.zpl) store.labels.saveBase64(shipmentTrackingNumber, 'ZPL', label.zpl);
        else if (label.pdf) store.labels.saveBase64(shipmentTrackingNumber, 'PDF', label.pdf);
      }
      const out = await ctx.printer.printLabel(shipmentTrackingNumber, 'reprint');
      // A job waiting for the printer is an answer too: it prints by itself when the printer is ready.
      if (!out.job || out.job.state === 'failed') {
        const code: StationErrorCode = isStationErrorCode(out.error?.code) ? out.error.code : 'printer_error';
        throw new StationError(code, out.error?.message ?? 'The label was not printed', undefined, out.error?.text);
      }
      ctx.events.emit('shipments.changed', { trackingNumber: shipmentTrackingNumber });
      return out.job;
    },
    /**
     * What the printer in use will print for a shipment's stored label, as PNG at its profile's dpi
     * and label size (PrinterService.preview). Needs no network: the label bytes are stored.
     * @throws StationError `not_found_locally` (unknown shipment or no label), `printer_error`.
     */
    'labels.preview': async ({ trackingNumber }) => {
      const rec = findLocalShipment(store, trackingNumber);
      if (!rec || rec.trackingNumber === null) throw new StationError('not_found_locally', `Shipment ${trackingNumber} is not known at this station`);
      return ctx.printer.preview(rec.trackingNumber);
    },
  } satisfies Pick<Handlers, 'labels.reprint' | 'labels.preview'>;
}
