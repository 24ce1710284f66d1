/**
 * A packer's ship of an order with a label bought ahead (issue 43 item 3), between the warehouse's claim and the
 * quote of `shipping.shipOrder`:
 * - `buying` (the buyer's POST on its way) or `batched` (in a batch print not printed yet): waited for, up to
 *   {@link AHEAD_WAIT_MS}; a purchase still on its way then is abandoned (its buyer cancels what it buys) and the
 *   order gets its own label under its next reference; otherwise judged as it is then;
 * - `bought` / `printed`: the order's fingerprint now (the rule of the plan now) against the label's, and the
 *   scale's weight (the intent's) against the label's within the verify tolerance. Fits: `use` at the warehouse,
 *   then the one path of a shipment ships it (outbox row carrying the label: stored, printed once unless printed in
 *   a batch, `ship` activity, order shipped, claim ended) with no call to the platform. Does not fit: DELETE
 *   /shipments/{ldv}, its refund recorded at the warehouse and the cancelled shipment kept as the order's (the
 *   new one's reference gets `-2`); a cancel refused (409) is recorded with the platform's words; either way the
 *   ordinary path buys the label;
 * - `used` by this bench (killed after `use`, before its local commit): used again and stored once, never cancelled.
 * The warehouse away, or any answer it cannot give: the ordinary path.
 */
import type { z } from 'zod';
import type { ShipInput } from '../../../shared/contract/commands';
import { coreText } from '../../../shared/contract/core-text';
import type { ShipPlanView } from '../../../shared/contract/plan';
import type { StationOrder } from '../../../shared/domain/order';
import { Shipment } from '../../../shared/platform/resources';
import type { LabelAhead, LabelAheadCancelReason, LabelsAheadStore } from '../common/labels-ahead';
import type { StationContext } from '../common/context';
import { PlatformError } from '../platform/errors';
import { verifySettingsOf } from '../packing/verify';
import { emitOrdersChanged } from '../orders/handlers';
import { aheadFingerprint } from './ahead-fingerprint';
import { storePlatformShipment, type ShipmentAhead, type ShipmentCreatePayload } from './shipment-executor';
import type { ShipIntent } from './plan';

/** How long a press waits for a label ahead being bought or printed in a batch, ms. */
const AHEAD_WAIT_MS = 20_000;
/** How often it looks again meanwhile, ms. */
const AHEAD_POLL_MS = 250;

/**
 * What `shipping.shipOrder` does next: ship with the label ahead (`input` and `ahead` for the one path), or the
 * ordinary path; `afterAhead` the reference of a purchase the press stopped waiting for (abandoned, schema 9): the
 * order's own label takes the next reference and never adopts that one's shipment, which its buyer cancels.
 */
export type AheadStep = { kind: 'ship'; input: z.output<typeof ShipInput>; ahead: ShipmentAhead } | { kind: 'resume'; input: z.output<typeof ShipInput> } | { kind: 'ordinary'; afterAhead?: string };

/** Whether `weightKg` (the scale's) is within the verify tolerance of the label's weight. */
export function weightFits(weightKg: number, labelKg: number, tolerance: { tolerancePct: number; toleranceKg: number }): boolean {
  const allowed = Math.max((tolerance.tolerancePct / 100) * labelKg, tolerance.toleranceKg);
  return Math.abs(weightKg - labelKg) <= allowed + 1e-9;
}

/** Why the label ahead does not fit the order now, or null when it fits. */
function misfit(ctx: StationContext, order: StationOrder, intent: ShipIntent, plan: ShipPlanView, a: LabelAhead): { reason: LabelAheadCancelReason; said: string } | null {
  const fingerprint = aheadFingerprint(order, plan.decision.rule?.name ?? null);
  if (fingerprint !== a.fingerprint || (intent.contractCode !== undefined && a.contractCode !== null && intent.contractCode !== a.contractCode)) {
    return { reason: 'changed', said: coreText('aheadChanged', { order: order.orderNumber, trackingNumber: a.trackingNumber ?? '?' }).message };
  }
  if (intent.weightKg !== undefined && a.weightKg !== null && !weightFits(intent.weightKg, a.weightKg, verifySettingsOf(ctx.store))) {
    return { reason: 'weight', said: coreText('aheadWeightOff', { order: order.orderNumber, trackingNumber: a.trackingNumber ?? '?', weight: intent.weightKg, labelWeight: a.weightKg }).message };
  }
  return null;
}

