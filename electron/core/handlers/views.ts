/**
 * Builds the contract's view types (shared/contract/views.ts) from store
 * records. Platform JSON kept in the store is parsed with the shared wire
 * schemas; a field the platform did not send falls back to the local record.
 */
import { z } from 'zod';
import type { ManifestView, OutboxRowView, PrintJobView, ShipmentView, TrackingView } from '../../../shared/contract/views';
import { SHIPMENT_STATUSES, type Status } from '../../../shared/platform/common';
import { Pickup, Shipment } from '../../../shared/platform/resources';
import type { TrackingRecord } from '../../../shared/platform/tracking';
import { isDefiniteRefusal } from '../outbox/worker';
import type { ManifestRecord, OutboxRecord, PickupRecord, PrintJobRecord, ShipmentRecord, Store } from '../store';

/** Status object for a status key (first code of that key), `processing` when unknown. */
function statusForKey(key: string | null): Status {
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
  const trackingNumber = rec.trackingNumber;
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
  const formats = new Set(store.labels.listForShipment(trackingNumber).map((l) => l.format));

  return {
    trackingNumber,
    reference: rec.reference,
    orderNumber: order?.orderNumber ?? null,
    status,
    carrier: p?.carrier ?? { code: rec.carrierCode ?? '', name: rec.carrierCode ?? '', contractCode: rec.contractCode ?? '', contractName: rec.contractCode ?? '' },
    parcels: p?.parcels ?? p?.packages.length ?? 1,
    packageTrackingNumbers: p?.packages.map((x) => x.trackingNumber) ?? [trackingNumber],
    cost: { amount: rec.costTotal ?? p?.cost.total ?? 0, currency: rec.currency ?? p?.cost.currency ?? 'EUR' },
    createdAt: p?.createdAt ?? rec.createdAt,
    recipient,
    cod: p?.cod ? { amount: p.cod.amount, currency: p.cod.currency } : null,
    manifestId: manifest?.platformId ?? p?.manifestId ?? null,
    cancelled: rec.cancelledAt !== null,
    labelFormats: (['ZPL', 'PDF'] as const).filter((f) => formats.has(f)),
    printJobs: store.printJobs.listForShipment(trackingNumber).map(printJobView),
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

// Outbox payloads and results as the executors write them (electron/core/outbox/*);
// read leniently: a row the view cannot read still shows its kind and state.
const ShipmentRowPayload = z.object({ localShipmentId: z.number(), orderId: z.number().optional(), request: z.object({ reference: z.string() }) });
const PickupRowPayload = z.object({ request: z.object({ serviceType: z.string(), pickupDate: z.string(), pickupTime: z.string().optional() }) });
const ManifestRowPayload = z.object({ trackingNumbers: z.array(z.string()) });
const OrdersRowPayload = z.object({ orders: z.array(z.object({ order: z.object({ orderNumber: z.string().optional() }) })) });
const RowResult = z.object({
  trackingNumber: z.string().optional(),
  adopted: z.boolean().optional(),
  supersededBy: z.number().optional(),
  dismissed: z.object({ note: z.string().nullable().optional() }).optional(),
});

/**
 * Queue panel view of an outbox row: a title and the local records the packer
 * recognises (order number, tracking number, reference, pickup date), state
 * and outcome, last error with the platform's HTTP status, and whether the
 * packer may send it again (`canRetry`) or close it (`canDismiss`, only after
 * a definite 4xx refusal of the create call: see `isDefiniteRefusal`).
 */
export function outboxRowView(store: Store, row: OutboxRecord): OutboxRowView {
  let title: string = row.kind;
  let orderNumber: string | null = null;
  let trackingNumber: string | null = null;
  let reference: string | null = null;
  let pickupDate: string | null = null;
  const result = RowResult.safeParse(row.result);
  const res = result.success ? result.data : {};

  if (row.kind === 'shipment.create') {
    const p = ShipmentRowPayload.safeParse(row.payload);
    if (p.success) {
      reference = p.data.request.reference;
      orderNumber = p.data.orderId !== undefined ? (store.orders.getById(p.data.orderId)?.orderNumber ?? null) : null;
      trackingNumber = res.trackingNumber ?? store.shipments.getById(p.data.localShipmentId)?.trackingNumber ?? null;
      title = orderNumber ? `Ship order ${orderNumber}` : `Ship ${reference}`;
    } else {
      title = 'Ship';
    }
  } else if (row.kind === 'pickup.create') {
    const p = PickupRowPayload.safeParse(row.payload);
    if (p.success) {
      const r = p.data.request;
      pickupDate = r.pickupDate;
      title = `Book pickup ${r.pickupDate}${r.pickupTime ? ` ${r.pickupTime}` : ''} (${r.serviceType})`;
    } else {
      title = 'Book pickup';
    }
  } else if (row.kind === 'manifest.create') {
    const p = ManifestRowPayload.safeParse(row.payload);
    const n = p.success ? p.data.trackingNumbers.length : 0;
    title = p.success ? `Close the day: ${n} shipment${n === 1 ? '' : 's'}` : 'Close the day';
  } else if (row.kind === 'orders.submit') {
    const p = OrdersRowPayload.safeParse(row.payload);
    const list = p.success ? p.data.orders.map((o) => o.order.orderNumber ?? '?') : [];
    title = p.success ? `Send ${list.length} order${list.length === 1 ? '' : 's'} to the platform (${list.slice(0, 3).join(', ')}${list.length > 3 ? ', …' : ''})` : 'Send orders to the platform';
  }

  let outcome: OutboxRowView['outcome'] = null;
  if (row.state === 'done') {
    if (res.dismissed) outcome = 'dismissed';
    else if (res.supersededBy !== undefined) outcome = 'superseded';
    else if (res.adopted === true) outcome = 'adopted';
    else outcome = 'sent';
  }
  const e = row.lastError;
  return {
    id: row.id,
    kind: row.kind,
    title,
    orderNumber,
    trackingNumber,
    reference,
    pickupDate,
    state: row.state,
    outcome,
    note: res.dismissed?.note ?? null,
    attempts: row.attempts,
    lastError: e ? { code: e.code, message: e.message, status: typeof e.status === 'number' ? e.status : null, details: e.details ?? null } : null,
    canRetry: row.state === 'needs_attention',
    canDismiss: row.state === 'needs_attention' && isDefiniteRefusal(row),
    canConfirmResend: row.state === 'needs_attention' && row.lastError?.code === 'outcome_unknown',
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
