/**
 * The station's changed orders, for the warehouse's catch-up (issue 35): orders imported from a shop's
 * file, in the order of their changes (`updated_at`, then row id), read after a cursor the warehouse
 * link keeps. Reads every order of the table (no index on `updated_at`): never for a screen.
 */
import type Database from 'better-sqlite3';
import type { StationOrder } from '../../../shared/domain/order';
import { ORDER_COLUMNS, ORDER_ITEMS_SQL, orderFromRow, type ItemRow, type OrderRow } from './orders-rows';

/** An order's place among the station's changes of orders: its `updated_at` (ISO 8601), then its row id. */
export interface OrderChangeCursor {
  at: string;
  id: number;
}

/** An order changed at the station (see {@link changedOrdersQuery}). */
export interface ChangedOrder {
  order: StationOrder;
  /** The hash its last import gave it (null: none). */
  importHash: string | null;
  /** Where it stands among the changes: the next read starts after it. */
  cursor: OrderChangeCursor;
}

/**
 * The query `changedSince(after, before, limit)`: orders of source `shopify_csv` changed after `after` and,
 * when `before` (ISO 8601) is given, before it, at most `limit` (clamped to 1..1000).
 */
export function changedOrdersQuery(db: Database.Database): (after: OrderChangeCursor, before: string | null, limit: number) => ChangedOrder[] {
  const selectChanged = db.prepare<{ at: string; id: number; before: string | null; limit: number }, OrderRow & { import_hash: string | null; updated_at: string }>(
    `SELECT ${ORDER_COLUMNS}, import_hash, updated_at FROM orders
     WHERE source = 'shopify_csv' AND (updated_at > @at OR (updated_at = @at AND id > @id)) AND (@before IS NULL OR updated_at < @before)
     ORDER BY updated_at, id LIMIT @limit`,
  );
  const selectItems = db.prepare<[number], ItemRow>(ORDER_ITEMS_SQL);
  return (after, before, limit) =>
    selectChanged.all({ at: after.at, id: after.id, before, limit: Math.max(1, Math.min(1000, Math.floor(limit))) }).map((r) => ({
      order: orderFromRow(r, selectItems.all(r.id)),
      importHash: r.import_hash,
      cursor: { at: r.updated_at, id: r.id },
    }));
}