/**
 * The order's label ahead once it is neither being bought nor waiting in a batch, or the last seen after the wait.
 * A purchase still on its way then is abandoned (schema 9): `abandoned` carries its reference, and the row is
 * null. A purchase that ended just as the wait did is read again and judged as it is.
 */
async function settled(store: LabelsAheadStore, key: string, first: LabelAhead | null, waitMs: number): Promise<{ a: LabelAhead | null; abandoned?: string }> {
  let a = first;
  const until = Date.now() + waitMs;
  while (a && (a.state === 'buying' || a.state === 'batched') && Date.now() < until) {
    await new Promise((r) => setTimeout(r, AHEAD_POLL_MS));
    a = await store.ofOrder(key);
  }
  if (a?.state === 'buying') {
    if (await store.abandon(a.id)) return { a: null, abandoned: a.reference };
    a = await store.ofOrder(key);
  }
  // Abandoned by an earlier press that then sent nothing (its quote refused, say): this press keeps off it too.
  if (a?.state === 'abandoned') return { a: null, abandoned: a.reference };
  return { a };
}

/**
 * Keeps the label ahead as a shipment of the order here, the order left open: the packer's history shows it, and
 * the order's next shipment is its `-2` (never taken for "shipped elsewhere" by its reference). `cancelled`: the
 * platform cancelled it; otherwise it is still live there (the cancel was refused or got no answer).
 */
function keepAsOrders(ctx: StationContext, order: StationOrder, a: LabelAhead, cancelled: boolean): void {
  const trackingNumber = a.trackingNumber;
  const parsed = Shipment.safeParse(a.shipment);
  if (!trackingNumber || !parsed.success || ctx.store.shipments.getByTrackingNumber(trackingNumber)) return;
  ctx.store.tx(() => {
    storePlatformShipment(ctx.store, parsed.data, null, { orderId: order.id, reference: a.reference, keepOrderOpen: true });
    if (cancelled) ctx.store.shipments.markCancelled(trackingNumber);
  });
  ctx.events.emit('shipments.changed', { trackingNumber });
  emitOrdersChanged(ctx);
}

/**
 * Cancels a label ahead that no longer fits: DELETE /shipments/{ldv}, the refund recorded at the warehouse, the
 * label kept as the order's here ({@link keepAsOrders}). A refusal (409) is recorded at the warehouse with the
 * platform's words; any other failure leaves it for the close of the day. Never throws: the ordinary path ships
 * the order either way, and the log says what became of the label ahead.
 */
async function cancelAhead(ctx: StationContext, store: LabelsAheadStore, order: StationOrder, a: LabelAhead, why: { reason: LabelAheadCancelReason; said: string }): Promise<void> {
  const trackingNumber = a.trackingNumber;
  if (!trackingNumber) return;
  let refunded: number;
  try {
    refunded = (await ctx.client.cancelShipment(trackingNumber)).refunded;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof PlatformError && e.status === 409) {
      await store.end(a.id, 'cancel_refused', why.reason, null, message).catch(() => undefined);
      ctx.warehouse.log(coreText('aheadCancelRefused', { why: why.said, reason: message }).message);
    } else {
      ctx.warehouse.log(coreText('aheadCancelFailed', { why: why.said, reason: message }).message);
    }
    keepAsOrders(ctx, order, a, false);
    return;
  }
  await store.end(a.id, 'cancelled', why.reason, refunded, null).catch((e: Error) => ctx.warehouse.log(`labels ahead: the cancel of ${trackingNumber} was not recorded at the warehouse: ${e.message}`));
  keepAsOrders(ctx, order, a, true);
  ctx.warehouse.log(coreText('aheadCancelled', { why: why.said, refunded: refunded.toFixed(2) }).message);
}

/** The one path's input and label of a label ahead marked used. */
function shipWith(order: StationOrder, plan: ShipPlanView, a: LabelAhead): AheadStep {
  const parsed = Shipment.safeParse(a.shipment);
  if (!parsed.success || !plan.request) return { kind: 'ordinary' };
  const label = a.labelZpl || a.labelPdf ? { zpl: a.labelZpl, pdf: a.labelPdf } : null;
  const request = {
    ...plan.request,
    reference: a.reference,
    ...(a.contractCode ? { serviceType: a.contractCode } : {}),
    ...(a.carrierCode ? { carrierCode: a.carrierCode } : {}),
  };
  return {
    kind: 'ship',
    input: { orderId: order.id, request } as z.output<typeof ShipInput>,
    ahead: { id: a.id, shipment: parsed.data, label, printed: a.printedAt !== null },
  };
}

