/**
 * End of day: the shipments not yet in a manifest, "close the day" (one
 * manifest per contract, POST /manifests), and the manifest PDFs to save
 * (download link on a blob) or open for printing.
 */
import { useEffect, useRef } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { dateTime, money } from '../lib/format';
import { isElectron } from '../api';
import { useApp } from '../stores/app';
import { useDay } from '../stores/day';

/** Saves a Blob through a temporary `<a download>`; the object URL is revoked afterwards. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** End-of-day screen (see file comment). */
export function EndOfDayScreen() {
  const { unmanifested, manifests, loading, closing, confirming, justCreated, load, setConfirming, closeDay, pdf } = useDay();
  const focusTick = useApp((s) => s.focusTick);
  const closeBtn = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    void load();
  }, [load]);
  // Focus the close button once the list is in (it is disabled while loading or when nothing is left).
  const ready = !loading && unmanifested.length > 0;
  useEffect(() => {
    if (ready) closeBtn.current?.focus();
  }, [focusTick, ready]);
  // After a close the next hand movement is printing the manifests: focus the first new one's PDF button.
  const firstNew = justCreated[0];
  const firstNewListed = firstNew !== undefined && manifests.some((m) => m.id === firstNew && m.hasPdf);
  useEffect(() => {
    if (!closing && firstNewListed) document.getElementById(`manifest-pdf-${firstNew}`)?.focus();
  }, [closing, firstNew, firstNewListed]);

  const byContract = new Map<string, number>();
  for (const s of unmanifested) {
    const k = `${s.carrier.name} — ${s.carrier.contractName}`;
    byContract.set(k, (byContract.get(k) ?? 0) + 1);
  }
  const total = unmanifested.reduce((a, s) => a + s.cost.amount, 0);

  return (
    <section className="screen" aria-labelledby="day-title">
      <h1 id="day-title" className="screen-title">
        End of day
      </h1>
      <section className="card" aria-labelledby="unmanifested-title">
        <header className="card-head">
          <h2 id="unmanifested-title">
            Not yet in a manifest: <span data-testid="unmanifested-count">{unmanifested.length}</span>
          </h2>
          <button ref={closeBtn} type="button" className="btn btn-primary btn-big" disabled={closing || unmanifested.length === 0} onClick={() => setConfirming(true)}>
            {closing ? 'Closing…' : 'Close the day'}
          </button>
        </header>
        {byContract.size ? (
          <p className="muted">
            {[...byContract].map(([k, n]) => `${k}: ${n}`).join(' · ')} · total {money(total)} — one manifest per contract.
          </p>
        ) : null}
        {unmanifested.length === 0 ? (
          <p className="empty" data-testid="unmanifested-empty">
            {loading ? 'Loading…' : 'Every shipment is in a manifest.'}
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Shipments not yet in a manifest">
              <thead>
                <tr>
                  <th scope="col">Tracking number</th>
                  <th scope="col">Order</th>
                  <th scope="col">Contract</th>
                  <th scope="col">Recipient</th>
                  <th scope="col">Parcels</th>
                  <th scope="col">Cost</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {unmanifested.map((s) => (
                  <tr key={s.trackingNumber}>
                    <th scope="row" className="tracking-number">
                      {s.trackingNumber}
                    </th>
                    <td>{s.orderNumber ?? s.reference ?? '—'}</td>
                    <td>
                      {s.carrier.name} — {s.carrier.contractName}
                    </td>
                    <td>{s.recipient ? `${s.recipient.name}, ${s.recipient.city}` : '—'}</td>
                    <td>{s.parcels}</td>
                    <td>{money(s.cost.amount, s.cost.currency)}</td>
                    <td>{dateTime(s.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="manifests-title">
        <h2 id="manifests-title">Manifests</h2>
        {manifests.length === 0 ? (
          <p className="empty">No manifests yet.</p>
        ) : (
          <table className="table" aria-label="Manifests" data-testid="manifests">
            <thead>
              <tr>
                <th scope="col">Manifest</th>
                <th scope="col">Carrier</th>
                <th scope="col">Shipments</th>
                <th scope="col">Total cost</th>
                <th scope="col">Created</th>
                <th scope="col">PDF</th>
              </tr>
            </thead>
            <tbody>
              {manifests.map((m) => (
                <tr key={m.id} className={justCreated.includes(m.id) ? 'row-new' : undefined}>
                  <th scope="row">#{m.id}</th>
                  <td>
                    {m.carrier.name}
                    {m.contractName ? <span className="muted"> — {m.contractName}</span> : null}
                  </td>
                  <td>{m.totalShipments}</td>
                  <td>{money(m.totalCost)}</td>
                  <td>{dateTime(m.createdAt)}</td>
                  <td className="cell-actions">
                    {m.hasPdf ? (
                      <>
                        <button
                          type="button"
                          id={`manifest-pdf-${m.id}`}
                          className="btn btn-small"
                          aria-label={`Save manifest ${m.id} PDF`}
                          onClick={() =>
                            void pdf(m.id).then((r) => {
                              if (r) saveBlob(r.blob, r.fileName);
                            })
                          }
                        >
                          Save PDF
                        </button>
                        {isElectron() ? null : (
                          <button
                            type="button"
                            className="btn btn-small"
                            aria-label={`Open manifest ${m.id} to print`}
                            onClick={() => {
                              // Open the tab now (user gesture), fill it when the PDF arrives.
                              const tab = window.open('about:blank', '_blank');
                              void pdf(m.id).then((r) => {
                                if (!r) {
                                  tab?.close();
                                  return;
                                }
                                const url = URL.createObjectURL(r.blob);
                                if (tab) tab.location.href = url;
                                else saveBlob(r.blob, r.fileName);
                              });
                            }}
                          >
                            Open to print
                          </button>
                        )}
                      </>
                    ) : (
                      <span className="muted">no PDF</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <ConfirmDialog
        open={confirming}
        title="Close the day?"
        body={`${unmanifested.length} shipment${unmanifested.length === 1 ? '' : 's'} go into manifests (one per contract). After this they can no longer be cancelled.`}
        confirmLabel="Yes, close the day"
        cancelLabel="Not yet"
        onConfirm={() => void closeDay()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
