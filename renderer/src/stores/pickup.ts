/** Pickup booking: contracts that take pickups, pickup points, booked pickups. */
import { create } from 'zustand';
import type { PickupRequest, ShipmentView } from '../../../shared/contract';
import type { Carrier, FieldErrors, Pickup, Warehouse } from '../../../shared/platform';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';
import { calendarDate, money } from '../lib/format';
import { t } from '../lib/i18n';
import { useApp } from './app';

interface PickupState {
  carriers: Carrier[];
  warehouses: Warehouse[];
  pickups: Pickup[];
  /** Shipments not yet in a manifest: what the couriers collect next (prefills parcels and weight). */
  unmanifested: ShipmentView[];
  loading: boolean;
  booking: boolean;
  errors: FieldErrors;
  /** A booking asked for that matches one already booked (same contract, date, pickup point): waits for the packer's answer. */
  duplicate: { existing: Pickup; request: PickupRequest } | null;
  load(): Promise<void>;
  /**
   * Books a pickup (`pickups.create`, POST /pickups). A call while one is in
   * flight is ignored (`'ignored'`): a second Enter must not book and pay twice,
   * and the spec has no pickup cancellation. Unless `confirmed`, it first reads
   * GET /pickups (`pickups.list`) and, when a booking for the same contract,
   * date and pickup point exists, stops with `'duplicate'` and sets `duplicate`
   * for the confirmation. Resolves `'booked'` or `'failed'` (errors in `errors`).
   */
  book(request: PickupRequest, confirmed?: boolean): Promise<'booked' | 'failed' | 'ignored' | 'duplicate'>;
  /** Drops the pending duplicate question (the packer said no). */
  dismissDuplicate(): void;
  setErrors(errors: FieldErrors): void;
}

/**
 * The booked pickup that `request` would repeat: same contract (`serviceType`),
 * same `pickupDate` and same pickup point (`warehouseId`; a request without one
 * means the default point, so any booked point matches). Cancelled ones do not count.
 */
function matchingPickup(pickups: readonly Pickup[], request: PickupRequest): Pickup | undefined {
  return pickups.find(
    (p) =>
      p.status !== 'cancelled' &&
      p.serviceType === request.serviceType &&
      p.pickupDate === request.pickupDate &&
      (request.warehouseId === undefined || p.warehouseId == null || p.warehouseId === request.warehouseId),
  );
}

/** A pickup's day and time window in words: `26/11/2026, Afternoon (PM)` (the locale's date). */
export function whenText(date: string, time: PickupRequest['pickupTime'] | null | undefined): string {
  return time ? `${calendarDate(date)}, ${t(`pickup.windows.${time}`)}` : calendarDate(date);
}

/** Pickup store: `carriers.list`, `warehouses.list`, `pickups.list`, `pickups.create`. */
export const usePickup = create<PickupState>()((set, get) => ({
  carriers: [],
  warehouses: [],
  pickups: [],
  unmanifested: [],
  loading: false,
  booking: false,
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

  async book(request, confirmed = false) {
    if (get().booking) return 'ignored';
    const app = useApp.getState();
    // Synchronous: the next Enter's submit sees `booking` already true.
    set({ booking: true, errors: {}, duplicate: null });
    try {
      if (!confirmed) {
        const pickups = await invoke('pickups.list', {});
        set({ pickups });
        const existing = matchingPickup(pickups, request);
        if (existing) {
          set({ booking: false, duplicate: { existing, request } });
          return 'duplicate';
        }
      }
      const p = await invoke('pickups.create', request);
      app.flash('ok', t('pickup.bookedFor', { when: whenText(p.pickupDate ?? request.pickupDate, p.pickupTime ?? request.pickupTime) }), t('pickup.bookedDetail', { id: p.pickupId, cost: money(p.cost.total, p.cost.currency) }));
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
}));
