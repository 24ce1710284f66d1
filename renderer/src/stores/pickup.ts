/** Pickup booking: contracts that take pickups, pickup points, booked pickups. */
import { create } from 'zustand';
import type { PickupRequest, ShipmentView } from '../../../shared/contract';
import type { Carrier, FieldErrors, Pickup, Warehouse } from '../../../shared/platform';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';
import { money } from '../lib/format';
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
  load(): Promise<void>;
  book(request: PickupRequest): Promise<boolean>;
  setErrors(errors: FieldErrors): void;
}

/** Pickup store: `carriers.list`, `warehouses.list`, `pickups.list`, `pickups.create`. */
export const usePickup = create<PickupState>()((set) => ({
  carriers: [],
  warehouses: [],
  pickups: [],
  unmanifested: [],
  loading: false,
  booking: false,
  errors: {},

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
      useApp.getState().fail('Could not load carriers and pickup points', e);
    }
  },

  async book(request) {
    const app = useApp.getState();
    set({ booking: true, errors: {} });
    try {
      const p = await invoke('pickups.create', request);
      set({ booking: false });
      app.flash('ok', `Pickup booked for ${p.pickupDate ?? request.pickupDate} ${p.pickupTime ?? request.pickupTime ?? ''}`.trim(), `Carrier reference ${p.pickupId} — cost ${money(p.cost.total, p.cost.currency)}`);
      set({ pickups: await invoke('pickups.list', {}) });
      void app.refreshInfo();
      return true;
    } catch (e) {
      const err = asStationError(e);
      set({ booking: false, errors: err.details ?? {} });
      app.fail('Pickup not booked', err);
      return false;
    }
  },

  setErrors(errors) {
    set({ errors });
  },
}));
