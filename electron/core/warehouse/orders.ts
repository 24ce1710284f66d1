/**
 * Orders once for the warehouse (issue 35 item 3, first sentence): an import at
 * any bench lands in the warehouse table `orders`, one row per order keyed by
 * the order's reference (shop and number: the key its claims use, see
 * shared/domain/order-reference.ts), and every bench keeps the same to-ship
 * list in its own SQLite (`store.orders`), so its order list, scan and ship
 * work as before, offline too.
 *
 * Up ({@link pushOrders}): the bench's orders imported from a shop's file
 * that changed since the last push (store `orders.changedSince`, a cursor kept
 * in the bench's settings) go up in batches. An order the bench took from the
 * warehouse is marked by its import hash (`wh:` and the hash of the
 * warehouse's value) and never goes up again as content (otherwise a bench
 * would send an older version over a newer one it had not read yet), only its
 * shipment. A value equal to the warehouse's changes nothing (no revision, no
 * NOTIFY); an order shipped in the warehouse is never changed again. The first
 * push of a bench (it joins with local orders) only adds what the warehouse
 * lacks. A shipped order's row gets `shipped_at` and `tracking_number`.
 *
 * Down ({@link pullOrders}): every row newer than the last revision the bench
 * applied, oldest first, on NOTIFY `warehouse_orders` and on (re)connecting:
 * new and changed orders go through the store's import rule (an order shipped
 * or entered by hand at the bench is not touched; a re-import adds nothing),
 * an order shipped at another bench is marked shipped here with its tracking
 * number (the local store's shipped state).
 */
import { createHash } from 'node:crypto';
import type { ClientBase, Pool } from 'pg';
import { z } from 'zod';
import { orderReference } from '../../../shared/domain/order-reference';
import type { StationOrder } from '../../../shared/domain/order';
import { defineSetting, type ChangedOrder, type OrderDraft, type Store } from '../store';
import type { WarehouseBench } from './claims';
import { coalesced } from './coalesced';

type Db = Pool | ClientBase;

/**
 * Where the bench's pushes of orders stand among its local changes (`updated_at`, id); `joined` false until
 * the bench has brought every order it had when it joined (those only add what the warehouse lacks).
 */
const OrdersSentSetting = defineSetting(
  'warehouse.ordersSent',
  z.object({ at: z.string().max(40), id: z.number().int().min(0), joined: z.boolean() }),
  { at: '', id: 0, joined: false },
);
/** The last revision of the warehouse's `orders` this bench applied (0: none). */
const OrdersRevisionSetting = defineSetting('warehouse.ordersRevision', z.number().int().min(0), 0);

/** Orders per statement, both ways. */
const BATCH = 500;
/** How many times a push waits 2 ms for orders changed in its own millisecond. */
const LATE_WAITS = 5;
/** The import-hash prefix of an order taken from the warehouse. */
const FROM_WAREHOUSE = 'wh:';

/** An order line as the warehouse keeps it (unit price in the order's currency). */
const WarehouseItem = z.object({
  sku: z.string().optional(),
  name: z.string(),
  quantity: z.number().int().min(1),
  unitPrice: z.number().min(0),
  fulfilled: z.boolean().optional(),
});

/**
 * An order as the warehouse keeps it (`orders.value`): the station's order without its local row id and
 * shipment (those are each bench's; the shipment is in the row's `shipped_at` and `tracking_number`),
 * `status` open or cancelled.
 */
const WarehouseOrderValue = z.object({
  shop: z.string().min(1),
  shopOrderId: z.string().optional(),
  orderNumber: z.string().min(1),
  email: z.string().optional(),
  createdAt: z.string(),
  source: z.literal('shopify_csv'),
  recipient: z.object({
    name: z.string(),
    company: z.string().optional(),
    street: z.string(),
    street2: z.string().optional(),
    city: z.string(),
    province: z.string().optional(),
    postalCode: z.string(),
    countryCode: z.string(),
    phone: z.string().optional(),
    email: z.string().optional(),
  }),
  items: z.array(WarehouseItem).max(1000),
  total: z.number().optional(),
  currency: z.string(),
  notes: z.string().optional(),
  status: z.enum(['open', 'cancelled']),
  paymentStatus: z.enum(['paid', 'unpaid', 'refunded', 'voided', 'unknown']),
  delivery: z.enum(['ship', 'pickup']),
  shippingMethod: z.string().optional(),
  needsFix: z.array(z.enum(['postalCode', 'notes'])),
}) satisfies z.ZodType<OrderDraft>;

type WarehouseOrder = z.infer<typeof WarehouseOrderValue>;

/** JSON with every object's keys sorted: two equal orders give the same text whatever their keys' order (jsonb sorts its own). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** The warehouse's value of a station order (see {@link WarehouseOrderValue}). */
function warehouseOrderValue(order: StationOrder): WarehouseOrder {
  const { id: _id, shipmentTrackingNumber: _tracking, status, ...rest } = order;
  return { ...rest, source: 'shopify_csv', status: status === 'cancelled' ? 'cancelled' : 'open' };
}

