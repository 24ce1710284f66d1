/**
 * The line every order view shows (issue 24 item 1): which shipping rule
 * acts on the order and why, from the core's `rules.test` (the weight typed
 * when there is one, else the products' weight). Nothing when no order is
 * open; read again when the rules or product data change.
 */
import { useEffect, useState } from 'react';
import type { RuleDecision } from '../../../shared/contract/rules';
import { invoke, on } from '../api';
import { decisionText } from '../lib/ruleText';

/** One line under the screen title: «rule 3 'Italia fino a 5 kg': country IT, weight 1,2 kg ≤ 5». */
export function RuleLine({ orderId, weightKg }: { orderId: number | undefined; weightKg?: number | undefined }) {
  // The decision with the question it answers, so a stale answer is never shown for another order or weight.
  const [answer, setAnswer] = useState<{ key: string; decision: RuleDecision } | null>(null);
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
    invoke('rules.test', { orderId, ...(weightKg !== undefined && weightKg > 0 ? { weightKg } : {}) })
      .then((r) => live && setAnswer({ key: asked, decision: r.decision }))
      // The line is a help, not a step: a failed read leaves it out, the screen goes on.
      .catch(() => live && setAnswer(null));
    return () => {
      live = false;
    };
  }, [orderId, weightKg, tick]);
  if (orderId === undefined || !answer || answer.key !== key) return null;
  return (
    <p className="muted rule-line" data-testid="rule-line">
      {decisionText(answer.decision)}
    </p>
  );
}
