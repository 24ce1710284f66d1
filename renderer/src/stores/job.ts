/**
 * The shipment being made at the bench: the order it ships, the form, the
 * quote, the chosen rate and the result (shipment + label print job). The
 * screen keeps the form as typed and sends it as the packer's intent; the
 * core builds the platform's request (electron/core/shipping/ship-form.ts).
 * Field errors: `shipping.check`; quote: `shipping.quote`; ship:
 * `shipping.shipOrder` with the form and the chosen rate (the core prints at once).
 */
import { create } from 'zustand';
import { outcomeOfCode, type PrintJobView, type ShipResult } from '../../../shared/contract';
import type { StationOrder } from '../../../shared/domain/order';
import type { FieldErrors, Rate } from '../../../shared/platform';
import { invoke } from '../api';
import { asStationError, stripPrefix } from '../lib/errors';
import { dateTime, money } from '../lib/format';
import { t } from '../lib/i18n';
import { fieldMessage } from '../lib/messages';
import { draftFromOrder, emptyDraft, customsOf, quoteKey, type ShipDraft } from '../lib/shipForm';
import { applyCustomsMemory, applyPlannedCommodities, emptyCommodity, withAutoValue, type CustomsDraft } from '../lib/shipFormCustoms';
import { boxChoice, emptyParcel, typedWeightKg, withProductWeight } from '../lib/shipFormParcels';
import { rememberBox, startingBox } from './lastBox';
import { CUSTOMS_PATHS, RECIPIENT_PATHS, commodityPath, parcelPath, partyIdPath, type CommodityDraft, type ParcelDraft, type ParcelField, type PartyIdsDraft, type RecipientDraft } from '../../../shared/contract/ship-form';
import type { BoxPreset } from '../../../shared/contract/boxes';
import { useApp } from './app';
import { labelCountdownOf } from '../lib/labelCountdown';
import { useVerify } from './verify';
import { coreMessage, jobNoteText } from '../lib/coreText';

interface JobState {
  order: StationOrder | null;
  draft: ShipDraft;
  /** Errors shown on the quote screen (parcels/destination). */
  quoteErrors: FieldErrors;
  /** Errors of the ship form as the core checks it (`shipping.check`, asked again after every edit). */
  shipErrors: FieldErrors;
  /**
   * The platform's own `details` from the last refused quote/shipment, keyed by
   * spec path; each stays on its field until that field is edited.
   */
  platformErrors: FieldErrors;
  /** Paths the packer left (blur): their errors show before submit. */
  touched: Record<string, true>;
  submitted: boolean;
  rates: Rate[];
  /** {@link quoteKey} of the form the rates answer, to flag a stale quote. */
  quotedFor: string | null;
  quoting: boolean;
  highlighted: number;
  chosen: Rate | null;
  shipping: boolean;
  result: ShipResult | null;
  /** The customs memory (SKUs, settings) was applied to this draft's declaration. */
  customsLoaded: boolean;
  /**
   * The order as the station now has it, when it changed (a re-import, a fix, another station) after this form
   * was filled from it: the form keeps what is shown and typed; the screens show a notice and the packer chooses.
   */
  orderChanged: StationOrder | null;

