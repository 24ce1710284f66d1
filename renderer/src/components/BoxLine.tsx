/**
 * Which box and why (issue 37 items 1-2), under the rule line of the Quote
 * and Ship screens: the core's plan (`shipping.plan`) names the box it chose
 * and the reason («Box Large: TE-1L 22 × 18 × 16 cm does not fit Medium»),
 * and, when the order needs several boxes, each parcel with its box, items
 * and weight (kg). Nothing when no order is open or the core names no box;
 * read again when the rules or product data change.
 */
import type { PlanParcel } from '../../../shared/contract/plan';
import { invoke } from '../api';
import { useOrderAnswer } from '../lib/useOrderAnswer';
import { locale, t } from '../lib/i18n';
import { attentionText } from '../lib/ruleText';

/** A parcel as one line: «Large — TU-30 × 1, BW-14 × 2 · 3,1 kg». */
function parcelText(p: PlanParcel): string {
  const items = p.items.map((i) => `${i.sku} × ${i.quantity}`).join(', ');
  const kg = p.weightKg === null ? '' : ` · ${new Intl.NumberFormat(locale(), { maximumFractionDigits: 3 }).format(p.weightKg)} kg`;
  return `${p.box?.name ?? t('plan.attention.box')} — ${items}${kg}`;
}

/** The core's plan for the open order (its box and reason). */
const askPlan = (q: { orderId: number; weightKg?: number }) => invoke('shipping.plan', q);

/** The box line, and the parcels when there are several. */
export function BoxLine({ orderId, weightKg }: { orderId: number | undefined; weightKg?: number | undefined }) {
  const plan = useOrderAnswer(orderId, weightKg, askPlan);
  if (!plan?.boxReason) return null;
  return (
    <div className="muted box-line" data-testid="box-line">
      <p>{attentionText(plan.boxReason)}</p>
      {plan.parcels.length > 1 ? (
        <ol data-testid="box-parcels">
          {plan.parcels.map((p, i) => (
            <li key={i}>{parcelText(p)}</li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
