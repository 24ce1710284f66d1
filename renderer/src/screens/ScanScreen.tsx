/**
 * Scan: the scan field is always ready (focus returns to it after every
 * action; a key typed anywhere on this screen lands in it). An order number
 * opens the order for shipping, a tracking number opens the shipment with its
 * tracking timeline (Alt+T reads it again), an unknown code fails loudly.
 * Below: the Orders panel.
 */
import { useEffect, useRef, useState } from 'react';
import type { ShipmentView, TrackingView } from '../../../shared/contract';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { dateTime, money } from '../lib/format';
import { errorDetail } from '../lib/errors';
import { t } from '../lib/i18n';
import { eventTime, statusText, trackingSummary, unavailableText } from '../lib/tracking';
import { useApp } from '../stores/app';
import { useScan } from '../stores/scan';
import { useTracking } from '../stores/tracking';
import { OrdersPanel } from './OrdersPanel';
import { VerifyCard } from './VerifyCard';
import { RuleLine } from '../components/RuleLine';
import { useJob } from '../stores/job';
import { jobNoteText } from '../lib/coreText';
import { focusKind, scannerTakesKey } from '../lib/scannerKeys';

/** Scan screen with the Orders panel (see file comment). */
export function ScanScreen() {
  const [code, setCode] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const focusTick = useApp((s) => s.focusTick);
  const { busy, shipment, confirmCancel, scan, reprint, askCancel, dismissCancel, cancel } = useScan();
  // The order last opened for shipping: which rule acts on it (issue 24).
  const jobOrderId = useJob((s) => (s.order?.status === 'open' ? s.order.id : undefined));

  useEffect(() => {
    // Already in the field, the scanner may be typing the next code: selecting it would let the next character
    // replace what came before (an order's answer arriving mid-scan turned PIA-2 into IA-2).
    if (document.activeElement === input.current) return;
    input.current?.focus();
    input.current?.select();
  }, [focusTick]);

  // A scanner "types" into whatever has focus: if nothing editable has it, catch the keys here.
  useEffect(() => {
    // Space on a focused button stays the packer's press (the import's file button opens the chooser at once).
    const onKey = (e: KeyboardEvent) => {
      if (scannerTakesKey(e, focusKind(document.activeElement))) input.current?.focus();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  return (
    <section className="screen" aria-labelledby="scan-title">
      <h1 id="scan-title" className="screen-title">
        {t('scan.title')}
      </h1>
      <form
        className="scan-form"
        onSubmit={(e) => {
          e.preventDefault();
          const c = code;
          setCode('');
          void scan(c);
        }}
      >
        <label htmlFor="scan-input" className="scan-label">
          {t('scan.label')}
        </label>
        <div className="scan-row">
          <input
            id="scan-input"
            ref={input}
            className="scan-input"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="off"
            placeholder={t('scan.placeholder')}
            aria-busy={busy}
          />
          <button type="submit" className="btn btn-primary btn-big" disabled={busy}>
            {t('scan.open')} <kbd>Enter</kbd>
          </button>
        </div>
      </form>

      <VerifyCard />
      {shipment ? null : <RuleLine orderId={jobOrderId} />}
      {shipment ? <ShipmentCard shipment={shipment} onReprint={() => void reprint(shipment.trackingNumber)} onCancel={() => askCancel(shipment.trackingNumber)} /> : null}
      {shipment ? <TrackingSection trackingNumber={shipment.trackingNumber} cancelled={shipment.cancelled} /> : null}

      <ConfirmDialog
        open={confirmCancel !== null}
        title={t('scan.cancelTitle', { trackingNumber: confirmCancel ?? '' })}
        body={t('scan.cancelBody')}
        confirmLabel={t('scan.cancelYes')}
        cancelLabel={t('scan.cancelNo')}
        danger
        onConfirm={() => confirmCancel && void cancel(confirmCancel)}
        onCancel={dismissCancel}
      />

      <OrdersPanel />
    </section>
  );
}

/** A scanned shipment: status, carrier, recipient, money, manifest, print jobs; reprint and cancel. */
function ShipmentCard({ shipment: s, onReprint, onCancel }: { shipment: ShipmentView; onReprint(): void; onCancel(): void }) {
  const lastJob = s.printJobs[s.printJobs.length - 1];
  return (
    <article className="card shipment-card" aria-labelledby="shipment-title">
      <header className="card-head">
        <h2 id="shipment-title">
          {t('scan.shipment')} <span className="tracking-number" data-testid="shipment-tracking-number">{s.trackingNumber}</span>
        </h2>
        <span className={`tag ${s.cancelled ? 'tag-bad' : 'tag-ok'}`}>{s.cancelled ? t('scan.cancelled') : statusText(s.status)}</span>
      </header>
      <dl className="facts">
        <div>
          <dt>{t('scan.fact.order')}</dt>
          <dd>{s.orderNumber ?? s.reference ?? '—'}</dd>
        </div>
        <div>
          <dt>{t('scan.fact.carrier')}</dt>
          <dd>
            {s.carrier.name} — {s.carrier.contractName}
          </dd>
        </div>
        <div>
          <dt>{t('scan.fact.recipient')}</dt>
          <dd>{s.recipient ? `${s.recipient.name}, ${s.recipient.postalCode} ${s.recipient.city} (${s.recipient.countryCode})` : '—'}</dd>
        </div>
        {s.deliveryPoint ? (
          <div>
            <dt>{t('deliveryPoint.fact')}</dt>
            <dd data-testid="shipment-delivery-point">{`${s.deliveryPoint.name}, ${s.deliveryPoint.address}`}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('scan.fact.parcels')}</dt>
          <dd>{s.parcels}</dd>
        </div>
        <div>
          <dt>{t('scan.fact.cost')}</dt>
          <dd>{money(s.cost.amount, s.cost.currency)}</dd>
        </div>
        <div>
          <dt>{t('scan.fact.cod')}</dt>
          <dd>{s.cod ? money(s.cod.amount, s.cod.currency) : t('scan.none')}</dd>
        </div>
        <div>
          <dt>{t('scan.fact.created')}</dt>
          <dd>{dateTime(s.createdAt)}</dd>
        </div>
        <div>
          <dt>{t('scan.fact.manifest')}</dt>
          <dd>{s.manifestId !== null ? `#${s.manifestId}` : s.cancelled ? '—' : t('scan.notYetManifest')}</dd>
        </div>
        <div>
          <dt>{t('scan.fact.label')}</dt>
          <dd>{lastJob ? `${t('scan.jobOn', { state: t(`scan.jobState.${lastJob.state}`), printer: lastJob.printerUri })}${lastJob.lastError ? ` — ${jobNoteText(lastJob) ?? ''}` : ''}` : s.labelFormats.length ? t('scan.labelStored') : t('scan.labelNone')}</dd>
        </div>
      </dl>
      {s.warning ? <p className="note-warn">{s.warning}</p> : null}
      <div className="actions">
        <button type="button" className="btn btn-primary" onClick={onReprint} disabled={s.cancelled || s.labelFormats.length === 0} aria-keyshortcuts="Alt+R">
          {t('action.reprint')} <kbd>Alt+R</kbd>
        </button>
        <button type="button" className="btn btn-danger" onClick={onCancel} disabled={s.cancelled || s.manifestId !== null} aria-keyshortcuts="Alt+X">
          {t('scan.cancelShipment')} <kbd>Alt+X</kbd>
        </button>
      </div>
    </article>
  );
}

/** Tag colour of a status: delivered green, trouble amber, on its way neutral. */
function statusTagClass(key: string): string {
  if (key === 'delivered') return 'tag-ok';
  if (['undelivered', 'held_at_depot', 'returned_to_sender', 'awaiting_instructions', 'awaiting_collection'].includes(key)) return 'tag-warn';
  return 'tag-info';
}

/**
 * The scanned shipment's tracking (`shipments.tracking`): status, carrier,
 * the timeline of carrier events newest first in local time, the expected
 * delivery; offline, a clear message and the last known status.
 */
function TrackingSection({ trackingNumber, cancelled }: { trackingNumber: string; cancelled: boolean }) {
  const { view, loading, error, load, refresh } = useTracking();
  useEffect(() => {
    void load(trackingNumber);
  }, [trackingNumber, cancelled, load]);
  const shown: TrackingView | null = view && view.trackingNumber === trackingNumber ? view : null;
  const notice = shown ? unavailableText(shown) : null;
  return (
    <section className="card tracking" aria-labelledby="tracking-title" aria-busy={loading} data-testid="tracking">
      <header className="card-head">
        <h2 id="tracking-title">{t('scan.tracking')}</h2>
        <button type="button" className="btn btn-small" onClick={() => void refresh()} disabled={loading} aria-keyshortcuts="Alt+T">
          {loading ? t('scan.reading') : t('scan.refreshTracking')} <kbd>Alt+T</kbd>
        </button>
      </header>
      {notice ? (
        <p className="note-warn" role="status" data-testid="tracking-unavailable">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p className="note-bad" role="alert" data-testid="tracking-error">
          {t('scan.trackingFailed')} {errorDetail(error)}
        </p>
      ) : null}
      {shown ? (
        <>
          <p className="tracking-head">
            <span className={`tag ${statusTagClass(shown.status.key)}`} data-testid="tracking-status">
              {statusText(shown.status)}
            </span>{' '}
            {shown.carrier.name}
            {shown.carrierTrackingNumber && shown.carrierTrackingNumber !== shown.trackingNumber ? (
              <>
                {' '}
                — {t('scan.nowTravelsAs')} <span className="tracking-number">{shown.carrierTrackingNumber}</span>
              </>
            ) : null}
          </p>
          <p className="muted" data-testid="tracking-summary">
            {trackingSummary(shown)}
          </p>
          {shown.events.length > 0 ? (
            <ol className="timeline" aria-label={t('scan.events')} data-testid="tracking-events">
              {shown.events.map((e, i) => (
                <li key={`${e.timestamp}-${i}`} className={i === 0 ? 'timeline-latest' : undefined}>
                  <time dateTime={e.timestamp}>{eventTime(e.timestamp)}</time>
                  <span className="timeline-status">{statusText(e.status)}</span>
                  <span className="timeline-desc">{e.description}</span>
                  <span className="timeline-loc">{e.location}</span>
                </li>
              ))}
            </ol>
          ) : null}
        </>
      ) : loading ? (
        <p className="empty">{t('scan.readingTracking')}</p>
      ) : null}
    </section>
  );
}
