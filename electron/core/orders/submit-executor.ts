/**
 * Outbox rows `orders.submit`: POST /orders (spec: Endpoints > Orders), one
 * row per batch of at most 100 orders (spec: Limits).
 *
 * The call is repeatable by design: every order carries an `orderNumber`
 * (shop and number, see `orderReference`), and an `orderNumber` already
 * submitted creates no second order but is listed in `skipped` (batch rule
 * 4). So after an interrupted attempt the executor simply sends the batch
 * again; what the platform already had comes back as `skipped`, which means
 * "already there", not a failure. A 422 (one invalid order rejects the whole
 * batch, batch rule 2) is a definite refusal: the row needs attention, with
 * the platform's message naming `orders.<index>.<field>`.
 */
import { z } from 'zod';
import { linesToShip, recipientToParty, type StationOrder } from '../../../shared/domain/order';
import { orderReference } from '../../../shared/domain/order-reference';
import { MAX_ORDERS_PER_CALL, Order, type OrdersResponse } from '../../../shared/platform/orders';
import type { PlatformClient } from '../platform/client-api';
import type { OutboxRecord, Store } from '../store';
import type { OutboxExecutor } from '../outbox/worker';

/** One order of a batch: the local row id and the body sent for it. */
interface SubmittedOrder {
  orderId: number;
  order: z.input<typeof Order>;
}

/** Payload of an `orders.submit` row: up to {@link MAX_ORDERS_PER_CALL} orders. */
export interface OrdersSubmitPayload {
  orders: SubmittedOrder[];
}

/** Stored result: platform ids of the created orders and of those already there. */
export interface OrdersSubmitResult {
  created: Array<{ orderId: number; platformId: number; orderNumber: string | null }>;
  alreadyThere: Array<{ orderId: number; platformId: number; orderNumber: string }>;
}

/** Dependencies of {@link createOrdersSubmitExecutor}. */
export interface OrdersExecutorDeps {
  store: Store;
  client: PlatformClient;
  /** After the batch was recorded (events). */
  after?: (row: OutboxRecord<OrdersSubmitPayload>, result: OrdersSubmitResult) => void;
}

/**
 * The POST /orders body of one station order: recipient (with the reference),
 * `orderNumber` = {@link orderReference} (unique across shops), date, total,
 * notes, and only the lines still to ship.
 * @returns the order, or the zod issues (paths like `recipient.address.postalCode`) when the platform would refuse it.
 */
export function platformOrderOf(o: StationOrder): { ok: true; order: z.input<typeof Order> } | { ok: false; message: string } {
  const reference = orderReference(o);
  const body: z.input<typeof Order> = {
    recipient: { ...recipientToParty(o.recipient), reference },
    orderNumber: reference,
    orderDate: o.createdAt.slice(0, 10),
    items: linesToShip(o).map((i) => ({ ...(i.sku !== undefined ? { sku: i.sku } : {}), name: i.name, quantity: i.quantity, unitPrice: i.unitPrice })),
    ...(o.total !== undefined ? { total: o.total } : {}),
    ...(o.notes !== undefined ? { notes: o.notes } : {}),
  };
  const parsed = Order.safeParse(body);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { ok: false, message: `${first?.path.join('.') ?? 'order'}: ${first?.message ?? 'invalid'}` };
  }
  return { ok: true, order: body };
}

/** Splits orders into batches of at most {@link MAX_ORDERS_PER_CALL} (spec: Limits). */
export function batches<T>(items: readonly T[], size = MAX_ORDERS_PER_CALL): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Executor of `orders.submit` rows; the outcome is {@link OrdersSubmitResult}. */
export function createOrdersSubmitExecutor(
  deps: OrdersExecutorDeps,
): OutboxExecutor<OrdersSubmitPayload, OrdersResponse, OrdersSubmitResult, OrdersSubmitResult> {
  const { client } = deps;
  return {
    // Repeatable (batch rule 4): a second attempt gets `skipped` for what the first one created.
    send: (row) => client.submitOrders({ orders: row.payload.orders.map((o) => o.order) }),
    commit(row, sent) {
      const sentOrders = row.payload.orders;
      const byNumber = new Map(sentOrders.map((o) => [o.order.orderNumber, o.orderId]));
      const result: OrdersSubmitResult = {
        created: sent.created.map((c) => ({ orderId: byNumber.get(c.orderNumber ?? undefined) ?? 0, platformId: c.id, orderNumber: c.orderNumber })),
        alreadyThere: sent.skipped.map((s) => ({ orderId: sentOrders[s.index]?.orderId ?? 0, platformId: s.id, orderNumber: s.orderNumber })),
      };
      return { local: result, result };
    },
    async after(row, result) {
      deps.after?.(row, result);
      return result;
    },
  };
}
