/**
 * `products.*` commands (issue 24 item 3): product data per SKU, its CSV
 * import and export, the shared product file, the order's weight, and the
 * values learnt from shipments waiting for the packer.
 */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import type { StationContext } from '../common/context';
import { createFileFollower, followSetting, type FileFollower } from '../common/follow-file';
import type { Store } from '../store';
import { parseProductsCsv, productsCsvText } from './csv';
import { productSuggestionView, productView } from './views';
import { orderWeight } from './weight';

/** Setting `products.follow`: the shared product file and the version running. */
const ProductsFollowSetting = followSetting('products.follow');

const followers = new WeakMap<Store, FileFollower>();

/**
 * Imports a product CSV: all rows or none.
 * @throws StationError `invalid_input` naming the row and column (see {@link parseProductsCsv}).
 */
function importCsv(ctx: Pick<StationContext, 'store' | 'events'>, content: string) {
  const rows = parseProductsCsv(content);
  const counts = ctx.store.products.importMany(rows);
  ctx.events.emit('products.changed', { count: rows.length });
  return counts;
}

/** The shared product file's follower of this station (one per store), built on first use; the station starts its timer. */
export function productsFollower(ctx: Pick<StationContext, 'store' | 'events' | 'now'>): FileFollower {
  let f = followers.get(ctx.store);
  if (!f) {
    f = createFileFollower({
      store: ctx.store,
      setting: ProductsFollowSetting,
      now: ctx.now,
      apply: (content) => {
        importCsv(ctx, content);
        return {};
      },
      onChange: () => ctx.events.emit('products.changed', { count: 0 }),
    });
    followers.set(ctx.store, f);
  }
  return f;
}

/** Handlers of the `products` domain. */
export function createProductsHandlers(ctx: StationContext) {
  const { store } = ctx;
  return {
    'products.list': async ({ q }) => store.products.list(q ?? '').map(productView),
    'products.importCsv': async ({ content }) => importCsv(ctx, content),
    'products.exportCsv': async () => ({ content: productsCsvText(store.products.all()) }),
    'products.suggestions': async () => store.products.suggestions().map(productSuggestionView),
    'products.resolveSuggestion': async ({ id, accept }) => {
      const resolved = store.products.resolveSuggestion(id, accept);
      const product = resolved ? productView(resolved) : null;
      ctx.events.emit('products.changed', { count: product ? 1 : 0 });
      return { product };
    },
    'products.orderWeight': async ({ orderId }) => {
      const order = store.orders.getById(orderId);
      if (!order) throw new StationError('not_found_locally', `Order ${orderId} not found`, { orderId: ['No such order at this station'] });
      return orderWeight(store, order);
    },
    'products.source': async () => productsFollower(ctx).status(),
    'products.follow': async ({ path }) => productsFollower(ctx).setPath(path),
  } satisfies Pick<
    Handlers,
    'products.list' | 'products.importCsv' | 'products.exportCsv' | 'products.suggestions' | 'products.resolveSuggestion' | 'products.orderWeight' | 'products.source' | 'products.follow'
  >;
}
