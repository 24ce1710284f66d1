/**
 * Finding shipments by tracking number (LDV): the local store first (the
 * shipment's own number or one of its packages' numbers), then the platform.
 */
import { StationError } from '../../../shared/contract/errors';
import { Shipment } from '../../../shared/platform/resources';
import { PlatformError } from '../platform/errors';
import { storePlatformShipment } from './shipment-executor';
import type { ShipmentRecord, Store } from '../store';
import type { ContextWithoutOutbox } from '../common/context';

/** How many recent local shipments are searched for a package tracking number. */
const PACKAGE_SEARCH_LIMIT = 1000;

/**
 * The local created shipment whose own or package tracking number is `code`
 * (exact, then upper-cased: scanners may send lower case). Undefined when none.
 */
export function findLocalShipment(store: Store, code: string): ShipmentRecord | undefined {
  const c = code.trim();
  const direct = store.shipments.getByTrackingNumber(c) ?? store.shipments.getByTrackingNumber(c.toUpperCase());
  if (direct) return direct;
  const upper = c.toUpperCase();
  // The store indexes only the shipment's own number; packages live in the platform JSON.
  for (const rec of store.shipments.listRecent({ limit: PACKAGE_SEARCH_LIMIT })) {
    const parsed = Shipment.safeParse(rec.platform);
    if (parsed.success && parsed.data.packages.some((p) => p.trackingNumber.toUpperCase() === upper)) return rec;
  }
  return undefined;
}

/**
 * The platform's shipment for a shipment or package tracking number:
 * GET /shipments/{ldv}, then GET /shipments?trackingNumber= (which also matches
 * package numbers). Undefined when the platform knows neither.
 * @throws PlatformError for anything but 404 (offline, timeout, ...).
 */
export async function findPlatformShipment(ctx: ContextWithoutOutbox, code: string): Promise<Shipment | undefined> {
  try {
    return await ctx.client.getShipment(code);
  } catch (e) {
    if (!(e instanceof PlatformError && e.status === 404)) throw e;
  }
  const list = await ctx.client.listShipments({ trackingNumber: code, per_page: 5 });
  const upper = code.toUpperCase();
  const hit = list.data.find((s) => s.trackingNumber.toUpperCase() === upper || s.packages.some((p) => p.trackingNumber.toUpperCase() === upper));
  if (!hit) return undefined;
  // The list gives the summary; the detail has recipient and COD.
  return ctx.client.getShipment(hit.trackingNumber);
}

/**
 * Stores (or refreshes) a platform shipment locally without touching orders
 * or labels, and returns its row. Used for shipments the station did not
 * create (scanned, or looked up) and to refresh status.
 */
export function adoptShipment(store: Store, shipment: Shipment): ShipmentRecord {
  const id = store.tx(() => storePlatformShipment(store, shipment, null, {}));
  const rec = store.shipments.getById(id);
  if (!rec) throw new StationError('store_error', `Shipment ${shipment.trackingNumber} could not be stored`);
  return rec;
}
