/**
 * Ship: recipient (prefilled from the order), parcels, reference, options
 * (COD with a method of the chosen contract, insurance, notes). Errors come
 * from the platform's `ShipmentRequest` schema on blur and on submit, and the
 * platform's own `details` land on the same fields. Ctrl+Enter ships; plain
 * Enter in a field does not (a stray scanner Enter must not spend money).
 * A customs declaration is filled from what is known (the core's plan) and
 * the focus visits only its missing fields: Enter moves to the next, then to
 * Ship (issue 24 item 6).
 */
import { useEffect, useRef } from 'react';
import { CheckField, ErrorList, SelectField, TextField, keepFocusOnMouseDown } from '../components/Field';
import { focusFirstInvalid } from '../lib/focus';
import { dateTime, money } from '../lib/format';
import { t } from '../lib/i18n';
import { usePrint } from '../stores/print';
import { customsOf, firstError, shipFormPaths, unplacedErrors } from '../lib/shipForm';
import { RECIPIENT_PATHS, type RecipientDraft } from '../../../shared/contract/ship-form';
import { useApp } from '../stores/app';
import { mergeErrors, useJob } from '../stores/job';
import { missingCustomsFields } from '../lib/shipFormCustoms';
import { CustomsEditor } from './CustomsEditor';
import { DeliveryPointPicker } from './DeliveryPointPicker';
import { ParcelsEditor } from './ParcelsEditor';
import { OrderChangedNotice } from '../components/OrderChangedNotice';
import { BoxLine } from '../components/BoxLine';
import { RuleLine } from '../components/RuleLine';
import { typedWeightKg } from '../lib/shipFormParcels';

const RECIPIENT_FIELDS: Array<[keyof RecipientDraft, string, { wide?: boolean; type?: string }]> = [
  ['name', 'ship.field.name', {}],
  ['company', 'ship.field.company', {}],
  ['street', 'ship.field.street', { wide: true }],
  ['street2', 'ship.field.street2', { wide: true }],
  ['postalCode', 'ship.field.postalCode', {}],
  ['city', 'ship.field.city', {}],
  ['province', 'ship.field.province', {}],
  ['countryCode', 'ship.field.countryCode', {}],
  ['phone', 'ship.field.phone', { type: 'tel' }],
  ['email', 'ship.field.email', { type: 'email' }],
];

/** Focuses the next field the declaration misses after `from` (screen order; the first when null), or `ship` when none is left. */
function focusNextMissing(from: Element | null, ship: HTMLElement | null): void {
  const fields = missingCustomsFields(useJob.getState().draft.customs)
    .map((id) => document.getElementById(id))
    .filter((el): el is HTMLElement => el !== null && el !== from);
  const next = from ? fields.find((el) => from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) : fields[0];
  (next ?? ship)?.focus();
}

