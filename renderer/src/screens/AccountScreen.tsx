/**
 * Account (spec: Invoices, credit, COD lists, returns): the credit balance,
 * and one paginated list at a time (credit movements, invoices with their
 * PDF, COD lists, return lists), 25 rows a page as the spec's `page` /
 * `per_page` allow; "Details" opens an invoice's lines or a list's shipments
 * (AccountDetail). An invoice PDF the platform cannot make now (503) says
 * "try later".
 */
import { useEffect, useRef, useState } from 'react';
import type { CodList, CreditMovement, Invoice, ReturnList } from '../../../shared/platform';
import type { PaginatedOf } from '../../../shared/platform';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';
import { calendarDate, dateTime, money } from '../lib/format';
import { useApp } from '../stores/app';
import { AccountDetail, type AccountDetailTarget } from './AccountDetail';

type ListName = 'movements' | 'invoices' | 'codLists' | 'returns';
const LISTS: Array<[ListName, string]> = [
  ['movements', 'Credit movements'],
  ['invoices', 'Invoices'],
  ['codLists', 'Cash on delivery lists'],
  ['returns', 'Return lists'],
];

function base64ToBlob(b64: string): Blob {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return new Blob([out], { type: 'application/pdf' });
}

/** Account screen (see file comment). */
export function AccountScreen() {
  const info = useApp((s) => s.info);
  const focusTick = useApp((s) => s.focusTick);
  const first = useRef<HTMLSelectElement>(null);
  const [list, setList] = useState<ListName>('movements');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<PaginatedOf<CreditMovement | Invoice | CodList | ReturnList> | null>(null);
  const [loading, setLoading] = useState(true);
  const [detail, setDetail] = useState<AccountDetailTarget | null>(null);
  const details = (target: AccountDetailTarget, label: string) => (
    <button type="button" className="btn btn-small" onClick={() => setDetail(target)} aria-label={label}>
      Details
    </button>
  );
  useEffect(() => {
    first.current?.focus();
  }, [focusTick]);
  useEffect(() => {
    let stale = false;
    invoke('account.list', { list, page, perPage: 25 })
      .then((r) => !stale && setData(r))
      .catch((e: unknown) => useApp.getState().fail('Account list could not be read', e))
      .finally(() => !stale && setLoading(false));
    return () => {
      stale = true;
    };
  }, [list, page]);
  useEffect(() => {
    void useApp.getState().refreshInfo();
  }, []);

  const pdf = async (inv: Invoice, save: boolean) => {
    try {
      const r = await invoke('account.invoicePdf', { id: inv.id });
      const url = URL.createObjectURL(base64ToBlob(r.pdfBase64));
      if (save) {
        const a = document.createElement('a');
        a.href = url;
        a.download = r.fileName;
        a.click();
      } else window.open(url, '_blank', 'noopener');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      const err = asStationError(e);
      if (err.code === 'unavailable') useApp.getState().flash('warn', `Invoice ${inv.number}: PDF not available right now`, 'The platform cannot make the PDF at the moment: try later.');
      else useApp.getState().fail(`Invoice ${inv.number} PDF`, err);
    }
  };

  const rows = data?.data ?? [];
  return (
    <section className="screen" aria-labelledby="account-title">
      <h1 id="account-title" className="screen-title">
        Account
      </h1>
      <div className="card">
        <p>
          Credit balance: <strong data-testid="account-credit">{info?.credit ? money(info.credit.balance, info.credit.currency) : '—'}</strong>
          {info?.credit?.prepaid ? ' (prepaid)' : ''}
          {info?.credit ? <span className="muted"> · {dateTime(info.credit.updatedAt)}</span> : null}
        </p>
        <div className="field">
          <label htmlFor="acc-list">Show</label>
          <select
            id="acc-list"
            ref={first}
            value={list}
            onChange={(e) => {
              setLoading(true);
              setList(e.target.value as ListName);
              setPage(1);
            }}
          >
            {LISTS.map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </div>
        {rows.length === 0 ? (
          <p className="empty">{loading ? 'Loading…' : 'Nothing in this list.'}</p>
        ) : (
          <table className="data" aria-label={LISTS.find(([k]) => k === list)?.[1]} data-testid="account-list">
            <tbody>
              {list === 'movements'
                ? (rows as CreditMovement[]).map((m) => (
                    <tr key={m.id}>
                      <td>{dateTime(m.createdAt)}</td>
                      <td>{m.description}</td>
                      <td className="num">{money(m.amount, m.currency)}</td>
                      <td className="num muted">{money(m.balance, m.currency)}</td>
                    </tr>
                  ))
                : list === 'invoices'
                  ? (rows as Invoice[]).map((inv) => (
                      <tr key={inv.id}>
                        <td>
                          {inv.number}
                          {inv.proforma ? ' (pro forma)' : ''}
                        </td>
                        <td>{calendarDate(inv.invoiceDate)}</td>
                        <td className="num">{money(inv.total, inv.currency)}</td>
                        <td className="num muted">paid {money(inv.paid, inv.currency)}</td>
                        <td className="cell-actions">
                          {details({ list: 'invoices', id: inv.id, number: inv.number }, `Details of invoice ${inv.number}`)}
                          <button type="button" className="btn btn-small" onClick={() => void pdf(inv, false)} aria-label={`Open invoice ${inv.number} PDF`}>
                            Open PDF
                          </button>
                          <button type="button" className="btn btn-small" onClick={() => void pdf(inv, true)} aria-label={`Save invoice ${inv.number} PDF`}>
                            Save PDF
                          </button>
                        </td>
                      </tr>
                    ))
                  : list === 'codLists'
                    ? (rows as CodList[]).map((c) => (
                        <tr key={c.id}>
                          <td>{c.number}</td>
                          <td>{c.status === 'paid' ? 'Paid' : 'Processing'}</td>
                          <td className="num">{c.shipmentsCount} shipments</td>
                          <td className="num">{money(c.total, c.currency)}</td>
                          <td className="num muted">paid {money(c.totalPaid, c.currency)}</td>
                          <td>{c.paymentDate ? calendarDate(c.paymentDate) : '—'}</td>
                          <td className="cell-actions">{details({ list: 'codLists', id: c.id, number: c.number }, `Details of cash on delivery list ${c.number}`)}</td>
                        </tr>
                      ))
                    : (rows as ReturnList[]).map((r) => (
                        <tr key={r.id}>
                          <td>{r.number}</td>
                          <td>{dateTime(r.createdAt)}</td>
                          <td className="num">{r.shipmentsCount} shipments</td>
                          <td className="num">{money(r.totalCost, r.currency)}</td>
                          <td>{r.invoiceId ? `invoiced (#${r.invoiceId})` : 'not invoiced yet'}</td>
                          <td className="cell-actions">{details({ list: 'returns', id: r.id, number: r.number }, `Details of return list ${r.number}`)}</td>
                        </tr>
                      ))}
            </tbody>
          </table>
        )}
        {data && data.meta.last_page > 1 ? (
          <div className="actions">
            <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => {
                setLoading(true);
                setPage(page - 1);
              }}>
              Previous page
            </button>
            <span>
              Page {data.meta.current_page} of {data.meta.last_page} ({data.meta.total})
            </span>
            <button type="button" className="btn btn-small" disabled={page >= data.meta.last_page} onClick={() => {
                setLoading(true);
                setPage(page + 1);
              }}>
              Next page
            </button>
          </div>
        ) : null}
      </div>
      {detail ? (
        <AccountDetail
          key={`${detail.list}:${detail.id}`}
          target={detail}
          onClose={() => {
            setDetail(null);
            first.current?.focus();
          }}
        />
      ) : null}
    </section>
  );
}
