/** Commands of shipping by intent (issue 22 item 4, issue 24 item 4; see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import type { FieldErrors, Rate } from '../../platform';
import { LearntBoxDecision, type LearntBoxView } from '../boxes';
import type { AutoShipView, ShippingSettingsView, ShipPlanView } from '../plan';
import { ChosenRate, ShipForm } from '../ship-form';
import { command, Empty, OrderIdInput, QuoteInput, ShipInput, type ShipResult } from './define';
import { WeightKgInput } from './rules';

const Intent = z
  .object({
    orderId: OrderIdInput,
    /** Weight typed or read from a stable scale, kg; product data when absent. */
    weightKg: WeightKgInput.optional(),
    /** A contract code chosen by the packer instead of the rule's. */
    contractCode: z.string().trim().min(1).max(200).optional(),
    /** A box preset chosen by the packer instead of the rule's or the default. */
    box: z.string().trim().min(1).max(40).optional(),
  })
  .strict();

/**
 * Shipping by intent, or by the packer's form (the Ship screen), or by the
 * platform's request: with `form` the packer's recipient, parcels, options and
 * customs lines and the chosen `rate` replace the plan; with `request` the
 * platform's ShipmentRequest (POST /shipments) as an integrator builds it is
 * shipped as is (its contract in `serviceType`). `orderId` is the order the
 * form or request ships (absent for a shipment without an order); with
 * neither, `orderId` is required. `form` and `request` are not sent together.
 */
const ShipOrderIntent = Intent.extend({
  orderId: OrderIdInput.optional(),
  form: ShipForm.optional(),
  rate: ChosenRate.optional(),
  request: ShipInput.shape.request.optional(),
});

/** The countdown before an order ships by itself, ms: at least 100 (never 0: Esc must have a chance), at most 10 s. */
const CountdownMsInput = z
  .number({ error: 'Countdown must be a number of milliseconds' })
  .int({ error: 'Countdown must be a whole number of milliseconds' })
  .min(100, { error: 'Countdown must be at least 100 ms' })
  .max(10_000, { error: 'Countdown must be at most 10 s' });

/** Commands of shipping by intent. */
export const shippingPlanCommands = {
  /** The shipment the core would make for the order: rule, contract, parcels, options, customs and what is missing. */
  'shipping.plan': command<ShipPlanView>()(Intent),
  /** Whether the order would ship by itself now (a rule with "ship by itself", weight known, nothing needing attention), or why not. */
  'shipping.autoShip': command<AutoShipView>()(z.object({ orderId: OrderIdInput, weightKg: WeightKgInput.optional() }).strict()),
  /**
   * Ships (POST /shipments via the outbox), stores the label and prints it at once: the order from its
   * plan (never an order needing attention: refused `invalid_state` with the reasons in `details.orderId`),
   * the packer's form with the chosen rate, or the platform's `request`. One path and guards for all three:
   * never twice, a shipped order refused, an unpaid one where the station forbids it.
   */
  'shipping.shipOrder': command<ShipResult>()(ShipOrderIntent),
  /**
   * All rates for the parcel, cheapest first (POST /rates): from the packer's form (Quote screen), the
   * core builds the request from the destination, parcels, COD and insurance as typed; or the platform's
   * RatesRequest as is (`request`). One of the two. @throws StationError `invalid_input` naming the
   * fields by `details` path (`packages.0.weight.value`, `request.packages.0.weight.value`) when incomplete.
   */
  'shipping.quote': command<Rate[]>()(z.object({ form: ShipForm.optional(), request: QuoteInput.shape.request.optional() }).strict()),
  /**
   * The field errors of the packer's form for a quote or for a shipment with the chosen rate, keyed by
   * `details` path (`recipient.address.postalCode`); empty when it would be accepted. Nothing is sent.
   */
  'shipping.check': command<FieldErrors>()(z.object({ form: ShipForm, for: z.enum(['quote', 'ship'], { error: 'Check for quote or ship' }), rate: ChosenRate.nullable().default(null) }).strict()),
  /** The station's settings of shipping by itself: the countdown (ms, default 1500). */
  'shipping.settings.get': command<ShippingSettingsView>()(Empty),
  /** Saves them. @throws StationError `invalid_input` naming `countdownMs`. */
  'shipping.settings.set': command<ShippingSettingsView>()(z.object({ countdownMs: CountdownMsInput }).strict()),
  /** Boxes learnt from the bench (issue 37 item 3): per set of items, the box accepted and the one waiting for the packer. */
  'shipping.learntBoxes.list': command<LearntBoxView[]>()(Empty),
  /** Accepts (the station proposes that box for the set from now on) or rejects the box waiting; null when none waits for `key`. */
  'shipping.learntBoxes.resolve': command<{ learnt: LearntBoxView | null }>()(LearntBoxDecision),
} as const;