/** Ship screen (see file comment). */
export function ShipScreen() {
  const job = useJob();
  const { order, draft, chosen, touched, submitted, shipping } = job;
  const shipErrors = mergeErrors(job.shipErrors, job.platformErrors);
  const focusTick = useApp((s) => s.focusTick);
  const form = useRef<HTMLFormElement>(null);
  const go = useApp((s) => s.go);
  const shipBtn = useRef<HTMLButtonElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);

  // With a rate chosen and a prefilled recipient the packer usually just confirms: focus Ship.
  // A customs declaration: filled from what is known first, then the focus goes only to what is missing (issue 24 item 6).
  useEffect(() => {
    const s = useJob.getState();
    if (s.chosen && s.draft.recipient.name) shipBtn.current?.focus();
    else nameInput.current?.focus();
    if (!s.order || !customsOf(s.draft).required) return;
    let live = true;
    void s.fillCustomsFromPlan().then(() => {
      if (live && useJob.getState().chosen && useJob.getState().draft.recipient.name) focusNextMissing(null, shipBtn.current);
    });
    return () => {
      live = false;
    };
  }, [focusTick]);

  const show = (path: string) => submitted || Boolean(touched[path]) || path in job.platformErrors;
  const err = (path: string) => (show(path) ? firstError(shipErrors, path) : undefined);
  const methods = chosen ? Object.entries(chosen.cashOnDeliveryMethods) : [];
  const stale = job.quoteIsStale();
  const customs = customsOf(draft);

  return (
    <section className="screen" aria-labelledby="ship-title">
      <h1 id="ship-title" className="screen-title">
        {t('ship.title')} {order ? <span className="subtitle" data-testid="ship-order">{t('ship.order', { order: order.orderNumber })}{order.shop !== 'main' ? ` · ${t('ship.shop', { shop: order.shop })}` : ''}</span> : null}
      </h1>
      <OrderChangedNotice />
      <RuleLine orderId={order?.id} weightKg={typedWeightKg(draft.parcels)} />
      <BoxLine orderId={order?.id} weightKg={typedWeightKg(draft.parcels)} />
      <form
        ref={form}
        className="ship-layout"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void job.ship().then((ok) => ok || focusFirstInvalid(form.current));
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void job.ship().then((ok) => ok || focusFirstInvalid(form.current));
          } else if (e.key === 'Enter' && e.target instanceof HTMLInputElement && e.target.type !== 'checkbox') {
            e.preventDefault(); // no implicit submit from a text field
            // In a customs line: Enter moves on to the next missing field, then to Ship.
            if (/^customs-\d+-/.test(e.target.id)) focusNextMissing(e.target, shipBtn.current);
          }
        }}
      >
        <div className="ship-main">
          <ErrorList title={t('ship.alsoReports')} errors={submitted ? unplacedErrors(shipErrors, shipFormPaths(draft)) : []} />
          <fieldset className="card">
            <legend>{t('ship.recipient')}</legend>
            <div className="grid-2">
              {RECIPIENT_FIELDS.map(([f, label, o]) => (
                <TextField
                  key={f}
                  id={`ship-${f}`}
                  label={t(label)}
                  value={draft.recipient[f]}
                  onValue={(v) => job.setRecipient(f, v)}
                  onBlur={() => job.touch(RECIPIENT_PATHS[f])}
                  error={err(RECIPIENT_PATHS[f])}
                  wide={o.wide}
                  type={o.type}
                  ref={f === 'name' ? nameInput : undefined}
                />
              ))}
            </div>
          </fieldset>
          <div className="card">
            <ParcelsEditor errors={shipErrors} show={show} idPrefix="ship-pkg" />
          </div>
          <DeliveryPointPicker error={err('options.deliveryPoint.id') ?? err('options.deliveryPoint.carrier') ?? err('options.deliveryPoint')} />
          {customs.required ? <CustomsEditor errors={shipErrors} show={show} status={customs} /> : null}
          <fieldset className="card">
            <legend>{t('ship.options')}</legend>
            <div className="grid-2">
              <TextField id="ship-reference" label={t('ship.reference')} value={draft.reference} onValue={(v) => job.setDraft({ reference: v })} onBlur={() => job.touch('reference')} error={err('reference')} />
              <TextField id="ship-notes" label={t('ship.notes')} value={draft.notes} onValue={(v) => job.setDraft({ notes: v })} onBlur={() => job.touch('options.notes')} error={err('options.notes')} />
            </div>
            <div className="option-row">
              <CheckField id="ship-cod" label={t('ship.cod')} checked={draft.codEnabled} onChecked={(v) => job.setDraft({ codEnabled: v })} />
              {draft.codEnabled ? (
                <>
                  <TextField id="ship-cod-amount" label={t('ship.codAmount')} value={draft.codAmount} onValue={(v) => job.setDraft({ codAmount: v })} onBlur={() => job.touch('options.cod.amount')} error={err('options.cod.amount')} inputMode="decimal" className="field-num" />
                  <SelectField id="ship-cod-method" label={t('ship.codMethod')} value={draft.codMethod} onValue={(v) => job.setDraft({ codMethod: v })} onBlur={() => job.touch('options.cod.method')} error={err('options.cod.method')}>
                    <option value="">{methods.length ? t('ship.choose') : t('ship.codNotOffered')}</option>
                    {methods.map(([k, label]) => (
                      <option key={k} value={k}>
                        {label}
                      </option>
                    ))}
                  </SelectField>
                </>
              ) : null}
            </div>
            <div className="option-row">
              <CheckField id="ship-ins" label={t('ship.insurance')} checked={draft.insuranceEnabled} onChecked={(v) => job.setDraft({ insuranceEnabled: v })} />
              {draft.insuranceEnabled ? (
                <TextField id="ship-ins-amount" label={t('ship.insuredValue')} value={draft.insuranceAmount} onValue={(v) => job.setDraft({ insuranceAmount: v })} onBlur={() => job.touch('options.insurance.amount')} error={err('options.insurance.amount')} inputMode="decimal" className="field-num" />
              ) : null}
            </div>
          </fieldset>
        </div>

        <aside className="ship-side card" aria-label={t('ship.chosenRate')}>
          {job.result?.shippedElsewhere ? (
            <div className="note-warn" role="alert" data-testid="shipped-elsewhere">
              <strong>{t('duplicate.title')}</strong>
              <p>
                <span className="tracking-number">{job.result.shipment.trackingNumber}</span> — {job.result.shipment.carrier.name} — {job.result.shipment.carrier.contractName} · {dateTime(job.result.shipment.createdAt)}
              </p>
              <button type="button" className="btn" aria-keyshortcuts="Alt+R" onClick={() => void usePrint.getState().reprint(job.result!.shipment.trackingNumber)}>
                {t('duplicate.reprint')} <kbd>Alt+R</kbd>
              </button>
            </div>
          ) : null}
          {chosen ? (
            <>
              <div className="rate-carrier">{chosen.carrierName}</div>
              <div className="rate-contract">{chosen.contractName}</div>
              <div className="rate-total">{money(chosen.price.total, chosen.price.currency)}</div>
              {stale ? <p className="note-warn">{t('ship.stale')}</p> : null}
            </>
          ) : (
            <p className="note-warn">{t('ship.noRate')}</p>
          )}
          <button type="button" className="btn" onClick={() => go('quote')} aria-keyshortcuts="F2">
            {t('ship.changeRate')} <kbd>F2</kbd>
          </button>
          <button ref={shipBtn} type="submit" className="btn btn-primary btn-huge" disabled={shipping || !chosen || Boolean(job.result?.shippedElsewhere)} aria-keyshortcuts="Control+Enter" onMouseDown={keepFocusOnMouseDown}>
            {shipping ? t('ship.shipping') : t('ship.submit')} <kbd>Ctrl+Enter</kbd>
          </button>
        </aside>
      </form>
    </section>
  );
}
