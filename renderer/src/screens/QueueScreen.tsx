/**
 * Queue (F7, Alt+O): every request to the platform that creates something or
 * costs money goes through the outbox first (DESIGN.md "Offline and
 * exactly-once"). Here the packer sees each row's state (queued, sending,
 * done, needs attention), its order/tracking number/pickup, attempts and last
 * error, sends a refused row again, or dismisses one the platform surely
 * refused. Kept current by `outbox.changed` events.
 */
import { useEffect, useRef } from 'react';
import type { OutboxRowView } from '../../../shared/contract';
import { DismissDialog } from '../components/DismissDialog';
import { dateTime } from '../lib/format';
import { STATE_TEXT, cannotDismissReason, errorText, outcomeText, recordText, stateTagClass } from '../lib/queue';
import { useApp } from '../stores/app';
import { useQueue } from '../stores/queue';

/** Queue screen (see file comment). */
export function QueueScreen() {
  const { pending, done, loading, confirmDismiss, load, retry, confirmResend, askDismiss, cancelDismiss, dismiss } = useQueue();
  const focusTick = useApp((s) => s.focusTick);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    // The first row needing the packer gets the focus; otherwise the title, so Tab starts here.
    const first = document.querySelector<HTMLButtonElement>('[data-queue-action]');
    (first ?? heading.current)?.focus();
  }, [focusTick, pending.length]);

  const attention = pending.filter((r) => r.state === 'needs_attention').length;
  return (
    <section className="screen" aria-labelledby="queue-title">
      <h1 id="queue-title" className="screen-title" ref={heading} tabIndex={-1}>
        Queue
      </h1>
      <p className="subtitle">Requests to the platform, sent in order. Queued and sending rows go out by themselves when the network is back; a row that needs attention waits for you.</p>

      <section className="card" aria-labelledby="queue-pending-title">
        <header className="card-head">
          <h2 id="queue-pending-title">
            Waiting to send: <span data-testid="queue-pending-count">{pending.length}</span>
            {attention ? <span className="tag tag-bad queue-attention">{attention === 1 ? '1 needs attention' : `${attention} need attention`}</span> : null}
          </h2>
        </header>
        {pending.length === 0 ? (
          <p className="empty" data-testid="queue-empty">
            {loading ? 'Loading…' : 'Nothing waiting: every request reached the platform.'}
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Requests waiting to send" data-testid="queue-pending">
              <thead>
                <tr>
                  <th scope="col">Request</th>
                  <th scope="col">Record</th>
                  <th scope="col">State</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last error</th>
                  <th scope="col">Since</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {pending.map((r) => (
                  <PendingRow key={r.id} row={r} onRetry={() => void retry(r)} onConfirmResend={() => void confirmResend(r)} onDismiss={() => askDismiss(r)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="queue-done-title">
        <h2 id="queue-done-title">Recently done</h2>
        {done.length === 0 ? (
          <p className="empty">Nothing sent yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="table table-compact" aria-label="Requests done" data-testid="queue-done">
              <thead>
                <tr>
                  <th scope="col">Request</th>
                  <th scope="col">Record</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Finished</th>
                </tr>
              </thead>
              <tbody>
                {done.map((r) => (
                  <tr key={r.id}>
                    <th scope="row">{r.title}</th>
                    <td className="tracking-number queue-record">{recordText(r)}</td>
                    <td>
                      <span className={`tag ${r.outcome === 'dismissed' ? 'tag-warn' : 'tag-ok'}`}>{STATE_TEXT[r.state]}</span> {outcomeText(r)}
                    </td>
                    <td>{r.attempts}</td>
                    <td>{dateTime(r.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <DismissDialog row={confirmDismiss} onConfirm={(row, note) => void dismiss(row, note)} onCancel={cancelDismiss} />
    </section>
  );
}

/** One row not done: state, record, error, and the packer's actions when it needs attention. */
function PendingRow({ row: r, onRetry, onConfirmResend, onDismiss }: { row: OutboxRowView; onRetry(): void; onConfirmResend(): void; onDismiss(): void }) {
  const why = cannotDismissReason(r);
  return (
    <tr data-testid="queue-row" data-state={r.state} className={r.state === 'needs_attention' ? 'row-attention' : undefined}>
      <th scope="row">{r.title}</th>
      <td className="tracking-number queue-record">{recordText(r)}</td>
      <td>
        <span className={`tag ${stateTagClass(r.state)}`}>{STATE_TEXT[r.state]}</span>
      </td>
      <td>{r.attempts}</td>
      <td className={r.state === 'needs_attention' ? 'bad-text' : undefined}>{errorText(r)}</td>
      <td>{dateTime(r.createdAt)}</td>
      <td>
        {r.canRetry || r.canDismiss ? (
          <div className="cell-actions">
            {r.canRetry ? (
              <button type="button" className="btn btn-small btn-primary" data-queue-action onClick={onRetry} aria-label={`Send again: ${r.title}`}>
                {r.canConfirmResend ? 'Check again' : 'Send again'}
              </button>
            ) : null}
            {r.canConfirmResend ? (
              <button type="button" className="btn btn-small btn-danger" onClick={onConfirmResend} aria-label={`Post again (checked, not on the platform): ${r.title}`}>
                Not on the platform: post again
              </button>
            ) : null}
            {r.canDismiss ? (
              <button type="button" className="btn btn-small btn-danger" onClick={onDismiss} aria-label={`Dismiss: ${r.title}`}>
                Dismiss…
              </button>
            ) : null}
          </div>
        ) : (
          <span className="muted">{r.state === 'sending' ? 'on its way' : 'automatic'}</span>
        )}
        {why ? <div className="muted queue-why">{why}</div> : null}
      </td>
    </tr>
  );
}
