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
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { useStocks } from '../stores/stocks';

const ACTIONS: Array<[StockActionName, string]> = [
  ['redeliver', 'Deliver again'],
  ['redeliver_to_address', 'Deliver to another address'],
  ['hold_for_collection', 'Recipient collects at the depot'],
  ['return_to_sender', 'Return to sender'],
];

const STATUS_WORDS: Record<string, string> = { open: 'Open', instructed: 'Instructions sent', closed: 'Closed', all: 'All' };

/** The new-address form of `redeliver_to_address`. */
function AddressForm({ stock, onDone }: { stock: Stock; onDone(): void }) {
  const { instruct, sending, errors } = useStocks();
  const [a, setA] = useState({ recipientName: '', street: '', city: '', province: '', postalCode: '', countryCode: 'IT' });
  const err = (k: string) => errors[`request.address.${k}`]?.[0] ?? errors[`address.${k}`]?.[0];
  return (
    <form
      className="grid-3"
      aria-label={`New address for ${stock.trackingNumber}`}
      onSubmit={(e) => {
        e.preventDefault();
        void instruct(stock, {
          action: 'redeliver_to_address',
          address: { street: a.street, city: a.city, postalCode: a.postalCode, countryCode: a.countryCode, ...(a.province ? { province: a.province } : {}) },
          ...(a.recipientName ? { recipientName: a.recipientName } : {}),
        }).then((ok) => ok && onDone());
      }}
    >
      <TextField id={`st-${stock.id}-name`} label="Recipient name (optional)" value={a.recipientName} onValue={(v) => setA({ ...a, recipientName: v })} />
      <TextField id={`st-${stock.id}-street`} label="Street and number" value={a.street} onValue={(v) => setA({ ...a, street: v })} error={err('street')} />
      <TextField id={`st-${stock.id}-postal`} label="Postal code" value={a.postalCode} onValue={(v) => setA({ ...a, postalCode: v })} error={err('postalCode')} />
      <TextField id={`st-${stock.id}-city`} label="City" value={a.city} onValue={(v) => setA({ ...a, city: v })} error={err('city')} />
      <TextField id={`st-${stock.id}-prov`} label="Province" value={a.province} onValue={(v) => setA({ ...a, province: v })} error={err('province')} />
      <TextField id={`st-${stock.id}-cc`} label="Country (2 letters)" value={a.countryCode} onValue={(v) => setA({ ...a, countryCode: v })} error={err('countryCode')} />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={sending === stock.id}>
          Send: deliver to this address
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
        Held shipments <span className="subtitle">{t('stocks.count', { count: total })} · {STATUS_WORDS[status]?.toLowerCase()}</span>
      </h1>
      <div className="card">
        <div className="field">
          <label htmlFor="st-status">Show</label>
          <select id="st-status" ref={filter} value={status} onChange={(e) => void load({ status: e.target.value as typeof status, page: 1 })}>
            {Object.entries(STATUS_WORDS).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </div>
        <ErrorList title="The platform also reports" errors={Object.entries(errors).filter(([k]) => !k.includes('address.'))} />
        {stocks.length === 0 ? (
          <p className="empty">{loading ? 'Loading…' : 'No held shipment.'}</p>
        ) : (
          <table className="data" aria-label="Held shipments" data-testid="stocks">
            <thead>
              <tr>
                <th scope="col">Shipment</th>
                <th scope="col">Carrier dossier</th>
                <th scope="col">Reason</th>
                <th scope="col">Held at</th>
                <th scope="col">Opened</th>
                <th scope="col">Deadline</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {stocks.map((s) => (
                <Fragment key={s.id}>
                  <tr data-testid="stock-row" data-stock-id={s.id} className={s.status === 'open' && s.id > seenMaxId ? 'row-new' : undefined}>
                    <th scope="row">
                      <span className="ldv">{s.trackingNumber}</span>
                      {s.reference ? <div className="muted">{s.reference}</div> : null}
                    </th>
                    <td>
                      {s.carrier.name} · <code>{s.giacenzaId}</code>
                    </td>
                    <td>{s.reason.description}</td>
                    <td>{s.location}</td>
                    <td>{dateTime(s.openedAt)}</td>
                    <td>
                      <strong>{calendarDate(s.deadline)}</strong>
                    </td>
                    <td>{s.action ? `${STATUS_WORDS[s.status]}: ${ACTIONS.find(([a]) => a === s.action)?.[1] ?? s.action}` : STATUS_WORDS[s.status]}</td>
                  </tr>
                  {s.status === 'open' && s.action === null ? (
                    <tr>
                      <td colSpan={7}>
                        <div className="actions" role="group" aria-label={`Instructions for ${s.trackingNumber}`}>
                          {ACTIONS.map(([a, label]) => (
                            <button
                              key={a}
                              type="button"
                              className="btn btn-small"
                              disabled={sending === s.id}
                              onClick={() => (a === 'redeliver_to_address' ? setAddressFor(addressFor === s.id ? null : s.id) : void instruct(s, { action: a }))}
                            >
                              {label}
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
              Previous page
            </button>
            <span>
              Page {page} of {lastPage}
            </span>
            <button type="button" className="btn btn-small" disabled={page >= lastPage} onClick={() => void load({ page: page + 1 })}>
              Next page
            </button>
          </div>
        ) : null}
      </div>
    </section>
  );
}