/** The import hash of an order taken from the warehouse with `value`. */
const pulledHash = (value: WarehouseOrder): string => FROM_WAREHOUSE + createHash('sha256').update(canonical(value)).digest('hex').slice(0, 40);

/**
 * Sends the bench's orders changed since its last push (see the module doc), in batches, until none is left
 * (orders changed in the current millisecond wait for the next push: one changed later in the same
 * millisecond would otherwise stand before the cursor).
 * @param now the clock, ms (the store's)
 * @returns how many orders were sent (those equal to the warehouse's change nothing there)
 * @throws the database's error (nothing is noted as sent: the batch goes again)
 */
async function pushOrders(db: Db, store: Store, bench: WarehouseBench, now: () => number, hooks: Pick<OrderSyncOptions, 'onRefused' | 'onShipped'> = {}): Promise<number> {
  let sent = 0;
  let waits = 0;
  for (;;) {
    const cursor = store.settings.get(OrdersSentSetting);
    const before = new Date(now()).toISOString();
    const rows = store.orders.changedSince(cursor, before, BATCH);
    const last = rows[rows.length - 1];
    if (!last) {
      // An import's last orders were written in this very millisecond: they go up a moment later, not at
      // the next heartbeat (a few tries: a store whose clock runs ahead of `now` waits for the next push).
      const late = store.orders.changedSince(cursor, null, 1).length > 0;
      if (late && waits < LATE_WAITS) {
        waits++;
        await new Promise((resolve) => setTimeout(resolve, 2));
        continue;
      }
      // Everything the bench had when it joined is up: from now on its changes are its own imports.
      if (!cursor.joined && !late) store.settings.set(OrdersSentSetting, { ...cursor, joined: true });
      return sent;
    }
    const { refused, shipped } = await sendBatch(db, rows, bench, !cursor.joined);
    if (refused.length) hooks.onRefused?.(refused);
    if (shipped.length) hooks.onShipped?.(shipped);
    store.settings.set(OrdersSentSetting, { ...last.cursor, joined: cursor.joined });
    sent += rows.length;
  }
}

/** The database said no to a write (an answer, not a lost connection): SQLSTATE class 22 (data), 23 (integrity), 42501 (rights, row-level security) or P0001 (a function's RAISE). */
export function isRefusal(e: unknown): e is Error & { code: string } {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22...|23...|42501|P0001)$/.test(code);
}

/** One order the warehouse refused (issue 42 item 1): its key, what was tried, the database's error. */
interface RefusedOrder {
  orderKey: string;
  what: 'import' | 'ship';
  error: Error & { code: string };
}

/**
 * One batch up: content (not for orders taken from the warehouse), then shipments through `ship_orders`
 * (schema 5: any bench ships any order, its claims end in the same transaction). A batch the database refuses
 * is sent again one order at a time, so one refused order never holds back the others.
 * @returns the orders the database refused (logged and shown by the caller; the cursor moves past them) and
 *   the keys marked shipped (their claims ended)
 * @throws the database's error when it is not a refusal (unreachable, shutting down: the batch goes again)
 */
async function sendBatch(db: Db, rows: readonly ChangedOrder[], bench: WarehouseBench, seed: boolean): Promise<{ refused: RefusedOrder[]; shipped: string[] }> {
  // One row per key (ON CONFLICT cannot change a row twice in one statement): the later change wins.
  const content = new Map<string, string>();
  const shipped = new Map<string, string>();
  for (const r of rows) {
    const key = orderReference(r.order);
    if (!r.importHash?.startsWith(FROM_WAREHOUSE)) content.set(key, JSON.stringify(warehouseOrderValue(r.order)));
    if (r.order.status === 'shipped' && r.order.shipmentTrackingNumber) shipped.set(key, r.order.shipmentTrackingNumber);
  }
  const conflict = seed
    ? 'DO NOTHING'
    : `DO UPDATE SET value = EXCLUDED.value, revision = nextval('orders_revision'), imported_at = now(), bench_id = EXCLUDED.bench_id
       WHERE o.shipped_at IS NULL AND o.value IS DISTINCT FROM EXCLUDED.value`;
  const importSql = `INSERT INTO orders AS o (order_key, value, bench_id)
       SELECT k, v, $3 FROM unnest($1::text[], $2::jsonb[]) AS x(k, v)
       ON CONFLICT (order_key) ${conflict}`;
  const refused: RefusedOrder[] = [];
  /** Runs `write` on all of `entries`; refused, on each alone, noting the ones refused. */
  const each = async (entries: Map<string, string>, what: RefusedOrder['what'], write: (keys: string[], values: string[]) => Promise<unknown>): Promise<void> => {
    if (entries.size === 0) return;
    try {
      await write([...entries.keys()], [...entries.values()]);
    } catch (e) {
      if (!isRefusal(e)) throw e;
      for (const [k, v] of entries) {
        try {
          await write([k], [v]);
        } catch (one) {
          if (!isRefusal(one)) throw one;
          refused.push({ orderKey: k, what, error: one });
        }
      }
    }
  };
  await each(content, 'import', (keys, values) => db.query(importSql, [keys, values, bench.id]));
  await each(shipped, 'ship', (keys, tracking) => db.query('SELECT ship_orders($1, $2::text[], $3::text[])', [bench.id, keys, tracking]));
  const notShipped = new Set(refused.filter((r) => r.what === 'ship').map((r) => r.orderKey));
  return { refused, shipped: [...shipped.keys()].filter((k) => !notShipped.has(k)) };
}

