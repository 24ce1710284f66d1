/**
 * `shipments.*` commands and the one path of a shipment ({@link shipmentCreator}, behind
 * `shipping.shipOrder`). Shipping goes through the outbox (DESIGN.md
 * "Offline and exactly-once"): the pending shipment and its outbox row are
 * written in one transaction, then the worker sends POST /shipments and the
 * screen awaits the outcome. On success the label bytes are stored as
 * received and printed at once on the label printer.
 */
import type { z } from 'zod';
import type { Handlers, ShipInput, ShipResult } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import type { StationOrder } from '../../../shared/domain/order';
import { MAX_SHIPMENTS_PER_ORDER, shipmentReference } from '../../../shared/domain/order-reference';
import { Shipment } from '../../../shared/platform/resources';
import type { TrackingRecord } from '../../../shared/platform/tracking';
import { storePlatformShipment, type ShipmentAhead, type ShipmentCommitted, type ShipmentCreatePayload, type ShipmentPressedBy } from './shipment-executor';
import { findByReference, recipientKeyOf } from './shipment-lookup';
import { isTransient } from '../outbox/worker';
import type { OutboxRecord, ShipmentRecord } from '../store';
import { PlatformError } from '../platform/errors';
import { emitAppChanged } from '../account/app';
import type { ContextWithoutOutbox, StationContext } from '../common/context';
import { rememberCustomsProducts } from './customs';
import { boxSettingsOf } from '../packing/boxes';
import { learnWeightFromShipment } from '../products/learn';
import { learnBoxFromShipment } from './box-learn';
import { planShipment } from './plan';
import { errorSummary } from '../common/errors';
import { adoptShipment, findLocalShipment, findPlatformShipment } from './lookup';
import { AllowUnpaidSetting, emitOrdersChanged } from '../orders/handlers';
import { lastKnownTrackingView, shipmentView, shipmentViews, trackingView } from './views';

/** Alphabet of generated references (no 0/O, 1/I: they are read aloud and typed). */
const REF_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/**
 * A new unique reference for a shipment without an order:
 * `ST-YYYYMMDD-XXXXXX` (UTC day, 6 random characters).
 */
function generateReference(nowMs: number, random: () => number = Math.random): string {
  const day = new Date(nowMs).toISOString().slice(0, 10).replace(/-/g, '');
  let tail = '';
  for (let i = 0; i < 6; i++) tail += REF_ALPHABET[Math.floor(random() * REF_ALPHABET.length)] ?? 'X';
  return `ST-${day}-${tail}`;
}

/**
 * The reference POST /shipments carries, unique among local shipments (the
 * outbox finds a shipment by it after a lost answer):
 * - with an order: its identity, shop and number ({@link shipmentReference}:
 *   `#1001`, `Bottega #1001`); a later shipment of the same order (after a
 *   cancel) gets `-2`, `-3`, ... (`Bottega #1001-2`);
 * - without: the caller's `reference` when given, else a generated one.
 * `taken`: a reference the order's shipment must not take (a label ahead's purchase abandoned, schema 9).
 * @throws StationError `invalid_input` (details `request.reference`) when the caller's reference is already used;
 *   `invalid_state` when the order has {@link MAX_SHIPMENTS_PER_ORDER} shipments already.
 */
function referenceFor(ctx: ContextWithoutOutbox, order: StationOrder | undefined, requested: string | undefined, taken?: string): string {
  const { store } = ctx;
  if (order) {
    const earlier = store.shipments.listByOrder(order.id).length;
    for (let n = earlier + 1; n <= MAX_SHIPMENTS_PER_ORDER; n++) {
      const ref = shipmentReference(order, n);
      if (ref !== taken && !store.shipments.getByReference(ref)) return ref;
    }
    throw new StationError('invalid_state', `Order ${order.orderNumber} already has ${MAX_SHIPMENTS_PER_ORDER} shipments at this station; ship it as a new order`, {
      orderId: [`Order ${order.orderNumber} has ${MAX_SHIPMENTS_PER_ORDER} shipments already`],
    });
  }
  if (requested !== undefined && requested.trim() !== '') {
    const ref = requested.trim();
    const used = store.shipments.getByReference(ref);
    if (used) {
      throw new StationError('invalid_input', `Reference "${ref}" is already used by another shipment of this station`, {
        'request.reference': [`Already used${used.trackingNumber ? ` by ${used.trackingNumber}` : ''}; each shipment needs its own reference`],
      });
    }
    return ref;
  }
  for (;;) {
    const ref = generateReference(ctx.now());
    if (!store.shipments.getByReference(ref)) return ref;
  }
}

