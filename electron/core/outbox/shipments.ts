/**
 * Outbox rows `shipment.create`: POST /shipments (spec: Endpoints >
 * Shipments), which pays for the shipment and has no idempotency key.
 *
 * Exactly-once: the station gives every shipment a unique `reference` (the
 * order number, or a generated one). Before sending a row again after an
 * earlier attempt (timeout, 5xx, crash while in flight), the executor looks
 * the reference up with GET /shipments?reference=... and adopts the shipment
 * it finds, fetching its label with GET /shipments/{ldv}/label. A shipment is
 * never paid twice because the network blinked.
 *
 * A refused row (`needs_attention`) leaves its pending shipment in place: the
 * packer's next try for the same order becomes a new row for that same
 * pending shipment and reference, marked `reconcileFirst` (SQLite would reuse
 * a deleted row's id, and the earlier row's outcome is not always known).
 *
 * Known limit: if the first POST is still being processed by the platform
 * when the look-up runs (it answers later than the client's timeout plus the
 * worker's back-off), the look-up finds nothing and the row is sent again.
 */
import type { CreatedShipment, Label, Shipment, ShipmentRequest } from '../../../shared/platform/resources';
import type { PlatformClient } from '../platform/client';
import { PlatformError } from '../platform/errors';
import type { OutboxRecord, Store } from '../store';
import type { OutboxExecutor } from './worker';

/** Payload of a `shipment.create` row. `request.reference` is always set. */
export interface ShipmentCreatePayload {
  /** Local `shipments` row written as pending with the outbox row. */
  localShipmentId: number;
  /** Local order the shipment ships, when any. */
  orderId?: number;
  request: ShipmentRequest & { reference: string };
  /**
   * Look the reference up before the first POST too: set when this row
   * replaces an earlier one for the same pending shipment (whose outcome the
   * new row cannot know).
   */
  reconcileFirst?: boolean;
}

/** What the platform gave: the shipment (created or adopted) and its label. */
export interface ShipmentSent {
  shipment: Shipment;
  label: Pick<Label, 'pdf' | 'zpl'> | null;
  /** True when found by reference after an earlier attempt, not created now. */
  adopted: boolean;
}

/** What was stored: the shipment's tracking number (LDV) and local row. */
export interface ShipmentCommitted {
  trackingNumber: string;
  localShipmentId: number;
  orderId?: number;
  adopted: boolean;
}

/** Stored `result` of a done `shipment.create` row. */
interface ShipmentCreateResult {
  trackingNumber: string;
  adopted: boolean;
}

/** How many pages of GET /shipments a reference look-up reads at most (200 per page). */
const MAX_LOOKUP_PAGES = 5;

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * The platform's shipment with exactly this `reference`, created no earlier
 * than a day before `since`, that no other local row holds; the newest when
 * several match. Undefined when none.
 * @throws PlatformError from GET /shipments.
 */
async function findShipmentByReference(
  client: PlatformClient,
  store: Store,
  reference: string,
  since: string,
  localShipmentId?: number,
): Promise<Shipment | undefined> {
  const from = isoDate(new Date(new Date(since).getTime() - 86_400_000));
  const found: Shipment[] = [];
  for (let page = 1; page <= MAX_LOOKUP_PAGES; page++) {
    const res = await client.listShipments({ reference, from, per_page: 200, page });
    for (const s of res.data) {
      if (s.reference !== reference) continue;
      const local = store.shipments.getByTrackingNumber(s.trackingNumber);
      if (local && local.id !== localShipmentId) continue;
      found.push(s);
    }
    if (res.meta.current_page >= res.meta.last_page) break;
  }
  found.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  return found[0];
}

/** The Shipment JSON to keep in the store: as received, without the (large) label. */
function withoutLabel(s: Shipment | CreatedShipment): Shipment {
  const { label: _label, ...rest } = s as CreatedShipment;
  return rest;
}

/**
 * Stores a platform shipment locally: completes the pending row (or inserts),
 * saves its labels as received, marks the order shipped. Runs inside `store.tx`.
 * Returns the local row id.
 */
