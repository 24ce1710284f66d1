/**
 * Closing an outbox row that needs attention once a later row did its job
 * (the packer fixed the form and shipped the same order): without this the
 * header's backlog would count the refused row forever.
 *
 * The store's outbox has no direct `needs_attention -> done` transition, so
 * this goes through its public ones inside one transaction: `retry` (back to
 * queued), `claimNext` until that row is claimed, `complete`. Rows claimed on
 * the way are put back with `requeueSending` (their `attempts` grow by one,
 * which only makes their executor reconcile before sending: always safe).
 * A store method `dismiss(id, result)` would make this a single UPDATE.
 */
import type { OutboxRecord, Store } from '../store';

/**
 * Marks needs-attention row `id` done with `result` (`{supersededBy}`).
 * Call inside `store.tx`. Returns false when the row is not `needs_attention`.
 */
export function supersedeRow(store: Store, id: number, result: unknown): boolean {
  const row = store.outbox.get(id);
  if (!row || row.state !== 'needs_attention') return false;
  store.outbox.retry(id);
  const putBack: OutboxRecord[] = [];
  let done = false;
  for (;;) {
    const claimed = store.outbox.claimNext({ kinds: [row.kind] });
    if (!claimed) break;
    if (claimed.id === id) {
      store.outbox.complete(id, result);
      done = true;
      break;
    }
    putBack.push(claimed);
  }
  for (const r of putBack) store.outbox.requeueSending(r.id);
  return done;
}