/**
 * The order's shipment still waiting for the platform (pending: no tracking
 * number yet) and its newest outbox row, if any.
 */
function pendingForOrder(ctx: StationContext, orderId: number): { shipmentId: number; row: OutboxRecord | undefined } | undefined {
  const pending = ctx.store.shipments.listByOrder(orderId).filter((s) => s.trackingNumber === null);
  const newest = pending.at(-1);
  if (!newest) return undefined;
  const rows = ctx.store.outbox.listByLocalRef(`shipment:${newest.id}`);
  return { shipmentId: newest.id, row: rows.at(-1) };
}

/**
 * What happens once a shipment is stored (foreground or background send):
 * print its label at once (on the rule's printer when the row names one; a
 * print failure is reported, never thrown), tell the screens, and build the
 * {@link ShipResult}.
 */
export async function afterShipmentCreated(
  ctx: ContextWithoutOutbox,
  row: OutboxRecord<ShipmentCreatePayload>,
  committed: ShipmentCommitted,
): Promise<ShipResult> {
  const trackingNumber = committed.trackingNumber;
  let printJob: ShipResult['printJob'] = null;
  let printError: ShipResult['printError'] = null;
  // A label ahead printed in a batch (issue 43 item 5) is on the parcel already: never printed again.
  if (!row.payload.ahead?.printed) {
    try {
      const out = await ctx.printer.printLabel(trackingNumber, 'auto', { printerUri: row.payload.printerUri, longLabelPrinterUri: row.payload.longLabelPrinterUri });
      printJob = out.job;
      printError = out.error;
    } catch (e) {
      printError = errorSummary(e);
    }
  }
  // The packing slip (created with the shipment when the station prints slips with the label) comes after the label.
  ctx.slips.kick();
  learnFromParcels(ctx, row.payload);
  ctx.events.emit('shipments.changed', { trackingNumber });
  if (committed.orderId !== undefined) emitOrdersChanged(ctx);
  emitAppChanged(ctx);
  const rec = ctx.store.shipments.getByTrackingNumber(trackingNumber);
  if (!rec) throw new StationError('not_found_locally', `Shipment ${trackingNumber} vanished from the store`);
  return { shipment: shipmentView(ctx.store, rec), printJob, printError };
}

/** A parcel's size in cm, sorted, or null without dimensions. */
function sizeCm(d: ShipmentCreatePayload['request']['packages'][number]['dimensions'] | undefined): number[] | null {
  if (!d) return null;
  const f = d.units === 'MM' ? 0.1 : 1;
  return [d.length * f, d.width * f, d.height * f].sort((a, b) => a - b);
}

/**
 * What a shipment of an order teaches. Unit weights, from a plain shipment
 * (products/learn.ts; a declaration's lines teach theirs when it is made):
 * each parcel's tare is the tare of the box preset of its size (a box typed
 * by hand: 0 kg, the parcel weighed as it is); a learnt value is filled, a
 * changed one proposed. The box, from a shipment of one parcel in a preset
 * other than the one the plan chooses without the packer (./box-learn.ts):
 * proposed for the order's set of items.
 */
