/**
 * End of day: the shipments not yet in a manifest, "close the day" (one
 * manifest per contract, POST /manifests), and the manifest PDFs to save
 * (download link on a blob) or open for printing.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { dateTime, money } from '../lib/format';
import { t } from '../lib/i18n';
import { isElectron } from '../api';
import { useApp } from '../stores/app';
import { useDay } from '../stores/day';
import { saveBlob } from '../lib/saveText';

/** The charts, with Apache ECharts, load when End of day first opens: the bench starts without them. */
const DayCharts = lazy(() => import('./DayCharts').then((m) => ({ default: m.DayCharts })));

/** End-of-day screen (see file comment). */
export function EndOfDayScreen() {
  const { unmanifested, manifests, loading, closing, confirming, justCreated, load, setConfirming, closeDay, pdf, inWarehouse, closingWarehouse, closeWarehouseDay } = useDay();
  const [supervisorPin, setSupervisorPin] = useState('');
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
        {t('endOfDay.title')}
      </h1>
      {inWarehouse ? (
        <section className="card" aria-labelledby="warehouse-day-title" data-testid="warehouse-day">
          <header className="card-head">
            <h2 id="warehouse-day-title">{t('endOfDay.warehouseTitle')}</h2>
          </header>
          <p className="muted">{t('endOfDay.warehouseNote')}</p>
          <form
            className="grid-3"
            onSubmit={(e) => {
              e.preventDefault();
              void closeWarehouseDay(supervisorPin).then(() => setSupervisorPin(''));
            }}
          >
            <label>
              {t('endOfDay.supervisorPin')}
              <input type="password" inputMode="numeric" autoComplete="off" value={supervisorPin} onChange={(e) => setSupervisorPin(e.target.value)} data-testid="warehouse-day-pin" />
            </label>
            <button type="submit" className="btn" disabled={closingWarehouse} data-testid="warehouse-day-close">
              {closingWarehouse ? t('endOfDay.closing') : t('endOfDay.warehouseClose')}
            </button>
          </form>
        </section>
      ) : null}
      <section className="card" aria-labelledby="unmanifested-title">
        <header className="card-head">
          <h2 id="unmanifested-title">
            {t('endOfDay.notInManifest')} <span data-testid="unmanifested-count">{unmanifested.length}</span>
          </h2>
          {/* In a warehouse the day closes once for every bench (the card above): no close of this bench's own. */}
          {inWarehouse ? null : (
            <button ref={closeBtn} type="button" className="btn btn-primary btn-big" disabled={closing || unmanifested.length === 0} onClick={() => setConfirming(true)}>
              {closing ? t('endOfDay.closing') : t('endOfDay.close')}
            </button>
          )}
        </header>
        {byContract.size ? (
          <p className="muted">
            {t('endOfDay.summary', { contracts: [...byContract].map(([k, n]) => `${k}: ${n}`).join(' · '), total: money(total) })}
          </p>
        ) : null}
        {unmanifested.length === 0 ? (
          <p className="empty" data-testid="unmanifested-empty">
            {loading ? t('common.loading') : t('endOfDay.allIn')}
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label={t('endOfDay.tableLabel')}>
              <thead>
                <tr>
                  <th scope="col">{t('endOfDay.col.trackingNumber')}</th>
                  <th scope="col">{t('endOfDay.col.order')}</th>
                  <th scope="col">{t('endOfDay.col.contract')}</th>
                  <th scope="col">{t('endOfDay.col.recipient')}</th>
                  <th scope="col">{t('endOfDay.col.parcels')}</th>
                  <th scope="col">{t('endOfDay.col.cost')}</th>
                  <th scope="col">{t('endOfDay.col.created')}</th>
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

      <Suspense fallback={<p className="muted">{t('common.loading')}</p>}>
        <DayCharts />
      </Suspense>

      <section className="card" aria-labelledby="manifests-title">
        <h2 id="manifests-title">{t('endOfDay.manifests')}</h2>
        {manifests.length === 0 ? (
          <p className="empty">{t('endOfDay.noManifests')}</p>
        ) : (
          <table className="table" aria-label={t('endOfDay.manifests')} data-testid="manifests">
            <thead>
              <tr>
                <th scope="col">{t('endOfDay.col.manifest')}</th>
                <th scope="col">{t('endOfDay.col.carrier')}</th>
                <th scope="col">{t('endOfDay.col.shipments')}</th>
                <th scope="col">{t('endOfDay.col.totalCost')}</th>
                <th scope="col">{t('endOfDay.col.created')}</th>
                <th scope="col">{t('endOfDay.col.pdf')}</th>
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
                          aria-label={t('endOfDay.savePdfLabel', { id: m.id })}
                          onClick={() =>
                            void pdf(m.id).then((r) => {
                              if (r) saveBlob(r.blob, r.fileName);
                            })
                          }
                        >
                          {t('endOfDay.savePdf')}
                        </button>
                        {isElectron() ? null : (
                          <button
                            type="button"
                            className="btn btn-small"
                            aria-label={t('endOfDay.openLabel', { id: m.id })}
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
                            {t('endOfDay.open')}
                          </button>
                        )}
                      </>
                    ) : (
                      <span className="muted">{t('endOfDay.noPdf')}</span>
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
        title={t('endOfDay.confirmTitle')}
        body={t('endOfDay.confirmBody', { count: unmanifested.length })}
        confirmLabel={t('endOfDay.confirmYes')}
        cancelLabel={t('endOfDay.confirmNo')}
        onConfirm={() => void closeDay()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
