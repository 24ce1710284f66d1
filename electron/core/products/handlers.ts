/**
 * `products.*` commands (issue 24 item 3): product data per SKU, its CSV
 * import and export, the shared product file, the order's weight, and the
 * values learnt from shipments waiting for the packer.
 */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import type { StationContext } from '../common/context';
import { createFileFollower, followSetting, type FileFollower } from '../common/follow-file';
import { sharedKey, type SharedChange } from '../common/services';
import type { ProductInput, Store } from '../store';
import { parseProductsCsv, productsCsvText } from './csv';
import { productSuggestionView, productView } from './views';
import { orderWeight } from './weight';

/** Setting `products.follow`: the shared product file and the version running. */
const ProductsFollowSetting = followSetting('products.follow');

const followers = new WeakMap<Store, FileFollower>();

/** The warehouse's changes for products (every bench gets them). */
const productChanges = (rows: readonly ProductInput[]): SharedChange[] => rows.map((p) => ({ key: sharedKey.product(p.sku), value: p }));

/**
 * Imports a product CSV: all rows or none; the warehouse's first when the bench has one (an import is the last word).
 * @throws StationError `invalid_input` naming the row and column (see {@link parseProductsCsv}); `warehouse_offline`
 *   (common/services.ts WarehouseLink.share). Nothing is changed by a refusal.
 */
async function importCsv(ctx: Pick<StationContext, 'store' | 'events' | 'warehouse'>, content: string) {
  const rows = parseProductsCsv(content);
  const counts = ctx.store.products.importCounts(rows);
  await ctx.warehouse.share(productChanges(rows), 'force');
  ctx.store.products.importMany(rows);
  ctx.events.emit('products.changed', { count: rows.length });
  return counts;
}

/** The shared product file's follower of this station (one per store), built on first use; the station starts its timer. */
export function productsFollower(ctx: Pick<StationContext, 'store' | 'events' | 'now' | 'warehouse'>): FileFollower {
  let f = followers.get(ctx.store);
  if (!f) {
    f = createFileFollower({
      store: ctx.store,
      setting: ProductsFollowSetting,
      now: ctx.now,
      apply: (content) => {
        const rows = parseProductsCsv(content);
        ctx.store.products.importMany(rows);
        ctx.events.emit('products.changed', { count: rows.length });
        // The file's products are the warehouse's too; while it is offline they stay this bench's until the next read.
        void ctx.warehouse.share(productChanges(rows), 'force').catch(() => undefined);
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
      // An accepted value changes the product for every bench: refused while the warehouse is away.
      if (accept) await ctx.warehouse.share([]);
      const resolved = store.products.resolveSuggestion(id, accept);
      if (resolved && accept) {
        const { updatedAt: _updatedAt, ...product } = resolved;
        await ctx.warehouse.share(productChanges([product]), 'force').catch(() => undefined);
      }
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
