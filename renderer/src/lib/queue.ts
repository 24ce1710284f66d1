/**
 * Texts of the Queue panel: row states and outcomes in the packer's words,
 * the local record a row belongs to, and what a row's last error means.
 */
import type { OutboxRowView } from '../../../shared/contract';
import { dateTime } from './format';

/** State words as DESIGN.md names them: queued, sending, done, needs attention. */
export const STATE_TEXT: Record<OutboxRowView['state'], string> = {
  queued: 'Queued',
  sending: 'Sending',
  done: 'Done',
  needs_attention: 'Needs attention',
};

/** Tag colour of a state. */
export function stateTagClass(state: OutboxRowView['state']): string {
  return state === 'done' ? 'tag-ok' : state === 'needs_attention' ? 'tag-bad' : 'tag-warn';
}

/** How a done row ended, in words. */
export function outcomeText(row: OutboxRowView): string {
  switch (row.outcome) {
    case 'sent':
      return 'Sent';
    case 'adopted':
      return 'Found on the platform after a lost answer';
    case 'superseded':
      return 'Replaced by a later request';
    case 'dismissed':
      return row.note ? `Dismissed: ${row.note}` : 'Dismissed';
    default:
      return STATE_TEXT[row.state];
  }
}

/** The local record: `#1002 → BRT0000042`, `pickup 2026-11-23`, or `—`. */
export function recordText(row: OutboxRowView): string {
  const parts: string[] = [];
  if (row.orderNumber) parts.push(`order ${row.orderNumber}`);
  else if (row.reference) parts.push(`ref. ${row.reference}`);
  if (row.trackingNumber) parts.push(row.trackingNumber);
  if (row.pickupDate) parts.push(`pickup ${row.pickupDate}`);
  return parts.length ? parts.join(' → ') : '—';
}

/**
 * The last error with what happens next: a queued row waits for the network
 * (and when it tries again), a row needing attention waits for the packer.
 */
export function errorText(row: OutboxRowView): string {
  const e = row.lastError;
  if (!e) return row.state === 'queued' ? 'Waiting its turn' : '—';
  const status = e.status !== null ? `HTTP ${e.status} ` : '';
  // The platform's field errors say what to fix; the envelope message is often generic.
  const fields = Object.entries(e.details ?? {})
    .slice(0, 3)
    .map(([path, msgs]) => `${path}: ${msgs.join(', ')}`);
  const head = `${e.message}${fields.length ? ` ${fields.join('; ')}` : ''} [${status}${e.code}]`;
  // Only a queued row is sent by the worker (shared/contract/outbox-outcome.ts); `queued` rows are being checked first.
  if (row.state === 'queued') {
    const next = e.code === 'queued' ? 'checked again automatically' : 'sent again automatically';
    return `${head} — ${next}${row.nextAttemptAt ? ` after ${dateTime(row.nextAttemptAt)}` : ''}`;
  }
  return head;
}

/** Why a needs-attention row cannot be dismissed (shown beside its Retry button), or null when it can. */
export function cannotDismissReason(row: OutboxRowView): string | null {
  if (row.state !== 'needs_attention' || row.canDismiss) return null;
  return 'The platform may have received it: send it again, the station checks first.';
}
