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
      .catch((e: unknown) => live && useApp.getState().fail(`Details of ${target.number} unavailable`, e));
    return () => {
      live = false;
    };
  }, [target]);

  const title = target.list === 'invoices' ? `Invoice ${target.number}` : target.list === 'codLists' ? `Cash on delivery list ${target.number}` : `Return list ${target.number}`;
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
          Close <kbd>Esc</kbd>
        </button>
      </header>
      {!detail ? (
        <p className="empty">Loading…</p>
      ) : target.list === 'invoices' && 'items' in detail ? (
        <table className="data" aria-label={`Lines of invoice ${detail.number}`}>
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col" className="num">Quantity</th>
              <th scope="col" className="num">Unit price</th>
              <th scope="col" className="num">Total</th>
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
                Subtotal · VAT {detail.vatRate}% · total (due {calendarDate(detail.dueDate)})
              </th>
              <td className="num">
                {money(detail.subtotal, detail.currency)} · {money(detail.vatAmount, detail.currency)} · <strong>{money(detail.total, detail.currency)}</strong>
              </td>
            </tr>
          </tfoot>
        </table>
      ) : target.list === 'codLists' ? (
        <table className="data" aria-label={`Shipments of cash on delivery list ${target.number}`}>
          <thead>
            <tr>
              <th scope="col">Shipment</th>
              <th scope="col">Recipient</th>
              <th scope="col">Delivered</th>
              <th scope="col" className="num">COD</th>
              <th scope="col" className="num">Paid</th>
            </tr>
          </thead>
          <tbody>
            {(detail as CodListDetail).shipments.map((s) => (
              <tr key={s.trackingNumber}>
                <td>
                  <span className="ldv">{s.trackingNumber}</span> {s.reference ? <span className="muted">{s.reference}</span> : null}
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
        <table className="data" aria-label={`Shipments of return list ${target.number}`}>
          <thead>
            <tr>
              <th scope="col">Shipment</th>
              <th scope="col">Return</th>
              <th scope="col">Recipient</th>
              <th scope="col">Returned</th>
              <th scope="col" className="num">Cost</th>
            </tr>
          </thead>
          <tbody>
            {(detail as ReturnListDetail).shipments.map((s) => (
              <tr key={s.trackingNumber}>
                <td>
                  <span className="ldv">{s.trackingNumber}</span> {s.reference ? <span className="muted">{s.reference}</span> : null}
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
