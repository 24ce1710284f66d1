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

/**
 * A rule as every screen names it, its place (1-based) and name: «Rule 3 'Italia fino a 5 kg'»
 * (the order's rule line, the countdown and the reasons it does not ship by itself say it alike).
 */
export function ruleNameText(rule: { index: number; name: string }): string {
  return t('rules.named', { index: rule.index, name: rule.name });
}

/** The decision as one line: which rule acted and why, or that none did. */
export function decisionText(d: RuleDecision): string {
  if (!d.rule) return t('rules.noneActs');
  return t('rules.line', { rule: ruleNameText(d.rule), why: d.reasons.map(ruleReasonText).join(', ') });
}

/**
 * A reason the order needs the packer (`plan.attention.<key>`, dots as underscores); the core's English words when no text names it.
 * A reason naming a rule by its place and name (`index`, `rule`) names it as {@link ruleNameText} does.
 */
export function attentionText(a: PlanAttention): string {
  const key = `plan.attention.${a.key.replace(/\./g, '_')}`;
  if (!hasText(key)) return a.message;
  const { index, rule } = a.params;
  const values = formatted(a.params);
  if (typeof index === 'number' && typeof rule === 'string') values.rule = ruleNameText({ index, name: rule });
  return t(key, values);
}
