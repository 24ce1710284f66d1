/** A queued press's label countdown (issue 43 item 2), read from the core's text of the press's answer. */
import { isStationText } from '../../../shared/contract/core-text';
import type { LabelCountdown } from '../stores/app';

/**
 * The countdown of a press whose label waits for the account's per-minute labels (the core's text
 * `rateWindowWait` nesting `labelWaitsForBudget` or `labelWaitsForWindow`: seconds, labels a minute, calls
 * before it); null for any other answer.
 */
export function labelCountdownOf(text: unknown): LabelCountdown | null {
  if (!isStationText(text) || text.key !== 'rateWindowWait') return null;
  const v = text.values ?? {};
  const key = v.reasonKey;
  if (key !== 'labelWaitsForBudget' && key !== 'labelWaitsForWindow') return null;
  const seconds = Number(v['reason.seconds']);
  const perMinute = Number(v['reason.perMinute']);
  if (!Number.isFinite(seconds) || !Number.isFinite(perMinute)) return null;
  const ahead = key === 'labelWaitsForBudget' ? Number(v['reason.ahead']) : null;
  return { until: Date.now() + seconds * 1000, perMinute, ahead: ahead !== null && Number.isFinite(ahead) ? ahead : null };
}
