/**
 * Outbox rows `shipment.create`: POST /shipments (spec: Endpoints >
 * Shipments), which pays for the shipment and has no idempotency key.
 *
 * Exactly-once: the station gives every shipment a unique `reference` (the
 * order's identity, shop and number: `shipmentReference` of
 * shared/domain/order-reference.ts; or a generated one). Before sending a row
 * again after an earlier attempt (timeout, 5xx, crash while in flight), the
 * executor looks the reference up with GET /shipments?reference=... and
 * adopts the shipment it finds, fetching its label with GET
 * /shipments/{ldv}/label.
 *
 * Only the order's own shipment is adopted (issue 21, `shipment-lookup.ts`):
 * exactly the reference sent, and the recipient sent (name, postal code,
 * country). A shipment with the reference and another recipient (a row
 * posted before issue 21 under the bare order number, which another shop
 * may share; another station's order with the same shop name) is never
 * taken: the row needs attention (`outcome_unknown`, naming that shipment)
 * instead of posting, until the packer confirms "Send again", which marks
 * the payload `resendConfirmed`.
 *
 * The settle rule (issue 7): the look-up only proves "not created" once no
 * earlier POST can still be in flight. A POST that got no answer (timeout,
 * connection lost after sending, the station killed while waiting) may be
 * held by a congested platform or proxy and committed long after the
 * station gave up on it. So:
 * 1. Right before each POST leaves, the row records `postedAt`. An answer of
 *    any kind (201, 4xx, 5xx) clears it, and so does a connection that was
 *    refused (the request never left); a missing answer leaves it set.
 * 2. While `postedAt` is set, the row is never posted again. Each attempt
 *    looks the reference up: found means adopted (one shipment, paid once);
 *    not found before `postedAt + settleMs` means the row stays queued and
 *    looks again every `pollMs` ({@link OutboxWait}; the press is told
 *    "queued, being checked: do not ship again").
 * 3. Not found after the settle window: the row needs attention with code
 *    `outcome_unknown`. It is posted again only when the packer confirms in
 *    the Queue panel (`outbox.confirmResend`), which clears `postedAt`; a
 *    plain retry, or pressing Ship again for the order, only looks again.
 * The settle window (default {@link DEFAULT_SETTLE_MS}) must exceed the
 * longest time a request can spend on its way to the platform's commit;
 * the client's timeout (15 s) is far shorter than what proxies allow.
 *
 * The label's `auto` print job is created in the same transaction that
 * records the shipment, so a crash right after it cannot leave a label that
 * never prints ({@link createShipmentExecutor} `commit`).
 *
 * A refused row (`needs_attention`) leaves its pending shipment in place: the
 * packer's next try for the same order re-queues that same row with the new
 * request, marked `reconcileFirst` (one open row per order).
 */
import type { CreatedShipment, Label, Shipment, ShipmentRequest } from '../../../shared/platform/resources';
import type { PlatformClient } from '../platform/client-api';
import { PlatformError } from '../platform/errors';
import type { OutboxRecord, Store } from '../store';
import { findByReference, mismatchText, recipientKeyOf } from './shipment-lookup';
import { hhmmss, OutboxAttention, OutboxWait } from '../outbox/press-errors';
import type { OutboxExecutor } from '../outbox/worker';
import { coreText, coreTextNesting } from '../../../shared/contract/core-text';

