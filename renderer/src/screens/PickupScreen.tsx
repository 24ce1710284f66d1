/**
 * Pickup booking: contract (of carriers that take pickups), date, time window
 * (AM / PM / AMPM), parcels (count, total weight kg, usual box cm), pickup
 * point. The form goes to the core as typed, which checks it with the platform's
 * `PickupRequest` schema (`pickups.check`) and books it (`pickups.book`). Booked pickups below.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FieldErrors } from '../../../shared/platform';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DateField } from '../components/DateField';
import { ErrorList, SelectField, TextField } from '../components/Field';
import { focusFirstInvalid } from '../lib/focus';
import { calendarDate, decimalText, kg, money, nextWorkingDay } from '../lib/format';
import { hasText, t } from '../lib/i18n';
import { dayLoadOf } from '../lib/pickupForm';
import type { PickupDraft } from '../../../shared/contract/pickup-form';
import { useApp } from '../stores/app';
import { usePickup, whenText } from '../stores/pickup';

/** Pickup booking screen (see file comment). */
export function PickupScreen() {
  const { carriers, warehouses, pickups, unmanifested, loading, booking, duplicate, formErrors, errors: serverErrors, load, check, book, dismissDuplicate } = usePickup();
  const focusTick = useApp((s) => s.focusTick);
  const first = useRef<HTMLSelectElement>(null);
  const [d, setD] = useState<PickupDraft>(emptyDraft);
  const [submitted, setSubmitted] = useState(false);
  /** After a booking: the form is blank again and the focus back on its first field (see renderer/README.md, focus map). */
  const afterBooking = (r: Awaited<ReturnType<typeof book>>) => {
    if (r === 'failed' || r === 'invalid') focusFirstInvalid(document.getElementById('pickup-form'));
    if (r !== 'booked') return;
    setSubmitted(false);
    setD(emptyDraft());
    requestAnimationFrame(() => first.current?.focus());
  };

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    first.current?.focus();
  }, [focusTick]);

  const contracts = useMemo(
    () => carriers.filter((c) => c.canRequestPickup).flatMap((c) => c.contracts.filter((k) => !k.paused).map((k) => ({ carrier: c.carrierName, carrierCode: c.carrierCode, code: k.contractCode, name: k.contractName }))),
    [carriers],
  );
  const noBookings = carriers.filter((c) => !c.canRequestPickup);
  const allNames = useMemo(() => new Map(carriers.flatMap((c) => c.contracts.map((k) => [k.contractCode, `${c.carrierName} — ${k.contractName}`] as const))), [carriers]);
  /** Choosing a contract prefills parcels and weight from that carrier's shipments not yet in a manifest. */
  const chooseContract = (code: string) => {
    const c = contracts.find((x) => x.code === code);
    if (!c) return set({ serviceType: code });
    const load = dayLoadOf(unmanifested, c.carrierCode);
    set({ serviceType: code, ...(load.parcels > 0 ? { count: String(Math.min(load.parcels, 50)), totalWeight: load.weightKg === null ? '' : decimalText(load.weightKg) } : {}) });
  };
  const chosenLoad = (() => {
    const c = contracts.find((x) => x.code === (d.serviceType || (contracts.length === 1 ? contracts[0]!.code : '')));
    return c ? { carrier: c.carrier, ...dayLoadOf(unmanifested, c.carrierCode) } : null;
  })();
  // Defaults once the lists arrive: the only contract, the default warehouse.
  const serviceType = d.serviceType || (contracts.length === 1 ? contracts[0]!.code : '');
  const warehouseId = d.warehouseId || String(warehouses.find((w) => w.isDefault)?.id ?? '');
  const form = useMemo(() => ({ ...d, serviceType, warehouseId }), [d, serviceType, warehouseId]);
  // The core checks the form after every edit, so shown errors clear as soon as a field is fixed.
  useEffect(() => {
    void check(form);
  }, [form, check]);
  const errors: FieldErrors = { ...formErrors, ...serverErrors };
  const err = (k: string) => (submitted ? errors[k]?.[0] : undefined);
  const set = (patch: Partial<PickupDraft>) => setD({ ...form, ...patch });
  const known = new Set(['serviceType', 'pickupDate', 'pickupTime', 'count', 'totalWeight', 'length', 'width', 'height', 'warehouseId', 'instructions', 'packages']);

  return (
    <section className="screen" aria-labelledby="pickup-title">
      <h1 id="pickup-title" className="screen-title">
        {t('pickup.title')}
      </h1>
      <form
        id="pickup-form"
        className="card"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(true);
          // The store asks the core to check the form first ("fix the marked fields"); a repeat Enter while this one is in flight is ignored.
          void book(form).then(afterBooking);
        }}
      >
        <ErrorList title={t('pickup.alsoCheck')} errors={submitted ? Object.entries(errors).filter(([k]) => !known.has(k)) : []} />
        <div className="grid-3">
          <SelectField id="pk-contract" label={t('pickup.contract')} value={serviceType} onValue={chooseContract} error={err('serviceType')} ref={first}>
            <option value="">{loading ? t('common.loading') : contracts.length ? t('pickup.chooseContract') : t('pickup.noContracts')}</option>
            {contracts.map((c) => (
              <option key={c.code} value={c.code}>
                {c.carrier} — {c.name}
              </option>
            ))}
          </SelectField>
          <DateField id="pk-date" label={t('pickup.date')} value={form.pickupDate} onValue={(v) => set({ pickupDate: v })} error={err('pickupDate')} />
          <fieldset className="radio-group">
            <legend>{t('pickup.window')}</legend>
            {(['AM', 'PM', 'AMPM'] as const).map((w) => (
              <label key={w} className="radio">
                <input type="radio" name="pk-time" value={w} checked={form.pickupTime === w} onChange={() => set({ pickupTime: w })} />
                {t(`pickup.windows.${w}`)}
              </label>
            ))}
          </fieldset>
          <TextField id="pk-count" label={t('pickup.parcels')} value={form.count} onValue={(v) => set({ count: v })} error={err('count')} inputMode="numeric" className="field-num" />
          <TextField id="pk-weight" label={t('pickup.totalWeight')} value={form.totalWeight} onValue={(v) => set({ totalWeight: v })} error={err('totalWeight')} inputMode="decimal" className="field-num" />
          <SelectField id="pk-warehouse" label={t('pickup.warehouse')} value={warehouseId} onValue={(v) => set({ warehouseId: v })} error={err('warehouseId')}>
            <option value="">{t('pickup.defaultWarehouse')}</option>
            {warehouses.map((w) => (
              <option key={w.id} value={String(w.id)}>
                {w.name} — {w.address.street}, {w.address.city}
                {w.freePickup ? ` ${t('pickup.freePickup')}` : ''}
              </option>
            ))}
          </SelectField>
          <TextField id="pk-length" label={t('pickup.length')} value={form.length} onValue={(v) => set({ length: v })} error={err('length')} inputMode="decimal" className="field-num" />
          <TextField id="pk-width" label={t('pickup.width')} value={form.width} onValue={(v) => set({ width: v })} error={err('width')} inputMode="decimal" className="field-num" />
          <TextField id="pk-height" label={t('pickup.height')} value={form.height} onValue={(v) => set({ height: v })} error={err('height')} inputMode="decimal" className="field-num" />
          <TextField id="pk-notes" label={t('pickup.instructions')} value={form.instructions} onValue={(v) => set({ instructions: v })} error={err('instructions')} wide />
        </div>
        {chosenLoad ? (
          <p className="muted" data-testid="pickup-day-load">
            {chosenLoad.shipments > 0
              ? t(chosenLoad.weightKg === null ? 'pickup.dayLoad' : 'pickup.dayLoadKg', {
                  carrier: chosenLoad.carrier,
                  shipments: t('pickup.waitingShipments', { count: chosenLoad.shipments }),
                  parcels: t('parcels.count', { count: chosenLoad.parcels }),
                  kg: kg(chosenLoad.weightKg ?? 0),
                })
              : t('pickup.dayLoadNone', { carrier: chosenLoad.carrier })}
          </p>
        ) : null}
        {noBookings.length ? (
          <ul className="muted" aria-label={t('pickup.noBookingLabel')} data-testid="no-pickup-carriers">
            {noBookings.map((c) => (
              <li key={c.carrierCode}>
                {t('pickup.noBooking', { carrier: c.carrierName, contracts: c.contracts.map((k) => k.contractName).join(', ') })}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="actions">
          <button type="submit" className="btn btn-primary btn-big" disabled={booking}>
            {booking ? t('pickup.booking') : t('pickup.book')}
          </button>
        </div>
      </form>

      <section className="card" aria-labelledby="pickups-title">
        <h2 id="pickups-title">{t('pickup.booked')}</h2>
        {pickups.length === 0 ? (
          <p className="empty">{t('pickup.noneBooked')}</p>
        ) : (
          <table className="table" aria-label={t('pickup.booked')} data-testid="pickups">
            <thead>
              <tr>
                <th scope="col">{t('pickup.col.date')}</th>
                <th scope="col">{t('pickup.col.window')}</th>
                <th scope="col">{t('pickup.col.contract')}</th>
                <th scope="col">{t('pickup.col.parcels')}</th>
                <th scope="col">{t('pickup.col.reference')}</th>
                <th scope="col">{t('pickup.col.cost')}</th>
                <th scope="col">{t('pickup.col.status')}</th>
              </tr>
            </thead>
            <tbody>
              {pickups.map((p) => (
                <tr key={p.id}>
                  <td>{p.pickupDate ? calendarDate(p.pickupDate) : '—'}</td>
                  <td>{p.pickupTime ? t(`pickup.windows.${p.pickupTime}`) : '—'}</td>
                  <td>{(p.serviceType ? allNames.get(p.serviceType) : undefined) ?? p.carrierCode ?? '—'}</td>
                  <td>{p.packages ?? '—'}</td>
                  <td>
                    <code>{p.pickupId}</code>
                  </td>
                  <td>{money(p.cost.total, p.cost.currency)}</td>
                  <td>{statusText(p.status ?? 'booked')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <ConfirmDialog
        open={duplicate !== null}
        title={t('pickup.duplicateTitle')}
        body={
          duplicate
            ? t('pickup.duplicateBody', {
                id: duplicate.existing.pickupId,
                when: whenText(duplicate.existing.pickupDate ?? duplicate.form.pickupDate, duplicate.existing.pickupTime),
                parcels: duplicate.existing.packages === undefined ? '?' : t('parcels.count', { count: duplicate.existing.packages }),
                cost: money(duplicate.existing.cost.total, duplicate.existing.cost.currency),
              })
            : ''
        }
        confirmLabel={t('pickup.duplicateYes')}
        cancelLabel={t('pickup.duplicateNo')}
        onConfirm={() => {
          if (duplicate) void book(duplicate.form, true).then(afterBooking);
        }}
        onCancel={() => {
          dismissDuplicate();
          requestAnimationFrame(() => first.current?.focus());
        }}
      />
    </section>
  );
}

/** A booking state in words (`booked` -> "booked" / "prenotato"); an unknown state as the platform sent it. */
function statusText(status: string): string {
  const key = `pickup.status.${status}`;
  return hasText(key) ? t(key) : status;
}

/** A blank booking form: next working day, all day, one parcel of the usual 40×30×30 cm box. */
function emptyDraft(): PickupDraft {
  return {
    serviceType: '',
    pickupDate: nextWorkingDay(new Date()),
    pickupTime: 'AMPM',
    count: '1',
    totalWeight: '',
    length: '40',
    width: '30',
    height: '30',
    warehouseId: '',
    instructions: '',
  };
}
