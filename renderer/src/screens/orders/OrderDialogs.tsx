/**
 * The dialogs that open an order for shipping, from the Orders panel or a
 * scan: complete an order imported without a postal code (or with a note too
 * long), confirm an unpaid order, choose between shops sharing a number.
 */
import { useCallback, useRef, useState } from 'react';
import { ORDER_LIMITS, normalizePostalCode, recipientProblems, type StationOrder } from '../../../../shared/domain/order';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { TextField } from '../../components/Field';
import { useModalDialog } from '../../components/useModalDialog';
import { money } from '../../lib/format';
import { t } from '../../lib/i18n';
import { useOrders } from '../../stores/orders';
import { useScan } from '../../stores/scan';

/** Completes an order imported without a postal code (or with a note too long), the field highlighted. */
export function FixDialog() {
  const { fixing, fixErrors, fix, closeDialogs } = useOrders();
  const first = useRef<HTMLInputElement>(null);
  const [postalCode, setPostalCode] = useState('');
  const [notes, setNotes] = useState('');
  const onOpen = useCallback(() => {
    const o = useOrders.getState().fixing;
    setPostalCode(o?.recipient.postalCode ?? '');
    setNotes(o?.notes ?? '');
  }, []);
  const ref = useModalDialog(fixing !== null, first, onOpen);
  const o = fixing;
  const needsZip = o?.needsFix.includes('postalCode') ?? false;
  const needsNotes = o?.needsFix.includes('notes') ?? false;
  let zipError = fixErrors.postalCode?.[0];
  if (!zipError && o && needsZip && postalCode.trim() !== '') {
    zipError = recipientProblems({ ...o.recipient, postalCode: normalizePostalCode(postalCode, o.recipient.countryCode) }).postalCode;
  }
  const notesError = fixErrors.notes?.[0] ?? (needsNotes && notes.trim().length > ORDER_LIMITS.notes ? t('orders.notesTooLong', { count: notes.trim().length, max: ORDER_LIMITS.notes }) : undefined);
  return (
    <dialog
      ref={ref}
      className="confirm fix-dialog"
      aria-labelledby="fix-title"
      onCancel={(e) => {
        e.preventDefault();
        closeDialogs();
      }}
    >
      <h2 id="fix-title">
        {t('orders.complete', { order: o?.orderNumber ?? '' })} <span className="shop">{o?.shop}</span>
      </h2>
      {o ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (zipError || notesError) return;
            void fix({ ...(needsZip ? { postalCode } : {}), ...(needsNotes ? { notes: notes.trim() } : {}) });
          }}
        >
          <p>
            {o.recipient.name}, {o.recipient.street}, {o.recipient.city} ({o.recipient.countryCode})
          </p>
          {needsZip ? (
            <TextField
              id="fix-postal"
              ref={first}
              label={['AE', 'HK', 'QA', 'IE'].includes(o.recipient.countryCode) ? t('orders.fixPostalNoCodes', { country: o.recipient.countryCode }) : t('orders.fixPostal')}
              value={postalCode}
              onValue={setPostalCode}
              error={zipError ?? (postalCode.trim() === '' ? t('orders.postalRequired') : undefined)}
              className="field-highlight"
            />
          ) : null}
          {needsNotes ? (
            <div className={`field field-wide field-highlight${notesError ? ' field-bad' : ''}`}>
              <label htmlFor="fix-notes">{t('orders.fixNotes', { max: ORDER_LIMITS.notes })}</label>
              <textarea id="fix-notes" rows={5} value={notes} onChange={(e) => setNotes(e.target.value)} aria-invalid={notesError ? true : undefined} />
              <p className={notesError ? 'field-error' : 'field-hint'}>{notesError ?? `${notes.trim().length} / ${ORDER_LIMITS.notes}`}</p>
            </div>
          ) : null}
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={(needsZip && postalCode.trim() === '') || Boolean(zipError) || Boolean(notesError)}>
              {t('orders.saveAndShip')}
            </button>
            <button type="button" className="btn" onClick={closeDialogs}>
              {t('orders.notNow')} <kbd>Esc</kbd>
            </button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}

/** Asks before shipping an order that is not paid yet. */
export function UnpaidDialog() {
  const { confirmUnpaid: o, confirmUnpaidYes, closeDialogs } = useOrders();
  return (
    <ConfirmDialog
      open={o !== null}
      title={t('orders.unpaidTitle', { order: o?.orderNumber ?? '' })}
      body={o ? (o.total !== undefined ? t('orders.unpaidBodyTotal', { shop: o.shop, total: money(o.total, o.currency) }) : t('orders.unpaidBody', { shop: o.shop })) : ''}
      confirmLabel={t('orders.unpaidYes')}
      cancelLabel={t('orders.unpaidNo')}
      onConfirm={confirmUnpaidYes}
      onCancel={closeDialogs}
    />
  );
}

/** Several shops have the scanned number: 1–9 or a click chooses. */
export function ChoiceDialog() {
  const { choices, closeDialogs } = useOrders();
  // Chosen like a scan: claimed for this bench in the warehouse, then opened (scan.open).
  const choose = (o: StationOrder) => void useScan.getState().openOrder(o);
  const first = useRef<HTMLButtonElement>(null);
  const ref = useModalDialog(choices !== null, first);
  return (
    <dialog
      ref={ref}
      className="confirm"
      aria-labelledby="choice-title"
      onCancel={(e) => {
        e.preventDefault();
        closeDialogs();
      }}
      onKeyDown={(e) => {
        const n = Number(e.key);
        const o = Number.isInteger(n) && n >= 1 ? choices?.orders[n - 1] : undefined;
        if (o) {
          e.preventDefault();
          choose(o);
        }
      }}
    >
      <h2 id="choice-title">{t('orders.whichShop', { code: choices?.code ?? '' })}</h2>
      <ol className="choices">
        {choices?.orders.map((o, i) => (
          <li key={o.id}>
            <button type="button" ref={i === 0 ? first : undefined} className="btn btn-choice" onClick={() => choose(o)} aria-keyshortcuts={String(i + 1)}>
              <kbd>{i + 1}</kbd> <span className="shop">{o.shop}</span> <b>{o.orderNumber}</b> — {o.recipient.name}, {o.recipient.city} ({o.recipient.countryCode}) · {t(`orders.status.${o.status}`)}
              {o.paymentStatus === 'unpaid' ? ` · ${t('orders.tag.unpaid')}` : ''}
            </button>
          </li>
        ))}
      </ol>
      <div className="actions">
        <button type="button" className="btn" onClick={closeDialogs}>
          {t('orders.noneOfThese')} <kbd>Esc</kbd>
        </button>
      </div>
    </dialog>
  );
}
