/** `printers.*` commands: the label printer in use. */
import type { Handlers } from '../../../shared/contract/commands';
import { emitAppChanged } from './app';
import type { StationContext } from './context';

/** Handlers of the `printers` domain. */
export function createPrintersHandlers(ctx: StationContext) {
  return {
    /** The printer in use and its status as read now (`~HS` for network printers). */
    'printers.get': () => ctx.printer.view(),
    /**
     * Switches the label printer and saves the choice (settings table).
     * @throws StationError `invalid_printer_uri`, `printer_unsupported` (nothing changes).
     */
    'printers.set': async ({ uri }) => {
      const view = await ctx.printer.setUri(uri);
      emitAppChanged(ctx);
      return view;
    },
  } satisfies Pick<Handlers, 'printers.get' | 'printers.set'>;
}