function learnFromParcels(ctx: ContextWithoutOutbox, payload: ShipmentCreatePayload): void {
  const { orderId, request } = payload;
  if (orderId === undefined) return;
  const order = ctx.store.orders.getById(orderId);
  if (!order) return;
  const presets = boxSettingsOf(ctx).presets;
  const boxes = request.packages.map((p) => {
    const size = sizeCm(p.dimensions);
    return size ? presets.find((b) => [b.lengthCm, b.widthCm, b.heightCm].sort((x, y) => x - y).every((v, i) => Math.abs(v - (size[i] ?? 0)) < 0.05)) : undefined;
  });
  const used = boxes.length === 1 ? boxes[0] : undefined;
  if (used) {
    let chosen: string | null = null;
    try {
      chosen = planShipment(ctx, order, { orderId }).box?.name ?? null;
    } catch {
      // A plan that cannot be made chose no box: the packer's box is still worth proposing.
    }
    if (learnBoxFromShipment(ctx.store, order, used.name, chosen, `shipment ${request.reference}`)) ctx.events.emit('products.changed', { count: 1 });
  }
  if (request.customsDetail) return;
  const parcels = request.packages.map((p, i) => ({ weightKg: p.weight.units === 'G' ? p.weight.value / 1000 : p.weight.value, tareKg: boxes[i]?.tareKg ?? 0 }));
  if (learnWeightFromShipment(ctx.store, order, parcels, `shipment ${request.reference}`)) ctx.events.emit('products.changed', { count: 1 });
}

/**
 * The {@link ShipResult} of a shipment row already done (another drain sent it
 * while this press waited): the stored shipment and its newest print job;
 * nothing is printed again.
 * @throws StationError `not_found_locally` when the row holds no stored shipment.
 */
export function shipResultOfDone(ctx: ContextWithoutOutbox, row: OutboxRecord<ShipmentCreatePayload>): ShipResult {
  const result = row.result as { trackingNumber?: unknown } | null;
  const trackingNumber = typeof result?.trackingNumber === 'string' ? result.trackingNumber : undefined;
  const rec = trackingNumber ? ctx.store.shipments.getByTrackingNumber(trackingNumber) : ctx.store.shipments.getById(row.payload.localShipmentId);
  if (!rec || rec.trackingNumber === null) throw new StationError('not_found_locally', `Outbox row ${row.id} was sent but its shipment is not stored`);
  const view = shipmentView(ctx.store, rec);
  const job = view.printJobs.at(-1) ?? null;
  return { shipment: view, printJob: job, printError: job?.state === 'failed' ? { code: 'printer_error', message: job.lastError ?? 'Label not printed', ...(job.lastErrorText ? { text: job.lastErrorText } : {}) } : null };
}

/**
 * Records the status of a tracking record on the local shipment (status key,
 * and the status inside the stored Shipment JSON so the views agree) and
 * tells the screens. Returns false when the status was already known.
 */
export function recordTrackedStatus(ctx: Pick<ContextWithoutOutbox, 'store' | 'events'>, rec: ShipmentRecord, tracking: TrackingRecord): boolean {
  const trackingNumber = rec.trackingNumber;
  if (trackingNumber === null) return false;
  const parsed = Shipment.safeParse(rec.platform);
  const storedCode = parsed.success ? parsed.data.status.code : undefined;
  if (rec.statusKey === tracking.status.key && (storedCode === undefined || storedCode === tracking.status.code)) return false;
  const json = rec.platform;
  const platform = json !== null && typeof json === 'object' && !Array.isArray(json) ? { ...(json as Record<string, unknown>), status: tracking.status } : undefined;
  ctx.store.shipments.setStatus(trackingNumber, tracking.status.key, platform);
  ctx.events.emit('shipments.changed', { trackingNumber });
  return true;
}

/**
 * Two stations on one account (issue 10): before the first POST /shipments of
 * an order, asks the platform for a shipment with the order's reference
 * ({@link shipmentReference}, shop and number; GET /shipments?reference=;
 * cancelled ones are not listed) and the same recipient (name, postal code,
 * country: `shipping/shipment-lookup.ts`). When another station shipped it, the
 * shipment is stored here against the order (marked shipped) and returned,
 * so the bench shows it and offers a reprint instead of paying a second
 * label. A shipment with the reference and another recipient is never taken
 * (issue 21): the answer says so, and the outbox row is then sent with
 * `reconcileFirst`, so the executor looks again and leaves the row for the
 * packer with that shipment named. A lookup that gets no answer (offline,
 * timeout, 5xx, 429) lets the shipment go on: the outbox reconciles by
 * reference before any resend, and blocking the bench offline would stop the day.
 * @returns the local record of the other station's shipment (`found`), or
 *   whether a shipment of another recipient holds the reference (`conflict`).
 */