  startOrder(order: StationOrder): void;
  startBlank(): void;
  /** An `orders.changed` event: asks for the order in the form and notes whether it differs from what the form was filled from. */
  checkOrderChanged(): Promise<void>;
  /** The packer's choice after the notice: fill the form again from the changed order (what was typed in it is replaced). */
  reloadChangedOrder(): void;
  setRecipient(field: keyof RecipientDraft, value: string): void;
  setParcel(index: number, field: ParcelField, value: string): void;
  /** Parcels still without any dimension take the starting box (called once the box presets are loaded). */
  fillBlankBoxes(): void;
  /** Puts parcel `index` in a box preset: its dimensions fill the parcel (the weight stays: the scale weighs box included). */
  chooseBox(index: number, preset: BoxPreset): void;
  addParcel(): void;
  removeParcel(index: number): void;
  setDraft(patch: Partial<Pick<ShipDraft, 'reference' | 'codEnabled' | 'codAmount' | 'codMethod' | 'insuranceEnabled' | 'insuranceAmount' | 'notes'>>): void;
  touch(path: string): void;
  /** Edits a field of the declaration itself (incoterm, invoice, value, currency...). */
  setCustoms(patch: Partial<Omit<CustomsDraft, 'commodities' | 'exporter' | 'importer' | 'customsValueTyped'>>): void;
  setCommodity(index: number, field: keyof CommodityDraft, value: string): void;
  addCommodity(): void;
  removeCommodity(index: number): void;
  setPartyId(party: 'exporter' | 'importer', field: keyof PartyIdsDraft, value: string): void;
  /** Delivers to a carrier delivery point (null: to the address). */
  setDeliveryPoint(point: ShipDraft['deliveryPoint']): void;
  /** Prefills the declaration from the products remembered per SKU and the exporter/importer settings. */
  loadCustomsMemory(): Promise<void>;
  /**
   * Fills the declaration's blank line fields from the core's plan (`shipping.plan` with the typed weight and
   * the chosen contract: product data, the parcel weight split over the lines, the rule's customs defaults).
   * A failed plan leaves the form as it is (the packer types what is missing).
   */
  fillCustomsFromPlan(): Promise<void>;
  /** The weight known from product data (the core's plan) in the one parcel's blank weight field, marked so (issue 24); a failed plan leaves it blank. */
  loadProductWeight(): Promise<void>;
  highlight(index: number): void;
  quote(): Promise<boolean>;
  choose(index: number): void;
  ship(): Promise<boolean>;
  /**
   * Ships the open order by intent (`shipping.shipOrder`: the core plans contract, parcels and customs),
   * with `weightKg` typed or from a stable scale reading (product data when absent). The same guards as
   * {@link JobState.ship}; ends on the Print screen when shipped. False when not shipped (the banner says why).
   */
  shipPlanned(weightKg?: number): Promise<boolean>;
  /** A print job event: keeps the shown result's job current. */
  printJobChanged(job: PrintJobView): void;
  quoteIsStale(): boolean;
}

/** The first field message of `errors`, in the bench's language, for the banner; undefined when none. */
function firstMessage(errors: FieldErrors): string | undefined {
  const m = Object.values(errors)[0]?.[0];
  return m === undefined ? undefined : fieldMessage(m);
}

/** Client errors first, then the platform's, per path. */
export function mergeErrors(client: FieldErrors, platform: FieldErrors): FieldErrors {
  const out: FieldErrors = { ...client };
  for (const [k, v] of Object.entries(platform)) out[k] = [...(out[k] ?? []), ...v];
  return out;
}

/** The chosen rate as the core's checks and ship read it: carrier, contract code, COD methods. */
function rateOf(rate: Rate | null) {
  return rate ? { carrierCode: rate.carrierCode, contractCode: rate.contractCode, cashOnDeliveryMethods: rate.cashOnDeliveryMethods } : null;
}

/** The core's field errors of `draft` for a quote or a shipment; none when the core cannot be asked (the press itself then says why). */
async function checkForm(draft: ShipDraft, step: 'quote' | 'ship', chosen: Rate | null = null): Promise<FieldErrors> {
  try {
    return await invoke('shipping.check', { form: draft, for: step, rate: rateOf(chosen) });
  } catch {
    return {};
  }
}

/** Drops the platform errors at `paths` and below them (`options.cod` clears `options.cod.amount`). */
function without(errors: FieldErrors, paths: string[]): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(errors)) if (!paths.some((p) => k === p || k.startsWith(`${p}.`))) out[k] = v;
  return out;
}

const OPTION_PATHS: Record<string, string> = {
  reference: 'reference',
  notes: 'options.notes',
  codEnabled: 'options.cod',
  codAmount: 'options.cod.amount',
  codMethod: 'options.cod.method',
  insuranceEnabled: 'options.insurance',
  insuranceAmount: 'options.insurance.amount',
};

const initial = () => ({
  order: null,
  draft: emptyDraft(startingBox()),
  quoteErrors: {},
  shipErrors: {},
  platformErrors: {},
  touched: {},
  submitted: false,
  rates: [],
  quotedFor: null,
  quoting: false,
  highlighted: 0,
  chosen: null,
  shipping: false,
  result: null,
  customsLoaded: false,
  orderChanged: null,
});

