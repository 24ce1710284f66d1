/**
 * The rule engine (issue 24 item 1): pure functions, no store. Rules are
 * tried in order; disabled ones are skipped; the first whose every condition
 * holds acts ("first match wins"). Each condition that held gives a
 * {@link RuleReason} (locale key under `rules.why.` and its values), each
 * rule that did not match the first condition that failed, so the screens
 * can say «rule 3 'Italia fino a 5 kg': country IT, weight 1,2 kg ≤ 5» and
 * Settings can show why a rule did not act.
 */
import type { Rule, RuleDecision, RuleReason, RuleTraceStep, RuleWhen } from '../../../shared/contract/rules';
import type { StationOrder } from '../../../shared/domain/order';
import { customsStatus, specialTerritoryOf } from '../../../shared/domain/customs';

/** What the rules look at: the order, its weight in kg when known (null when not), and the parcel count of its plan (1 when not planned). */
export interface RuleFacts {
  order: StationOrder;
  weightKg: number | null;
  parcels: number;
}

/** The station's own country: `domestic` zone. */
const HOME_COUNTRY = 'IT';

/** `*` pattern (any run of characters) to an anchored case-insensitive RegExp; other characters literal. */
function patternRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

/** True when `value` matches the `*` pattern (case-insensitive). */
export function matchesPattern(value: string, pattern: string): boolean {
  return patternRegExp(pattern.trim()).test(value.trim());
}

const reason = (key: string, params: Record<string, string | number> = {}): RuleReason => ({ key, params });

/** Range check: a reason `<what>.min|max|between` when it holds, `<what>.out` when not. */
function rangeReason(what: string, value: number, r: { min?: number | undefined; max?: number | undefined }): { ok: boolean; reason: RuleReason } {
  const ok = (r.min === undefined || value >= r.min) && (r.max === undefined || value <= r.max);
  const variant = r.min !== undefined && r.max !== undefined ? 'between' : r.min !== undefined ? 'min' : 'max';
  const params: Record<string, number> = { value };
  if (r.min !== undefined) params.min = r.min;
  if (r.max !== undefined) params.max = r.max;
  return { ok, reason: reason(`${what}.${ok ? variant : 'out'}`, params) };
}

/** The zone of a destination (see RULE_ZONES). */
function zoneOf(order: StationOrder): 'domestic' | 'eu' | 'extra_eu' {
  const r = order.recipient;
  if (customsStatus(r.countryCode, r.postalCode, r.city).required) return 'extra_eu';
  return r.countryCode.trim().toUpperCase() === HOME_COUNTRY ? 'domestic' : 'eu';
}

/** One condition: undefined when the rule does not use it, else whether it holds and why. */
type Check = { ok: boolean; reason: RuleReason } | undefined;