export function storePlatformShipment(
  store: Store,
  shipment: Shipment,
  label: Pick<Label, 'pdf' | 'zpl'> | null,
  opts: { localShipmentId?: number; orderId?: number; reference?: string },
): number {
  const trackingNumber = shipment.trackingNumber;
  const pending = opts.localShipmentId !== undefined ? store.shipments.getById(opts.localShipmentId) : undefined;
  const localId = pending && (pending.trackingNumber === null || pending.trackingNumber === trackingNumber) ? pending.id : undefined;
  const orderId = opts.orderId !== undefined && store.orders.getById(opts.orderId) ? opts.orderId : undefined;
  const reference = shipment.reference ?? opts.reference;
  const rec = store.shipments.recordPlatform(
    {
      trackingNumber,
      platformId: shipment.id,
      ...(reference ? { reference } : {}),
      contractCode: shipment.carrier.contractCode,
      carrierCode: shipment.carrier.code,
      statusKey: shipment.status.key,
      costTotal: shipment.cost.total,
      currency: shipment.cost.currency,
      platform: withoutLabel(shipment),
    },
    { ...(localId !== undefined ? { localId } : {}), ...(orderId !== undefined ? { orderId } : {}) },
  );
  if (label && (label.pdf || label.zpl) && store.labels.listForShipment(trackingNumber).length === 0) {
    store.labels.saveFromPlatform(trackingNumber, label);
  }
  if (orderId !== undefined) store.orders.markShipped(orderId, trackingNumber);
  return rec.id;
}

/** Dependencies of {@link createShipmentExecutor}; `after` prints the label and builds the outcome. */
export interface ShipmentExecutorDeps<O> {
  store: Store;
  client: PlatformClient;
  after: (row: OutboxRecord<ShipmentCreatePayload>, committed: ShipmentCommitted) => Promise<O>;
}

/** Executor of `shipment.create` rows. */
export function createShipmentExecutor<O>(deps: ShipmentExecutorDeps<O>): OutboxExecutor<ShipmentCreatePayload, ShipmentSent, ShipmentCommitted, O> {
  const { store, client } = deps;
  return {
    async send(row) {
      const { request, localShipmentId } = row.payload;
      if (row.attempts > 1 || row.payload.reconcileFirst) {
        const found = await findShipmentByReference(client, store, request.reference, row.createdAt, localShipmentId);
        if (found) {
          let label: ShipmentSent['label'] = null;
          try {
            const l = await client.getLabel(found.trackingNumber);
            label = { pdf: l.pdf, zpl: l.zpl };
          } catch (e) {
            // No label is no reason to lose the adoption; a transient failure retries it all.
            if (!(e instanceof PlatformError) || e.isNetwork || e.status >= 500) throw e;
          }
          return { shipment: found, label, adopted: true };
        }
      }
      const created = await client.createShipment(request);
      return { shipment: created, label: created.label, adopted: false };
    },
    commit(row, sent) {
      const { localShipmentId, orderId, request } = row.payload;
      const id = storePlatformShipment(store, sent.shipment, sent.label, {
        localShipmentId,
        ...(orderId !== undefined ? { orderId } : {}),
        reference: request.reference,
      });
      const committed: ShipmentCommitted = {
        trackingNumber: sent.shipment.trackingNumber,
        localShipmentId: id,
        ...(orderId !== undefined ? { orderId } : {}),
        adopted: sent.adopted,
      };
      // Earlier refused rows of this same pending shipment are settled by this one.
      if (row.localRef) {
        for (const r of store.outbox.listByLocalRef(row.localRef)) {
          if (r.id !== row.id && r.state === 'needs_attention') store.outbox.dismiss(r.id, { supersededBy: row.id });
        }
      }
      const result: ShipmentCreateResult = { trackingNumber: sent.shipment.trackingNumber, adopted: sent.adopted };
      return { local: committed, result };
    },
    after: (row, committed) => deps.after(row, committed),
  };
}
