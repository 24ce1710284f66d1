/**
 * The contract's shipment and tracking views (shared/contract/views.ts
 * ShipmentView, TrackingView) from store records. Platform JSON kept in the
 * store is parsed with the shared wire schemas; a field the platform did not
 * send falls back to the local record.
 */
import type { ShipmentView, TrackingView } from '../../../shared/contract/views';
import { SHIPMENT_STATUSES, type Status } from '../../../shared/platform/common';
import { Shipment } from '../../../shared/platform/resources';
import type { TrackingRecord } from '../../../shared/platform/tracking';
import type { StationOrder } from '../../../shared/domain/order';
import type { ManifestRecord, PrintJobRecord, ShipmentRecord, Store } from '../store';
import { printJobView } from '../printing/jobs/job-views';

/** Status object for a status key (first code of that key), `processing` when unknown. */
function statusForKey(key: string | null): Status {
  const s = SHIPMENT_STATUSES.find((x) => x.key === key) ?? SHIPMENT_STATUSES[0];
  return s ?? { code: 0, key: 'processing', label: 'In processing' };
}

/** Sum of the packages' weights in kg (grams converted), or null when the platform did not give every weight. */
function totalWeightKg(p: Shipment | undefined): number | null {
  if (!p || p.packages.length === 0) return null;
  let kg = 0;
  for (const pkg of p.packages) {
    if (!pkg.weight) return null;
    kg += pkg.weight.units === 'G' ? pkg.weight.value / 1000 : pkg.weight.value;
  }
  return Math.round(kg * 1000) / 1000;
}

/**
 * The delivery point of the stored shipment `trackingNumber` (ShipmentView.deliveryPoint):
 * null for home delivery, an unknown shipment, or a platform that did not say.
 */
export function shipmentDeliveryPoint(store: Store, trackingNumber: string): ShipmentView['deliveryPoint'] {
  const rec = store.shipments.getByTrackingNumber(trackingNumber);
  const p = rec ? Shipment.safeParse(rec.platform) : undefined;
  return deliveryPointOf(p?.success ? p.data : undefined);
}

/** The delivery point a shipment goes to, from its registered options (ShipmentView.deliveryPoint). */
function deliveryPointOf(p: Shipment | undefined): ShipmentView['deliveryPoint'] {
  const dp = p?.options?.deliveryPoint;
  if (!dp) return null;
  const a = dp.address;
  const address = [a.street, [a.postalCode, a.city].filter(Boolean).join(' ')].filter((x) => x !== undefined && x !== '').join(', ');
  return { id: dp.id, name: dp.name, type: dp.type, address };
}

/**
 * Shipment view of a stored (created) shipment: the platform's Shipment JSON
 * for carrier, packages, recipient, COD and warning; the local row for
 * status, cost, manifest and cancellation; labels and print jobs from their
 * tables.
 * @throws Error when the row is still pending (no tracking number): callers only pass created rows.
 */
export function shipmentView(store: Store, rec: ShipmentRecord): ShipmentView {
  return viewWith(rec, {
    order: (id) => store.orders.getById(id),
    manifest: (id) => store.manifests.get(id),
    formats: (tn) => new Set(store.labels.listForShipment(tn).map((l) => l.format)),
    printJobs: (tn) => store.printJobs.listForShipment(tn),
  });
}

/**
 * {@link shipmentView} of every record, the same views, with the orders,
 * label formats and print jobs read in one query each rather than per
 * shipment (End of day lists a whole day's shipments).
 * @throws Error when a row is still pending (no tracking number).
 */
export function shipmentViews(store: Store, recs: readonly ShipmentRecord[]): ShipmentView[] {
  const tns = recs.flatMap((r) => (r.trackingNumber === null ? [] : [r.trackingNumber]));
  const orders = store.orders.getMany(recs.flatMap((r) => (r.orderId === null ? [] : [r.orderId])));
  const formats = store.labels.formatsOf(tns);
  const jobs = store.printJobs.listForShipments(tns);
  const lookups: ViewLookups = {
    order: (id) => orders.get(id),
    manifest: (id) => store.manifests.get(id),
    formats: (tn) => formats.get(tn) ?? new Set(),
    printJobs: (tn) => jobs.get(tn) ?? [],
  };
  return recs.map((r) => viewWith(r, lookups));
}

/** What a shipment view reads beside its row. */
interface ViewLookups {
  order(id: number): StationOrder | undefined;
  manifest(id: number): ManifestRecord | undefined;
  formats(trackingNumber: string): ReadonlySet<'ZPL' | 'PDF'>;
  printJobs(trackingNumber: string): PrintJobRecord[];
}

function viewWith(rec: ShipmentRecord, look: ViewLookups): ShipmentView {
  if (rec.trackingNumber === null) throw new Error(`Shipment row ${rec.id} has no tracking number yet`);
  const trackingNumber = rec.trackingNumber;
  const parsed = Shipment.safeParse(rec.platform);
  const p = parsed.success ? parsed.data : undefined;
  const order = rec.orderId !== null ? look.order(rec.orderId) : undefined;

  let recipient: ShipmentView['recipient'] = null;
  const r = p?.recipient;
  if (r?.name && r.address?.city && r.address.postalCode && r.address.countryCode) {
    recipient = { name: r.name, city: r.address.city, postalCode: r.address.postalCode, countryCode: r.address.countryCode };
  } else if (order) {
    const o = order.recipient;
    recipient = { name: o.name, city: o.city, postalCode: o.postalCode, countryCode: o.countryCode };
  }

  const status = p && (rec.statusKey === null || p.status.key === rec.statusKey) ? p.status : statusForKey(rec.statusKey);
  const manifest = rec.manifestId !== null ? look.manifest(rec.manifestId) : undefined;
  const formats = look.formats(trackingNumber);

  return {
    trackingNumber,
    reference: rec.reference,
    orderNumber: order?.orderNumber ?? null,
    status,
    carrier: p?.carrier ?? { code: rec.carrierCode ?? '', name: rec.carrierCode ?? '', contractCode: rec.contractCode ?? '', contractName: '' },
    parcels: p?.parcels ?? p?.packages.length ?? 1,
    weightKg: totalWeightKg(p),
    packageTrackingNumbers: p?.packages.map((x) => x.trackingNumber) ?? [trackingNumber],
    cost: { amount: rec.costTotal ?? p?.cost.total ?? 0, currency: rec.currency ?? p?.cost.currency ?? 'EUR' },
    createdAt: p?.createdAt ?? rec.createdAt,
    recipient,
    deliveryPoint: deliveryPointOf(p),
    cod: p?.cod ? { amount: p.cod.amount, currency: p.cod.currency } : null,
    manifestId: manifest?.platformId ?? p?.manifestId ?? null,
    cancelled: rec.cancelledAt !== null,
    labelFormats: (['ZPL', 'PDF'] as const).filter((f) => formats.has(f)),
    printJobs: look.printJobs(trackingNumber).map(printJobView),
    warning: p?.warning ?? null,
  };
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
