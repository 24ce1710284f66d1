/**
 * `shipping.*` commands (issue 22 item 4, issue 24 item 4): the plan of an
 * order's shipment, whether it would ship by itself, and shipping it by
 * intent, by the packer's form or by the platform's request; the boxes learnt from the bench. Shipping goes through
 * {@link shipmentCreator} — the same outbox path
 * and guards as Ctrl+Enter (a shipment being made is finished, never
 * doubled; a shipped order is refused) — after the plan's own guards (an
 * order needing attention is never shipped by intent).
 */
import type { Handlers, ShipResult } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { coreText } from '../../../shared/contract/core-text';
import { romeClock } from '../../../shared/domain/rome-day';
import { z } from 'zod';
import type { AutoShipView, PlanAttention } from '../../../shared/contract/plan';
import type { StationOrder } from '../../../shared/domain/order';
import type { ShipmentRequest } from '../../../shared/platform';
import { plannedRequest } from './planned-request';
import { aheadStep, setAsideAhead } from './ahead-use';
import { emitOrdersChanged } from '../orders/handlers';
import type { StationContext } from '../common/context';
import { defineSetting } from '../store';
import { planShipment, type ShipIntent } from './plan';
import { learntBoxes, resolveLearntBox } from './box-learn';
import { orderReference } from '../../../shared/domain/order-reference';
import { intentOf, notBoth, shipByForm } from './ship-form';
import type { shipmentCreator } from './shipments';

/** Setting `shipping.countdownMs`: the countdown before an order ships by itself, ms (default 1500; bounds in the contract). */
const CountdownSetting = defineSetting('shipping.countdownMs', z.number().int().min(100).max(10_000), 1500);

/** A stored order, or `not_found_locally` naming `orderId`. */
function orderOf(ctx: Pick<StationContext, 'store'>, orderId: number): StationOrder {
  const order = ctx.store.orders.getById(orderId);
  if (!order) throw new StationError('not_found_locally', `Order ${orderId} not found`, { orderId: ['No such order at this station'] });
  return order;
}

/** The refusal of an order that needs the packer: `invalid_state`, the reasons in `details.orderId`. */
function needsPacker(order: StationOrder, reasons: readonly PlanAttention[]): StationError {
  return new StationError('invalid_state', `Order ${order.orderNumber} needs the packer: ${reasons.map((r) => r.message).join('; ')}`, { orderId: reasons.map((r) => r.message) });
}

/**
 * Claims `order` for this bench in the warehouse (issue 35), or refuses: an order another bench is packing
 * (409 `claimed`, naming the bench, its packer and since when), one this bench holds no claim on while the
 * warehouse cannot be asked, and one the warehouse says is shipped already (`invalid_state`, naming where,
 * when and its tracking number; the bench's copy is marked shipped). Without a warehouse every claim is won.
 * Asked before the quote too (issue 42 item 9), so an order that cannot ship here spends none of the
 * account's quotes.
 * @returns the order's key for the whole warehouse (its reference: shop and number)
 * @throws StationError `claimed`, `invalid_state`
 */
async function claimOrRefuse(ctx: StationContext, order: StationOrder): Promise<string> {
  const key = orderReference(order);
  const claim = await ctx.warehouse.claim(key, null);
  if (claim.won) return key;
  if (claim.shipped) {
    const { trackingNumber, benchName, at, fromPlatform } = claim.shipped;
    if (order.status === 'open' && trackingNumber) {
      ctx.store.orders.markShipped(order.id, trackingNumber);
      emitOrdersChanged(ctx);
    }
    const values = { order: order.orderNumber, time: romeClock(Date.parse(at)), trackingNumber: trackingNumber ?? '?' };
    const said = fromPlatform ? coreText('shippedFromPlatform', values) : coreText('shippedAtBench', { ...values, bench: benchName || '?' });
    throw new StationError('invalid_state', said.message, { orderId: [said.message] }, said.text);
  }
  const time = claim.since ? romeClock(Date.parse(claim.since)) : '?';
  const said = claim.offline
    ? coreText('claimedOffline', { order: order.orderNumber, time })
    : claim.packer
      ? coreText('claimedBy', { order: order.orderNumber, bench: claim.benchName, packer: claim.packer, time })
      : coreText('claimedByBench', { order: order.orderNumber, bench: claim.benchName, time });
  throw new StationError('claimed', said.message, undefined, said.text);
}

/**
 * `create` guarded by the warehouse's claim ({@link claimOrRefuse}). The claim lives as long as the shipment
 * is unsent (issue 42 item 7): a press that ends queued keeps it, and it ends at the warehouse when the
 * shipment goes up (`ship_orders`, whenever the outbox sends it) or its row is dismissed.
 */
