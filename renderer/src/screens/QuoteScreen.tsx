/**
 * Quote: parcels (weight kg, dimensions cm) of the order being packed, then
 * every rate side by side, cheapest first, with total, breakdown, billable
 * weight, zone and services. Digits 1..9 choose a rate, arrows move the
 * highlight, Enter chooses the highlighted one.
 */
import { useEffect, useRef } from 'react';
import type { Rate } from '../../../shared/platform';
import { keepFocusOnMouseDown } from '../components/Field';
import { focusFirstInvalid } from '../lib/focus';
import { kg, money } from '../lib/format';
import { hasText, t } from '../lib/i18n';
import { firstError, rateKeyAction } from '../lib/shipForm';
import { volumetricDecides } from '../lib/shipFormParcels';
import { useApp } from '../stores/app';
import { useAutoShip } from '../stores/autoship';
import { mergeErrors, useJob } from '../stores/job';
import { ParcelsEditor } from './ParcelsEditor';
import { OrderChangedNotice } from '../components/OrderChangedNotice';
import { BoxLine } from '../components/BoxLine';
import { RuleLine } from '../components/RuleLine';
import { typedWeightKg } from '../lib/shipFormParcels';

const BREAKDOWN: Array<[keyof Rate['price']['breakdown'], string]> = [
  ['weight', 'quote.breakdown.weight'],
  ['fuel', 'quote.breakdown.fuel'],
  ['insurance', 'quote.breakdown.insurance'],
  ['cod', 'quote.breakdown.cod'],
  ['services', 'quote.breakdown.services'],
  ['extra', 'quote.breakdown.extra'],
  ['pickup', 'quote.breakdown.pickup'],
];

