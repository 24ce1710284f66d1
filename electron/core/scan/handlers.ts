/** `scan.*` commands: what a scanned or typed code is. */
import { TRACKING_NUMBER_PATTERN, type Handlers, type OrderClaimView, type ScanResult } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { PlatformError } from '../platform/errors';
import type { StationContext } from '../common/context';
import { adoptShipment, findLocalShipment, findPlatformShipment } from '../shipping/lookup';
import { shipmentView } from '../shipping/views';
import { orderReference } from '../../../shared/domain/order-reference';
import type { StationOrder } from '../../../shared/domain/order';

/** A BDA: the carrier's delivery document number, 14 digits (spec: Tracking, `bda`). */
const BDA_PATTERN = /^\d{14}$/;

/**
 * Handlers of the `scan` domain. An order a scan opens is claimed for this bench in the warehouse (issue 35;
 * `packerName` says who is signed in), and the order opened before it is let go.
 */
export function createScanHandlers(ctx: StationContext, packerName: () => string | null = () => null) {
  let opened: string | null = null;
  /** Claims the order a scan opens; the one before it is let go. Returns who packs it when another bench does. */
  const open = async (order: StationOrder): Promise<OrderClaimView | undefined> => {
    const key = orderReference(order);
    if (opened !== null && opened !== key) await ctx.warehouse.release(opened);
    opened = key;
    const claim = await ctx.warehouse.claim(key, packerName());
    if (claim.won || claim.offline) return undefined;
    opened = null;
    return { bench: claim.benchName, packer: claim.packer, since: claim.since };
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
      const key = opened;
      opened = null;
      if (key !== null) await ctx.warehouse.release(key);
      return { released: key !== null };
    },
    'scan.open': async ({ orderId }): Promise<ScanResult> => {
      const order = ctx.store.orders.getById(orderId);
      if (!order) throw new StationError('not_found_locally', `Order ${orderId} not found`, { orderId: ['No such order at this station'] });
      const claimedBy = await open(order);
      return { kind: 'order', order, ...(claimedBy ? { claimedBy } : {}) };
    },
    'scan.resolve': async ({ code }): Promise<ScanResult> => {
      const c = code.trim();
      const orders = ctx.store.orders.findAllByScan(c);
      if (orders.length > 1) return { kind: 'orders', code: c, orders };
      if (orders[0]) {
        const claimedBy = await open(orders[0]);
        return { kind: 'order', order: orders[0], ...(claimedBy ? { claimedBy } : {}) };
      }
      const local = findLocalShipment(ctx.store, c);
      if (local) return { kind: 'shipment', shipment: shipmentView(ctx.store, local) };
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