/**
 * What a packer's ship of `order` (claimed, key `key`) does with its label ahead; see the module doc.
 * `packer`: who is signed in, recorded with `use`.
 */
export async function aheadStep(ctx: StationContext, order: StationOrder, key: string, intent: ShipIntent, plan: ShipPlanView, packer: string | null, waitMs = AHEAD_WAIT_MS): Promise<AheadStep> {
  // A press after a kill between the local commit's row and its send: that row ships, with no quote.
  const pending = ctx.store.shipments.listByOrder(order.id).filter((s) => s.trackingNumber === null && s.cancelledAt === null);
  const last = pending.at(-1);
  if (last) {
    const row = ctx.store.outbox.listByLocalRef(`shipment:${last.id}`).at(-1);
    const payload = row?.payload as ShipmentCreatePayload | undefined;
    if (payload?.ahead && plan.request) return { kind: 'resume', input: { orderId: order.id, request: { ...plan.request, reference: payload.request.reference } } as z.output<typeof ShipInput> };
    return { kind: 'ordinary' };
  }
  const store = ctx.warehouse.labelsAhead();
  if (!store) return { kind: 'ordinary' };
  try {
    const { a, abandoned } = await settled(store, key, await store.ofOrder(key), waitMs);
    if (abandoned !== undefined || (a && (a.state === 'buying' || a.state === 'batched'))) {
      ctx.warehouse.log(coreText('aheadNotReady', { order: order.orderNumber, seconds: Math.round(waitMs / 1000) }).message);
      return abandoned !== undefined ? { kind: 'ordinary', afterAhead: abandoned } : { kind: 'ordinary' };
    }
    if (!a || !a.trackingNumber) return { kind: 'ordinary' };
    const mine = a.state === 'used' && a.usedBy === ctx.warehouse.status().bench.id;
    if (a.state === 'used' && !mine) return { kind: 'ordinary' };
    if (!mine) {
      const why = misfit(ctx, order, intent, plan, a);
      if (why) {
        await cancelAhead(ctx, store, order, a, why);
        return { kind: 'ordinary' };
      }
    }
    const used = await store.use(a.id, packer);
    if (!used) return { kind: 'ordinary' };
    return shipWith(order, plan, used);
  } catch (e) {
    // The warehouse did not answer: the label ahead stays for the close of the day; the packer ships as usual.
    ctx.warehouse.log(coreText('aheadUnreachable', { order: order.orderNumber, reason: e instanceof Error ? e.message : String(e) }).message);
    return { kind: 'ordinary' };
  }
}

/**
 * A ship by the packer's form or by the platform's request (the packer chose the shipment by hand) of an order
 * with a label bought ahead: the label ahead is not what was chosen, so it is cancelled first (as one that no
 * longer fits, reason `changed`), kept as the order's here, and the chosen shipment is the order's next (`-2`),
 * never the label ahead adopted by its reference. A label ahead being bought or batched is waited for as a press
 * waits (a purchase still on its way then is abandoned); one this bench used already is left alone. Never throws:
 * the warehouse away, nothing is done.
 * @returns the reference of an abandoned purchase (the chosen shipment must not take it), else undefined
 */
export async function setAsideAhead(ctx: StationContext, order: StationOrder, key: string, waitMs = AHEAD_WAIT_MS): Promise<string | undefined> {
  const store = ctx.warehouse.labelsAhead();
  if (!store) return undefined;
  try {
    const { a, abandoned } = await settled(store, key, await store.ofOrder(key), waitMs);
    if (abandoned !== undefined) return abandoned;
    if (!a || !a.trackingNumber || (a.state !== 'bought' && a.state !== 'printed')) return undefined;
    const said = coreText('aheadByHand', { order: order.orderNumber, trackingNumber: a.trackingNumber }).message;
    await cancelAhead(ctx, store, order, a, { reason: 'changed', said });
  } catch (e) {
    ctx.warehouse.log(coreText('aheadUnreachable', { order: order.orderNumber, reason: e instanceof Error ? e.message : String(e) }).message);
  }
  return undefined;
}
