/** `scan.*` commands: what a scanned or typed code is. */
import { TRACKING_NUMBER_PATTERN, type Handlers, type OrderClaimView, type OrderShippedView, type ScanResult } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { PlatformError } from '../platform/errors';
import type { StationContext } from '../common/context';
import { adoptShipment, findLocalShipment, findPlatformShipment } from '../shipping/lookup';
import { shipmentView } from '../shipping/views';
import { orderReference } from '../../../shared/domain/order-reference';
import type { StationOrder } from '../../../shared/domain/order';
import { emitOrdersChanged } from '../orders/handlers';

/** A BDA: the carrier's delivery document number, 14 digits (spec: Tracking, `bda`). */
const BDA_PATTERN = /^\d{14}$/;

/** States of a label ahead whose scan opens its order: bought (printed elsewhere), in a batch, printed in a batch. */
const OPENS_ORDER = new Set(['bought', 'batched', 'printed']);

/**
 * The local order of the label ahead with tracking number `code`, when the warehouse has one not used yet and the
 * order is not shipped here; null otherwise (alone, the warehouse away, another code).
 */
async function orderOfLabelAhead(ctx: StationContext, code: string): Promise<StationOrder | null> {
  const store = ctx.warehouse.labelsAhead();
  if (!store || !TRACKING_NUMBER_PATTERN.test(code)) return null;
  const a = await store.byTrackingNumber(code).catch(() => null);
  if (!a || !OPENS_ORDER.has(a.state)) return null;
  // The key is the order's reference (shop and number): its number is the last word.
  const number = a.orderKey.slice(a.orderKey.lastIndexOf(' ') + 1).replace(/~$/, '');
  const order = ctx.store.orders.findAllByScan(number).find((o) => orderReference(o) === a.orderKey);
  return order && order.status === 'open' ? order : null;
}

/**
 * Handlers of the `scan` domain. An order a scan opens is claimed for this bench in the warehouse (issue 35;
 * `packerName` says who is signed in), and the order opened before it is let go.
 */
export function createScanHandlers(ctx: StationContext, packerName: () => string | null = () => null) {
  let opened: { key: string; orderId: number } | null = null;
  /**
   * Lets the order opened before go, unless its shipment is still unsent (queued in the outbox): a claim lives
   * as long as its shipment, so no other bench ships it meanwhile (issue 42 item 7). Such a claim ends when the
   * shipment reaches the warehouse (orders push, `ship_orders`) or is cancelled.
   */
  const letGo = async (prev: { key: string; orderId: number }): Promise<void> => {
    const unsent = ctx.store.shipments.listByOrder(prev.orderId).some((s) => s.trackingNumber === null && s.cancelledAt === null);
    if (!unsent) await ctx.warehouse.release(prev.key);
  };
  /**
   * Claims the order a scan opens; the one before it is let go. Returns who packs it when another bench does;
   * an order the warehouse says is shipped already is marked shipped here and returned so (never a second label).
   */
  const open = async (order: StationOrder): Promise<{ order: StationOrder; claimedBy?: OrderClaimView; shippedElsewhere?: OrderShippedView }> => {
    const key = orderReference(order);
    if (opened !== null && opened.key !== key) await letGo(opened);
    opened = { key, orderId: order.id };
    const claim = await ctx.warehouse.claim(key, packerName());
    if (claim.won || claim.offline) return { order };
    opened = null;
    if (claim.shipped) {
      const { trackingNumber, benchName, at, fromPlatform } = claim.shipped;
      const elsewhere = trackingNumber ? { shippedElsewhere: { bench: fromPlatform ? null : benchName, at, trackingNumber } } : {};
      if (order.status === 'open' && trackingNumber) {
        const shipped = ctx.store.orders.markShipped(order.id, trackingNumber);
        emitOrdersChanged(ctx);
        return { order: shipped, ...elsewhere };
      }
      return { order, ...elsewhere };
    }
    return { order, claimedBy: { bench: claim.benchName, packer: claim.packer, since: claim.since } };
  };
  return {
    /**
     * Resolves a code, in this order:
     * 1. an order number, with or without `#`, any case (local store); when
     *    several shops have that number, all of them (`kind: 'orders'`) for the packer to choose;
     * 2. a tracking number (LDV) of a shipment or of one of its packages, local first;
     * 3. a BDA, the carrier's 14-digit delivery document number printed on its paperwork
     *    (GET /tracking/bda/{bda}, last 60 days, spec: Tracking): the shipment it names;
     * 4. the same on the platform (GET /shipments/{ldv}), adopted locally when found, when the
     *    code has the shape of a tracking number (shared/contract TRACKING_NUMBER_PATTERN);
     * otherwise `unknown`.
     * @throws StationError `offline` / `timeout` when the platform could not be asked.
     */
    'scan.release': async () => {
      const prev = opened;
      opened = null;
      if (prev !== null) await letGo(prev);
      return { released: prev !== null };
    },
    'scan.open': async ({ orderId }): Promise<ScanResult> => {
      const order = ctx.store.orders.getById(orderId);
      if (!order) throw new StationError('not_found_locally', `Order ${orderId} not found`, { orderId: ['No such order at this station'] });
      return { kind: 'order', ...(await open(order)) };
    },
    'scan.resolve': async ({ code }): Promise<ScanResult> => {
      const c = code.trim();
      const orders = ctx.store.orders.findAllByScan(c);
      if (orders.length > 1) return { kind: 'orders', code: c, orders };
      if (orders[0]) return { kind: 'order', ...(await open(orders[0])) };
      const local = findLocalShipment(ctx.store, c);
      if (local) return { kind: 'shipment', shipment: shipmentView(ctx.store, local) };
      // A label bought ahead and printed in a batch (issue 43 item 5): its order opens for verify, claimed as a scan claims.
      const ahead = await orderOfLabelAhead(ctx, c);
      if (ahead) return { kind: 'order', ...(await open(ahead)) };
      if (BDA_PATTERN.test(c)) {
        let trackingNumber: string | undefined;
        try {
          trackingNumber = (await ctx.client.getTrackingByBda(c)).trackingNumber;
        } catch (e) {
          if (!(e instanceof PlatformError && e.status === 404)) throw e;
        }
        if (trackingNumber === undefined) return { kind: 'unknown', code: c };
        const known = findLocalShipment(ctx.store, trackingNumber);
        if (known) return { kind: 'shipment', shipment: shipmentView(ctx.store, known) };
        const found = await findPlatformShipment(ctx, trackingNumber);
        if (!found) return { kind: 'unknown', code: c };
        const adopted = adoptShipment(ctx.store, found);
        ctx.events.emit('shipments.changed', { trackingNumber: found.trackingNumber });
        return { kind: 'shipment', shipment: shipmentView(ctx.store, adopted) };
      }
      // Only something shaped like a tracking number goes into the platform's URL path (never `..`, `/`, `?`).
      if (!TRACKING_NUMBER_PATTERN.test(c)) return { kind: 'unknown', code: c };
      const remote = await findPlatformShipment(ctx, c);
      if (!remote) return { kind: 'unknown', code: c };
      const rec = adoptShipment(ctx.store, remote);
      ctx.events.emit('shipments.changed', { trackingNumber: remote.trackingNumber });
      return { kind: 'shipment', shipment: shipmentView(ctx.store, rec) };
    },
  } satisfies Pick<Handlers, 'scan.open' | 'scan.release' | 'scan.resolve'>;
}
