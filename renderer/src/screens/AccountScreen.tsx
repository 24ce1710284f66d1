/**
 * Account (spec: Invoices, credit, COD lists, returns): the credit balance,
 * and one paginated list at a time (credit movements, invoices with their
 * PDF, COD lists, return lists), 25 rows a page as the spec's `page` /
 * `per_page` allow; "Details" opens an invoice's lines or a list's shipments
 * (AccountDetail). An invoice PDF the platform cannot make now (503) says
 * "try later".
 */
import { movementText } from '../lib/platformTexts';
import { useEffect, useRef, useState } from 'react';
import type { CodList, CreditMovement, Invoice, ReturnList } from '../../../shared/platform';
import type { PaginatedOf } from '../../../shared/platform';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';
import { calendarDate, dateTime, money } from '../lib/format';
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { AccountDetail, type AccountDetailTarget } from './AccountDetail';

type ListName = 'movements' | 'invoices' | 'codLists' | 'returns';
/** The lists, in the order of the Show menu; each one's name is the text `account.lists.<name>`. */
const LISTS: ListName[] = ['movements', 'invoices', 'codLists', 'returns'];

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
      {t('account.details')}
    </button>
  );
  useEffect(() => {
    first.current?.focus();
  }, [focusTick]);
  useEffect(() => {
    let stale = false;
    invoke('account.list', { list, page, perPage: 25 })
      .then((r) => !stale && setData(r))
      .catch((e: unknown) => useApp.getState().fail(t('account.loadFailed'), e))
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
      if (err.code === 'unavailable') useApp.getState().flash('warn', t('account.pdfLater', { number: inv.number }), t('account.pdfLaterDetail'));
      else useApp.getState().fail(t('account.pdfFailed', { number: inv.number }), err);
    }
  };

  const rows = data?.data ?? [];
  return (
    <section className="screen" aria-labelledby="account-title">
      <h1 id="account-title" className="screen-title">
        {t('account.title')}
      </h1>
      <div className="card">
        <p>
          {t('account.balance')} <strong data-testid="account-credit">{info?.credit ? money(info.credit.balance, info.credit.currency) : '—'}</strong>
          {info?.credit?.prepaid ? ` ${t('account.prepaid')}` : ''}
          {info?.credit ? <span className="muted"> · {dateTime(info.credit.updatedAt)}</span> : null}
        </p>
        <div className="field">
          <label htmlFor="acc-list">{t('account.show')}</label>
          <select
            id="acc-list"
            ref={first}
            value={list}
            onChange={(e) => {
              setLoading(true);
              // The rows on screen belong to the list they were loaded for: never label old rows with the new list's words.
              setData(null);
              setList(e.target.value as ListName);
              setPage(1);
            }}
          >
            {LISTS.map((k) => (
              <option key={k} value={k}>
                {t(`account.lists.${k}`)}
              </option>
            ))}
          </select>
        </div>
        {rows.length === 0 ? (
          <p className="empty">{loading ? t('common.loading') : t('account.empty')}</p>
        ) : (
          <table className="data" aria-label={t(`account.lists.${list}`)} data-testid="account-list">
            <tbody>
              {list === 'movements'
                ? (rows as CreditMovement[]).map((m) => (
                    <tr key={m.id}>
                      <td>{dateTime(m.createdAt)}</td>
                      <td>{movementText(m)}</td>
                      <td className="num">{money(m.amount, m.currency)}</td>
                      <td className="num muted">{money(m.balance, m.currency)}</td>
                    </tr>
                  ))
                : list === 'invoices'
                  ? (rows as Invoice[]).map((inv) => (
                      <tr key={inv.id}>
                        <td>
                          {inv.number}
                          {inv.proforma ? ` ${t('account.proforma')}` : ''}
                        </td>
                        <td>{calendarDate(inv.invoiceDate)}</td>
                        <td className="num">{money(inv.total, inv.currency)}</td>
                        <td className="num muted">{t('account.paidAmount', { amount: money(inv.paid, inv.currency) })}</td>
                        <td className="cell-actions">
                          {details({ list: 'invoices', id: inv.id, number: inv.number }, t('account.invoiceDetails', { number: inv.number }))}
                          <button type="button" className="btn btn-small" onClick={() => void pdf(inv, false)} aria-label={t('account.openPdfLabel', { number: inv.number })}>
                            {t('account.openPdf')}
                          </button>
                          <button type="button" className="btn btn-small" onClick={() => void pdf(inv, true)} aria-label={t('account.savePdfLabel', { number: inv.number })}>
                            {t('account.savePdf')}
                          </button>
                        </td>
                      </tr>
                    ))
                  : list === 'codLists'
                    ? (rows as CodList[]).map((c) => (
                        <tr key={c.id}>
                          <td>{c.number}</td>
                          <td>{c.status === 'paid' ? t('account.codPaid') : t('account.codProcessing')}</td>
                          <td className="num">{t('shipments.count', { count: c.shipmentsCount })}</td>
                          <td className="num">{money(c.total, c.currency)}</td>
                          <td className="num muted">{t('account.paidAmount', { amount: money(c.totalPaid, c.currency) })}</td>
                          <td>{c.paymentDate ? calendarDate(c.paymentDate) : '—'}</td>
                          <td className="cell-actions">{details({ list: 'codLists', id: c.id, number: c.number }, t('account.codDetails', { number: c.number }))}</td>
                        </tr>
                      ))
                    : (rows as ReturnList[]).map((r) => (
                        <tr key={r.id}>
                          <td>{r.number}</td>
                          <td>{dateTime(r.createdAt)}</td>
                          <td className="num">{t('shipments.count', { count: r.shipmentsCount })}</td>
                          <td className="num">{money(r.totalCost, r.currency)}</td>
                          <td>{r.invoiceId ? t('account.invoiced', { id: r.invoiceId }) : t('account.notInvoiced')}</td>
                          <td className="cell-actions">{details({ list: 'returns', id: r.id, number: r.number }, t('account.returnDetails', { number: r.number }))}</td>
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
              {t('account.prevPage')}
            </button>
            <span>
              {t('account.page', { page: data.meta.current_page, pages: data.meta.last_page, total: data.meta.total })}
            </span>
            <button type="button" className="btn btn-small" disabled={page >= data.meta.last_page} onClick={() => {
                setLoading(true);
                setPage(page + 1);
              }}>
              {t('account.nextPage')}
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
