/** `orders.*` commands: Shopify CSV import, manual orders, the order list. */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import type { FieldErrors } from '../../../shared/platform/common';
import { createManualOrder, importShopifyCsv, ShopifyImportError } from '../orders';
import type { StationContext } from './context';

/** Emits `orders.changed` with the number of open orders. */
export function emitOrdersChanged(ctx: Pick<StationContext, 'store' | 'events'>): void {
  ctx.events.emit('orders.changed', { count: ctx.store.orders.count({ status: 'open' }) });
}

/** Handlers of the `orders` domain. */
export function createOrdersHandlers(ctx: StationContext) {
  const now = () => new Date(ctx.now());
  return {
    /**
     * Imports a Shopify "Export orders" CSV (electron/core/orders).
     * @throws StationError `import_failed` when the file is refused as a whole
     *   (empty, not UTF-8, missing columns), `details` keyed by column name.
     */
    'orders.importCsv': async ({ content }) => {
      try {
        const report = importShopifyCsv(ctx.store, content, { now });
        emitOrdersChanged(ctx);
        return report;
      } catch (e) {
        if (e instanceof ShopifyImportError) {
          const details: FieldErrors = {};
          for (const issue of e.issues) (details[issue.column || '_'] ??= []).push(issue.message);
          throw new StationError('import_failed', e.message, details);
        }
        throw e;
      }
    },
    /** Stores a manual order. @throws StationError `invalid_input` (by field), `store_error` when the number is taken. */
    'orders.create': async (input) => {
      const order = createManualOrder(ctx.store, input, { now });
      emitOrdersChanged(ctx);
      return order;
    },
    /** Orders, open first then newest; `q` searches number, recipient, items. */
    'orders.list': async ({ status, q }) => {
      const filter = status ?? 'all';
      const query = q?.trim();
      return query ? ctx.store.orders.search(query, { status: filter, limit: 200 }) : ctx.store.orders.list({ status: filter });
    },
  } satisfies Pick<Handlers, 'orders.importCsv' | 'orders.create' | 'orders.list'>;
}