/** What of an order fills the ship form: recipient, lines, notes, payment and state. */
function formFacts(o: StationOrder): string {
  return JSON.stringify([o.recipient, o.items, o.notes ?? null, o.paymentStatus, o.status, o.shipmentTrackingNumber ?? null]);
}

/** True when `now` would fill the ship form differently from `before` (the same order, changed since). Exported for its unit test. */
export function orderChangedSince(before: StationOrder, now: StationOrder): boolean {
  return before.id === now.id && formFacts(before) !== formFacts(now);
}

/** The shipment in progress: form, quote (`shipping.quote`), chosen rate, `shipping.shipOrder` result and its print job. */
export const useJob = create<JobState>()((set, get) => {
  /** Checks of the form asked so far; only the newest answer is shown. */
  let checks = 0;
  /** A Ship or Quote press being checked: a repeat meanwhile is ignored. */
  let pressing = false;
  /** Re-validates after an edit (the core's `shipping.check`) so shown errors clear as soon as a field is fixed. */
  const revalidate = () => {
    const seq = ++checks;
    const { draft, chosen } = get();
    void Promise.all([checkForm(draft, 'quote'), checkForm(draft, 'ship', chosen)]).then(([quoteErrors, shipErrors]) => {
      if (seq === checks) set({ quoteErrors, shipErrors });
    });
  };
  const edit = (fn: (d: ShipDraft) => ShipDraft, paths: string[]) => {
    set((s) => ({ draft: fn(s.draft), platformErrors: without(s.platformErrors, paths) }));
    revalidate();
  };

  /**
   * Waits for a shipment being made (`shipping.shipOrder`, by the form or by the plan) and says how it ended:
   * shipped → Print screen; shipped elsewhere, queued, refused → the banner. True when it shipped here.
   */
  const settle = async (order: StationOrder | null, make: () => Promise<ShipResult>): Promise<boolean> => {
    try {
      const result = await make();
      set({ shipping: false, result });
      const trackingNumber = result.shipment.trackingNumber;
      if (result.shippedElsewhere) {
        // Another station of the account shipped this order: nothing paid, nothing printed here.
        useApp.getState().flash('warn', t('duplicate.title'), t('duplicate.body', { order: order?.orderNumber ?? result.shipment.reference ?? '', trackingNumber: trackingNumber, carrier: `${result.shipment.carrier.name} — ${result.shipment.carrier.contractName}`, date: dateTime(result.shipment.createdAt) }));
        return false;
      }
      if (result.printJob?.state === 'held') useApp.getState().outcome('printer', t('job.labelHeld', { trackingNumber }), t('job.labelHeldDetail', { error: jobNoteText(result.printJob) ?? '' }));
      else if (result.printError) useApp.getState().outcome('printer', t('job.notPrinted', { trackingNumber: trackingNumber }), t('job.notPrintedDetail', { error: `${coreMessage(result.printError)} [${result.printError.code}]` }));
      else if (result.printJob?.state === 'failed') useApp.getState().outcome('printer', t('job.notPrinted', { trackingNumber: trackingNumber }), jobNoteText(result.printJob) ?? t('job.printerFailed'));
      else if (result.printJob?.state === 'queued' && result.printJob.lastError)
        useApp.getState().outcome('printer', t('job.labelWaits', { trackingNumber: trackingNumber }), t('job.labelWaitsDetail', { error: jobNoteText(result.printJob) ?? result.printJob.lastError }));
      else useApp.getState().outcome('shipped', t('job.shipped', { trackingNumber: trackingNumber }), t('job.shippedDetail', { carrier: result.shipment.carrier.name, cost: money(result.shipment.cost.amount, result.shipment.cost.currency) }));
      useApp.getState().go('print', { keepBanner: true });
      void useApp.getState().refreshInfo(); // credit changed
      return true;
    } catch (e) {
      set({ shipping: false });
      const err = asStationError(e);
      if (err.details) set({ platformErrors: stripPrefix(err.details, 'request') });
      // One rule for core and screen (shared/contract/outbox-outcome.ts): the code says whether the row stays queued.
      const countdown = labelCountdownOf(err.text);
      if (countdown) {
        // The label waits for the account's budget (issue 43 item 2): said with its turn, counted down; the packer goes on.
        useApp.getState().outcome('queued', t('job.labelWaitsBudget'), t('job.labelWaitsBudgetDetail'), countdown);
        void useApp.getState().refreshInfo();
      } else if (outcomeOfCode(err.code) === 'queued') {
        // The outbox keeps the request and sends it (after checking the platform when an answer was lost); the label prints then.
        useApp.getState().outcome('queued', t('job.queued'), t('job.queuedDetail', { error: `${err.message} [${err.code}]` }));
        void useApp.getState().refreshInfo();
      } else if (err.code === 'outcome_unknown') {
        useApp.getState().outcome('attention', t('job.unconfirmed'), `${err.message} [${err.code}]`);
      } else if (err.details) {
        useApp.getState().fail(t('job.refused'), err);
      } else {
        useApp.getState().outcome('attention', t('job.attention'), `${err.message} [${err.code}]`);
      }
      return false;
    }
  };

  return {
    ...initial(),

    startOrder(order) {
      checks++; // a check of the previous form still in flight must not land on this one
      set({ ...initial(), order, draft: draftFromOrder(order, startingBox()) });
      if (customsOf(get().draft).required) void get().loadCustomsMemory();
      void get().loadProductWeight();
    },
    startBlank() {
      checks++;
      // A shipment by hand: the order opened before is let go for the other benches (issue 35).
      if (get().order) void invoke('scan.release', {}).catch(() => undefined);
      set({ ...initial() });
    },
    async checkOrderChanged() {
      const { order, result } = get();
      if (!order || result) return;
      let now: StationOrder;
      try {
        now = await invoke('orders.get', { id: order.id });
      } catch {
        return; // gone or unreadable: the next scan says so
      }
      // The form may have moved on meanwhile (another order, or shipped).
      if (get().order?.id !== order.id || get().result) return;
      set({ orderChanged: orderChangedSince(order, now) ? now : null });
    },
    reloadChangedOrder() {
      const changed = get().orderChanged;
      if (changed) get().startOrder(changed);
    },
    fillBlankBoxes() {
      const box = startingBox();
      if (!box) return;
      const blank = (p: ParcelDraft) => p.box === '' && p.length === '' && p.width === '' && p.height === '';
      if (!get().draft.parcels.some(blank)) return;
      set((s) => ({ draft: { ...s.draft, parcels: s.draft.parcels.map((p) => (blank(p) ? { ...p, box: box.name, length: box.length, width: box.width, height: box.height } : p)) } }));
      revalidate();
    },
    chooseBox(index, preset) {
      const box = boxChoice(preset);
      edit(
        (d) => ({ ...d, parcels: d.parcels.map((p, i) => (i === index ? { ...p, box: box.name, length: box.length, width: box.width, height: box.height } : p)) }),
        (['length', 'width', 'height'] as const).map((f) => parcelPath(index, f)),
      );
    },
    setRecipient(field, value) {
      edit((d) => ({ ...d, recipient: { ...d.recipient, [field]: value } }), [RECIPIENT_PATHS[field], 'customsDetail']);
      if (!get().customsLoaded && customsOf(get().draft).required) void get().loadCustomsMemory();
    },
    setCustoms(patch) {
      const paths = Object.keys(patch).map((k) => CUSTOMS_PATHS[k as keyof typeof CUSTOMS_PATHS] ?? `customsDetail.${k}`);
      edit((d) => ({ ...d, customs: { ...d.customs, ...patch, ...('customsValue' in patch ? { customsValueTyped: true } : {}) } }), [...paths, ...('currency' in patch ? ['customsDetail'] : [])]);
    },
    setCommodity(index, field, value) {
      edit(
        (d) => ({ ...d, customs: withAutoValue({ ...d.customs, commodities: d.customs.commodities.map((l, i) => (i === index ? { ...l, [field]: value } : l)) }) }),
        [field === 'unitValue' ? `customsDetail.commodities.${index}.unitValue` : field === 'weight' ? `customsDetail.commodities.${index}.weight` : commodityPath(index, field), `customsDetail.commodities.${index}.totalValue`],
      );
    },
    addCommodity() {
      edit((d) => ({ ...d, customs: withAutoValue({ ...d.customs, commodities: [...d.customs.commodities, emptyCommodity()] }) }), ['customsDetail.commodities']);
    },
    removeCommodity(index) {
      // Line numbers shift: the platform's per-line messages no longer match.
      edit((d) => ({ ...d, customs: withAutoValue({ ...d.customs, commodities: d.customs.commodities.filter((_, i) => i !== index) }) }), ['customsDetail.commodities']);
    },
    setPartyId(party, field, value) {
      edit((d) => ({ ...d, customs: { ...d.customs, [party]: { ...d.customs[party], [field]: value } } }), [partyIdPath(party, field)]);
    },
    setDeliveryPoint(point) {
      edit((d) => ({ ...d, deliveryPoint: point }), ['options.deliveryPoint', 'options.cod']);
    },
    async loadProductWeight() {
      const { order } = get();
      if (!order) return;
      let plan;
      try {
        plan = await invoke('shipping.plan', { orderId: order.id });
      } catch {
        return; // a help, not a step: the packer weighs or types
      }
      if (get().order?.id !== order.id || get().result) return;
      const parcels = withProductWeight(get().draft.parcels, plan);
      if (parcels) set((s) => ({ draft: { ...s.draft, parcels } }));
    },
    async fillCustomsFromPlan() {
      const { order, draft, chosen } = get();
      if (!order || !customsOf(draft).required) return;
      const weightKg = typedWeightKg(draft.parcels);
      let plan;
      try {
        plan = await invoke('shipping.plan', { orderId: order.id, ...(weightKg !== undefined ? { weightKg } : {}), ...(chosen ? { contractCode: chosen.contractCode } : {}) });
      } catch {
        return; // a help, not a step: the form stays as the packer has it
      }
      if (get().order?.id !== order.id || get().result) return;
      const missing = new Set(plan.customs.missing);
      // A weight the plan does not know (it writes the least the wire takes) is left for the packer.
      const planned = (plan.request?.customsDetail?.commodities ?? []).map((c, i) => (missing.has(`customsDetail.commodities.${i}.weight.value`) ? { ...c, weight: { value: 0 } } : c));
      if (planned.length === 0) return;
      set((s) => ({ draft: { ...s.draft, customs: withAutoValue(applyPlannedCommodities(s.draft.customs, planned)) } }));
      revalidate();
    },
    async loadCustomsMemory() {
      set({ customsLoaded: true });
      const skus = get().draft.customs.commodities.map((l) => l.sku).filter((s) => s !== '');
      try {
        const [products, settings] = await Promise.all([skus.length ? invoke('customs.products', { skus }) : Promise.resolve([]), invoke('customs.settings.get', {})]);
        set((s) => ({ draft: { ...s.draft, customs: applyCustomsMemory(s.draft.customs, products, settings) } }));
        revalidate();
      } catch (e) {
        useApp.getState().fail(t('job.customsFailed'), asStationError(e));
      }
    },
    setParcel(index, field, value) {
      // A dimension typed by hand makes the parcel a box of its own (no longer the preset it was).
      // A weight typed or weighed is no longer the one from product data.
      edit((d) => ({ ...d, parcels: d.parcels.map((p, i) => (i === index ? { ...p, [field]: value, ...(field === 'weight' ? { fromProducts: false } : p[field] === value ? {} : { box: '' }) } : p)) }), [parcelPath(index, field)]);
    },
    addParcel() {
      edit((d) => {
        const last = d.parcels[d.parcels.length - 1];
        return { ...d, parcels: [...d.parcels, emptyParcel(last ? { name: last.box, length: last.length, width: last.width, height: last.height } : startingBox())] };
      }, ['packages']);
    },
    removeParcel(index) {
      // Parcel numbers shift: the platform's per-parcel messages no longer match.
      edit((d) => (d.parcels.length <= 1 ? d : { ...d, parcels: d.parcels.filter((_, i) => i !== index) }), ['packages']);
    },
    setDraft(patch) {
      edit((d) => ({ ...d, ...patch }), Object.keys(patch).map((k) => OPTION_PATHS[k] ?? k));
    },
    touch(path) {
      set((s) => (s.touched[path] ? s : { touched: { ...s.touched, [path]: true } }));
    },
    highlight(index) {
      set({ highlighted: index });
    },

    async quote() {
      if (pressing) return false;
      const { draft } = get();
      pressing = true;
      const errors = await checkForm(draft, 'quote').finally(() => {
        pressing = false;
      });
      if (Object.keys(errors).length) {
        checks++; // an older check in flight must not hide these
        set({ quoteErrors: errors, submitted: true });
        useApp.getState().flash('error', t('job.checkParcel'), firstMessage(errors));
        return false;
      }
      set({ quoting: true, platformErrors: {} });
      try {
        // Cheapest first (the core sorts).
        const rates = await invoke('shipping.quote', { form: draft });
        rememberBox(draft.parcels[0]);
        set({ rates, quotedFor: quoteKey(draft), highlighted: 0, chosen: null, quoting: false });
        if (rates.length === 0) useApp.getState().flash('warn', t('job.noRates'), t('job.noRatesDetail'));
        else useApp.getState().flash('info', t('job.rates', { count: rates.length, price: money(rates[0]!.price.total, rates[0]!.price.currency) }), t('job.ratesDetail'));
        return rates.length > 0;
      } catch (e) {
        set({ quoting: false });
        const err = asStationError(e);
        if (err.details) set({ platformErrors: stripPrefix(err.details, 'request'), submitted: true });
        useApp.getState().fail(t('job.quoteFailed'), err);
        return false;
      }
    },

    choose(index) {
      const rate = get().rates[index];
      if (!rate) return;
      const d = get().draft;
      // Preselect the COD method when the contract offers exactly one.
      const methods = Object.keys(rate.cashOnDeliveryMethods);
      const codMethod = methods.includes(d.codMethod) ? d.codMethod : methods.length === 1 ? methods[0]! : '';
      set({ chosen: rate, highlighted: index, draft: { ...d, codMethod } });
      revalidate();
      useApp.getState().flash('info', `${rate.carrierName} — ${rate.contractName}: ${money(rate.price.total, rate.price.currency)}`, t('job.chosenDetail'));
      useApp.getState().go('ship', { keepBanner: true });
    },

    async ship() {
      // A repeat (double Enter / Ctrl+Enter) while one is checked or in flight is ignored: one shipment, one charge.
      if (pressing || get().shipping) return false;
      const { draft, chosen, order } = get();
      const unverified = useVerify.getState().shipBlock(order?.id);
      if (unverified) {
        useApp.getState().outcome('wrong_item', unverified, t('verify.blockedHint'));
        return false;
      }
      pressing = true;
      const errors = await checkForm(draft, 'ship', chosen).finally(() => {
        pressing = false;
      });
      checks++; // an older check in flight must not replace these
      set({ submitted: true, shipErrors: errors });
      if (Object.keys(errors).length) {
        useApp.getState().flash('error', t('job.fixFields'), firstMessage(errors));
        return false;
      }
      if (!chosen) {
        useApp.getState().flash('error', t('job.noRate'), t('job.noRateDetail'));
        return false;
      }
      set({ shipping: true, platformErrors: {} });
      return settle(order, () => invoke('shipping.shipOrder', { ...(order ? { orderId: order.id } : {}), form: draft, rate: rateOf(chosen) ?? undefined }));
    },

    async shipPlanned(weightKg) {
      // The same guards as Ctrl+Enter: one in flight, a result shown, items still to verify (the core guards again).
      const { order, shipping, result } = get();
      if (!order || shipping || result) return false;
      const unverified = useVerify.getState().shipBlock(order.id);
      if (unverified) {
        useApp.getState().outcome('wrong_item', unverified, t('verify.blockedHint'));
        return false;
      }
      set({ shipping: true, platformErrors: {} });
      return settle(order, () => invoke('shipping.shipOrder', { orderId: order.id, ...(weightKg !== undefined ? { weightKg } : {}) }));
    },

    printJobChanged(job) {
      const r = get().result;
      if (!r || r.shipment.trackingNumber !== job.trackingNumber) return;
      const jobs = r.shipment.printJobs.some((j) => j.id === job.id)
        ? r.shipment.printJobs.map((j) => (j.id === job.id ? job : j))
        : [...r.shipment.printJobs, job];
      const printJob = r.printJob === null || r.printJob.id === job.id || job.id > r.printJob.id ? job : r.printJob;
      set({ result: { ...r, printJob, shipment: { ...r.shipment, printJobs: jobs } } });
    },

    quoteIsStale() {
      const { quotedFor, draft } = get();
      return quotedFor !== null && quotedFor !== quoteKey(draft);
    },
  };
});