async function shippedElsewhere(
  ctx: ContextWithoutOutbox,
  order: StationOrder,
  request: z.output<typeof ShipInput>['request'],
): Promise<{ found?: ShipmentRecord; conflict: boolean }> {
  const recipient = recipientKeyOf(request.recipient);
  if (!recipient) return { conflict: false };
  let lookup: Awaited<ReturnType<typeof findByReference>>;
  try {
    lookup = await findByReference(ctx.client, ctx.store, { reference: shipmentReference(order, 1), recipient });
  } catch (e) {
    if (isTransient(e)) return { conflict: false };
    throw e;
  }
  const { match } = lookup;
  if (!match) return { conflict: lookup.others.length > 0 };
  const id = ctx.store.tx(() => storePlatformShipment(ctx.store, match, null, { orderId: order.id }));
  const found = ctx.store.shipments.getById(id);
  return found ? { found, conflict: false } : { conflict: false };
}

/**
 * Where the label of a shipment goes, given by the core itself (not a command's input):
 * `printerUri` the device URI a shipping rule named (`shipping.shipOrder`); absent, the label printer in use;
 * `longLabelPrinterUri` the one it names for a label longer than that printer's stock (issue 36).
 */
export interface ShipTarget {
  printerUri?: string | undefined;
  longLabelPrinterUri?: string | undefined;
  /** A label bought ahead that fits (./ahead-use.ts): shipped with it, under its reference, without the platform. */
  ahead?: ShipmentAhead | undefined;
  /**
   * The reference of a label ahead's purchase the press stopped waiting for (./ahead-use.ts, schema 9): its buyer
   * cancels what it buys, so this shipment never adopts it by reference and takes the order's next one.
   */
  afterAhead?: string | undefined;
}

/**
 * The one path of a shipment, behind `shipping.shipOrder` (by plan, by the packer's form or by the
 * platform's request). Ships: pending shipment + outbox row in one transaction, POST /shipments,
 * labels stored, order marked shipped, label printed at once.
 * @throws StationError with the platform's code and `details` (`validation_failed`,
 *   `shipment_rejected`, `subscription_required`, `outcome_unknown`, `needs_attention`,
 *   ...: the row needs attention) or a code of shared/contract `QUEUED_CODES`
 *   (`offline`, `timeout`, `rate_limited`, `internal_error`, `carrier_error`, `queued`:
 *   the row stays queued and is sent again later; shipping the same order again sends
 *   that row, never a second one). Each press gets its own row's outcome;
 *   `not_found_locally` for an unknown order; `invalid_state` for an order already shipped.
 * `target` (from the core, never the command's input): the rule's label printer, carried in the
 * outbox row so a later send prints there too ({@link ShipmentCreatePayload.printerUri}).
 */
