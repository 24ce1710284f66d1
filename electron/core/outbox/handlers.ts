/**
 * The outbox domain: `outbox.*` commands (the Queue panel: list, retry,
 * dismiss; DESIGN.md "The screen shows the row's state"). The executors of
 * the domains' rows are wired to the worker in electron/core/executors.ts.
 */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { isDefiniteRefusal } from './worker';
import type { OutboxRecord } from '../store';
import { emitAppChanged } from '../account/app';
import type { ContextWithoutOutbox, StationContext } from '../common/context';
import { outboxRowView } from './views';
import { orderReference } from '../../../shared/domain/order-reference';

/** True for a JSON object (not an array, not null). */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How many rows not done `outbox.list` shows at most (a station offline for a week stays readable). */
const OUTBOX_LIST_PENDING_MAX = 1000;

/** Tells the screens a row changed: `outbox.changed`, and the header's backlog (`app.changed`). */
export function emitOutboxChanged(ctx: ContextWithoutOutbox, row: OutboxRecord): void {
  ctx.events.emit('outbox.changed', { id: row.id, state: row.state });
  emitAppChanged(ctx);
}

const STATE_WORDS: Record<OutboxRecord['state'], string> = {
  queued: 'queued',
  sending: 'being sent',
  done: 'done',
  needs_attention: 'waiting for the packer',
};

/** Handlers of the `outbox` domain (the Queue panel). */
export function createOutboxHandlers(ctx: StationContext) {
  const { store } = ctx;
  const needsAttention = (id: number, action: string): OutboxRecord => {
    const row = store.outbox.get(id);
    if (!row) throw new StationError('not_found_locally', `Queue row ${id} not found`, { id: ['No such row at this station'] });
    if (row.state !== 'needs_attention') {
      throw new StationError('invalid_state', `Queue row ${id} is ${STATE_WORDS[row.state]}; only a row that needs attention can be ${action}`);
    }
    return row;
  };
  return {
    /** Rows not done (oldest first, at most {@link OUTBOX_LIST_PENDING_MAX}) and the last `doneLimit` done rows (newest first). */
    'outbox.list': async ({ doneLimit }) => ({
      pending: store.outbox
        .list({ states: ['queued', 'sending', 'needs_attention'], limit: OUTBOX_LIST_PENDING_MAX })
        .reverse()
        .map((r) => outboxRowView(store, r)),
      done: doneLimit === 0 ? [] : store.outbox.list({ states: ['done'], limit: doneLimit }).map((r) => outboxRowView(store, r)),
    }),

    /**
     * needs attention -> queued, and the worker is asked to send at once (in the
     * background: the row's outcome arrives as `outbox.changed`). Its executor looks
     * the earlier attempt up first, so this never pays twice.
     * @throws StationError `not_found_locally`, `invalid_state` (not waiting for the packer).
     */
    'outbox.retry': async ({ id }) => {
      needsAttention(id, 'sent again');
      const queued = store.outbox.retry(id);
      emitOutboxChanged(ctx, queued);
      ctx.outbox.kick();
      return outboxRowView(store, queued);
    },

    /**
     * The packer confirms that a shipment whose POST got no answer, and that the
     * platform did not show after the settle window (code `outcome_unknown`), is
     * to be sent again: needs attention -> queued with the earlier post
     * forgotten; the worker looks the reference up once more, then posts. A
     * shipment row is marked `resendConfirmed`: a platform shipment under its
     * reference for another recipient (never adopted) no longer holds it back.
     * @throws StationError `not_found_locally`, `invalid_state` (not waiting for the packer,
     *   or not a request whose outcome is unknown: use `outbox.retry`).
     */
    'outbox.confirmResend': async ({ id }) => {
      const row = needsAttention(id, 'sent again');
      if (row.lastError?.code !== 'outcome_unknown') {
        throw new StationError('invalid_state', `Queue row ${id} is not waiting for a confirmation to send again; use Retry`);
      }
      // A shipment row remembers the confirmation: a platform shipment of another recipient under its
      // reference (issue 21) then no longer holds it back.
      const payload = row.kind === 'shipment.create' && isRecord(row.payload) ? { ...row.payload, resendConfirmed: true } : undefined;
      const queued = store.outbox.confirmResend(id, payload);
      emitOutboxChanged(ctx, queued);
      ctx.outbox.kick();
      return outboxRowView(store, queued);
    },

    /**
     * needs attention -> done without sending, with the packer's note, only when the
     * platform surely refused the create call (a definite 4xx answer); a row whose
     * request may have reached the platform must be sent again instead, so the
     * station can look it up.
     * @throws StationError `not_found_locally`, `invalid_state`.
     */
    'outbox.dismiss': async ({ id, note }) => {
      const row = needsAttention(id, 'dismissed');
      if (!isDefiniteRefusal(row)) {
        throw new StationError(
          'invalid_state',
          `Queue row ${id} cannot be dismissed: the platform may have received it without the station getting an answer. Send it again: the station checks the platform first.`,
        );
      }
      const done = store.outbox.dismiss(id, { dismissed: { note: note && note !== '' ? note : null, at: new Date(ctx.now()).toISOString() } });
      // A dismissed shipment will not be sent: its order's claim, kept while it was unsent (issue 42 item 7), ends.
      const orderId = done.kind === 'shipment.create' ? (done.payload as { orderId?: unknown }).orderId : undefined;
      const order = typeof orderId === 'number' ? store.orders.getById(orderId) : undefined;
      if (order) void ctx.warehouse.release(orderReference(order));
      emitOutboxChanged(ctx, done);
      return outboxRowView(store, done);
    },
  } satisfies Pick<Handlers, 'outbox.list' | 'outbox.retry' | 'outbox.dismiss' | 'outbox.confirmResend'>;
}
