/** `printers.*` and `printJobs.*` commands: the label printer in use, discovery and the waiting jobs. */
import type { Handlers } from '../../../../shared/contract/commands';
import { StationError, type StationErrorCode } from '../../../../shared/contract/errors';
import { isStationErrorCode } from '../../common/errors';
import { PrinterError } from '..';
import { emitAppChanged } from '../../account/app';
import type { StationContext } from '../../common/context';

/** Handlers of the `printers` and `printJobs` domains. */
export function createPrintersHandlers(ctx: StationContext) {
  return {
    /** The printer in use and its status as read now (`~HS` for network and USB printers). */
    'printers.get': () => ctx.printer.view(),
    /**
     * Probes the printer (with a time limit), switches the label printer and saves the choice.
     * @throws StationError `invalid_printer_uri` (also a folder under /proc, /sys, /dev, by the folder
     *   rule of electron/core/printing/transports/folder.ts), `printer_unsupported`, `printer_permission`,
     *   `printer_error` (probe timed out, folder not writable), with `details.uri`; nothing changes.
     */
    'printers.set': async ({ uri }) => {
      let view;
      try {
        view = await ctx.printer.setUri(uri);
      } catch (e) {
        // The packer's field is `uri`: the error names it (issue 21 item 4), same code and message.
        if (e instanceof PrinterError) throw new StationError(e.code, e.message, { uri: [e.message] }, e.text);
        throw e;
      }
      emitAppChanged(ctx);
      return view;
    },
    /** Attached USB label printers, OS print queues, network printers used before and the one in use. */
    'printers.discover': () => ctx.printer.discover(),
    /** The saved profile of a printer (default: the one in use). */
    'printers.profile.get': ({ uri }) => Promise.resolve(ctx.printer.getProfile(uri)),
    /**
     * Saves a printer's profile; labels printed from now on follow it.
     * @throws StationError `invalid_input` naming the field (the contract schema already checked it).
     */
    'printers.profile.set': ({ uri, profile }) => Promise.resolve(ctx.printer.setProfile(profile, uri)),
    /** Jobs queued or printing, oldest first; `lastError` says why a queued job waits. */
    'printJobs.pending': () => Promise.resolve(ctx.printer.pending()),
    /**
     * Cancels a waiting job.
     * @throws StationError `not_found_locally`, `invalid_state` (printing or done).
     */
    'printJobs.cancel': ({ id }) => Promise.resolve(ctx.printer.cancel(id)),
    /**
     * Prints a held label (too long for the stock, issue 36) shrunk anyway; answers the job as it ends
     * (printed, or waiting for the printer with why).
     * @throws StationError `not_found_locally`, `invalid_state` (not held), or the printer's error code when it failed.
     */
    'printJobs.printShrunk': async ({ id }) => {
      const out = await ctx.printer.printShrunk(id);
      if (!out.job || out.job.state === 'failed') {
        const code: StationErrorCode = isStationErrorCode(out.error?.code) ? out.error.code : 'printer_error';
        throw new StationError(code, out.error?.message ?? 'The label was not printed', undefined, out.error?.text);
      }
      ctx.events.emit('shipments.changed', { trackingNumber: out.job.trackingNumber });
      return out.job;
    },
  } satisfies Pick<Handlers, 'printers.get' | 'printers.set' | 'printers.discover' | 'printers.profile.get' | 'printers.profile.set' | 'printJobs.pending' | 'printJobs.cancel' | 'printJobs.printShrunk'>;
}
