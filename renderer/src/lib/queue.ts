/**
 * Texts of the Queue panel: row states and outcomes in the packer's words,
 * the local record a row belongs to, and what a row's last error means.
 */
import type { OutboxRowView } from '../../../shared/contract';
import { calendarDate, dateTime } from './format';
import { coreMessage } from './coreText';
import { fieldName, hasText, language, t } from './i18n';
import { fieldMessage } from './messages';

/** State words as DESIGN.md names them: queued, sending, done, needs attention (in the screen language). */
export function stateText(state: OutboxRowView['state']): string {
  return t(`queue.state.${state}`);
}

/**
 * The row's title in the screen language, from its language-free parts
 * (`titleParts`): `Ship order #1002` / `Spedisci l’ordine #1002`, `Book pickup
 * 23/11/2026 PM (BRT — BRT Standard)`, `Close the day: 3 shipments`. A row the
 * screen has no words for keeps the station's own (English) title.
 */
export function rowTitle(row: OutboxRowView): string {
  const p = row.titleParts;
  switch (p.what) {
    case 'ship':
      if (p.orderNumber) return t('queue.rowTitle.shipOrder', { order: p.orderNumber });
      return p.reference ? t('queue.rowTitle.shipRef', { reference: p.reference }) : t('queue.rowTitle.ship');
    case 'pickup': {
      if (!p.date) return t('queue.rowTitle.pickupBare');
      const when = p.time ? `${calendarDate(p.date)} ${p.time}` : calendarDate(p.date);
      return p.contract ? t('queue.rowTitle.pickupContract', { when, contract: p.contract }) : t('queue.rowTitle.pickup', { when });
    }
    case 'manifest':
      return p.shipments === undefined ? t('queue.rowTitle.manifestBare') : t('queue.rowTitle.manifest', { shipments: t('shipments.count', { count: p.shipments }) });
    case 'stock': {
      if (!p.action) return t('queue.rowTitle.stockBare');
      const key = `stocks.action.${p.action}`;
      const action = hasText(key) ? t(key).toLocaleLowerCase() : p.action;
      if (p.trackingNumber) return t('queue.rowTitle.stock', { trackingNumber: p.trackingNumber, action });
      return p.stockId === undefined ? t('queue.rowTitle.stockBare') : t('queue.rowTitle.stockId', { id: p.stockId, action });
    }
    case 'orders': {
      const list = p.orderNumbers;
      if (!list) return t('queue.rowTitle.ordersBare');
      return t('queue.rowTitle.orders', { count: list.length, list: `${list.slice(0, 3).join(', ')}${list.length > 3 ? ', …' : ''}` });
    }
    default:
      return row.title;
  }
}

/** Tag colour of a state. */
export function stateTagClass(state: OutboxRowView['state']): string {
  return state === 'done' ? 'tag-ok' : state === 'needs_attention' ? 'tag-bad' : 'tag-warn';
}

/** How a done row ended, in words. */
export function outcomeText(row: OutboxRowView): string {
  switch (row.outcome) {
    case 'sent':
      return t('queue.outcome.sent');
    case 'adopted':
      return t('queue.outcome.adopted');
    case 'superseded':
      return t('queue.outcome.superseded');
    case 'dismissed':
      return row.note ? t('queue.outcome.dismissedNote', { note: row.note }) : t('queue.outcome.dismissed');
    default:
      return stateText(row.state);
  }
}

/** The local record: `order #1002 → BRT0000042`, `pickup 23/11/2026` (the locale's date), or `—`. */
export function recordText(row: OutboxRowView): string {
  const parts: string[] = [];
  if (row.orderNumber) parts.push(t('queue.record.order', { order: row.orderNumber }));
  else if (row.reference) parts.push(t('queue.record.reference', { reference: row.reference }));
  if (row.trackingNumber) parts.push(row.trackingNumber);
  if (row.pickupDate) parts.push(t('queue.record.pickup', { date: calendarDate(row.pickupDate) }));
  return parts.length ? parts.join(' → ') : '—';
}

/**
 * The last error with what happens next: a queued row waits for the network
 * (and when it tries again), a row needing attention waits for the packer.
 */
export function errorText(row: OutboxRowView): string {
  const e = row.lastError;
  if (!e) return row.state === 'queued' ? t('queue.waitingTurn') : '—';
  const status = e.status !== null ? `HTTP ${e.status} ` : '';
  // The platform's field errors say what to fix (the field named in words, its messages in the bench's language); the envelope message is often generic.
  const fields = Object.entries(e.details ?? {})
    .slice(0, 3)
    .map(([path, msgs]) => `${fieldName(path)}: ${msgs.map(fieldMessage).join(', ')}`);
  const head = `${messageOf(e, fields.length > 0)}${fields.length ? ` ${fields.join('; ')}` : ''} [${status}${e.code}]`;
  // Only a queued row is sent by the worker (shared/contract/outbox-outcome.ts); `queued` rows are being checked first.
  if (row.state === 'queued') {
    const next = e.code === 'queued' ? 'checkedAgain' : 'sentAgain';
    return `${head} — ${row.nextAttemptAt ? t(`queue.${next}After`, { time: dateTime(row.nextAttemptAt) }) : t(`queue.${next}`)}`;
  }
  return head;
}

/**
 * What a row's error says, in the bench's language: a text the core worded (`text`); else, when the
 * locales give the code a meaning (`errorCode.<code>`), that meaning on an Italian bench (the
 * platform writes English) and on any bench when field errors follow (the envelope of
 * `validation_failed` is generic); else the message as it came.
 */
function messageOf(e: { code: string; message: string; text?: unknown }, withFields: boolean): string {
  const said = coreMessage(e);
  if (said !== e.message) return said;
  const meaning = `errorCode.${e.code}`;
  return hasText(meaning) && (withFields || language() === 'it') ? t(meaning) : e.message;
}

/** Why a needs-attention row cannot be dismissed (shown beside its Retry button), or null when it can. */
export function cannotDismissReason(row: OutboxRowView): string | null {
  if (row.state !== 'needs_attention' || row.canDismiss) return null;
  return t('queue.cannotDismiss');
}
