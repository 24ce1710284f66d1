/**
 * Print: the label of the shipment just made (the core prints it as soon as
 * the shipment exists) with its print job state (printer, printed or failed
 * and why), reprint, and the label printer settings (device URI, status).
 */
import { useEffect, useRef, useState } from 'react';
import type { PrintJobView } from '../../../shared/contract';
import { TextField } from '../components/Field';
import { dateTime, money } from '../lib/format';
import { useApp } from '../stores/app';
import { useJob } from '../stores/job';
import { usePrint } from '../stores/print';

const JOB_TEXT: Record<PrintJobView['state'], string> = {
  queued: 'Waiting for the printer',
  printing: 'Printing…',
  printed: 'Printed',
  failed: 'NOT PRINTED',
};

/** Print screen (see file comment). */
export function PrintScreen() {
  const result = useJob((s) => s.result);
  const { printer, checking, saving, uriError, refresh, setUri, reprint } = usePrint();
  const { focusTick, go } = useApp();
  const [uri, setUriText] = useState('');
  const next = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEffect(() => {
    next.current?.focus();
  }, [focusTick]);

  const job = result?.printJob ?? null;
  const s = result?.shipment;
  const state = job?.state ?? (result?.printError ? 'failed' : null);

  return (
    <section className="screen" aria-labelledby="print-title">
      <h1 id="print-title" className="screen-title">
        Print
      </h1>
      {s ? (
        <article className="card label-card" aria-labelledby="label-title">
          <div className="label-main">
            <h2 id="label-title">Label for</h2>
            <div className="tracking-number tracking-number-big" data-testid="tracking-number">
              {s.trackingNumber}
            </div>
            <div className="muted">
              {s.carrier.name} — {s.carrier.contractName} · {money(s.cost.amount, s.cost.currency)} · {s.parcels} parcel{s.parcels === 1 ? '' : 's'}
              {s.orderNumber ? ` · order ${s.orderNumber}` : ''}
            </div>
            {s.recipient ? (
              <div>
                {s.recipient.name}, {s.recipient.postalCode} {s.recipient.city} ({s.recipient.countryCode})
              </div>
            ) : null}
            {s.warning ? <p className="note-warn">{s.warning}</p> : null}
          </div>
          <div className={`job-state job-${state ?? 'none'}`} role="status" aria-live="polite" data-testid="print-state" data-state={state ?? 'none'}>
            <div className="job-state-title">{state ? JOB_TEXT[state] : 'No print job'}</div>
            {job ? (
              <div className="job-state-detail">
                on <code>{job.printerUri}</code>
                {job.attempts > 1 ? ` · ${job.attempts} attempts` : ''}
                {job.bytesWritten ? ` · ${job.bytesWritten} bytes` : ''}
                {job.printedAt ? ` · ${dateTime(job.printedAt)}` : ''}
              </div>
            ) : null}
            {job?.lastError || result?.printError ? <div className="job-state-error">{job?.lastError ?? result?.printError?.message}</div> : null}
          </div>
          <div className="actions">
            <button ref={next} type="button" className="btn btn-primary btn-big" onClick={() => go('scan')} aria-keyshortcuts="Enter F1">
              Next order <kbd>Enter</kbd>
            </button>
            <button type="button" className="btn btn-big" onClick={() => void reprint(s.trackingNumber)} aria-keyshortcuts="Alt+R">
              Reprint label <kbd>Alt+R</kbd>
            </button>
          </div>
        </article>
      ) : (
        <p className="empty">No shipment made yet in this session. Scan an order (F1) to start.</p>
      )}

      <section className="card" aria-labelledby="printer-title">
        <h2 id="printer-title">Label printer</h2>
        {printer ? (
          <dl className="facts">
            <div>
              <dt>Printer</dt>
              <dd>{printer.name}</dd>
            </div>
            <div>
              <dt>Device URI</dt>
              <dd>
                <code data-testid="printer-uri">{printer.uri}</code>
              </dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd className={printer.state === 'ready' ? 'ok-text' : 'bad-text'}>
                {printer.state}
                {printer.detail ? ` — ${printer.detail}` : ''}
              </dd>
            </div>
          </dl>
        ) : (
          <p className="empty">{checking ? 'Asking the printer…' : 'Status unknown'}</p>
        )}
        <div className="actions">
          <button type="button" className="btn" onClick={() => void refresh()} disabled={checking}>
            {checking ? 'Checking…' : 'Check status'}
          </button>
        </div>
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
            label="Use another printer (device URI)"
            value={uri}
            onValue={setUriText}
            error={uriError ?? undefined}
            hint="socket://192.168.1.50:9100 (network Zebra), usb://0a5f:0181, file:///home/packer/labels (training)"
            wide
          />
          <button type="submit" className="btn btn-primary" disabled={saving}>
            Use this printer
          </button>
        </form>
      </section>
    </section>
  );
}