export function shipmentCreator(ctx: StationContext, pressedBy: () => ShipmentPressedBy | undefined = () => undefined) {
  const { store } = ctx;
  return async ({ orderId, request }: z.output<typeof ShipInput>, target: ShipTarget = {}): Promise<ShipResult> => {
    const who = pressedBy();
    const ruled = {
      ...(who ? { pressedBy: who } : {}),
      ...(target.printerUri !== undefined ? { printerUri: target.printerUri } : {}),
      ...(target.longLabelPrinterUri !== undefined ? { longLabelPrinterUri: target.longLabelPrinterUri } : {}),
      ...(target.ahead ? { ahead: target.ahead } : {}),
    };
    // What the packer declared is remembered per SKU before anything is sent: the next order of
    // the same product is prefilled even if this request waits in the queue.
    if (request.customsDetail) rememberCustomsProducts(store, request);
    let order: StationOrder | undefined;
    if (orderId !== undefined) {
      order = store.orders.getById(orderId);
      if (!order) throw new StationError('not_found_locally', `Order ${orderId} not found`, { orderId: ['No such order at this station'] });
      const waiting = pendingForOrder(ctx, order.id);
      if (waiting) {
        // Same order again. A request still queued or in flight is finished, never doubled;
        // after a refusal the same row takes the new request for the same pending shipment
        // and reference, looking the reference up first (the earlier outcome may be unknown;
        // a POST without an answer is never repeated inside its settle window).
        if (waiting.row && (waiting.row.state === 'queued' || waiting.row.state === 'sending')) {
          return ctx.outbox.process<ShipResult>(waiting.row.id);
        }
        const prior = store.shipments.getById(waiting.shipmentId);
        const reference = prior?.reference ?? shipmentReference(order, 1);
        const payload: ShipmentCreatePayload = { localShipmentId: waiting.shipmentId, orderId: order.id, request: { ...request, reference }, reconcileFirst: true, ...ruled };
        // One open row per order (issue 7): a refused row is sent again with the new request, never doubled.
        const row =
          waiting.row?.state === 'needs_attention'
            ? store.outbox.requeueWith(waiting.row.id, payload)
            : store.outbox.enqueue({ kind: 'shipment.create', payload, localRef: `shipment:${waiting.shipmentId}` });
        emitAppChanged(ctx);
        return ctx.outbox.process<ShipResult>(row.id);
      }
      // The screen asks before an unpaid order ships; where the station forbids it, no client may.
      if (order.paymentStatus === 'unpaid' && !store.settings.get(AllowUnpaidSetting)) {
        const shop = order.shop === 'main' ? '' : ` of ${order.shop}`;
        throw new StationError('invalid_state', `Order ${order.orderNumber}${shop} is not paid, and this station ships no unpaid orders (Settings › Orders)`, {
          orderId: [`Order ${order.orderNumber}${shop} is not paid`],
        });
      }
      if (order.status === 'shipped' && order.shipmentTrackingNumber) {
        const s = store.shipments.getByTrackingNumber(order.shipmentTrackingNumber);
        if (!s || s.cancelledAt === null) {
          throw new StationError('invalid_state', `Order ${order.orderNumber} is already shipped (${order.shipmentTrackingNumber}); cancel that shipment to ship it again`);
        }
      }
    }
    let conflict = false;
    // A label ahead is the order's own shipment (its reference), not another station's.
    if (order && !target.ahead && target.afterAhead === undefined && store.shipments.listByOrder(order.id).length === 0) {
      // First POST of this order here: another station of the account may have shipped it already.
      const elsewhere = await shippedElsewhere(ctx, order, request);
      const found = elsewhere.found;
      if (found) {
        emitOrdersChanged(ctx);
        if (found.trackingNumber) ctx.events.emit('shipments.changed', { trackingNumber: found.trackingNumber });
        return { shipment: shipmentView(store, found), printJob: null, printError: null, shippedElsewhere: true };
      }
      conflict = elsewhere.conflict;
    }
    const reference = target.ahead ? request.reference ?? referenceFor(ctx, order, undefined) : referenceFor(ctx, order, request.reference, target.afterAhead);
    const payload: ShipmentCreatePayload = {
      localShipmentId: 0,
      ...(order ? { orderId: order.id } : {}),
      request: { ...request, reference },
      // A shipment of another recipient holds the reference: the executor looks again and asks the packer.
      ...(conflict ? { reconcileFirst: true } : {}),
      ...ruled,
    };
    const row = store.tx(() => {
      const pending = store.shipments.createPending({
        reference,
        ...(order ? { orderId: order.id } : {}),
        ...(request.serviceType ? { contractCode: request.serviceType } : {}),
        ...(request.carrierCode ? { carrierCode: request.carrierCode } : {}),
      });
      payload.localShipmentId = pending.id;
      return store.outbox.enqueue({ kind: 'shipment.create', payload, localRef: `shipment:${pending.id}` });
    });
    emitAppChanged(ctx);
    return ctx.outbox.process<ShipResult>(row.id);
  };
}

