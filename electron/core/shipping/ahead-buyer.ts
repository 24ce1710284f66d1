/**
 * The buyer of labels ahead (issue 43 item 3, its buying half): every bench of a warehouse runs this loop, and
 * the one bench that holds the buyer's lease (`lead_labels_ahead`) buys, in the minutes the packers leave free,
 * the labels of the orders that will ship by themselves, oldest imported first, and keeps their bytes in the
 * warehouse (`labels_ahead`), so the bench that scans such an order prints at once.
 *
 * One tick:
 * 1. no warehouse answering, labels ahead off, or another bench holds the lease: nothing;
 * 2. reservations left `buying` by a buyer that went silent (or by this bench before a restart) are settled by
 *    their reference (GET /shipments?reference=): found, its label is fetched and kept; not found, it ends failed;
 *    an `abandoned` one (a packer's press stopped waiting for it, schema 9) has what it bought cancelled;
 * 3. the orders imported today (Europe/Rome) or within the supervisor's horizon, with no label ahead and claimed
 *    by no bench, are planned as a packer's press would plan them without a scale: only an order whose rule ships
 *    it by itself, with nothing needing attention and its weight from product data, gets a label. Its quote and
 *    its POST /shipments take background slots of the account's budget (take_background_slot: never a slot a
 *    packer waits for, never the supervisor's headroom); the order is reserved after its quote and before the
 *    POST, so a busy budget leaves nothing reserved (the reservation is dropped) and a buyer killed mid-purchase
 *    leaves a reservation step 2 settles. The reference is the order's first shipment's. A packer's press that
 *    waited too long for the purchase abandons it (schema 9) and ships with its own label (`-2`): the purchase's
 *    answer is then stored as abandoned and its label cancelled at once; a label whose reservation was settled as
 *    buying nothing meanwhile is cancelled too.
 * A refusal of the budget (or the platform away) ends the tick; the next ones wait until the budget said.
 */
import { StationError } from '../../../shared/contract/errors';
import { DEFAULT_SHOP, recipientToParty, type StationOrder } from '../../../shared/domain/order';
import { orderReference, shipmentReference } from '../../../shared/domain/order-reference';
import { romeDay, romeMidnight } from '../../../shared/domain/rome-day';
import type { CreatedShipment, ShipmentLabelResponse } from '../../../shared/platform/resources';
import type { AheadCandidate, AheadPurchase, AheadSettings, LabelAhead, LabelsAheadStore } from '../common/labels-ahead';
import type { StationContext } from '../common/context';
import { PlatformError, RateWindowFull } from '../platform/errors';
import { linesToShip } from '../products/weight';
import { aheadFingerprint } from './ahead-fingerprint';
import { planShipment } from './plan';
import { plannedRequest } from './planned-request';
import { findByReference, recipientKeyOf } from './shipment-lookup';

/** Options of {@link startAheadBuyer}; every time in ms unless said. */
export interface AheadBuyerOptions {
  /** Between two ticks (default 5000). */
  intervalMs?: number;
  /** The buyer's lease, s (default 30): another bench buys once this bench is silent that long. */
  leaseS?: number;
  /** A reservation still `buying` after this many seconds is settled by its reference (default 120). */
  staleAfterS?: number;
  /** Labels bought at most in one tick (default 20). */
  perTick?: number;
  /**
   * An order that cannot get a label ahead (needs the packer, no rule that ships by itself, a rule not chosen) is
   * planned again after this long, or as soon as the supervisor changes the rules or horizon (default 60000).
   */
  replanMs?: number;
  /** One line per label bought, refused or settled. */
  log?: (line: string) => void;
}

/** What one tick did: labels bought, orders refused by the platform, reservations settled, and why it stopped early. */
interface AheadTick {
  /** Not the buyer this tick: why (`no_warehouse`, `disabled`, `not_leader`, `waiting`: the budget said wait). */
  idle?: 'no_warehouse' | 'disabled' | 'not_leader' | 'waiting';
  /** Tracking numbers bought (or found for a stale reservation) and kept. */
  bought: string[];
  /** References refused: the platform's words (the order ships as any other). */
  refused: Array<{ reference: string; message: string }>;
  /** Stale reservations that ended failed (no shipment found). */
  failed: string[];
  /** The tick ended early: the account's budget said wait (`budget`), the platform did not answer (`platform`), the lease went (`lease`). */
  stopped?: 'budget' | 'platform' | 'lease';
}