/** Quote screen (see file comment). */
export function QuoteScreen() {
  const { order, draft, rates, quoting, highlighted, submitted, touched, quote, choose, highlight, quoteIsStale } = useJob();
  const quoteErrors = mergeErrors(useJob((s) => s.quoteErrors), useJob((s) => s.platformErrors));
  const focusTick = useApp((s) => s.focusTick);
  const list = useRef<HTMLDivElement>(null);
  const firstWeight = useRef<HTMLInputElement>(null);

  // Arriving here: rates ready -> the list takes the keys; otherwise the weight field.
  useEffect(() => {
    if (useJob.getState().rates.length && !useJob.getState().quoteIsStale()) list.current?.focus();
    else firstWeight.current?.focus();
  }, [focusTick]);

  const stale = quoteIsStale();
  /** The packer sees when the box's volume, not the weight, sets the price (issue 14 item 3). */
  const volumetric = (rate: Rate) => {
    const v = volumetricDecides(draft, rate);
    return v ? (
      <div className="tag tag-warn rate-volumetric" data-testid="volumetric">
        {t('boxes.volumetric', { billable: kg(v.billableKg, 'KG'), real: kg(v.realKg, 'KG') })}
      </div>
    ) : null;
  };
  const r = draft.recipient;
  const err = (path: string) => (submitted || touched[path] ? firstError(quoteErrors, path) : undefined);

  return (
    <section className="screen" aria-labelledby="quote-title">
      <h1 id="quote-title" className="screen-title">
        {t('quote.title')} {order ? <span className="subtitle">{t('ship.order', { order: order.orderNumber })}{order.shop !== 'main' ? ` · ${t('ship.shop', { shop: order.shop })}` : ''}</span> : null}
      </h1>
      <OrderChangedNotice />
      <RuleLine orderId={order?.id} weightKg={typedWeightKg(draft.parcels)} />
      <BoxLine orderId={order?.id} weightKg={typedWeightKg(draft.parcels)} />
      <div className="dest">
        <strong>{r.name || t('quote.noRecipient')}</strong> — {r.postalCode || '?'} {r.city} ({r.countryCode || '?'})
        {err('recipient.address.postalCode') ? <span className="field-error"> {err('recipient.address.postalCode')}</span> : null}
        {err('recipient.address.countryCode') ? <span className="field-error"> {err('recipient.address.countryCode')}</span> : null}
      </div>
      <form
        className="card"
        noValidate
        aria-label={t('quote.parcels')}
        onSubmit={(e) => {
          e.preventDefault();
          const formEl = e.currentTarget;
          // A typed weight and Enter: a rule may ship it by itself (the countdown shows); else the quote as usual.
          void useAutoShip
            .getState()
            .consider(typedWeightKg(useJob.getState().draft.parcels))
            .then((started) => (started ? null : quote()))
            .then((ok) => {
              if (ok === null) return;
              if (ok) list.current?.focus();
              else focusFirstInvalid(formEl);
            });
        }}
      >
        <ParcelsEditor errors={quoteErrors} show={(p) => submitted || Boolean(touched[p])} firstRef={firstWeight} />
        <div className="actions">
          <button type="submit" className="btn btn-primary btn-big" disabled={quoting} aria-keyshortcuts="Enter" onMouseDown={keepFocusOnMouseDown}>
            {quoting ? t('quote.quoting') : t('quote.submit')} <kbd>Enter</kbd>
          </button>
          {stale ? <span className="note-warn">{t('quote.stale')}</span> : null}
        </div>
      </form>

      {rates.length === 0 ? <p className="empty">{quoting ? t('quote.asking') : t('quote.noRates')}</p> : null}
      <div
        ref={list}
        hidden={rates.length === 0}
        className="rates"
        role="listbox"
        tabIndex={0}
        aria-label={t('quote.ratesLabel')}
        aria-activedescendant={rates.length ? `rate-${highlighted}` : undefined}
        onKeyDown={(e) => {
          const a = rateKeyAction(e.key, highlighted, rates.length, e);
          if (!a) return;
          e.preventDefault();
          if ('choose' in a) choose(a.choose);
          else highlight(a.highlight);
        }}
      >
        {rates.map((rate, i) => (
          <div
            key={`${rate.carrierCode}-${rate.contractCode}`}
            id={`rate-${i}`}
            role="option"
            aria-selected={i === highlighted}
            className={`rate${i === highlighted ? ' rate-hi' : ''}${stale ? ' rate-stale' : ''}`}
            onClick={() => choose(i)}
            data-testid="rate"
          >
            <div className="rate-key" aria-hidden="true">
              {i < 9 ? i + 1 : ''}
            </div>
            <div className="rate-carrier">{rate.carrierName}</div>
            <div className="rate-contract">{rate.contractName}</div>
            <div className="rate-total">{money(rate.price.total, rate.price.currency)}</div>
            {i === 0 ? <div className="tag tag-ok">{t('quote.cheapest')}</div> : null}
            {volumetric(rate)}
            <dl className="rate-breakdown">
              {BREAKDOWN.filter(([k]) => rate.price.breakdown[k] !== 0).map(([k, label]) => (
                <div key={k}>
                  <dt>{t(label)}</dt>
                  <dd>{money(rate.price.breakdown[k], rate.price.currency)}</dd>
                </div>
              ))}
            </dl>
            <dl className="rate-facts">
              <div>
                <dt>{t('quote.billable')}</dt>
                <dd>
                  {kg(rate.billableWeight.value, rate.billableWeight.units)} <span className="muted">(vol. {kg(rate.volumetricWeight.value, rate.volumetricWeight.units)})</span>
                </dd>
              </div>
              <div>
                <dt>{t('quote.zone')}</dt>
                <dd>{rate.zone ? (hasText(`zone.${rate.zone}`) ? t(`zone.${rate.zone}`) : rate.zone) : '—'}</dd>
              </div>
              <div className="stack">
                <dt>{t('quote.services')}</dt>
                <dd>{rate.services.length ? rate.services.map((s) => s.serviceName).join(', ') : '—'}</dd>
              </div>
              <div className="stack">
                <dt>{t('quote.cod')}</dt>
                <dd>{Object.keys(rate.cashOnDeliveryMethods).length ? Object.values(rate.cashOnDeliveryMethods).join(', ') : t('quote.codNotOffered')}</dd>
              </div>
            </dl>
          </div>
        ))}
      </div>
    </section>
  );
}