/** The checks of `when` against the facts, in a fixed order (the order of the explanation). */
function checks(when: RuleWhen, facts: RuleFacts): Check[] {
  const { order } = facts;
  const r = order.recipient;
  const country = r.countryCode.trim().toUpperCase();
  const out: Check[] = [];
  if (when.shops) {
    const ok = when.shops.some((s) => s.toLowerCase() === order.shop.toLowerCase());
    out.push({ ok, reason: reason(ok ? 'shop' : 'shop.not', { shop: order.shop }) });
  }
  if (when.countries) {
    const ok = when.countries.includes(country);
    out.push({ ok, reason: reason(ok ? 'country' : 'country.not', { country }) });
  }
  if (when.zones) {
    const zone = zoneOf(order);
    const ok = when.zones.includes(zone);
    out.push({ ok, reason: reason(ok ? 'zone' : 'zone.not', { zone }) });
  }
  if (when.postcodes) {
    const pc = r.postalCode.replace(/\s+/g, '');
    const hit = when.postcodes.find((p) => matchesPattern(pc, p.replace(/\s+/g, '')));
    out.push({ ok: hit !== undefined, reason: reason(hit !== undefined ? 'postcode' : 'postcode.not', { postcode: pc, pattern: hit ?? when.postcodes.join(', ') }) });
  }
  if (when.territories) {
    const territory = specialTerritoryOf(country, r.postalCode, r.city);
    const ok = territory !== undefined && (when.territories.includes('any') || when.territories.includes(territory));
    out.push({ ok, reason: reason(ok ? 'territory' : 'territory.not', { territory: territory ?? '' }) });
  }
  if (when.weightKg) {
    out.push(facts.weightKg === null ? { ok: false, reason: reason('weight.unknown') } : rangeReason('weight', facts.weightKg, when.weightKg));
  }
  if (when.parcels) out.push(rangeReason('parcels', facts.parcels, when.parcels));
  if (when.total) {
    out.push(order.total === undefined ? { ok: false, reason: reason('total.unknown') } : { ...rangeReason('total', order.total, when.total) });
    const last = out.at(-1);
    if (last) last.reason.params.currency = order.currency;
  }
  if (when.skus?.any) {
    const pats = when.skus.any;
    const hit = order.items.find((it) => it.sku !== undefined && pats.some((p) => matchesPattern(it.sku ?? '', p)));
    out.push({ ok: hit !== undefined, reason: reason(hit ? 'skuAny' : 'skuAny.not', { sku: hit?.sku ?? pats.join(', ') }) });
  }
  if (when.skus?.all) {
    const pats = when.skus.all;
    const miss = order.items.find((it) => it.sku === undefined || !pats.some((p) => matchesPattern(it.sku ?? '', p)));
    out.push({ ok: miss === undefined && order.items.length > 0, reason: reason(miss ? 'skuAll.not' : 'skuAll', { sku: miss?.sku ?? miss?.name ?? pats.join(', ') }) });
  }
  if (when.shippingMethod) {
    const text = order.shippingMethod ?? '';
    const hit = when.shippingMethod.find((k) => text.toLowerCase().includes(k.toLowerCase()));
    out.push({ ok: hit !== undefined, reason: reason(hit !== undefined ? 'shippingMethod' : 'shippingMethod.not', { text: hit ?? text }) });
  }
  if (when.keywords) {
    const note = (order.notes ?? '').toLowerCase();
    const hit = when.keywords.find((k) => note.includes(k.toLowerCase()));
    out.push({ ok: hit !== undefined, reason: reason(hit !== undefined ? 'keyword' : 'keyword.not', { keyword: hit ?? when.keywords.join(', ') }) });
  }
  if (when.payment) {
    const ok = order.paymentStatus === when.payment;
    out.push({ ok, reason: reason(ok ? 'payment' : 'payment.not', { payment: order.paymentStatus }) });
  }
  return out;
}

/** Whether one rule matches: `ok`, the reasons that held (or `always` for an empty `when`), else the first failure. */
export function evaluateRule(rule: Rule, facts: RuleFacts): { ok: boolean; why: RuleReason[] } {
  const list = checks(rule.when, facts).filter((c): c is NonNullable<Check> => c !== undefined);
  const failed = list.find((c) => !c.ok);
  if (failed) return { ok: false, why: [failed.reason] };
  return { ok: true, why: list.length ? list.map((c) => c.reason) : [reason('always')] };
}

/**
 * Runs the rules in order on the facts: the decision (first enabled rule
 * that matches, 1-based index) and the trace of every rule (rules after the
 * one that acted are `not_reached`).
 */
export function decide(rules: readonly Rule[], facts: RuleFacts): { decision: RuleDecision; trace: RuleTraceStep[] } {
  let decision: RuleDecision = { rule: null, reasons: [reason('none')] };
  const trace: RuleTraceStep[] = [];
  rules.forEach((rule, i) => {
    const index = i + 1;
    if (decision.rule) {
      trace.push({ index, name: rule.name, outcome: 'not_reached', why: [] });
      return;
    }
    if (!rule.enabled) {
      trace.push({ index, name: rule.name, outcome: 'disabled', why: [] });
      return;
    }
    const { ok, why } = evaluateRule(rule, facts);
    trace.push({ index, name: rule.name, outcome: ok ? 'matched' : 'failed', why });
    if (ok) decision = { rule: { index, name: rule.name, then: rule.then }, reasons: why };
  });
  return { decision, trace };
}
