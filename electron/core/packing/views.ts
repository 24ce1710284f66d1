/**
 * Items as the screens see them (shared/contract/items.ts): the store's
 * records (store/items-repo.ts) mapped field by field.
 */
import type { ItemView } from '../../../shared/contract/items';
import type { ItemRecord } from '../store';

/** A stored item as `items.list`, `items.get` and `items.save` return it (barcodes copied, sorted as stored). */
export function itemView(i: ItemRecord): ItemView {
  return { sku: i.sku, unitWeightKg: i.unitWeightKg, updatedAt: i.updatedAt, barcodes: [...i.barcodes] };
}
