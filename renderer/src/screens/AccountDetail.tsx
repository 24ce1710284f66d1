/**
 * Part of the Account screen (issue 10): one invoice with its lines, or one
 * COD or return list with its shipments (`account.detail`: GET /invoices/{id},
 * /cod-lists/{id}, /returns/{id}). Amounts in the record's currency, dates in
 * Italian time. Esc or "Close" hides it and gives the focus back to the list.
 */
import { useEffect, useRef, useState } from 'react';
import type { CodListDetail, InvoiceDetail, ReturnListDetail } from '../../../shared/platform/finance';
import { invoke } from '../api';
import { calendarDate, dateTime, money } from '../lib/format';
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';

/** Which record to show: its list, platform id and the number the packer sees. */
export interface AccountDetailTarget {
  list: 'invoices' | 'codLists' | 'returns';
  id: number;
  number: string;
}

/** The detail card of `target`; `onClose` is called by Esc and the Close button. */
export function AccountDetail({ target, onClose }: { target: AccountDetailTarget; onClose(): void }) {
  const [detail, setDetail] = useState<InvoiceDetail | CodListDetail | ReturnListDetail | null>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    let live = true;
    invoke('account.detail', { list: target.list, id: target.id })
      .then((d) => {
        if (!live) return;
        setDetail(d);
        close.current?.focus();
      })
      .catch((e: unknown) => live && useApp.getState().fail(t('account.detailFailed', { number: target.number }), e));
    return () => {
      live = false;
    };
  }, [target]);

  const title = t(`account.detail.${target.list}`, { number: target.number });
  return (
    <section
      className="card account-detail"
      aria-labelledby="account-detail-title"
      data-testid="account-detail"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <header className="card-head">
        <h2 id="account-detail-title">{title}</h2>
        <button ref={close} type="button" className="btn btn-small" onClick={onClose} aria-keyshortcuts="Escape">
          {t('account.close')} <kbd>Esc</kbd>
        </button>
      </header>
      {!detail ? (
        <p className="empty">{t('common.loading')}</p>
      ) : target.list === 'invoices' && 'items' in detail ? (
        <table className="data" aria-label={t('account.invoiceLines', { number: detail.number })}>
          <thead>
            <tr>
              <th scope="col">{t('account.col.description')}</th>
              <th scope="col" className="num">{t('account.col.quantity')}</th>
              <th scope="col" className="num">{t('account.col.unitPrice')}</th>
              <th scope="col" className="num">{t('account.col.total')}</th>
            </tr>
          </thead>
          <tbody>
            {detail.items.map((it, i) => (
              <tr key={i}>
                <td>{it.description}</td>
                <td className="num">{it.quantity}</td>
                <td className="num">{money(it.unitPrice, detail.currency)}</td>
                <td className="num">{money(it.total, detail.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                {t('account.invoiceFoot', { vat: detail.vatRate, due: calendarDate(detail.dueDate) })}
              </th>
              <td className="num">
                {money(detail.subtotal, detail.currency)} · {money(detail.vatAmount, detail.currency)} · <strong>{money(detail.total, detail.currency)}</strong>
              </td>
            </tr>
          </tfoot>
        </table>
      ) : target.list === 'codLists' ? (
        <table className="data" aria-label={t('account.codShipments', { number: target.number })}>
          <thead>
            <tr>
              <th scope="col">{t('account.col.shipment')}</th>
              <th scope="col">{t('account.col.recipient')}</th>
              <th scope="col">{t('account.col.delivered')}</th>
              <th scope="col" className="num">{t('account.col.cod')}</th>
              <th scope="col" className="num">{t('account.col.paid')}</th>
            </tr>
          </thead>
          <tbody>
            {(detail as CodListDetail).shipments.map((s) => (
              <tr key={s.trackingNumber}>
                <td>
                  <span className="tracking-number">{s.trackingNumber}</span> {s.reference ? <span className="muted">{s.reference}</span> : null}
                </td>
                <td>{s.recipientName}</td>
                <td>{s.deliveredAt ? dateTime(s.deliveredAt) : '—'}</td>
                <td className="num">{money(s.codAmount, detail.currency)}</td>
                <td className="num">{money(s.codPaid, detail.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <table className="data" aria-label={t('account.returnShipments', { number: target.number })}>
          <thead>
            <tr>
              <th scope="col">{t('account.col.shipment')}</th>
              <th scope="col">{t('account.col.return')}</th>
              <th scope="col">{t('account.col.recipient')}</th>
              <th scope="col">{t('account.col.returned')}</th>
              <th scope="col" className="num">{t('account.col.cost')}</th>
            </tr>
          </thead>
          <tbody>
            {(detail as ReturnListDetail).shipments.map((s) => (
              <tr key={s.trackingNumber}>
                <td>
                  <span className="tracking-number">{s.trackingNumber}</span> {s.reference ? <span className="muted">{s.reference}</span> : null}
                </td>
                <td>{s.returnTrackingNumber ?? '—'}</td>
                <td>{s.recipientName}</td>
                <td>{dateTime(s.returnedAt)}</td>
                <td className="num">{money(s.cost, detail.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
