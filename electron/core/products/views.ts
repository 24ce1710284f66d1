/**
 * Product data as the screens see it (shared/contract/products.ts): the
 * store's records (store/products-repo.ts) mapped field by field, so a
 * column added to the table reaches the wire only when a view names it.
 */
import type { ProductSuggestionView, ProductView } from '../../../shared/contract/products';
import type { ProductRecord, ProductSuggestionRecord } from '../store';

/** A stored product as `products.list`, `customs.products` and `products.resolveSuggestion` return it. */
export function productView(p: ProductRecord): ProductView {
  return {
    sku: p.sku,
    description: p.description,
    hsCode: p.hsCode,
    originCountry: p.originCountry,
    unitWeightKg: p.unitWeightKg,
    lengthCm: p.lengthCm,
    widthCm: p.widthCm,
    heightCm: p.heightCm,
    shipsAlone: p.shipsAlone,
    updatedAt: p.updatedAt,
  };
}

/** A pending suggestion as `products.suggestions` returns it. */
export function productSuggestionView(s: ProductSuggestionRecord): ProductSuggestionView {
  return { id: s.id, sku: s.sku, field: s.field, current: s.current, proposed: s.proposed, source: s.source, createdAt: s.createdAt };
}