/** What a pull changed in the bench's order list: orders added or changed, orders marked shipped, rows skipped. */
interface PulledOrders {
  changed: number;
  shipped: number;
  /** Keys whose value this station cannot read (a newer bench's), said in the log. */
  skipped: string[];
}

/**
 * Reads every row of the warehouse's `orders` newer than the bench's revision, oldest first, and applies it
 * to the bench's orders, one local transaction per batch (the revision moves with its batch).
 * @throws the database's error (what was applied stays, with its revision)
 */
async function pullOrders(db: Db, store: Store, log: (line: string) => void = () => undefined): Promise<PulledOrders> {
  const out: PulledOrders = { changed: 0, shipped: 0, skipped: [] };
  for (;;) {
    const after = store.settings.get(OrdersRevisionSetting);
    const res = await db.query<{ order_key: string; value: unknown; revision: string; tracking_number: string | null; shipped: boolean }>(
      `SELECT order_key, value, revision, tracking_number, shipped_at IS NOT NULL AS shipped FROM orders WHERE revision > $1 ORDER BY revision LIMIT $2`,
      [after, BATCH],
    );
    const last = res.rows[res.rows.length - 1];
    if (!last) return out;
    const skipped: string[] = [];
    store.tx(() => {
      for (const row of res.rows) {
        const parsed = WarehouseOrderValue.safeParse(row.value);
        if (!parsed.success || orderReference(parsed.data) !== row.order_key) {
          skipped.push(row.order_key);
          continue;
        }
        const value = parsed.data;
        const local = store.orders.getByShopNumber(value.shop, value.orderNumber);
        let id = local?.id;
        if (!local || canonical(warehouseOrderValue(local)) !== canonical(value)) {
          const res = store.orders.upsertImported(value, pulledHash(value));
          if (res.outcome === 'imported' || res.outcome === 'updated') out.changed++;
          id = res.id;
        }
        if (row.shipped && id !== undefined) {
          const now = store.orders.getById(id);
          if (now?.status === 'open') {
            store.orders.markShipped(id, row.tracking_number ?? '');
            out.shipped++;
          }
        }
      }
      store.settings.set(OrdersRevisionSetting, Number(last.revision));
    });
    out.skipped.push(...skipped);
    if (skipped.length) log(`warehouse: ${skipped.length} order(s) this station cannot read were skipped (${skipped.slice(0, 3).join(', ')}): update this station`);
  }
}

/** What {@link createOrderSync} works with. */
export interface OrderSyncOptions {
  db: Db;
  store: Store;
  bench: () => WarehouseBench;
  /** Clock, ms. */
  now: () => number;
  log: (line: string) => void;
  /** Orders from the warehouse were applied to the bench's list (the screens reload it). */
  onPulled: (pulled: PulledOrders) => void;
  /** The warehouse did not answer (the link notes it is offline); the work is done again at the next (re)connection. */
  onError: (e: unknown) => void;
  /** The warehouse refused orders of a push (issue 42 item 1): said by the link, the rest went up. */
  onRefused?: (refused: RefusedOrder[]) => void;
  /** Orders marked shipped in the warehouse by a push, their claims ended there (their keys). */
  onShipped?: (keys: string[]) => void;
}

/** The bench's two directions of orders, each run one at a time; neither rejects (errors go to `onError`). */
export interface OrderSync {
  /** Sends what changed at the bench ({@link pushOrders}). */
  push(): Promise<void>;
  /** Applies what changed in the warehouse ({@link pullOrders}). */
  pull(): Promise<void>;
}

/** Builds the bench's {@link OrderSync}. */
export function createOrderSync(opts: OrderSyncOptions): OrderSync {
  const guard = (task: () => Promise<void>) => async (): Promise<void> => {
    try {
      await task();
    } catch (e) {
      opts.onError(e);
    }
  };
  return {
    push: coalesced(guard(async () => {
      await pushOrders(opts.db, opts.store, opts.bench(), opts.now, opts);
    })),
    pull: coalesced(guard(async () => {
      const got = await pullOrders(opts.db, opts.store, opts.log);
      if (got.changed || got.shipped) opts.onPulled(got);
    })),
  };
}
