/**
 * The shipment the core plans from the packer's intent (issue 22 item 4,
 * issue 24 items 4-6): the order, the rule that acts, product data and an
 * optional weight give the contract, the parcels, the options and the
 * customs declaration, with what still needs the packer.
 */
import type { ShipmentRequest } from '../platform';
import type { BoxPreset } from './boxes';
import type { RuleDecision, RuleReason } from './rules';

/** How the contract is chosen: a fixed contract code, or the cheapest / fastest of a quote (among the listed codes, or all when null). */
export type PlanContract = { kind: 'fixed'; contractCode: string } | { kind: 'cheapest' | 'fastest'; among: string[] | null };

/** A reason the order needs the packer: `key` under `plan.attention.` with its values, and the same in English words. */
export interface PlanAttention extends RuleReason {
  message: string;
}

/**
 * One parcel of the plan (issue 37 item 2): its box preset (null: none, the
 * packer chooses or the one piece's own size is used), its items (SKU, or the
 * line's name without one, and how many) and its weight (kg: product data plus
 * the box's tare; null when no piece's weight is known).
 */
export interface PlanParcel {
  box: BoxPreset | null;
  items: Array<{ sku: string; quantity: number }>;
  weightKg: number | null;
}

/**
 * The plan of one order's shipment.
 * - `weightKg`/`weightSource`: the total, typed (or scale) or from product data, null when not known;
 * - `packages`: the parcels (kg, cm), several when the lines do not fit one box; null without a weight;
 * - `request`: POST /shipments body without the contract (`serviceType` is set when shipping), null without parcels;
 * - `customs.missing`: `details` paths still empty (`customsDetail.commodities.0.harmonizedCode`);
 * - `box`: the box of the (first) parcel; `boxReason`: which box and why, in the packer's words
 *   («Box Large: TE-1L 22 × 18 × 16 cm does not fit Medium»), null when the station has no box to name;
 * - `parcels`: the parcels with their box, items and weight (kg), one per package; empty when they cannot be packed;
 * - `printerUri`: device URI of the label printer the rule names (its profile applies), null for the printer in use;
 * - `longLabelPrinterUri`: device URI of the printer the rule names for a label longer than the stock of the
 *   printer it would print on (issue 36; its profile applies), null when none;
 * - `attention`: why it would not ship by itself (empty when it can).
 */
export interface ShipPlanView {
  orderId: number;
  decision: RuleDecision;
  weightKg: number | null;
  weightSource: 'typed' | 'products' | null;
  contract: PlanContract | null;
  box: BoxPreset | null;
  boxReason: PlanAttention | null;
  parcels: PlanParcel[];
  packages: ShipmentRequest['packages'] | null;
  customs: { required: boolean; reason: string; missing: string[] };
  request: ShipmentRequest | null;
  printerUri: string | null;
  longLabelPrinterUri: string | null;
  shipByItself: boolean;
  attention: PlanAttention[];
}

/**
 * Would this order ship by itself now: under which rule, or why not (each reason a locale key, values and words), in which box;
 * `countdownMs` is the station's countdown before it does (Esc stops it), the setting of `shipping.settings.get`.
 */
export interface AutoShipView {
  ships: boolean;
  /** Which box and why (the plan's `boxReason`), and how many parcels; null reason when the station names no box. */
  box: { reason: PlanAttention | null; parcels: number };
  rule: { index: number; name: string } | null;
  reasons: PlanAttention[];
  countdownMs: number;
}

/** Settings of shipping by itself (issue 24 item 4): `countdownMs`, the countdown shown before the order ships (100-10000 ms, default 1500). */
export interface ShippingSettingsView {
  countdownMs: number;
}
