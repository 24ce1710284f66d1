/**
 * The shipment from the packer's intent (issue 22 item 4, issue 24 items
 * 4-6): from an order, the rule that acts on it, product data and an
 * optional weight, the core plans the contract, the parcels, the options and
 * the customs declaration, and lists what still needs the packer
 * (`attention`). The screen sends the intent; the wire request is built here.
 *
 * Order of the steps: the parcels are first laid out (the packer's box, else
 * the station's choice of box: issue 37) to count them (a rule may look at
 * the parcel count), then the rule decides, then the parcels are laid out
 * again with the rule's box (refused with the reason when it cannot hold the
 * items), else the box the packer accepted for these items (./box-learn.ts,
 * when it holds them in one parcel), else the station's choice, and the rule's parcel limit
 * (./plan-parcels.ts). Weights kg, sizes cm, money in the order's currency.
 */
import type { BoxPreset } from '../../../shared/contract/boxes';
import type { PlanAttention, PlanContract, ShipPlanView } from '../../../shared/contract/plan';
import { rulePrinterUri, type RuleThen } from '../../../shared/contract/rules';
import { customsStatus } from '../../../shared/domain/customs';
import { recipientToParty, type StationOrder } from '../../../shared/domain/order';
import { orderReference } from '../../../shared/domain/order-reference';
import { ShipmentRequest } from '../../../shared/platform';
import type { StationContext } from '../common/context';
import type { ProductRecord } from '../store';
import { AllowUnpaidSetting } from '../orders/handlers';
import { boxSettingsOf } from '../packing/boxes';
import { linesToShip, orderWeight, productsOf, unitWeights } from '../products/weight';
import { decideFor } from '../rules/handlers';
import { learntBoxFor } from './box-learn';
import { customsIdentifiers } from './customs';
import type { Piece } from './parcels';
import { layoutParcels, parcelViews, type BoxSource } from './plan-parcels';

/** What the packer asked: the order, and optionally the weight (kg), a contract code and a box preset name instead of the rule's. */
export interface ShipIntent {
  orderId: number;
  weightKg?: number | undefined;
  contractCode?: string | undefined;
  box?: string | undefined;
}

const attention = (key: string, message: string, params: Record<string, string | number> = {}): PlanAttention => ({ key, params, message });

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The pieces of the order's lines, one per unit, with product weight, size and whether it ships alone. */
function piecesOf(order: StationOrder, products: Map<string, ProductRecord>, weights: Map<string, number>): Piece[] {
  const out: Piece[] = [];
  for (const l of linesToShip(order)) {
    const p = l.sku ? products.get(l.sku) : undefined;
    const size: [number, number, number] | null = p && p.lengthCm !== null && p.widthCm !== null && p.heightCm !== null ? [p.lengthCm, p.widthCm, p.heightCm] : null;
    const w = l.sku ? (weights.get(l.sku) ?? null) : null;
    const shipsAlone = p?.shipsAlone === true;
    for (let i = 0; i < Math.min(l.quantity, 1000); i++) out.push({ sku: l.sku ?? l.name, weightKg: w, sizeCm: size, shipsAlone });
  }
  return out;
}

/** The box preset called `name` (case-insensitive), or undefined. */
function presetNamed(presets: readonly BoxPreset[], name: string | null | undefined): BoxPreset | undefined {
  if (!name) return undefined;
  return presets.find((p) => p.name.toLowerCase() === name.toLowerCase());
}

/** The contract a rule (or the packer's choice) gives, or null. */
function contractOf(then: RuleThen | undefined, chosen: string | undefined): PlanContract | null {
  if (chosen) return { kind: 'fixed', contractCode: chosen };
  if (!then) return null;
  if (then.contract) return { kind: 'fixed', contractCode: then.contract };
  if (then.rate) return { kind: then.rate, among: then.among ?? null };
  return null;
}

/**
 * Plans the shipment of an order.
 * @throws StationError `not_found_locally` (from the caller) is not raised here: the caller passes a stored order.
 * @returns the plan; `attention` lists why it needs the packer (never thrown: the screen shows them).
 */
