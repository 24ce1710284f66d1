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
import { t } from '../lib/i18n';
import { cannotDismissReason, errorText, outcomeText, recordText, rowTitle, stateTagClass, stateText } from '../lib/queue';
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
        {t('queue.title')}
      </h1>
      <p className="subtitle">{t('queue.subtitle')}</p>

      <section className="card" aria-labelledby="queue-pending-title">
        <header className="card-head">
          <h2 id="queue-pending-title">
            {t('queue.waiting')} <span data-testid="queue-pending-count">{pending.length}</span>
            {attention ? <span className="tag tag-bad queue-attention">{t('queue.attention', { count: attention })}</span> : null}
          </h2>
        </header>
        {pending.length === 0 ? (
          <p className="empty" data-testid="queue-empty">
            {loading ? t('common.loading') : t('queue.empty')}
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label={t('queue.pendingLabel')} data-testid="queue-pending">
              <thead>
                <tr>
                  <th scope="col">{t('queue.col.request')}</th>
                  <th scope="col">{t('queue.col.record')}</th>
                  <th scope="col">{t('queue.col.state')}</th>
                  <th scope="col">{t('queue.col.attempts')}</th>
                  <th scope="col">{t('queue.col.lastError')}</th>
                  <th scope="col">{t('queue.col.since')}</th>
                  <th scope="col">{t('queue.col.actions')}</th>
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
        <h2 id="queue-done-title">{t('queue.recent')}</h2>
        {done.length === 0 ? (
          <p className="empty">{t('queue.nothingSent')}</p>
        ) : (
          <div className="table-wrap">
            <table className="table table-compact" aria-label={t('queue.doneLabel')} data-testid="queue-done">
              <thead>
                <tr>
                  <th scope="col">{t('queue.col.request')}</th>
                  <th scope="col">{t('queue.col.record')}</th>
                  <th scope="col">{t('queue.col.outcome')}</th>
                  <th scope="col">{t('queue.col.attempts')}</th>
                  <th scope="col">{t('queue.col.finished')}</th>
                </tr>
              </thead>
              <tbody>
                {done.map((r) => (
                  <tr key={r.id}>
                    <th scope="row">{rowTitle(r)}</th>
                    <td className="tracking-number queue-record">{recordText(r)}</td>
                    <td>
                      <span className={`tag ${r.outcome === 'dismissed' ? 'tag-warn' : 'tag-ok'}`}>{stateText(r.state)}</span> {outcomeText(r)}
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
      <th scope="row">{rowTitle(r)}</th>
      <td className="tracking-number queue-record">{recordText(r)}</td>
      <td>
        <span className={`tag ${stateTagClass(r.state)}`}>{stateText(r.state)}</span>
      </td>
      <td>{r.attempts}</td>
      <td className={r.state === 'needs_attention' ? 'bad-text' : undefined}>{errorText(r)}</td>
      <td>{dateTime(r.createdAt)}</td>
      <td>
        {r.canRetry || r.canDismiss ? (
          <div className="cell-actions">
            {r.canRetry ? (
              <button type="button" className="btn btn-small btn-primary" data-queue-action onClick={onRetry} aria-label={t('queue.sendAgainLabel', { title: rowTitle(r) })}>
                {r.canConfirmResend ? t('queue.checkAgain') : t('queue.sendAgain')}
              </button>
            ) : null}
            {r.canConfirmResend ? (
              <button type="button" className="btn btn-small btn-danger" onClick={onConfirmResend} aria-label={t('queue.postAgainLabel', { title: rowTitle(r) })}>
                {t('queue.postAgain')}
              </button>
            ) : null}
            {r.canDismiss ? (
              <button type="button" className="btn btn-small btn-danger" onClick={onDismiss} aria-label={t('queue.dismissLabel', { title: rowTitle(r) })}>
                {t('queue.dismiss')}
              </button>
            ) : null}
          </div>
        ) : (
          <span className="muted">{r.state === 'sending' ? t('queue.onItsWay') : t('queue.automatic')}</span>
        )}
        {why ? <div className="muted queue-why">{why}</div> : null}
      </td>
    </tr>
  );
}
