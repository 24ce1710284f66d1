/**
 * Builds the contract's view types (shared/contract/views.ts) from store
 * records. Platform JSON kept in the store is parsed with the shared wire
 * schemas; a field the platform did not send falls back to the local record.
 */
import { z } from 'zod';
import type { ManifestView, OutboxRowView, OutboxTitleParts, PrintJobView, ShipmentView, TrackingView } from '../../../shared/contract/views';
import { SHIPMENT_STATUSES, type Status } from '../../../shared/platform/common';
import { Pickup, Shipment } from '../../../shared/platform/resources';
import type { TrackingRecord } from '../../../shared/platform/tracking';
import type { StationOrder } from '../../../shared/domain/order';
import { isDefiniteRefusal } from '../outbox/worker';
import type { ManifestRecord, OutboxRecord, PickupRecord, PrintJobRecord, ShipmentRecord, Store } from '../store';
import { isStationText } from '../../../shared/contract/core-text';

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
    ...(j.lastErrorText ? { lastErrorText: j.lastErrorText } : {}),
    bytesWritten: j.bytesWritten,
    requestedBy: j.requestedBy,
    createdAt: j.createdAt,
    printedAt: j.printedAt,
  };
}

/**
 * The contract's human name for a manifest, from the platform JSON of one of
 * its shipments (`carrier.contractName`); null when none is known. The
 * contract code may be an encrypted reseller code: it is never shown.
 */
export function manifestContractName(store: Store, m: ManifestRecord): string | null {
  // A few shipments tell it (a manifest holds hundreds: End of day must not read them all);
  // only the name is read of each (not the whole shipment checked against its schema).
  for (const rec of store.shipments.listByManifest(m.id, 5)) {
    const p = ContractNameOfShipment.safeParse(rec.platform);
    if (p.success) return p.data.carrier.contractName;
  }
  return null;
}

/** The part of a stored shipment's platform JSON that names its contract. */
const ContractNameOfShipment = z.object({ carrier: z.object({ contractName: z.string().min(1) }) });

/**
 * {@link manifestContractName} for a list of manifests: manifests of one
 * contract share its name, so each contract code is looked up once (End of
 * day lists a hundred manifests of two or three contracts). When the first
 * manifest of a contract does not tell its name, up to two more are asked.
 */
export function manifestContractNames(store: Store, manifests: readonly ManifestRecord[]): Array<string | null> {
  const known = new Map<string, string>();
  const asked = new Map<string, number>();
  return manifests.map((m) => {
    const code = m.contractCode ?? '';
    const hit = known.get(code);
    if (hit !== undefined) return hit;
    const tries = asked.get(code) ?? 0;
    if (tries >= 3) return null;
    asked.set(code, tries + 1);
    const name = manifestContractName(store, m);
    if (name !== null) known.set(code, name);
    return name;
  });
}

/**
 * `Carrier — contract name` of a contract code, from the platform JSON of a recent shipment of this
 * station on that contract; null when none is known. The code itself may be an encrypted reseller
 * code and is never shown.
 */
const CarrierOfShipment = z.object({ carrier: z.object({ name: z.string(), contractName: z.string() }) });

