/**
 * Print: the label of the shipment just made (the core prints it as soon as
 * the shipment exists) with its print job state (printer, printed, waiting or
 * failed and why), reprint, the jobs waiting for the printer (they print by
 * themselves when it is ready; each can be cancelled; a label longer than the
 * labels loaded is held, and Alt+F prints it shrunk anyway), and the label printer:
 * status, a list of printers found (USB, print queues, used before) chosen
 * with the arrow keys and Enter, or a device URI typed by hand; the printer's
 * profile (PrinterProfileForm) and a PNG preview of what it will print (LabelPreview, Alt+V).
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { DiscoveredPrinterView, PrintJobView } from '../../../shared/contract';
import { TextField } from '../components/Field';
import { dateTime, money } from '../lib/format';
import { printerDetailText, printerNameText, printerStateText, t } from '../lib/i18n';
import { attentionText } from '../lib/ruleText';
import { useApp } from '../stores/app';
import { useAutoShip } from '../stores/autoship';
import { useJob } from '../stores/job';
import { usePrint } from '../stores/print';
import { LabelPreview } from './LabelPreview';
import { PrinterProfileForm } from './PrinterProfileForm';
import { SlipCard } from './SlipCard';
import { coreMessage, jobNoteText } from '../lib/coreText';

/** How a found printer is reached, in words. */
function kindText(kind: DiscoveredPrinterView['kind']): string {
  return t(`print.kind.${kind}`);
}

/** Arrow keys move between the buttons of a list (roving focus); Enter/Space press the focused one. */
function arrowKeys(e: KeyboardEvent<HTMLElement>): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
  const items = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-choice]')];
  if (!items.length) return;
  e.preventDefault();
  const at = items.indexOf(document.activeElement as HTMLButtonElement);
  const next = e.key === 'Home' ? 0 : e.key === 'End' ? items.length - 1 : (at + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
  items[next]?.focus();
}

/** A print job state in words. */
function jobText(state: PrintJobView['state']): string {
  return t(`print.job.${state}`);
}

