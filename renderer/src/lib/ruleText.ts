/**
 * Rules in words (issue 24): a rule decision of the core (`rules.test`,
 * `shipping.plan`) as one line — «rule 3 'Italia fino a 5 kg': country IT,
 * weight 1,2 kg ≤ 5». The core sends locale keys and raw values; numbers
 * are written here in the bench's language (decimal comma in Italian).
 */
import type { PlanAttention } from '../../../shared/contract/plan';
import type { RuleDecision, RuleReason } from '../../../shared/contract/rules';
import { hasText, locale, t } from './i18n';

/** A reason's values with numbers in the bench's format (up to 3 decimals). */
function formatted(params: Record<string, string | number>): Record<string, string> {
  const nf = new Intl.NumberFormat(locale(), { maximumFractionDigits: 3 });
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'number' ? nf.format(v) : v]));
}

/** One reason in words (`rules.why.<key>`, dots as underscores); the raw key when no text names it. */
export function ruleReasonText(r: RuleReason): string {
  const key = `rules.why.${r.key.replace(/\./g, '_')}`;
  return hasText(key) ? t(key, formatted(r.params)) : r.key;
}

/** The decision as one line: which rule acted and why, or that none did. */
export function decisionText(d: RuleDecision): string {
  if (!d.rule) return t('rules.noneActs');
  return t('rules.line', { index: d.rule.index, name: d.rule.name, why: d.reasons.map(ruleReasonText).join(', ') });
}

/** A reason the order needs the packer (`plan.attention.<key>`, dots as underscores); the core's English words when no text names it. */
export function attentionText(a: PlanAttention): string {
  const key = `plan.attention.${a.key.replace(/\./g, '_')}`;
  return hasText(key) ? t(key, formatted(a.params)) : a.message;
}
