/** The Queue panel's view of an outbox row (shared/contract/views.ts OutboxRowView). */
import { z } from 'zod';
import type { OutboxRowView, OutboxTitleParts } from '../../../shared/contract/views';
import { isStationText } from '../../../shared/contract/core-text';
import type { OutboxRecord, Store } from '../store';
import { isDefiniteRefusal } from './worker';

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
