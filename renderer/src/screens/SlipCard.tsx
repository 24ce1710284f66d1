/**
 * The packing slip of the order just shipped (Print screen, issue 11): each
 * slip job's state (waiting for the slip printer and why, printed, failed)
 * and "Print packing slip" (Alt+K). Nothing shows for a shipment without an order.
 */
import { useEffect } from 'react';
import type { SlipJobView } from '../../../shared/contract';
import { dateTime } from '../lib/format';
import { t } from '../lib/i18n';
import { useSlips } from '../stores/slips';

const STATE_KEY: Record<SlipJobView['state'], string> = {
  queued: 'slips.state.queued',
  printing: 'slips.state.printing',
  printed: 'slips.state.printed',
  failed: 'slips.state.failed',
};

/** Slip card for `orderId` (see file comment). */
export function SlipCard({ orderId }: { orderId: number }) {
  const { jobs, printing, load, print } = useSlips();
  useEffect(() => {
    void load(orderId);
  }, [orderId, load]);
  return (
    <section className="card" aria-labelledby="slip-title" data-testid="slip-card">
      <h2 id="slip-title">{t('slips.title')}</h2>
      {jobs.length === 0 ? <p className="muted">{t('slips.none')}</p> : null}
      <ul className="plain">
        {jobs.map((j) => (
          <li key={j.id} data-testid="slip-job" data-state={j.state}>
            <span className={`tag ${j.state === 'printed' ? 'tag-ok' : j.state === 'failed' ? 'tag-bad' : 'tag-warn'}`}>{t(STATE_KEY[j.state])}</span> {j.requestedBy === 'auto' ? t('slips.withLabel') : t('slips.onRequest')} · {dateTime(j.printedAt ?? j.createdAt)}
            {j.lastError ? <span className="muted"> — {j.lastError}</span> : null}
          </li>
        ))}
      </ul>
      <button type="button" className="btn" disabled={printing} aria-keyshortcuts="Alt+K" onClick={() => void print({ orderId })}>
        {t('slips.print')} <kbd>Alt+K</kbd>
      </button>
    </section>
  );
}