export function planShipment(ctx: Pick<StationContext, 'store' | 'platform'>, order: StationOrder, intent: ShipIntent): ShipPlanView {
  const { store } = ctx;
  const needs: PlanAttention[] = [];
  const products = productsOf(store, order);
  const lines = linesToShip(order);
  const weights = unitWeights(store, lines.map((l) => l.sku).filter((s): s is string => !!s));
  const fromProducts = orderWeight(store, order).weightKg;
  const weightKg = intent.weightKg ?? fromProducts;
  const weightSource = intent.weightKg !== undefined ? 'typed' : fromProducts !== null ? 'products' : null;
  const boxes = boxSettingsOf(ctx);
  const pieces = piecesOf(order, products, weights);

  // 1. Count the parcels (the packer's box, else the station's choice), for the rules' `parcels` condition.
  const marginCm = boxes.marginCm;
  const packerBox = presetNamed(boxes.presets, intent.box);
  const station: BoxSource = { kind: 'station', presets: boxes.presets, defaultBox: presetNamed(boxes.presets, boxes.defaultBox) ?? null };
  const first = layoutParcels(pieces, packerBox ? { kind: 'packer', box: packerBox } : station, { marginCm, maxKg: null });
  const { decision } = decideFor(store, order, weightKg ?? undefined, first.ok ? first.parcels.length : 1);
  const then = decision.rule?.then;

  // 2. Whose box: the packer's, else the rule's (refused with the reason when it cannot hold the items), else the station's choice.
  let source: BoxSource = packerBox ? { kind: 'packer', box: packerBox } : station;
  if (!intent.box && then?.box) {
    const named = presetNamed(boxes.presets, then.box);
    if (named) source = { kind: 'rule', box: named };
    else needs.push(attention('boxUnknown', `The rule's box "${then.box}" is not in Settings › Boxes`, { box: then.box }));
  }
  if (intent.box && !packerBox) needs.push(attention('boxUnknown', `Box "${intent.box}" is not in Settings › Boxes`, { box: intent.box }));
  const limits = { marginCm, maxKg: then?.maxParcelKg ?? null };
  // The box the packer accepted for these items (./box-learn.ts) comes before the station's own choice, when it holds them in one parcel.
  const learntBox = source.kind === 'station' ? presetNamed(boxes.presets, learntBoxFor(store, order)) : undefined;
  const learnt = learntBox ? layoutParcels(pieces, { kind: 'learnt', box: learntBox }, limits) : null;
  const layout = learnt?.ok && learnt.parcels.length === 1 ? learnt : layoutParcels(pieces, source, limits);
  const box = layout.ok ? (layout.parcels[0]?.box ?? null) : source.kind === 'station' ? source.defaultBox : source.box;
  let packages: ShipPlanView['packages'] = null;
  if (!layout.ok) {
    needs.push(layout.reason);
  } else if (weightKg === null) {
    needs.push(attention('weight', 'Weight not known: weigh the parcel or add the products’ weights', { missing: orderWeight(store, order).missing.join(', ') }));
  } else {
    const parcels = layout.parcels;
    // Each parcel's size: its box, else its one piece's own size.
    const sizes = parcels.map(({ box: b, pieces: ps }) => (b ? { length: b.lengthCm, width: b.widthCm, height: b.heightCm } : ps.length === 1 && ps[0]?.sizeCm ? { length: ps[0].sizeCm[0], width: ps[0].sizeCm[1], height: ps[0].sizeCm[2] } : null));
    if (sizes.some((s) => s === null)) needs.push(attention('box', 'Choose a box (no default box, and the products’ size is not known)'));
    else {
      const known = parcels.map(({ pieces: ps }) => ps.reduce((s, p) => s + (p.weightKg ?? 0), 0));
      const knownSum = known.reduce((a, b) => a + b, 0);
      packages = parcels.map((parcel, i) => {
        // A typed (gross) weight is split over the parcels as the products weigh, evenly when not known.
        const share = intent.weightKg !== undefined ? (knownSum > 0 ? (intent.weightKg * (known[i] ?? 0)) / knownSum : intent.weightKg / parcels.length) : (known[i] ?? 0) + (parcel.box?.tareKg ?? 0);
        const size = sizes[i] ?? { length: 1, width: 1, height: 1 };
        return { weight: { value: Math.max(0.001, round3(share)), units: 'KG' as const }, dimensions: { ...size, units: 'CM' as const } };
      });
    }
  }

  // 3. The order's own state: the same guards as Ctrl+Enter.
  if (order.status !== 'open') needs.push(attention(`status.${order.status}`, `Order ${order.orderNumber} is ${order.status}`, { order: order.orderNumber }));
  if (order.delivery === 'pickup') needs.push(attention('pickup', `Order ${order.orderNumber} is collected in store`, { order: order.orderNumber }));
  const pending = store.shipments.listByOrder(order.id).some((s) => s.trackingNumber === null && s.cancelledAt === null);
  if (pending) needs.push(attention('inFlight', `A shipment of order ${order.orderNumber} is being made`, { order: order.orderNumber }));
  // A rule covers unpaid orders when it takes cash on delivery or names unpaid orders in its conditions.
  const ruleCoversUnpaid = then?.options?.cod === true || decision.reasons.some((r) => r.key === 'payment' && r.params.payment === 'unpaid');
  if (order.paymentStatus === 'unpaid' && (!ruleCoversUnpaid || !store.settings.get(AllowUnpaidSetting))) {
    needs.push(attention('unpaid', `Order ${order.orderNumber} is not paid and no rule covers unpaid orders`, { order: order.orderNumber }));
  }
  if (order.paymentStatus === 'refunded' || order.paymentStatus === 'voided') needs.push(attention('refunded', `Order ${order.orderNumber} is ${order.paymentStatus}`, { order: order.orderNumber, payment: order.paymentStatus }));
  if (order.needsFix.includes('postalCode') || order.recipient.postalCode.trim() === '') needs.push(attention('postcode', 'The postal code is missing'));
  if (order.needsFix.includes('notes')) needs.push(attention('held', 'The order is held: its note is too long for the courier'));

  const contract = contractOf(then, intent.contractCode);
  if (!contract) needs.push(attention(decision.rule ? 'noContract' : 'noRule', decision.rule ? `Rule ${decision.rule.index} '${decision.rule.name}' chooses no contract` : 'No rule covers this order: choose a rate', decision.rule ? { rule: decision.rule.name, index: decision.rule.index } : {}));

  // 4. Options.
  const options: NonNullable<ShipmentRequest['options']> = {};
  const o = then?.options;
  if (o?.insurance !== undefined && o.insurance !== false) {
    const amount = o.insurance === true ? order.total : o.insurance;
    if (amount !== undefined && amount > 0) options.insurance = { amount, currency: order.currency };
  }
  if (o?.cod && order.paymentStatus === 'unpaid') {
    if (order.total === undefined || order.total <= 0) needs.push(attention('codAmount', 'Cash on delivery needs the order total'));
    else options.cod = { amount: order.total, currency: order.currency, ...(o.codMethod ? { method: o.codMethod } : {}) };
  }
  const notes = (o?.notes ?? (order.notes ?? '').replace(/\s*[\r\n]+\s*/g, ' ')).trim();
  if (notes && notes.length <= 255) options.notes = notes;

  // 5. Customs from what is known.
  const r = order.recipient;
  const status = customsStatus(r.countryCode, r.postalCode, r.city);
  const missing: string[] = [];
  let customsDetail: ShipmentRequest['customsDetail'];
  if (status.required) {
    const ids = customsIdentifiers(store);
    const c = then?.customs;
    const totalPieces = lines.reduce((s, l) => s + l.quantity, 0);
    customsDetail = {
      customsValue: { amount: Math.round(lines.reduce((s, l) => s + l.quantity * l.unitPrice, 0) * 100) / 100, currency: order.currency },
      contentType: c?.contentType ?? 'MERCHANDISE',
      exporter: ids.exporter,
      importer: ids.importer,
      commodities: lines.map((l, i) => {
        const p = l.sku ? products.get(l.sku) : undefined;
        const unit = l.sku ? weights.get(l.sku) : undefined;
        // Weight of the line: product data, else the parcel weight split evenly per piece.
        const lineKg = unit !== undefined ? unit * l.quantity : weightKg !== null && totalPieces > 0 ? (weightKg * l.quantity) / totalPieces : 0;
        const description = (p?.description || c?.description || l.name).slice(0, 255);
        const country = p?.originCountry ?? c?.originCountry ?? '';
        if (lineKg <= 0) missing.push(`customsDetail.commodities.${i}.weight.value`);
        if (country === '') missing.push(`customsDetail.commodities.${i}.countryOfManufacture`);
        if (description.trim() === '') missing.push(`customsDetail.commodities.${i}.description`);
        return {
          description,
          quantity: l.quantity,
          unitValue: { amount: l.unitPrice, currency: order.currency },
          weight: { value: Math.max(0.001, round3(lineKg)), units: 'KG' as const },
          // The station's names to the wire's (spec: Customs > Commodity).
          countryOfManufacture: country,
          harmonizedCode: p?.hsCode ?? null,
          sku: l.sku ?? null,
        };
      }),
    };
    if (lines.length === 0) missing.push('customsDetail.commodities');
    if (missing.length) needs.push(attention('customs', `${status.reason}: the declaration misses ${missing.length} field(s)`, { count: missing.length }));
  }

  const request: ShipmentRequest | null = packages
    ? {
        recipient: recipientToParty(order.recipient),
        packages,
        reference: orderReference(order),
        ...(Object.keys(options).length ? { options } : {}),
        ...(customsDetail ? { customsDetail } : {}),
      }
    : null;
  if (request && missing.length === 0) {
    const res = ShipmentRequest.safeParse(request);
    if (!res.success) {
      const paths = [...new Set(res.error.issues.map((i) => i.path.join('.')))];
      needs.push(attention('invalid', `The shipment would be refused: ${paths.join(', ')}`, { fields: paths.join(', ') }));
    }
  }

  return {
    orderId: order.id,
    decision,
    weightKg,
    weightSource,
    contract,
    box,
    boxReason: layout.ok ? layout.reason : null,
    parcels: layout.ok ? parcelViews(layout.parcels) : [],
    packages,
    customs: { required: status.required, reason: status.reason, missing },
    request,
    printerUri: then ? rulePrinterUri(then) : null,
    longLabelPrinterUri: then?.longLabelPrinter ?? null,
    shipByItself: then?.shipByItself === true,
    attention: needs,
  };
}