function claimedCreate(ctx: StationContext, create: ReturnType<typeof shipmentCreator>, byHand: boolean): ReturnType<typeof shipmentCreator> {
  return async (input, target) => {
    const order = input.orderId !== undefined ? ctx.store.orders.getById(input.orderId) : undefined;
    if (!order) return create(input, target);
    const key = await claimOrRefuse(ctx, order);
    // Chosen by hand (the form, the platform's request): a label bought ahead is set aside first (./ahead-use.ts).
    const afterAhead = byHand ? await setAsideAhead(ctx, order, key, ctx.aheadWaitMs) : undefined;
    const result = await create(input, afterAhead !== undefined ? { ...target, afterAhead } : target);
    void ctx.warehouse.release(key);
    return result;
  };
}

/** Handlers of shipping by intent; `unclaimedCreate` is {@link shipmentCreator} (the one path of a shipment), guarded here by the warehouse's claim. */
export function createShipOrderHandlers(ctx: StationContext, unclaimedCreate: ReturnType<typeof shipmentCreator>, packerName: () => string | null = () => null) {
  // By hand (the form, the platform's request) a label ahead is set aside; by plan `aheadStep` decided already.
  const create = claimedCreate(ctx, unclaimedCreate, true);
  const createPlanned = claimedCreate(ctx, unclaimedCreate, false);
  return {
    'shipping.plan': async (intent: ShipIntent) => planShipment(ctx, orderOf(ctx, intent.orderId), intent),

    'shipping.autoShip': async ({ orderId, weightKg }): Promise<AutoShipView> => {
      const plan = planShipment(ctx, orderOf(ctx, orderId), { orderId, weightKg });
      const reasons = [...plan.attention];
      const rule = plan.decision.rule ? { index: plan.decision.rule.index, name: plan.decision.rule.name } : null;
      if (rule && !plan.shipByItself) reasons.push({ key: 'notByItself', params: { rule: rule.name, index: rule.index }, message: `Rule ${rule.index} '${rule.name}' does not ship by itself` });
      if (!rule && !reasons.some((r) => r.key === 'noRule')) reasons.push({ key: 'noRule', params: {}, message: 'No rule covers this order' });
      return { ships: reasons.length === 0, box: { reason: plan.boxReason, parcels: plan.parcels.length }, rule, reasons, countdownMs: ctx.store.settings.get(CountdownSetting) };
    },

    'shipping.shipOrder': async ({ form, request: given, rate: chosen, ...rest }): Promise<ShipResult> => {
      notBoth(form, given);
      // The platform's request as is (an integrator's): the same path, guards and label as the others.
      if (given) return create({ ...(rest.orderId !== undefined ? { orderId: rest.orderId } : {}), request: given });
      // The packer's form (Ship screen) replaces the plan: the core builds its request (./ship-form.ts).
      if (form) return shipByForm(create, rest.orderId, form, chosen ?? null);
      const intent = intentOf(rest);
      const order = orderOf(ctx, intent.orderId);
      // A press while its shipment is being made joins it (`create` finishes that row, never a second one).
      const pending = ctx.store.shipments.listByOrder(order.id).some((s) => s.trackingNumber === null && s.cancelledAt === null);
      const plan = planShipment(ctx, order, intent);
      const blocking = plan.attention.filter((a) => !(pending && a.key === 'inFlight'));
      if (blocking.length || !plan.request || !plan.packages) throw needsPacker(order, blocking);
      const base: ShipmentRequest = plan.request;
      // The claim before the quote: an order held elsewhere spends none of the account's quotes (issue 42 item 9).
      const key = await claimOrRefuse(ctx, order);
      // A label bought ahead (issue 43 item 3, ./ahead-use.ts): used when it fits, cancelled when it does not.
      const target = { printerUri: plan.printerUri ?? undefined, longLabelPrinterUri: plan.longLabelPrinterUri ?? undefined };
      const ahead = await aheadStep(ctx, order, key, intent, plan, packerName(), ctx.aheadWaitMs);
      if (ahead.kind === 'ship') return createPlanned(ahead.input, { ...target, ahead: ahead.ahead });
      if (ahead.kind === 'resume') return createPlanned(ahead.input, target);
      const parsed = await plannedRequest(ctx, order, plan, base, plan.packages, 'packer');
      // The rule's label printer (and so its profile) rides in the outbox row: a later send prints there too.
      return createPlanned(parsed, ahead.afterAhead !== undefined ? { ...target, afterAhead: ahead.afterAhead } : target);
    },

    // Boxes learnt from the bench (issue 37 item 3, ./box-learn.ts): listed and confirmed once.
    'shipping.learntBoxes.list': async () => learntBoxes(ctx.store),
    'shipping.learntBoxes.resolve': async ({ key, accept }) => ({ learnt: resolveLearntBox(ctx.store, key, accept) }),

    'shipping.settings.get': async () => ({ countdownMs: ctx.store.settings.get(CountdownSetting) }),

    'shipping.settings.set': async ({ countdownMs }) => ({ countdownMs: ctx.store.settings.set(CountdownSetting, countdownMs) }),
  } satisfies Pick<Handlers, 'shipping.plan' | 'shipping.autoShip' | 'shipping.shipOrder' | 'shipping.settings.get' | 'shipping.settings.set' | 'shipping.learntBoxes.list' | 'shipping.learntBoxes.resolve'>;
}
