/**
 * A line under an order's screen title that the core answers (the rule line, the box line): asked for the
 * open order and the weight typed, asked again when the rules or the product data change, and never shown
 * for another order or weight than the one it answers.
 */
import { useEffect, useState } from 'react';
import { on } from '../api';

/**
 * The core's answer for `orderId` and `weightKg` (kg; absent or 0: the products' weight), or null while it is
 * asked, when no order is open, or when the question failed (a help, not a step: the screen goes on).
 * @param ask the command for one order and weight, e.g. `(q) => invoke('rules.test', q)`; it should be stable
 */
export function useOrderAnswer<T>(
  orderId: number | undefined,
  weightKg: number | undefined,
  ask: (q: { orderId: number; weightKg?: number }) => Promise<T>,
): T | null {
  // The answer with the question it answers, so a stale answer is never shown for another order or weight.
  const [answer, setAnswer] = useState<{ key: string; value: T } | null>(null);
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
    ask({ orderId, ...(weightKg !== undefined && weightKg > 0 ? { weightKg } : {}) })
      .then((value) => live && setAnswer({ key: asked, value }))
      .catch(() => live && setAnswer(null));
    return () => {
      live = false;
    };
  }, [orderId, weightKg, tick, ask]);
  return orderId !== undefined && answer && answer.key === key ? answer.value : null;
}