/** Default settle window after a POST /shipments without an answer, ms (2 minutes). */
const DEFAULT_SETTLE_MS = 120_000;
/** Default interval between look-ups inside the settle window, ms. */
const DEFAULT_SETTLE_POLL_MS = 5_000;

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
  /**
   * The packer confirmed "Send again" (`outbox.confirmResend`): a shipment
   * with this reference and another recipient is not this order's, so the
   * row posts instead of waiting for the packer again.
   */
  resendConfirmed?: boolean;
  /**
   * Device URI of the label printer a shipping rule named (issue 24): the
   * label's `auto` job is pinned to it, so a row sent later (recovered after
   * a crash, retried, sent by the background drain) prints there too, with
   * that printer's profile. Absent: the label printer in use.
   */
  printerUri?: string;
  /**
   * Device URI of the label printer a shipping rule names for this label when it is longer than the stock
   * of the printer it would print on (issue 36, `longLabelPrinter`): carried to the label's `auto` job.
   */
  longLabelPrinterUri?: string;
  /**
   * Who pressed Ship (issue 42 item 6): the packer and station recorded on the `ship` activity when the
   * shipment is made, now or when the outbox sends it later (after a restart too). Absent on rows of older
   * versions: recorded without a packer.
   */
  pressedBy?: ShipmentPressedBy;
  /**
   * A label bought ahead by the warehouse (issue 43 item 3, ./ahead-use.ts): the row is sent without the
   * platform (the shipment and its label are here), committed and printed as any other; `printed` (printed in a
   * batch at a bench) makes no print job, so it is never printed twice.
   */
  ahead?: ShipmentAhead;
}

/** The label ahead a `shipment.create` row ships with: the warehouse's row id, its shipment and label, whether printed. */
export interface ShipmentAhead {
  id: number;
  shipment: Shipment;
  label: Pick<Label, 'pdf' | 'zpl'> | null;
  printed: boolean;
}

/** The packer (id, name) and station's name at the press; null where none was signed in or named. */
export interface ShipmentPressedBy {
  packerId: number | null;
  packerName: string | null;
  stationName: string | null;
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

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
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
  opts: { localShipmentId?: number; orderId?: number; reference?: string; keepOrderOpen?: boolean },
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
  if (orderId !== undefined && !opts.keepOrderOpen) store.orders.markShipped(orderId, trackingNumber);
  return rec.id;
}

/** Dependencies of {@link createShipmentExecutor}; `after` prints the label and builds the outcome. */
export interface ShipmentExecutorDeps<O> {
  store: Store;
  client: PlatformClient;
  /** Device URI of the label printer in use: the shipment's `auto` print job is created for it. */
  printerUri: () => string;
  /**
   * Called in the transaction that records the shipment, after its label job: the packing slip's job (issue 11)
   * and the `ship` activity with who pressed (`payload.pressedBy`, issue 42 item 6).
   */
  inCommit?: (orderId: number | undefined, trackingNumber: string, payload: ShipmentCreatePayload) => void;
  /** Settle window after a POST without an answer, ms (default {@link DEFAULT_SETTLE_MS}). */
  settleMs?: number;
  /** Look-up interval inside the settle window, ms (default {@link DEFAULT_SETTLE_POLL_MS}). */
  pollMs?: number;
  /** Clock (default system clock); the store's clock. */
  now?: () => Date;
  after: (row: OutboxRecord<ShipmentCreatePayload>, committed: ShipmentCommitted) => Promise<O>;
  /** The outcome of a row found already done (sent by another drain): built from the store, nothing printed again. */
  doneOutcome?: (row: OutboxRecord<ShipmentCreatePayload>) => Promise<O>;
}


