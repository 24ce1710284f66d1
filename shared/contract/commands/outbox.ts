/** Commands of the outbox (Queue screen) (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import type { OutboxListView, OutboxRowView } from '../views';
import { command, OutboxRowInput } from './define';

/** Commands of the outbox (Queue screen). */
export const outboxCommands = {
  /** The outbox (Queue panel): rows not done, oldest first, and the last `doneLimit` done rows (default 20). */
  'outbox.list': command<OutboxListView>()(
    z.object({ doneLimit: z.number().int().min(0, { error: 'doneLimit must be 0 to 200' }).max(200, { error: 'doneLimit must be 0 to 200' }).default(20) }),
  ),
  /** Send a row that needs attention again (back to queued; the station reconciles before sending). 409-like `invalid_state` for any other state. */
  'outbox.retry': command<OutboxRowView>()(OutboxRowInput),
  /**
   * Confirm sending again a shipment whose POST got no answer and that the
   * platform does not show after the settle window (row code `outcome_unknown`).
   */
  'outbox.confirmResend': command<OutboxRowView>()(OutboxRowInput),
  /**
   * Close a row that needs attention without sending it, with an optional note. Only when the
   * platform surely refused it (a 4xx answer to the create call); otherwise `invalid_state`.
   */
  'outbox.dismiss': command<OutboxRowView>()(
    OutboxRowInput.extend({ note: z.string().trim().max(200, { error: 'Note must be at most 200 characters' }).optional() }),
  ),
} as const;
