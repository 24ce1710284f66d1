/**
 * Builds the contract's view types (shared/contract/views.ts) from store
 * records. Platform JSON kept in the store is parsed with the shared wire
 * schemas; a field the platform did not send falls back to the local record.
 */
import type { ManifestView, PrintJobView, ShipmentView, TrackingView } from '../../../shared/contract/views';
import { SHIPMENT_STATUSES, type Status } from '../../../shared/platform/common';
import { Pickup, Shipment } from '../../../shared/platform/resources';
import type { TrackingRecord } from '../../../shared/platform/tracking';
import type { ManifestRecord, PickupRecord, PrintJobRecord, ShipmentRecord, Store } from '../store';

/** Status object for a status key (first code of that key), `processing` when unknown. */
export function statusForKey(key: string | null): Status {
  const s = SHIPMENT_STATUSES.find((x) => x.key === key) ?? SHIPMENT_STATUSES[0];
  return s ?? { code: 0, key: 'processing', label: 'In processing' };
}

/** Print job view of a row (drops the label id and update time). */
export function printJobView(j: PrintJobRecord): PrintJobView {
  return {
    id: j.id,
    trackingNumber: j.trackingNumber,
    printerUri: j.printerUri,
    state: j.state,
    attempts: j.attempts,
    lastError: j.lastError,
    bytesWritten: j.bytesWritten,
    requestedBy: j.requestedBy,
    createdAt: j.createdAt,
    printedAt: j.printedAt,
  };
}

/** Manifest view; `id` is the platform's manifest id (the number on the carrier's paper). */
export function manifestView(m: ManifestRecord): ManifestView {
  return {
    id: m.platformId,
    carrier: { code: m.carrierCode, name: m.carrierName ?? m.carrierCode },
    contractCode: m.contractCode,
    totalShipments: m.totalShipments,
    totalCost: m.totalCost,
    createdAt: m.createdAt,
    hasPdf: m.hasPdf,
  };
}

/**
 * Shipment view of a stored (created) shipment: the platform's Shipment JSON
 * for carrier, packages, recipient, COD and warning; the local row for
 * status, cost, manifest and cancellation; labels and print jobs from their
 * tables.
 * @throws Error when the row is still pending (no tracking number): callers only pass created rows.
 */
export function shipmentView(store: Store, rec: ShipmentRecord): ShipmentView {
  if (rec.trackingNumber === null) throw new Error(`Shipment row ${rec.id} has no tracking number yet`);
  const ldv = rec.trackingNumber;
  const parsed = Shipment.safeParse(rec.platform);
  const p = parsed.success ? parsed.data : undefined;
  const order = rec.orderId !== null ? store.orders.getById(rec.orderId) : undefined;

  let recipient: ShipmentView['recipient'] = null;
  const r = p?.recipient;
  if (r?.name && r.address?.city && r.address.postalCode && r.address.countryCode) {
    recipient = { name: r.name, city: r.address.city, postalCode: r.address.postalCode, countryCode: r.address.countryCode };
  } else if (order) {
    const o = order.recipient;
    recipient = { name: o.name, city: o.city, postalCode: o.postalCode, countryCode: o.countryCode };
  }

  const status = p && (rec.statusKey === null || p.status.key === rec.statusKey) ? p.status : statusForKey(rec.statusKey);
  const manifest = rec.manifestId !== null ? store.manifests.get(rec.manifestId) : undefined;
  const formats = new Set(store.labels.listForShipment(ldv).map((l) => l.format));

  return {
    trackingNumber: ldv,
    reference: rec.reference,
    orderNumber: order?.orderNumber ?? null,
    status,
    carrier: p?.carrier ?? { code: rec.carrierCode ?? '', name: rec.carrierCode ?? '', contractCode: rec.contractCode ?? '', contractName: rec.contractCode ?? '' },
    parcels: p?.parcels ?? p?.packages.length ?? 1,
    packageTrackingNumbers: p?.packages.map((x) => x.trackingNumber) ?? [ldv],
    cost: { amount: rec.costTotal ?? p?.cost.total ?? 0, currency: rec.currency ?? p?.cost.currency ?? 'EUR' },
    createdAt: p?.createdAt ?? rec.createdAt,
    recipient,
    cod: p?.cod ? { amount: p.cod.amount, currency: p.cod.currency } : null,
    manifestId: manifest?.platformId ?? p?.manifestId ?? null,
    cancelled: rec.cancelledAt !== null,
    labelFormats: (['ZPL', 'PDF'] as const).filter((f) => formats.has(f)),
    printJobs: store.printJobs.listForShipment(ldv).map(printJobView),
    warning: p?.warning ?? null,
  };
}

/** The platform Pickup of a booked local record, or undefined when it is not booked or unreadable. */
export function pickupOf(rec: PickupRecord): Pickup | undefined {
  if (rec.state !== 'booked') return undefined;
  const parsed = Pickup.safeParse(rec.platform);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Events newest first. The spec already sends them so; they are ordered by
 * instant here too (stable: events of the same instant keep the platform's
 * order), unless a timestamp does not parse, when the platform's order is kept.
 */
function newestFirst<T extends { timestamp: string }>(events: readonly T[]): T[] {
  const at = events.map((e) => Date.parse(e.timestamp));
  if (at.some((t) => Number.isNaN(t))) return [...events];
  return events
    .map((e, i) => ({ e, t: at[i] ?? 0, i }))
    .sort((a, b) => b.t - a.t || a.i - b.i)
    .map((x) => x.e);
}

/**
 * Tracking view of a platform tracking record (GET /shipments/{ldv}/tracking,
 * shared/platform/tracking.ts): `source: 'platform'`, events newest first with
 * their ISO timestamps unchanged (the screens show them in local time).
 * `asOf`: when the record was read, ISO 8601.
 */
export function trackingView(rec: TrackingRecord, asOf: string): TrackingView {
  return {
    trackingNumber: rec.trackingNumber,
    carrierTrackingNumber: rec.carrierTrackingNumber,
    carrier: { code: rec.carrier.code, name: rec.carrier.name },
    status: rec.status,
    events: newestFirst(rec.events).map((e) => ({ timestamp: e.timestamp, status: e.status, description: e.description, location: e.location })),
    estimatedDelivery: rec.estimatedDeliveryDate,
    deliveredAt: rec.deliveredAt,
    cancelled: rec.cancelled,
    stockId: rec.stockId,
    source: 'platform',
    unavailable: null,
    asOf,
  };
}

/**
 * Tracking view from the station's own record when the platform cannot be
 * asked: the last known status (as {@link shipmentView} shows it), no events,
 * `source: 'local'`, `unavailable` saying why, `asOf` the record's last update.
 * @throws Error for a pending row (no tracking number), like {@link shipmentView}.
 */
export function lastKnownTrackingView(store: Store, rec: ShipmentRecord, unavailable: { code: string; message: string }): TrackingView {
  const s = shipmentView(store, rec);
  const parsed = Shipment.safeParse(rec.platform);
  return {
    trackingNumber: s.trackingNumber,
    carrierTrackingNumber: null,
    carrier: { code: s.carrier.code, name: s.carrier.name },
    status: s.status,
    events: [],
    estimatedDelivery: null,
    deliveredAt: (parsed.success ? parsed.data.dates?.deliveredAt : null) ?? null,
    cancelled: s.cancelled,
    stockId: null,
    source: 'local',
    unavailable,
    asOf: rec.updatedAt,
  };
}
