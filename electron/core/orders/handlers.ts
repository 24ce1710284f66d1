/** `orders.*` commands: Shopify CSV import, manual orders, the order list, fixes, sending orders to the platform. */
import { z } from 'zod';
import type { Handlers, OrdersSubmitView } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { OrderSettings, recipientProblems, normalizePostalCode, type StationOrder } from '../../../shared/domain/order';
import { createManualOrder } from './';
import { orderPage } from './page';
import { batches, platformOrderOf, type OrdersSubmitPayload } from './submit-executor';
import { defineSetting } from '../store';
import { emitAppChanged } from '../account/app';
import type { StationContext } from '../common/context';
import { sharedKey } from '../common/services';

/**
 * Setting `orders.allowUnpaid`: unpaid orders may ship after the packer confirms (default true);
 * false forbids it, in the screen and again in `shipping.shipOrder`.
 */
export const AllowUnpaidSetting = defineSetting('orders.allowUnpaid', z.boolean(), true);
/** Setting `orders.pickupMethods`: shop -> shipping method names meaning store/local pickup. */
const PickupMethodsSetting = defineSetting('orders.pickupMethods', OrderSettings.shape.pickupMethods, {});

/** Emits `orders.changed` with the number of open orders. */
export function emitOrdersChanged(ctx: Pick<StationContext, 'store' | 'events'>): void {
  ctx.events.emit('orders.changed', { count: ctx.store.orders.count({ status: 'open' }) });
}

/** The pickup method names set for `shop` (undefined: none set, or no shop given). */
export function pickupMethodsOf(ctx: Pick<StationContext, 'store'>, shop: string | undefined): string[] | undefined {
  if (shop === undefined) return undefined;
  // A shop may be named `constructor` or `toString`: only the setting's own keys count.
  return new Map(Object.entries(ctx.store.settings.get(PickupMethodsSetting))).get(shop);
}

/** Handlers of the `orders` domain (the CSV import is in ./order-import.ts). */
export function createOrdersHandlers(ctx: StationContext) {
  const now = () => new Date(ctx.now());
  const mustGet = (id: number): StationOrder => {
    const o = ctx.store.orders.getById(id);
    if (!o) throw new StationError('not_found_locally', `Order ${id} not found`, { id: ['No such order at this station'] });
    return o;
  };
  return {
    /** Stores a manual order. @throws StationError `invalid_input` (by field), `store_error` when the number is taken. */
    'orders.create': async (input) => {
      const order = createManualOrder(ctx.store, input, { now });
      emitOrdersChanged(ctx);
      return order;
    },
    /** One page of the order list (SQLite: FTS5 trigram search, indexed filters). */
    'orders.page': async (query) => orderPage(ctx.store, query),
    'orders.facets': async () => ctx.store.orders.facets(),
    /** @throws StationError `not_found_locally`. */
    'orders.get': async ({ id }) => mustGet(id),
    /**
     * Completes an order that needs a fix. The postal code is normalised and
     * checked for the order's country (Italian CAP 5 digits).
     * @throws StationError `invalid_input` naming `postalCode`; `not_found_locally`.
     */
    'orders.fix': async ({ id, postalCode, notes }) => {
      const o = mustGet(id);
      const patch: { postalCode?: string; notes?: string } = {};
      if (postalCode !== undefined) {
        const pc = normalizePostalCode(postalCode, o.recipient.countryCode);
        const problem = recipientProblems({ ...o.recipient, postalCode: pc }).postalCode;
        if (problem) throw new StationError('invalid_input', problem, { postalCode: [problem] });
        patch.postalCode = pc;
      }
      if (notes !== undefined) patch.notes = notes;
      const fixed = ctx.store.orders.fix(id, patch);
      emitOrdersChanged(ctx);
      return fixed;
    },
    /**
     * Queues POST /orders for the chosen orders, one outbox row per batch of
     * up to 100 (spec: Limits); rows are sent in the background and appear in
     * the Queue panel. Orders the platform would refuse (needs a fix, pickup,
     * already shipped or cancelled, invalid recipient) are listed in `refused`
     * and not sent, so one bad order does not sink a batch (batch rule 2).
     */
    'orders.submit': async ({ ids }): Promise<OrdersSubmitView> => {
      const refused: OrdersSubmitView['refused'] = [];
      const good: OrdersSubmitPayload['orders'] = [];
      for (const id of [...new Set(ids)]) {
        const o = ctx.store.orders.getById(id);
        if (!o) {
          refused.push({ id, orderNumber: '', message: 'No such order at this station' });
          continue;
        }
        const why =
          o.status !== 'open' ? `is ${o.status}` : o.delivery === 'pickup' ? 'is collected in store' : o.needsFix.length > 0 ? `needs a fix (${o.needsFix.join(', ')})` : null;
        if (why) {
          refused.push({ id, orderNumber: o.orderNumber, message: `Order ${o.orderNumber} ${why}` });
          continue;
        }
        const built = platformOrderOf(o);
        if (!built.ok) refused.push({ id, orderNumber: o.orderNumber, message: `Order ${o.orderNumber}: ${built.message}` });
        else good.push({ orderId: id, order: built.order });
      }
      const rows = ctx.store.tx(() =>
        batches(good).map((batch) => ctx.store.outbox.enqueue<OrdersSubmitPayload>({ kind: 'orders.submit', payload: { orders: batch }, localRef: `orders:${batch[0]?.orderId ?? 0}` })),
      );
      if (rows.length > 0) {
        emitAppChanged(ctx);
        ctx.outbox.kick();
      }
      return { outboxIds: rows.map((r) => r.id), queued: good.length, refused };
    },
    'orders.settings.get': async () => ({
      allowUnpaid: ctx.store.settings.get(AllowUnpaidSetting),
      pickupMethods: ctx.store.settings.get(PickupMethodsSetting),
    }),
    'orders.settings.set': async ({ allowUnpaid, pickupMethods }) => {
      await ctx.warehouse.share([
        { key: sharedKey.setting(AllowUnpaidSetting.key), value: allowUnpaid },
        { key: sharedKey.setting(PickupMethodsSetting.key), value: pickupMethods },
      ]);
      ctx.store.tx(() => {
        ctx.store.settings.set(AllowUnpaidSetting, allowUnpaid);
        ctx.store.settings.set(PickupMethodsSetting, pickupMethods);
      });
      return { allowUnpaid, pickupMethods };
    },
  } satisfies Pick<
    Handlers,
    | 'orders.create'
    | 'orders.page'
    | 'orders.facets'
    | 'orders.get'
    | 'orders.fix'
    | 'orders.submit'
    | 'orders.settings.get'
    | 'orders.settings.set'
  >;
}