/** Executor of `shipment.create` rows; see the module doc for the settle rule. */
export function createShipmentExecutor<O>(deps: ShipmentExecutorDeps<O>): OutboxExecutor<ShipmentCreatePayload, ShipmentSent, ShipmentCommitted, O> {
  const { store, client } = deps;
  const settleMs = deps.settleMs ?? DEFAULT_SETTLE_MS;
  const pollMs = deps.pollMs ?? DEFAULT_SETTLE_POLL_MS;
  const now = deps.now ?? (() => new Date());
  return {
    async send(row) {
      const { request, localShipmentId, ahead } = row.payload;
      // A label bought ahead is here already: nothing is asked of the platform (issue 43 item 3).
      if (ahead) return { shipment: ahead.shipment, label: ahead.label, adopted: false };
      const postedAt = row.postedAt ? new Date(row.postedAt) : null;
      if (row.attempts > 1 || row.payload.reconcileFirst || postedAt) {
        const recipient = recipientKeyOf(request.recipient);
        if (!recipient) {
          const said = coreText('shipmentNoRecipient');
          throw new OutboxAttention('invalid_input', said.message, said.text);
        }
        // One day of margin before the row: the platform dates shipments in its own time zone.
        const from = isoDate(new Date(new Date(row.createdAt).getTime() - 86_400_000));
        const { match, others } = await findByReference(client, store, { reference: request.reference, recipient, from, localShipmentId });
        if (match) {
          let label: ShipmentSent['label'] = null;
          try {
            const l = await client.getLabel(match.trackingNumber);
            label = { pdf: l.pdf, zpl: l.zpl };
          } catch (e) {
            // No label is no reason to lose the adoption; a transient failure retries it all.
            if (!(e instanceof PlatformError) || e.isNetwork || e.status >= 500) throw e;
          }
          return { shipment: match, label, adopted: true };
        }
        const conflict = others.length > 0 ? mismatchText(others, request.reference, recipient) : undefined;
        if (postedAt) {
          const settled = postedAt.getTime() + settleMs;
          const t = now().getTime();
          if (t < settled) {
            const said = coreText('shipmentChecking', { sentAt: hhmmss(postedAt), reference: request.reference, until: hhmmss(new Date(settled)) });
            throw new OutboxWait(new Date(Math.min(settled, t + pollMs)), said.message, said.text);
          }
          if (!conflict) {
            const said = coreText('shipmentNoAnswer', { sentAt: hhmmss(postedAt), reference: request.reference, seconds: Math.round(settleMs / 1000) });
            throw new OutboxAttention('outcome_unknown', said.message, said.text);
          }
          const said = coreTextNesting('shipmentNoAnswerElsewhere', { sentAt: hhmmss(postedAt), reference: request.reference, seconds: Math.round(settleMs / 1000) }, { conflict });
          throw new OutboxAttention('outcome_unknown', said.message, said.text);
        }
        if (conflict && !row.payload.resendConfirmed) {
          const said = coreTextNesting('shipmentElsewhereCheck', {}, { conflict });
          throw new OutboxAttention('outcome_unknown', said.message, said.text);
        }
      }
      let created: ShipmentSent['shipment'] & { label: Label };
      try {
        // The row's reference is its key in the account's shared queue (issue 43): a try that must wait keeps its place.
        created = await client.createShipment(request, { beforeAttempt: () => void store.outbox.markPosted(row.id, now()), budgetKey: `shipment:${request.reference}` });
      } catch (e) {
        // An answer (any status) or a refused connection: no request of this row is in flight.
        if (e instanceof PlatformError && (e.status > 0 || e.notSent)) store.outbox.markPosted(row.id, null);
        throw e;
      }
      return { shipment: created, label: created.label, adopted: false };
    },
    commit(row, sent) {
      const { localShipmentId, orderId, request } = row.payload;
      const id = storePlatformShipment(store, sent.shipment, sent.label, {
        localShipmentId,
        ...(orderId !== undefined ? { orderId } : {}),
        reference: request.reference,
      });
      // Same transaction: a shipment with a label always has its print job (issue 7).
      const zpl = store.labels.getLatest(sent.shipment.trackingNumber, 'ZPL');
      const ruled = row.payload.printerUri;
      // A label ahead printed in a batch is never printed again (issue 43 item 5).
      if (zpl && !row.payload.ahead?.printed) store.printJobs.ensureAuto(zpl.id, ruled ?? deps.printerUri(), { pinned: ruled !== undefined, longLabelPrinterUri: row.payload.longLabelPrinterUri ?? null });
      deps.inCommit?.(orderId, sent.shipment.trackingNumber, row.payload);
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
    ...(deps.doneOutcome ? { doneOutcome: deps.doneOutcome } : {}),
  };
}
