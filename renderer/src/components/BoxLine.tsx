/**
 * Which box and why (issue 37 items 1-2), under the rule line of the Quote
 * and Ship screens: the core's plan (`shipping.plan`) names the box it chose
 * and the reason («Box Large: TE-1L 22 × 18 × 16 cm does not fit Medium»),
 * and, when the order needs several boxes, each parcel with its box, items
 * and weight (kg). Nothing when no order is open or the core names no box;
 * read again when the rules or product data change.
 */
import { useEffect, useState } from 'react';
import type { PlanAttention, PlanParcel } from '../../../shared/contract/plan';
import { invoke, on } from '../api';
import { locale, t } from '../lib/i18n';
import { attentionText } from '../lib/ruleText';

/** A parcel as one line: «Large — TU-30 × 1, BW-14 × 2 · 3,1 kg». */
function parcelText(p: PlanParcel): string {
  const items = p.items.map((i) => `${i.sku} × ${i.quantity}`).join(', ');
  const kg = p.weightKg === null ? '' : ` · ${new Intl.NumberFormat(locale(), { maximumFractionDigits: 3 }).format(p.weightKg)} kg`;
  return `${p.box?.name ?? t('plan.attention.box')} — ${items}${kg}`;
}

/** The box line, and the parcels when there are several. */
export function BoxLine({ orderId, weightKg }: { orderId: number | undefined; weightKg?: number | undefined }) {
  // The answer with the question it answers, so a stale answer is never shown for another order or weight.
  const [answer, setAnswer] = useState<{ key: string; reason: PlanAttention; parcels: PlanParcel[] } | null>(null);
  const key = `${orderId ?? ''}:${weightKg ?? ''}`;
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const offRules = on('rules.changed', () => setTick((n) => n + 1));
    const offProducts = on('products.changed', () => setTick((n) => n + 1));
    return () => {
      offRules();
      offProducts();
    };
  }, []);
  useEffect(() => {
    if (orderId === undefined) return;
    let live = true;
    const asked = `${orderId}:${weightKg ?? ''}`;
    invoke('shipping.plan', { orderId, ...(weightKg !== undefined && weightKg > 0 ? { weightKg } : {}) })
      .then((p) => live && setAnswer(p.boxReason ? { key: asked, reason: p.boxReason, parcels: p.parcels } : null))
      // A help, not a step: a failed read leaves it out.
      .catch(() => live && setAnswer(null));
    return () => {
      live = false;
    };
  }, [orderId, weightKg, tick]);
  if (orderId === undefined || !answer || answer.key !== key) return null;
  return (
    <div className="muted box-line" data-testid="box-line">
      <p>{attentionText(answer.reason)}</p>
      {answer.parcels.length > 1 ? (
        <ol data-testid="box-parcels">
          {answer.parcels.map((p, i) => (
            <li key={i}>{parcelText(p)}</li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