/** The running buyer. */
export interface AheadBuyer {
  /** One tick now (the loop's own ticks and this one never overlap: a tick asked while one runs waits for it). */
  tick(): Promise<AheadTick>;
  /** Stops the loop, waits for a running tick; no timer is left. Safe to call twice. */
  stop(): Promise<void>;
}

/** An order whose bench copy is missing or behind the warehouse's is planned again after this long, ms. */
const NOT_CAUGHT_UP_MS = 10_000;

/** How long closing the station waits for a tick still running, ms. */
const STOP_WAIT_MS = 5000;

/** Text of an error for the log and for `labels_ahead.error` (at most 500 characters). */
const said = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 500);

/**
 * The bench's local copy of the order of `orderKey` (its reference: shop and number, see order-reference.ts),
 * found by the shop and number the key is made of; undefined when the bench has none (or the key is hashed).
 */
function localOrderOfKey(ctx: Pick<StationContext, 'store'>, orderKey: string): StationOrder | undefined {
  const tries: Array<[string, string]> = [[DEFAULT_SHOP, orderKey]];
  if (orderKey.endsWith('~')) tries.push([DEFAULT_SHOP, orderKey.slice(0, -1)]);
  const space = orderKey.lastIndexOf(' ');
  if (space > 0) {
    const number = orderKey.slice(space + 1);
    tries.push([orderKey.slice(0, space), number]);
    if (number.endsWith('~')) tries.push([orderKey.slice(0, space), number.slice(0, -1)]);
  }
  for (const [shop, number] of tries) {
    const o = ctx.store.orders.getByShopNumber(shop, number);
    if (o && orderReference(o) === orderKey) return o;
  }
  return undefined;
}

/** What the warehouse keeps of a shipment bought: the Shipment without its label, the label's base64 as received. */
function purchaseOf(shipment: Omit<CreatedShipment, 'label'>, label: Pick<ShipmentLabelResponse, 'zpl' | 'pdf'>): AheadPurchase {
  return {
    trackingNumber: shipment.trackingNumber,
    platformId: shipment.id,
    contractCode: shipment.carrier.contractCode,
    carrierCode: shipment.carrier.code,
    cost: shipment.cost.total,
    currency: shipment.cost.currency,
    shipment,
    labelZpl: label.zpl,
    labelPdf: label.pdf,
  };
}

/** Why a POST /shipments surely created nothing and may be tried again later (the reservation is dropped): its budget, the platform away or refusing for now. */
function notSentForNow(e: PlatformError): boolean {
  return e instanceof RateWindowFull || e.notSent || e.code === 'rate_limited' || e.status === 401 || e.status === 402 || e.status === 403;
}

/**
 * Starts the buyer loop of a bench (its first tick after `intervalMs`); the station stops it on close.
 * `ctx.warehouse.labelsAhead()` null (no warehouse, or it does not answer) makes every tick idle.
 */
