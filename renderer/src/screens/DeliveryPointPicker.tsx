/**
 * Delivery to a carrier delivery point (Ship screen), for the carrier whose
 * points GET /delivery-points searches (`brt`, shared/platform/lookups.ts):
 * search by the recipient's city and CAP, arrows move in the list, Enter
 * takes a point, which goes to POST /shipments as `options.deliveryPoint`.
 */
import { useEffect, useRef, useState } from 'react';
import { DELIVERY_POINT_CARRIER, type DeliveryPoint } from '../../../shared/platform';
import { invoke } from '../api';
import { t } from '../lib/i18n';
import { decimalText } from '../lib/format';
import { useApp } from '../stores/app';
import { useJob } from '../stores/job';

/** The picker; shows nothing unless the chosen rate is of the pickup-point carrier. */
export function DeliveryPointPicker({ error }: { error: string | undefined }) {
  const job = useJob();
  const { draft, chosen } = job;
  const [points, setPoints] = useState<DeliveryPoint[] | null>(null);
  const [active, setActive] = useState(0);
  const [busy, setBusy] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  // A fresh list takes the focus: arrows and Enter choose at once.
  useEffect(() => {
    if (points?.length) listRef.current?.focus();
  }, [points]);
  if (!chosen || chosen.carrierCode !== DELIVERY_POINT_CARRIER) {
    return draft.deliveryPoint ? (
      <p className="field-error" role="alert">
        {t('deliveryPoint.wrongCarrier', { carrier: chosen?.carrierName ?? DELIVERY_POINT_CARRIER.toUpperCase() })}{' '}
        <button type="button" className="btn btn-small" onClick={() => job.setDeliveryPoint(null)}>
          {t('deliveryPoint.clear')}
        </button>
      </p>
    ) : null;
  }
  const { city, postalCode } = draft.recipient;
  const search = async () => {
    setBusy(true);
    try {
      const res = await invoke('deliveryPoints.search', { city, postalCode });
      setPoints(res.points);
      setActive(0);
    } catch (e) {
      useApp.getState().fail(t('deliveryPoint.list'), e);
    } finally {
      setBusy(false);
    }
  };
  const take = (p: DeliveryPoint) => {
    job.setDeliveryPoint({ id: p.id, carrier: DELIVERY_POINT_CARRIER, name: p.name, street: p.address.street, city: p.address.city });
    setPoints(null);
    // The list goes away: the packer confirms next (Ctrl+Enter works from the Ship button).
    setTimeout(() => document.querySelector<HTMLButtonElement>('button[aria-keyshortcuts="Control+Enter"]')?.focus(), 0);
  };
  return (
    <fieldset className="card" aria-describedby={error ? 'dp-err' : undefined}>
      <legend>{t('deliveryPoint.title')}</legend>
      {draft.deliveryPoint ? (
        <p data-testid="delivery-point-chosen">
          <strong>{t('deliveryPoint.chosen', { name: draft.deliveryPoint.name, street: draft.deliveryPoint.street, city: draft.deliveryPoint.city })}</strong>{' '}
          <button type="button" className="btn btn-small" onClick={() => job.setDeliveryPoint(null)}>
            {t('deliveryPoint.clear')}
          </button>
        </p>
      ) : (
        <p className="muted">{t('deliveryPoint.offer', { carrier: chosen.carrierName })}</p>
      )}
      {error ? (
        <p id="dp-err" className="field-error">
          {error}
        </p>
      ) : null}
      <button type="button" className="btn" onClick={() => void search()} disabled={busy || !city.trim() || !postalCode.trim()} aria-keyshortcuts="Alt+D">
        {t('deliveryPoint.search', { city, postalCode })}
      </button>
      {points !== null && points.length === 0 ? <p className="note-warn">{t('deliveryPoint.none', { city, postalCode })}</p> : null}
      {points && points.length > 0 ? (
        <ul
          ref={listRef}
          className="choice-list"
          role="listbox"
          tabIndex={0}
          aria-label={t('deliveryPoint.list')}
          aria-activedescendant={`dp-${active}`}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, points.length - 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
            else if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) take(points[active]!);
            else if (e.key === 'Escape') setPoints(null);
            else return;
            e.preventDefault();
            e.stopPropagation();
          }}
        >
          {points.map((p, i) => (
            <li key={p.id} id={`dp-${i}`} role="option" aria-selected={i === active} onClick={() => take(p)}>
              <strong>{p.name}</strong> — {p.address.street}, {p.address.postalCode} {p.address.city} · {t(`deliveryPoint.${p.type}`)} · {t('deliveryPoint.distance', { km: decimalText(p.distanceMeters / 1000, 1, 1) })}
              {p.codAccepted ? ` · ${t('deliveryPoint.cod')}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
