/**
 * The order list's pages (`orders.page`, issue 27 item 3): the store's page
 * (store/orders-repo.ts) with its position carried as an opaque cursor. A
 * cursor is the sort key of a page's last order (store/orders-rows.ts
 * `OrderSortKey`: text values, then the integer id) as base64url JSON; it is
 * valid for the same sort only, and the next page starts right after it.
 */
import { StationError } from '../../../shared/contract/errors';
import type { OrderPage, OrderPageQuery, OrderSort } from '../../../shared/domain/order';
import { orderSortKeyLength, type OrderSortKey, type Store } from '../store';

/** The cursor of `key`: base64url JSON of its values (opaque to the screens). */
function encodeCursor(key: OrderSortKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/**
 * The key `cursor` holds for `sort`, or undefined when it is not one of
 * {@link encodeCursor}'s for this sort (another sort's, edited, truncated):
 * as many values as the sort's key, text values then a safe integer id.
 */
function decodeCursor(sort: OrderSort, cursor: string): OrderSortKey | undefined {
  let keys: unknown;
  try {
    keys = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(keys) || keys.length !== orderSortKeyLength(sort)) return undefined;
  const key: Array<string | number> = [];
  for (const [i, v] of keys.entries()) {
    const isId = i === keys.length - 1;
    if (isId ? !Number.isSafeInteger(v) : typeof v !== 'string') return undefined;
    key.push(v as string | number);
  }
  return key;
}

/**
 * One page of the order list for `query` (filters, search, sort; `after` a
 * page's `next`), with `next` when the page is full.
 * @throws StationError `invalid_input` naming `after` when the cursor is not one of this sort's.
 */
export function orderPage(store: Store, query: OrderPageQuery): OrderPage {
  const { after, ...rest } = query;
  let afterKey: OrderSortKey | undefined;
  if (after !== undefined) {
    afterKey = decodeCursor(query.sort ?? 'newest', after);
    if (!afterKey) throw new StationError('invalid_input', 'The list position is not valid for this sort: reload the list', { after: ['Not a cursor of this list and sort'] });
  }
  const { nextKey, ...page } = store.orders.page(afterKey ? { ...rest, afterKey } : rest);
  return { ...page, ...(nextKey ? { next: encodeCursor(nextKey) } : {}) };
}