export function startAheadBuyer(ctx: StationContext, opts: AheadBuyerOptions = {}): AheadBuyer {
  const intervalMs = opts.intervalMs ?? 5000;
  const leaseS = opts.leaseS ?? 30;
  const staleAfterS = opts.staleAfterS ?? 120;
  const perTick = opts.perTick ?? 20;
  const replanMs = opts.replanMs ?? 60_000;
  const log = opts.log ?? (() => undefined);
  // Orders planned not to get a label ahead, until when they are not planned again (ms).
  const notEligible = new Map<string, number>();
  // The supervisor's settings the memo above was made with: another rule list forgets it.
  let memoOf = '';
  // The budget said wait: no tick buys before then (ms).
  let waitUntil = 0;

  /**
   * Cancels the label of purchase `id` that came too late: a packer's press stopped waiting for it (state
   * abandoned; schema 9), or its reservation was settled as buying nothing before the answer came (`why` says
   * which). DELETE /shipments/{ldv}, its refund recorded (cancel reason `late`). A refusal (409) is recorded with
   * the platform's words; no answer leaves an abandoned one with its tracking number, for the settling step or the
   * close to cancel.
   */
  const cancelLate = async (store: LabelsAheadStore, id: number, trackingNumber: string, reference: string, why = 'came after the packer stopped waiting for it'): Promise<void> => {
    try {
      const { refunded } = await ctx.client.cancelShipment(trackingNumber);
      await store.end(id, 'cancelled', 'late', refunded, null);
      log(`labels ahead: ${trackingNumber} for ${reference} ${why}: cancelled, ${refunded.toFixed(2)} EUR refunded`);
    } catch (e) {
      if (e instanceof PlatformError && e.status === 409) {
        await store.end(id, 'cancel_refused', 'late', null, said(e));
        log(`labels ahead: ${trackingNumber} for ${reference} ${why}; the platform refused its cancel: ${said(e)}`);
        return;
      }
      log(`labels ahead: ${trackingNumber} for ${reference} ${why}; not cancelled yet (${said(e)}): tried again later`);
    }
  };

  /**
   * Settles a stale reservation by its reference: the shipment found is kept with its label; none, it ends failed.
   * An abandoned one's shipment (found now, or known already) is cancelled instead ({@link cancelLate}).
   */
  const settle = async (store: LabelsAheadStore, r: LabelAhead, out: AheadTick): Promise<void> => {
    if (r.state === 'abandoned' && r.trackingNumber) return cancelLate(store, r.id, r.trackingNumber, r.reference);
    const order = localOrderOfKey(ctx, r.orderKey);
    const key = order ? recipientKeyOf(recipientToParty(order.recipient)) : undefined;
    let found: CreatedShipment | Omit<CreatedShipment, 'label'> | undefined;
    if (key) {
      found = (await findByReference(ctx.client, ctx.store, { reference: r.reference, recipient: key })).match;
    } else {
      // No local copy to compare the recipient with: the reference alone (one per order and shipment number).
      const list = await ctx.client.listShipments({ reference: r.reference, per_page: 200 });
      found = list.data.filter((s) => s.reference === r.reference).sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
    }
    if (found && found.cancelled !== true && !found.cancelledAt) {
      if (r.state === 'abandoned') {
        if ((await store.store(r.id, purchaseOf(found, { zpl: null, pdf: null }))) === 'abandoned') await cancelLate(store, r.id, found.trackingNumber, r.reference);
        return;
      }
      const label = await ctx.client.getLabel(found.trackingNumber);
      if ((await store.store(r.id, purchaseOf(found, label))) === 'bought') {
        out.bought.push(found.trackingNumber);
        log(`labels ahead: ${r.reference} settled by its reference: ${found.trackingNumber} (${found.carrier.contractCode}) kept`);
      }
      return;
    }
    await store.end(r.id, 'failed', 'failed', null, 'no shipment found for the reservation');
    out.failed.push(r.reference);
    log(
      r.state === 'abandoned'
        ? `labels ahead: ${r.reference}, abandoned by a packer's press: nothing was bought, ended failed`
        : `labels ahead: ${r.reference} left reserved by a buyer that stopped: no shipment found, ended failed`,
    );
  };

  /**
   * Buys the label ahead of one candidate, or says why not.
   * @returns 'skip' (not for a label ahead), 'bought', 'refused', or why the tick stops
   */
  const buy = async (store: LabelsAheadStore, settings: AheadSettings, c: AheadCandidate, out: AheadTick): Promise<'skip' | 'bought' | 'refused' | 'budget' | 'platform'> => {
    const order = ctx.store.orders.getByShopNumber(c.order.shop, c.order.orderNumber);
    // The bench's copy is not here yet, or not the warehouse's order as it is now: planned again in a moment.
    const notYet = (): 'skip' => {
      notEligible.set(c.orderKey, Date.now() + Math.min(replanMs, NOT_CAUGHT_UP_MS));
      return 'skip';
    };
    if (!order || order.status !== 'open' || orderReference(order) !== c.orderKey) return notYet();
    const plan = planShipment(ctx, order, { orderId: order.id });
    const rule = plan.decision.rule;
    const eligible =
      plan.shipByItself &&
      plan.attention.length === 0 &&
      plan.weightSource === 'products' &&
      plan.request !== null &&
      plan.packages !== null &&
      rule !== null &&
      (settings.rules === null || settings.rules.includes(rule.name));
    if (!eligible || !plan.request || !plan.packages || !rule) {
      notEligible.set(c.orderKey, Date.now() + replanMs);
      return 'skip';
    }
    const fingerprint = aheadFingerprint(order, rule.name);
    // The warehouse's order differs from the bench's copy (a change not pulled yet): next tick.
    if (aheadFingerprint(c.order, rule.name) !== fingerprint) return notYet();
    const reference = shipmentReference(order, 1);
    // The weight the label is bought for, kg: its parcels' (items and box tare), what the bench's scale will read.
    const weightKg = Math.round(plan.packages.reduce((sum, p) => sum + (p.weight.units === 'G' ? p.weight.value / 1000 : p.weight.value), 0) * 1000) / 1000;
    const reservation = { orderKey: c.orderKey, reference, fingerprint, ruleName: rule.name, weightKg, sku: linesToShip(order)[0]?.sku ?? null, bin: null };
    let request;
    try {
      request = (await plannedRequest(ctx, order, plan, { ...plan.request, reference }, plan.packages, 'background')).request;
    } catch (e) {
      if (e instanceof StationError && e.code === 'not_sent') {
        // The account's limit gives when to try again (details.retryAfterS); without it, the platform gave no quote.
        const s = Number(e.details?.retryAfterS?.[0] ?? Number.NaN);
        if (!Number.isFinite(s)) return 'platform';
        waitUntil = Date.now() + s * 1000;
        return 'budget';
      }
      if (!(e instanceof StationError) && !(e instanceof PlatformError)) throw e;
      if (e instanceof PlatformError && (e.outcomeUnknown || notSentForNow(e))) return 'platform';
      // The quote offers no rate the rule takes, or the request is not valid: said once, the order ships as any other.
      const id = await store.reserve(reservation);
      if (id !== null) await store.end(id, 'failed', 'failed', null, said(e));
      out.refused.push({ reference, message: said(e) });
      log(`labels ahead: ${reference} refused before buying: ${said(e)}`);
      return 'refused';
    }
    const id = await store.reserve(reservation);
    // Claimed by a bench, shipped, or given a label ahead since the list was read.
    if (id === null) return 'skip';
    let created: CreatedShipment;
    try {
      created = await ctx.client.createShipment(request, { budgetKey: `ahead:${reference}`, budgetPriority: 'background' });
    } catch (e) {
      if (!(e instanceof PlatformError)) {
        // Not the platform's answer: what happened to the POST is not known; the reservation is settled by its reference later.
        log(`labels ahead: ${reference}: ${said(e)}; settled by its reference later`);
        return 'platform';
      }
      // No answer (a timeout, a connection lost after the request left) or a 5xx: the platform may have sold it.
      if (e.outcomeUnknown || (e.isNetwork && !e.notSent)) {
        log(`labels ahead: ${reference}: no answer to the purchase (${said(e)}); settled by its reference later`);
        return 'platform';
      }
      if (notSentForNow(e)) {
        await store.drop(id);
        if (e.retryAfterMs !== undefined) waitUntil = Date.now() + e.retryAfterMs;
        const budget = e instanceof RateWindowFull || e.code === 'rate_limited';
        log(`labels ahead: ${reference} not bought now (${budget ? "the account's labels are left to the packers" : said(e)}); next try in ${Math.max(1, Math.ceil((waitUntil - Date.now()) / 1000))} s`);
        return budget ? 'budget' : 'platform';
      }
      await store.end(id, 'failed', 'failed', null, said(e));
      out.refused.push({ reference, message: said(e) });
      log(`labels ahead: ${reference} refused by the platform: ${said(e)}`);
      return 'refused';
    }
    const { label, ...shipment } = created;
    const kept = await store.store(id, purchaseOf(shipment, label));
    // The packer's press stopped waiting for this purchase and bought its own label: this one is cancelled now.
    if (kept === 'abandoned') {
      await cancelLate(store, id, created.trackingNumber, reference);
      return 'skip';
    }
    // The reservation ended while the POST was on its way (settled by another bench as stale): kept if that bench
    // found this very shipment by its reference, else nobody holds it and it is cancelled.
    if (kept === 'gone' && !(await store.byTrackingNumber(created.trackingNumber))) {
      await cancelLate(store, id, created.trackingNumber, reference, 'came after its reservation was settled as buying nothing');
      return 'skip';
    }
    out.bought.push(created.trackingNumber);
    log(
      kept === 'bought'
        ? `labels ahead: bought ${created.trackingNumber} for ${reference} (${created.carrier.contractCode}, ${created.cost.total.toFixed(2)} ${created.cost.currency}, ${weightKg} kg)`
        : `labels ahead: bought ${created.trackingNumber} for ${reference}, settled meanwhile by another bench's buyer: kept`,
    );
    return 'bought';
  };

  const runTick = async (): Promise<AheadTick> => {
    const out: AheadTick = { bought: [], refused: [], failed: [] };
    const store = ctx.warehouse.labelsAhead();
    if (!store) return { ...out, idle: 'no_warehouse' };
    const settings = await store.settings();
    if (!settings.enabled) return { ...out, idle: 'disabled' };
    const asked = JSON.stringify([settings.rules, settings.horizonHours]);
    if (asked !== memoOf) notEligible.clear();
    memoOf = asked;
    if (!(await store.lead(leaseS))) return { ...out, idle: 'not_leader' };
    // The lease is kept while the budget says wait: the buyer stays the same bench.
    if (Date.now() < waitUntil) return { ...out, idle: 'waiting' };
    for (const r of await store.staleReservations(staleAfterS)) {
      try {
        await settle(store, r, out);
      } catch (e) {
        log(`labels ahead: ${r.reference} left reserved cannot be settled now: ${said(e)}`);
        if (e instanceof PlatformError) return { ...out, stopped: 'platform' };
        throw e;
      }
    }
    const now = ctx.now();
    const since = settings.horizonHours !== null ? now - settings.horizonHours * 3_600_000 : romeMidnight(romeDay(now));
    for (const [k, until] of notEligible) if (until <= Date.now()) notEligible.delete(k);
    const candidates = await store.candidates(new Date(since).toISOString(), Math.min(2000, perTick + notEligible.size));
    let bought = 0;
    for (const c of candidates) {
      if (bought >= perTick || ctx.stopping?.aborted) break;
      if (notEligible.has(c.orderKey)) continue;
      // The lease is renewed before each purchase: a long tick never buys after another bench took over.
      if (bought > 0 && !(await store.lead(leaseS))) return { ...out, stopped: 'lease' };
      const done = await buy(store, settings, c, out);
      if (done === 'budget' || done === 'platform') {
        if (done === 'platform' && waitUntil < Date.now()) waitUntil = Date.now() + intervalMs;
        return { ...out, stopped: done };
      }
      if (done === 'bought') bought++;
    }
    return out;
  };

  let running: Promise<AheadTick> | null = null;
  const tickOnce = async (): Promise<AheadTick> => {
    while (running) await running.catch(() => undefined);
    const mine = runTick();
    running = mine;
    try {
      return await mine;
    } finally {
      if (running === mine) running = null;
    }
  };

  let stopped = false;
  let lastError = '';
  let timer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      void tickOnce()
        .then(
          () => {
            lastError = '';
          },
          (e: unknown) => {
            // The same error tick after tick (the warehouse refusing, say) is said once.
            if (said(e) !== lastError) log(`labels ahead: ${said(e)}`);
            lastError = said(e);
          },
        )
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    tick: tickOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      // A purchase waiting for the budget while packers wait may take long: the close waits for it a few seconds at most
      // (a reservation it leaves is settled by its reference at the next start, or by another bench).
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([running?.catch(() => undefined), new Promise<void>((r) => (bound = setTimeout(r, STOP_WAIT_MS)))]);
      clearTimeout(bound);
    },
  };
}
