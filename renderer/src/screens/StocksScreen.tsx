/**
 * Held shipments (stocks, spec: Endpoints > Stocks): the carrier's open
 * dossiers with reason, depot and deadline, and the release instructions of
 * the spec's actions (deliver again, to another address, the recipient
 * collects at the depot, return to sender), each sent through the outbox.
 * Keys: the status filter first, Tab through the rows; each action is a button.
 */
import { Fragment, useEffect, useRef, useState } from 'react';
import type { Stock, StockActionName } from '../../../shared/platform/tracking';
import { ErrorList, TextField } from '../components/Field';
import { calendarDate, dateTime } from '../lib/format';
import { hasText, t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { useStocks } from '../stores/stocks';

/** The spec's release actions, in the order of the buttons; each one's words are the text `stocks.action.<name>`. */
const ACTIONS: StockActionName[] = ['redeliver', 'redeliver_to_address', 'hold_for_collection', 'return_to_sender'];

/** The status filter values (spec: Stocks), in the order of the Show menu. */
const STATUSES = ['open', 'instructed', 'closed', 'all'] as const;

/** A stock status in words; an unknown status as the platform sent it. */
function statusText(status: string): string {
  const key = `stocks.status.${status}`;
  return hasText(key) ? t(key) : status;
}

/** A release action in words; an unknown action as the platform sent it. */
function actionText(action: string): string {
  const key = `stocks.action.${action}`;
  return hasText(key) ? t(key) : action;
}

/** The new-address form of `redeliver_to_address`. */
function AddressForm({ stock, onDone }: { stock: Stock; onDone(): void }) {
  const { instruct, sending, errors } = useStocks();
  const [a, setA] = useState({ recipientName: '', street: '', city: '', province: '', postalCode: '', countryCode: 'IT' });
  const err = (k: string) => errors[`request.address.${k}`]?.[0] ?? errors[`address.${k}`]?.[0];
  return (
    <form
      className="grid-3"
      aria-label={t('stocks.newAddress', { trackingNumber: stock.trackingNumber })}
      onSubmit={(e) => {
        e.preventDefault();
        void instruct(stock, {
          action: 'redeliver_to_address',
          address: { street: a.street, city: a.city, postalCode: a.postalCode, countryCode: a.countryCode, ...(a.province ? { province: a.province } : {}) },
          ...(a.recipientName ? { recipientName: a.recipientName } : {}),
        }).then((ok) => ok && onDone());
      }}
    >
      <TextField id={`st-${stock.id}-name`} label={t('stocks.address.name')} value={a.recipientName} onValue={(v) => setA({ ...a, recipientName: v })} />
      <TextField id={`st-${stock.id}-street`} label={t('stocks.address.street')} value={a.street} onValue={(v) => setA({ ...a, street: v })} error={err('street')} />
      <TextField id={`st-${stock.id}-postal`} label={t('stocks.address.postalCode')} value={a.postalCode} onValue={(v) => setA({ ...a, postalCode: v })} error={err('postalCode')} />
      <TextField id={`st-${stock.id}-city`} label={t('stocks.address.city')} value={a.city} onValue={(v) => setA({ ...a, city: v })} error={err('city')} />
      <TextField id={`st-${stock.id}-prov`} label={t('stocks.address.province')} value={a.province} onValue={(v) => setA({ ...a, province: v })} error={err('province')} />
      <TextField id={`st-${stock.id}-cc`} label={t('stocks.address.countryCode')} value={a.countryCode} onValue={(v) => setA({ ...a, countryCode: v })} error={err('countryCode')} />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={sending === stock.id}>
          {t('stocks.sendAddress')}
        </button>
      </div>
    </form>
  );
}

/** Held shipments screen (see file comment). */
export function StocksScreen() {
  const { stocks, status, page, lastPage, total, loading, sending, errors, load, markSeen, instruct, seenMaxId } = useStocks();
  const focusTick = useApp((s) => s.focusTick);
  const filter = useRef<HTMLSelectElement>(null);
  const [addressFor, setAddressFor] = useState<number | null>(null);
  useEffect(() => {
    void load().then(() => markSeen());
  }, [load, markSeen]);
  useEffect(() => {
    filter.current?.focus();
  }, [focusTick]);

  return (
    <section className="screen" aria-labelledby="stocks-title">
      <h1 id="stocks-title" className="screen-title">
        {t('stocks.title')} <span className="subtitle">{t('stocks.count', { count: total })} · {statusText(status).toLowerCase()}</span>
      </h1>
      <div className="card">
        <div className="field">
          <label htmlFor="st-status">{t('stocks.show')}</label>
          <select id="st-status" ref={filter} value={status} onChange={(e) => void load({ status: e.target.value as typeof status, page: 1 })}>
            {STATUSES.map((k) => (
              <option key={k} value={k}>
                {statusText(k)}
              </option>
            ))}
          </select>
        </div>
        <ErrorList title={t('stocks.alsoReports')} errors={Object.entries(errors).filter(([k]) => !k.includes('address.'))} />
        {stocks.length === 0 ? (
          <p className="empty">{loading ? t('common.loading') : t('stocks.none')}</p>
        ) : (
          <table className="data" aria-label={t('stocks.title')} data-testid="stocks">
            <thead>
              <tr>
                <th scope="col">{t('stocks.col.shipment')}</th>
                <th scope="col">{t('stocks.col.dossier')}</th>
                <th scope="col">{t('stocks.col.reason')}</th>
                <th scope="col">{t('stocks.col.location')}</th>
                <th scope="col">{t('stocks.col.opened')}</th>
                <th scope="col">{t('stocks.col.deadline')}</th>
                <th scope="col">{t('stocks.col.state')}</th>
              </tr>
            </thead>
            <tbody>
              {stocks.map((s) => (
                <Fragment key={s.id}>
                  <tr data-testid="stock-row" data-stock-id={s.id} className={s.status === 'open' && s.id > seenMaxId ? 'row-new' : undefined}>
                    <th scope="row">
                      <span className="tracking-number">{s.trackingNumber}</span>
                      {s.reference ? <div className="muted">{s.reference}</div> : null}
                    </th>
                    <td>
                      {s.carrier.name} · <code>{s.giacenzaId}</code>
                    </td>
                    <td>{hasText(`stockReason.${s.reason.code}`) ? t(`stockReason.${s.reason.code}`) : s.reason.description}</td>
                    <td>{s.location}</td>
                    <td>{dateTime(s.openedAt)}</td>
                    <td>
                      <strong>{calendarDate(s.deadline)}</strong>
                    </td>
                    <td>{s.action ? `${statusText(s.status)}: ${actionText(s.action)}` : statusText(s.status)}</td>
                  </tr>
                  {s.status === 'open' && s.action === null ? (
                    <tr>
                      <td colSpan={7}>
                        <div className="actions" role="group" aria-label={t('stocks.instructionsFor', { trackingNumber: s.trackingNumber })}>
                          {ACTIONS.map((a) => (
                            <button
                              key={a}
                              type="button"
                              className="btn btn-small"
                              disabled={sending === s.id}
                              onClick={() => (a === 'redeliver_to_address' ? setAddressFor(addressFor === s.id ? null : s.id) : void instruct(s, { action: a }))}
                            >
                              {actionText(a)}
                            </button>
                          ))}
                        </div>
                        {addressFor === s.id ? <AddressForm stock={s} onDone={() => setAddressFor(null)} /> : null}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        )}
        {lastPage > 1 ? (
          <div className="actions">
            <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => void load({ page: page - 1 })}>
              {t('account.prevPage')}
            </button>
            <span>
              {t('stocks.page', { page, pages: lastPage })}
            </span>
            <button type="button" className="btn btn-small" disabled={page >= lastPage} onClick={() => void load({ page: page + 1 })}>
              {t('account.nextPage')}
            </button>
          </div>
        ) : null}
      </div>
    </section>
  );
}
