/**
 * An order's weight from product data (issue 24 item 3): the sum of unit
 * weight × quantity over the lines still to ship, when every line's SKU has
 * a weight (product data first, then the item's weight kept for scan to
 * verify); otherwise unknown, with the lines that lack one.
 */
import type { OrderWeightView } from '../../../shared/contract/products';
import type { StationOrder } from '../../../shared/domain/order';
import type { ProductRecord, Store } from '../store';

/** The lines of an order still to ship (lines the shop already sent aside). */
export function linesToShip(order: StationOrder): StationOrder['items'] {
  return order.items.filter((it) => !it.fulfilled);
}

/** Unit weight (kg) per SKU from product data, else from items; SKUs without one are absent. */
export function unitWeights(store: Store, skus: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const i of store.items.getMany(skus)) if (i.unitWeightKg !== null) out.set(i.sku, i.unitWeightKg);
  for (const p of store.products.getMany(skus)) if (p.unitWeightKg !== null) out.set(p.sku, p.unitWeightKg);
  return out;
}

/** Product data of the order's SKUs, by SKU. */
export function productsOf(store: Store, order: StationOrder): Map<string, ProductRecord> {
  const skus = order.items.map((i) => i.sku).filter((s): s is string => !!s);
  return new Map(store.products.getMany(skus).map((p) => [p.sku, p]));
}

/**
 * The order's weight in kg (rounded to the gram) or null, and the SKUs (or
 * line names without a SKU) that have no weight. An order with no line to ship has no weight.
 */
export function orderWeight(store: Store, order: StationOrder): OrderWeightView {
  const lines = linesToShip(order);
  const weights = unitWeights(store, lines.map((l) => l.sku).filter((s): s is string => !!s));
  const missing: string[] = [];
  let sum = 0;
  for (const l of lines) {
    const w = l.sku ? weights.get(l.sku) : undefined;
    if (w === undefined) missing.push(l.sku ?? l.name);
    else sum += w * l.quantity;
  }
  if (lines.length === 0 || missing.length > 0) return { weightKg: null, missing };
  return { weightKg: Math.round(sum * 1000) / 1000, missing };
}