/** Print screen (see file comment). */
export function PrintScreen() {
  const result = useJob((s) => s.result);
  const shippedOrderId = useJob((s) => s.order?.id);
  const { printer, checking, saving, uriError, refresh, setUri, reprint, pending, loadPending, cancel, printShrunk, discovered, discovering, discover } = usePrint();
  const choices = useRef<HTMLUListElement>(null);
  const { focusTick, go } = useApp();
  const [uri, setUriText] = useState('');
  const next = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    void refresh();
    void loadPending();
  }, [refresh, loadPending]);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (e.altKey && (e.key === 'p' || e.key === 'P')) {
        e.preventDefault();
        void discover().then(() => choices.current?.querySelector<HTMLButtonElement>('button[data-choice]')?.focus());
      }
      if (e.altKey && (e.key === 'f' || e.key === 'F' || e.code === 'KeyF')) {
        // A label held as longer than the labels loaded (issue 36): the one in view, else the oldest held.
        e.preventDefault();
        const shown = useJob.getState().result?.printJob;
        const held = shown?.state === 'held' ? shown : usePrint.getState().pending.find((j) => j.state === 'held');
        if (held) void printShrunk(held.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [discover, printShrunk]);
  useEffect(() => {
    next.current?.focus();
  }, [focusTick]);

  const job = result?.printJob ?? null;
  const s = result?.shipment;
  // The box the station chose when the order shipped by itself (issue 37), and why.
  const autoBox = useAutoShip((a) => a.box);
  const boxLine = s && autoBox && s.orderNumber === autoBox.orderNumber ? autoBox : null;
  const state = job?.state ?? (result?.printError ? 'failed' : null);

  return (
    <section className="screen" aria-labelledby="print-title">
      <h1 id="print-title" className="screen-title">
        {t('print.title')}
      </h1>
      {s ? (
        <article className="card label-card" aria-labelledby="label-title">
          <div className="label-main">
            <h2 id="label-title">{t('print.labelFor')}</h2>
            <div className="tracking-number tracking-number-big" data-testid="tracking-number">
              {s.trackingNumber}
            </div>
            <div className="muted">
              {s.carrier.name} — {s.carrier.contractName} · {money(s.cost.amount, s.cost.currency)} · {t('parcels.count', { count: s.parcels })}
              {s.orderNumber ? ` · ${t('print.order', { order: s.orderNumber })}` : ''}
            </div>
            {s.recipient ? (
              <div>
                {s.recipient.name}, {s.recipient.postalCode} {s.recipient.city} ({s.recipient.countryCode})
              </div>
            ) : null}
            {boxLine ? (
              <div data-testid="shipped-box" data-parcels={boxLine.parcels}>
                {attentionText(boxLine.reason)}
              </div>
            ) : null}
            {s.deliveryPoint ? (
              <div data-testid="delivery-point">
                <strong>{t(s.deliveryPoint.type === 'locker' ? 'deliveryPoint.shippedToLocker' : 'deliveryPoint.shippedTo', { name: s.deliveryPoint.name, address: s.deliveryPoint.address })}</strong>
              </div>
            ) : null}
            {s.warning ? <p className="note-warn">{s.warning}</p> : null}
          </div>
          <div className={`job-state job-${state ?? 'none'}`} role="status" aria-live="polite" data-testid="print-state" data-state={state ?? 'none'}>
            <div className="job-state-title">{state ? jobText(state) : t('print.noJob')}</div>
            {job ? (
              <div className="job-state-detail">
                {t('print.on')} <code>{job.printerUri}</code>
                {job.attempts > 1 ? ` · ${t('print.attempts', { count: job.attempts })}` : ''}
                {job.bytesWritten ? ` · ${t('print.bytes', { count: job.bytesWritten })}` : ''}
                {job.printedAt ? ` · ${dateTime(job.printedAt)}` : ''}
              </div>
            ) : null}
            {job?.state === 'printed' && job.lastError ? (
              <div className="job-state-note" data-testid="print-note">
                {jobNoteText(job)}
              </div>
            ) : job?.lastError || result?.printError ? (
              <div className="job-state-error" data-testid="print-error">
                {(job ? jobNoteText(job) : null) ?? (result?.printError ? coreMessage(result.printError) : null)}
              </div>
            ) : null}
            {job?.state === 'held' ? (
              <>
                <div className="muted">{t('print.heldHint')}</div>
                <button type="button" className="btn" onClick={() => void printShrunk(job.id)} aria-keyshortcuts="Alt+F" data-testid="print-shrunk">
                  {t('print.printShrunk')} <kbd>Alt+F</kbd>
                </button>
              </>
            ) : null}
          </div>
          <div className="actions">
            <button ref={next} type="button" className="btn btn-primary btn-big" onClick={() => go('scan')} aria-keyshortcuts="Enter F1">
              {t('print.nextOrder')} <kbd>Enter</kbd>
            </button>
            <button type="button" className="btn btn-big" onClick={() => void reprint(s.trackingNumber)} aria-keyshortcuts="Alt+R">
              {t('action.reprint')} <kbd>Alt+R</kbd>
            </button>
          </div>
          <LabelPreview key={`${s.trackingNumber}|${printer?.uri ?? ''}`} trackingNumber={s.trackingNumber} />
        </article>
      ) : (
        <p className="empty">{t('print.noShipment')}</p>
      )}
      {s && shippedOrderId !== undefined ? <SlipCard orderId={shippedOrderId} /> : null}

      <section className="card" aria-labelledby="waiting-title">
        <h2 id="waiting-title">{t('print.waitingTitle')}</h2>
        {pending.length ? (
          <>
            <p className="muted">{t('print.waitingHint')}</p>
            {pending.some((j) => j.state === 'held') ? <p className="muted">{t('print.heldHint')}</p> : null}
            <ol className="waiting-jobs" data-testid="waiting-jobs">
              {pending.map((j) => (
                <li key={j.id} data-state={j.state}>
                  <span className="tracking-number">{j.trackingNumber}</span> <span className="muted">{j.requestedBy === 'reprint' ? t('print.reprint') : t('print.label')}</span>{' '}
                  <strong>{j.state === 'printing' ? t('print.printing') : j.state === 'held' ? t('print.held') : t('print.waiting')}</strong>
                  {j.lastError ? <div className="job-state-error">{jobNoteText(j)}</div> : null}
                  {j.state === 'held' ? (
                    <button type="button" className="btn btn-small" onClick={() => void printShrunk(j.id)}>
                      {t('print.printShrunk')}
                    </button>
                  ) : null}
                  {j.state === 'queued' || j.state === 'held' ? (
                    <button type="button" className="btn btn-small" onClick={() => void cancel(j.id)}>
                      {t('print.cancel')}
                    </button>
                  ) : null}
                </li>
              ))}
            </ol>
          </>
        ) : (
          <p className="empty" data-testid="waiting-jobs-empty">
            {t('print.noneWaiting')}
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="printer-title">
        <h2 id="printer-title">{t('print.printerTitle')}</h2>
        {printer ? (
          <dl className="facts">
            <div>
              <dt>{t('print.printer')}</dt>
              <dd className="long-text" title={printerNameText(printer)}>{printerNameText(printer)}</dd>
            </div>
            <div>
              <dt>{t('print.deviceUri')}</dt>
              <dd>
                <code data-testid="printer-uri" className="long-text" title={printer.uri}>{printer.uri}</code>
              </dd>
            </div>
            <div>
              <dt>{t('print.status')}</dt>
              <dd className={`long-text ${printer.state === 'ready' ? 'ok-text' : 'bad-text'}`}>
                {printerStateText(printer.state)}
                {printer.detail ? ` — ${printerDetailText(printer)}` : ''}
              </dd>
            </div>
          </dl>
        ) : (
          <p className="empty">{checking ? t('print.asking') : t('print.statusUnknown')}</p>
        )}
        <div className="actions">
          <button type="button" className="btn" onClick={() => void refresh()} disabled={checking}>
            {checking ? t('print.checking') : t('print.check')}
          </button>
        </div>
        <div className="actions">
          <button type="button" className="btn" onClick={() => void discover()} disabled={discovering} aria-keyshortcuts="Alt+P">
            {discovering ? t('print.searching') : t('print.find')} <kbd>Alt+P</kbd>
          </button>
        </div>
        {discovered ? (
          discovered.length ? (
            <ul className="printer-choices" ref={choices} onKeyDown={arrowKeys} aria-label={t('print.foundLabel')} data-testid="printer-choices">
              {discovered.map((d) => (
                <li key={d.uri}>
                  <button type="button" data-choice className={`btn choice${d.current ? ' choice-current' : ''}`} onClick={() => void setUri(d.uri)} disabled={saving} aria-current={d.current}>
                    <strong>{printerNameText(d)}</strong> <span className="muted">{kindText(d.kind)}</span> <code>{d.uri}</code>
                    {d.current ? ` · ${t('print.inUse')}` : ''}
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty">{t('print.noneFound')}</p>
          )
        ) : null}
        <form
          className="printer-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void setUri(uri).then((ok) => ok && setUriText(''));
          }}
        >
          <TextField
            id="printer-uri-input"
            label={t('print.uriLabel')}
            value={uri}
            onValue={setUriText}
            error={uriError ?? undefined}
            hint={t('print.uriHint')}
            wide
          />
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {t('print.use')}
          </button>
        </form>
      </section>
      {printer ? <PrinterProfileForm uri={printer.uri} /> : null}
    </section>
  );
}
