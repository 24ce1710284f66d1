/**
 * The line every order view shows (issue 24 item 1): which shipping rule
 * acts on the order and why, from the core's `rules.test` (the weight typed
 * when there is one, else the products' weight). Nothing when no order is
 * open; read again when the rules or product data change.
 */
import { invoke } from '../api';
import { useOrderAnswer } from '../lib/useOrderAnswer';
import { decisionText } from '../lib/ruleText';

/** Which rule acts on the order, and why. */
const askRules = (q: { orderId: number; weightKg?: number }) => invoke('rules.test', q);

/** One line under the screen title: «rule 3 'Italia fino a 5 kg': country IT, weight 1,2 kg ≤ 5». */
export function RuleLine({ orderId, weightKg }: { orderId: number | undefined; weightKg?: number | undefined }) {
  const answer = useOrderAnswer(orderId, weightKg, askRules);
  if (!answer) return null;
  return (
    <p className="muted rule-line" data-testid="rule-line">
      {decisionText(answer.decision)}
    </p>
  );
}
