/**
 * Pickup booking: contracts that take pickups, warehouses, booked pickups.
 * The screen keeps the form as typed and sends it as the packer's intent; the
 * core builds POST /pickups (electron/core/pickups/pickup-form.ts). Field
 * errors: `pickups.check`; booking: `pickups.book` with the form.
 */
import { create } from 'zustand';
import type { PickupRequest, ShipmentView } from '../../../shared/contract';
import type { PickupDraft } from '../../../shared/contract/pickup-form';
import type { Carrier, FieldErrors, Pickup, Warehouse } from '../../../shared/platform';
import { invoke } from '../api';
import { asStationError, stripPrefix } from '../lib/errors';
import { calendarDate, money } from '../lib/format';
import { t } from '../lib/i18n';
import { fieldMessage } from '../lib/messages';
import { useApp } from './app';

interface PickupState {
  carriers: Carrier[];
  warehouses: Warehouse[];
  pickups: Pickup[];
  /** Shipments not yet in a manifest: what the couriers collect next (prefills parcels and weight). */
  unmanifested: ShipmentView[];
  loading: boolean;
  booking: boolean;
  /** The form's field errors as the core last checked them (`pickups.check`), keyed by the form's own fields. */
  formErrors: FieldErrors;
  /** The `details` of the last refused booking (the platform's 422 or the station's bounds), folded by the core onto the form's fields. */
  errors: FieldErrors;
  /** A booking asked for that matches one already booked (same contract, date, warehouse): waits for the packer's answer. */
  duplicate: { existing: Pickup; form: PickupDraft } | null;
  load(): Promise<void>;
  /** Asks the core for the form's field errors (`pickups.check`) into `formErrors`; only the newest answer is kept. */
  check(form: PickupDraft): Promise<void>;
  /**
   * Books a pickup from the form as typed (`pickups.book`, POST /pickups). A
   * call while one is in flight is ignored (`'ignored'`): a second Enter must
   * not book and pay twice, and the spec has no pickup cancellation. A form
   * the core finds fields to fix in (`pickups.check`) stops with `'invalid'`
   * (errors in `formErrors`, banner "fix the marked fields"). Unless
   * `confirmed`, it then reads GET /pickups (`pickups.list`) and, when a
   * booking for the same contract, date and warehouse exists, stops with
   * `'duplicate'` and sets `duplicate` for the confirmation. Resolves
   * `'booked'` or `'failed'` (errors in `errors`).
   */
  book(form: PickupDraft, confirmed?: boolean): Promise<'booked' | 'failed' | 'ignored' | 'duplicate' | 'invalid'>;
  /** Drops the pending duplicate question (the packer said no). */
  dismissDuplicate(): void;
  setErrors(errors: FieldErrors): void;
}

/**
 * The booked pickup that `form` would repeat: same contract (`serviceType`),
 * same `pickupDate` and same warehouse (`warehouseId`; a form without one
 * means the default point, so any booked point matches). Cancelled ones do not count.
 */
function matchingPickup(pickups: readonly Pickup[], form: PickupDraft): Pickup | undefined {
  const warehouseId = form.warehouseId ? Number(form.warehouseId) : undefined;
  return pickups.find(
    (p) =>
      p.status !== 'cancelled' &&
      p.serviceType === form.serviceType &&
      p.pickupDate === form.pickupDate &&
      (warehouseId === undefined || p.warehouseId == null || p.warehouseId === warehouseId),
  );
}

/** A pickup's day and time window in words: `26/11/2026, Afternoon (PM)` (the locale's date). */
export function whenText(date: string, time: PickupRequest['pickupTime'] | null | undefined): string {
  return time ? `${calendarDate(date)}, ${t(`pickup.windows.${time}`)}` : calendarDate(date);
}

/** The core's field errors of `form`; a refused check's own `details` (`form.instructions`: text too long) on the form's fields. */
async function formErrorsOf(form: PickupDraft): Promise<FieldErrors> {
  try {
    return await invoke('pickups.check', { form });
  } catch (e) {
    const err = asStationError(e);
    if (err.code === 'invalid_input' && err.details) return stripPrefix(err.details, 'form');
    throw err;
  }
}

/** Pickup store: `carriers.list`, `warehouses.list`, `pickups.list`, `pickups.check`, `pickups.book`. */
export const usePickup = create<PickupState>()((set, get) => {
  /** Checks asked so far; only the newest answer is shown. */
  let checks = 0;
  return {
    carriers: [],
    warehouses: [],
    pickups: [],
    unmanifested: [],
    loading: false,
    booking: false,
    formErrors: {},
    errors: {},
    duplicate: null,

    async load() {
      set({ loading: true });
      try {
        const [carriers, warehouses, pickups, unmanifested] = await Promise.all([
          invoke('carriers.list', {}),
          invoke('warehouses.list', {}),
          invoke('pickups.list', {}),
          invoke('shipments.unmanifested', {}),
        ]);
        set({ carriers, warehouses, pickups, unmanifested, loading: false });
      } catch (e) {
        set({ loading: false });
        useApp.getState().fail(t('pickup.loadFailed'), e);
      }
    },

    async check(form) {
      const seq = ++checks;
      // The core unreachable: no field errors shown; the press itself says why.
      const formErrors = await formErrorsOf(form).catch(() => ({}));
      if (seq === checks) set({ formErrors });
    },

    async book(form, confirmed = false) {
      if (get().booking) return 'ignored';
      const app = useApp.getState();
      // Synchronous: the next Enter's submit sees `booking` already true.
      set({ booking: true, duplicate: null });
      try {
        const seq = ++checks;
        const invalid = await formErrorsOf(form);
        if (Object.keys(invalid).length) {
          if (seq === checks) set({ formErrors: invalid });
          set({ booking: false });
          const first = Object.values(invalid)[0]?.[0];
          app.flash('error', t('pickup.fixFields'), first === undefined ? undefined : fieldMessage(first));
          return 'invalid';
        }
        set({ errors: {} });
        if (!confirmed) {
          const pickups = await invoke('pickups.list', {});
          set({ pickups });
          const existing = matchingPickup(pickups, form);
          if (existing) {
            set({ booking: false, duplicate: { existing, form } });
            return 'duplicate';
          }
        }
        const p = await invoke('pickups.book', { form });
        app.flash('ok', t('pickup.bookedFor', { when: whenText(p.pickupDate ?? form.pickupDate, p.pickupTime ?? form.pickupTime) }), t('pickup.bookedDetail', { id: p.pickupId, cost: money(p.cost.total, p.cost.currency) }));
        // The new booking joins the list (or at least the local one) before the form unlocks.
        const pickups = await invoke('pickups.list', {}).catch(() => [p, ...get().pickups.filter((x) => x.id !== p.id)]);
        set({ booking: false, pickups });
        void app.refreshInfo();
        return 'booked';
      } catch (e) {
        const err = asStationError(e);
        set({ booking: false, errors: err.details ?? {} });
        app.fail(t('pickup.notBooked'), err);
        return 'failed';
      }
    },

    dismissDuplicate() {
      set({ duplicate: null });
    },

    setErrors(errors) {
      set({ errors });
    },
  };
});