/** Handlers of the `shipments` domain. */
export function createShipmentsHandlers(ctx: StationContext) {
  const { store } = ctx;
  return {
    /**
     * One shipment: the local record refreshed from GET /shipments/{ldv} when the
     * platform answers (kept as is when it does not); a shipment not known locally is
     * fetched and adopted.
     * @throws StationError `not_found` when neither knows it; `offline`/`timeout` when only the platform could tell.
     */
    'shipments.get': async ({ trackingNumber }) => {
      const local = findLocalShipment(store, trackingNumber);
      const shipmentTrackingNumber = local?.trackingNumber ?? trackingNumber;
      try {
        const remote = local ? await ctx.client.getShipment(shipmentTrackingNumber) : await findPlatformShipment(ctx, shipmentTrackingNumber);
        if (!remote) throw new StationError('not_found', `Shipment ${trackingNumber} not found`);
        const rec = adoptShipment(store, remote);
        return shipmentView(store, rec);
      } catch (e) {
        if (local && e instanceof PlatformError) return shipmentView(store, local);
        throw e;
      }
    },

    /**
     * Tracking (GET /shipments/{ldv}/tracking) of a shipment or package tracking number.
     * The local shipment (when the station knows it) takes the record's status. When the
     * platform gives no usable answer (offline, timeout, 429 beyond the wait, 5xx after the
     * client's retries) and the station knows the shipment, answers its last known status
     * with `source: 'local'` and the reason in `unavailable`.
     * @throws StationError `not_found` (404: neither knows it), or the platform's code when
     *   the shipment is not known locally.
     */
    'shipments.tracking': async ({ trackingNumber }) => {
      const local = findLocalShipment(store, trackingNumber);
      const shipmentTrackingNumber = local?.trackingNumber ?? trackingNumber.trim();
      let record: TrackingRecord;
      try {
        record = await ctx.client.getTracking(shipmentTrackingNumber);
      } catch (e) {
        if (local && isTransient(e)) return lastKnownTrackingView(store, local, errorSummary(e));
        throw e;
      }
      // A package's or reissued number finds the shipment under its own number.
      const target = local ?? store.shipments.getByTrackingNumber(record.trackingNumber);
      if (target) recordTrackedStatus(ctx, target, record);
      return trackingView(record, new Date(ctx.now()).toISOString());
    },

    /**
     * DELETE /shipments/{ldv}: cancels and refunds; locally the shipment is marked
     * cancelled and its order goes back to open.
     * @throws StationError `invalid_state` (409: in a manifest or in transit), `not_found`.
     */
    'shipments.cancel': async ({ trackingNumber }) => {
      const local = findLocalShipment(store, trackingNumber);
      const shipmentTrackingNumber = local?.trackingNumber ?? trackingNumber;
      const res = await ctx.client.cancelShipment(shipmentTrackingNumber);
      if (local) {
        store.tx(() => {
          store.shipments.markCancelled(shipmentTrackingNumber);
          if (local.orderId !== null) {
            const order = store.orders.getById(local.orderId);
            if (order && order.shipmentTrackingNumber === shipmentTrackingNumber) store.orders.setStatus(order.id, 'open');
          }
        });
        if (local.orderId !== null) emitOrdersChanged(ctx);
      }
      ctx.events.emit('shipments.changed', { trackingNumber: shipmentTrackingNumber });
      emitAppChanged(ctx);
      return res;
    },

    /** Created, not cancelled, not yet in a manifest: what closing the day will send. Oldest first. */
    'shipments.unmanifested': async () => shipmentViews(store, store.shipments.listUnmanifested()),

    /** Newest first, created shipments only. */
    'shipments.recent': async ({ limit }) => store.shipments.listRecent({ limit }).map((r) => shipmentView(store, r)),
  } satisfies Pick<Handlers, 'shipments.get' | 'shipments.tracking' | 'shipments.cancel' | 'shipments.unmanifested' | 'shipments.recent'>;
}