function contractLabel(store: Store, contractCode: string): string | null {
  const candidates = [...store.shipments.listUnmanifested({ contractCode }), ...store.shipments.listRecent({ limit: 200 })];
  for (const rec of candidates) {
    if (rec.contractCode !== contractCode) continue;
    const p = CarrierOfShipment.safeParse(rec.platform);
    if (p.success && p.data.carrier.contractName) return `${p.data.carrier.name} — ${p.data.carrier.contractName}`;
  }
  return null;
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
 * The pickup point of the stored shipment `trackingNumber` (ShipmentView.deliveryPoint):
 * null for home delivery, an unknown shipment, or a platform that did not say.
 */
export function shipmentDeliveryPoint(store: Store, trackingNumber: string): ShipmentView['deliveryPoint'] {
  const rec = store.shipments.getByTrackingNumber(trackingNumber);
  const p = rec ? Shipment.safeParse(rec.platform) : undefined;
  return deliveryPointOf(p?.success ? p.data : undefined);
}

/** The pickup point a shipment goes to, from its registered options (ShipmentView.deliveryPoint). */
function deliveryPointOf(p: Shipment | undefined): ShipmentView['deliveryPoint'] {
  const dp = p?.options?.deliveryPoint;
  if (!dp) return null;
  const a = dp.address;
  const address = [a.street, [a.postalCode, a.city].filter(Boolean).join(' ')].filter((x) => x !== undefined && x !== '').join(', ');
  return { id: dp.id, name: dp.name, type: dp.type, address };
}

/** Manifest view; `id` is the platform's manifest id (the number on the carrier's paper). `contractName` from {@link manifestContractName}. */
export function manifestView(m: ManifestRecord, contractName: string | null = null): ManifestView {
  return {
    id: m.platformId,
    carrier: { code: m.carrierCode, name: m.carrierName ?? m.carrierCode },
    contractCode: m.contractCode,
    contractName,
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

const StockRowPayload = z.object({ stockId: z.number(), trackingNumber: z.string().nullable(), request: z.object({ action: z.string() }) });

/** Release instructions in words (Queue titles). */
const STOCK_ACTION_WORDS: Readonly<Record<string, string>> = {
  redeliver: 'deliver again',
  redeliver_to_address: 'deliver to another address',
  hold_for_collection: 'recipient collects at the depot',
  return_to_sender: 'return to sender',
};

/**
 * Queue panel view of an outbox row: a title and the local records the packer
 * recognises (order number, tracking number, reference, pickup date), state
 * and outcome, last error with the platform's HTTP status, and whether the
 * packer may send it again (`canRetry`) or close it (`canDismiss`, only after
 * a definite 4xx refusal of the create call: see `isDefiniteRefusal`).
 */
export function outboxRowView(store: Store, row: OutboxRecord): OutboxRowView {
  let title: string = row.kind;
  let titleParts: OutboxTitleParts = { what: 'other', kind: row.kind };
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
      titleParts = orderNumber ? { what: 'ship', orderNumber } : { what: 'ship', reference };
    } else {
      title = 'Ship';
      titleParts = { what: 'ship' };
    }
  } else if (row.kind === 'pickup.create') {
    const p = PickupRowPayload.safeParse(row.payload);
    if (p.success) {
      const r = p.data.request;
      pickupDate = r.pickupDate;
      const contract = contractLabel(store, r.serviceType);
      title = `Book pickup ${r.pickupDate}${r.pickupTime ? ` ${r.pickupTime}` : ''}${contract ? ` (${contract})` : ''}`;
      titleParts = { what: 'pickup', date: r.pickupDate, ...(r.pickupTime ? { time: r.pickupTime } : {}), ...(contract ? { contract } : {}) };
    } else {
      title = 'Book pickup';
      titleParts = { what: 'pickup' };
    }
  } else if (row.kind === 'manifest.create') {
    const p = ManifestRowPayload.safeParse(row.payload);
    const n = p.success ? p.data.trackingNumbers.length : 0;
    title = p.success ? `Close the day: ${n} shipment${n === 1 ? '' : 's'}` : 'Close the day';
    titleParts = p.success ? { what: 'manifest', shipments: n } : { what: 'manifest' };
  } else if (row.kind === 'stock.instruct') {
    const p = StockRowPayload.safeParse(row.payload);
    if (p.success) {
      trackingNumber = p.data.trackingNumber;
      title = `Held shipment ${p.data.trackingNumber ?? `stock ${p.data.stockId}`}: ${STOCK_ACTION_WORDS[p.data.request.action] ?? p.data.request.action}`;
      titleParts = { what: 'stock', ...(p.data.trackingNumber ? { trackingNumber: p.data.trackingNumber } : { stockId: p.data.stockId }), action: p.data.request.action };
    } else {
      title = 'Held shipment instructions';
      titleParts = { what: 'stock' };
    }
  } else if (row.kind === 'orders.submit') {
    const p = OrdersRowPayload.safeParse(row.payload);
    const list = p.success ? p.data.orders.map((o) => o.order.orderNumber ?? '?') : [];
    title = p.success ? `Send ${list.length} order${list.length === 1 ? '' : 's'} to the platform (${list.slice(0, 3).join(', ')}${list.length > 3 ? ', …' : ''})` : 'Send orders to the platform';
    titleParts = p.success ? { what: 'orders', orderNumbers: list } : { what: 'orders' };
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
    titleParts,
    orderNumber,
    trackingNumber,
    reference,
    pickupDate,
    state: row.state,
    outcome,
    note: res.dismissed?.note ?? null,
    attempts: row.attempts,
    lastError: e
      ? { code: e.code, message: e.message, status: typeof e.status === 'number' ? e.status : null, details: e.details ?? null, ...(isStationText(e.text) ? { text: e.text } : {}) }
      : null,
    canRetry: row.state === 'needs_attention',
    canDismiss: row.state === 'needs_attention' && isDefiniteRefusal(row),
    canConfirmResend: row.state === 'needs_attention' && row.lastError?.code === 'outcome_unknown',
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
