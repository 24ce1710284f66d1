/** `app.*` commands: the header's data (platform, connection, credit, printer, outbox backlog). */
import type { Handlers } from '../../../shared/contract/commands';
import type { AppInfo } from '../../../shared/contract/views';
import type { ContextWithoutOutbox, StationContext } from '../common/context';
import { BenchLanguageSetting } from '../store';

/** How long `app.info` waits for the printer's status before showing the last one, ms. */
const APP_INFO_PRINTER_WAIT_MS = 1500;

/**
 * Header data from what the station already knows, without asking the
 * platform or the printer (for `app.changed` events).
 */
function cachedAppInfo(ctx: ContextWithoutOutbox): AppInfo {
  return {
    platform: ctx.platform,
    connection: ctx.client.connection,
    credit: ctx.lastCredit,
    printer: ctx.printer.cached(),
    pendingOutbox: ctx.store.outbox.countPending(),
    version: ctx.version,
    integrity: ctx.integrity,
    ...(ctx.warehouse.configured ? { warehouse: ctx.warehouse.status() } : {}),
  };
}

/** Emits `app.changed` with {@link cachedAppInfo}. */
export function emitAppChanged(ctx: ContextWithoutOutbox): void {
  ctx.events.emit('app.changed', cachedAppInfo(ctx));
}

/** Handlers of the `app` domain. */
export function createAppHandlers(ctx: StationContext) {
  return {
    /**
     * Refreshes the credit (GET /credit; on failure the last known balance is
     * kept and the connection shows `offline`) and the printer status (waits
     * at most {@link APP_INFO_PRINTER_WAIT_MS}), then answers the header data.
     */
    'app.info': async () => {
      const [credit] = await Promise.allSettled([ctx.client.getCredit(), ctx.printer.view(APP_INFO_PRINTER_WAIT_MS)]);
      if (credit.status === 'fulfilled') ctx.lastCredit = credit.value;
      return cachedAppInfo(ctx);
    },
    'app.language.set': async ({ language }) => {
      ctx.store.settings.set(BenchLanguageSetting, language);
      return { language };
    },
  } satisfies Pick<Handlers, 'app.info' | 'app.language.set'>;
}
