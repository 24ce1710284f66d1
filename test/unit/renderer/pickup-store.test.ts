/**
 * The Pickup screen's form goes to the core (issue 22 item 4), the renderer's
 * side: the store sends the form as typed to `pickups.check` and
 * `pickups.book` (with the form, never a request of its own); a form with fields to fix stops
 * before GET /pickups; a booking like one already booked (same contract,
 * date, warehouse) asks first, and the packer's yes books the same form;
 * a second press while one is in flight is ignored. The core's answers are
 * the real ones (electron/core/pickups/pickup-form.ts) over a JSON round
 * trip, with a recorded booking behind them.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { CommandInput, CommandName, StationApi } from '../../../shared/contract';
import type { PickupRequest } from '../../../shared/contract';
import { StationError } from '../../../shared/contract/errors';
import type { PickupDraft } from '../../../shared/contract/pickup-form';
import type { Pickup } from '../../../shared/platform';
import { createPickupFormHandlers } from '../../../electron/core/pickups/pickup-form';
import { setStation } from '../../../renderer/src/api';
import { useApp } from '../../../renderer/src/stores/app';
import { usePickup } from '../../../renderer/src/stores/pickup';

const booked: Pickup = { id: 1, pickupId: 'BRTR20261127000001', cost: { total: 3, currency: 'EUR' }, serviceType: 'BRT-STD', pickupDate: '2026-11-27', pickupTime: 'AM', warehouseId: 2, packages: 1, status: 'booked' };

const form: PickupDraft = { serviceType: 'BRT-STD', pickupDate: '2026-11-27', pickupTime: 'PM', count: '3', totalWeight: '7,5', length: '40', width: '30', height: '30', warehouseId: '2', instructions: ' ring twice ' };

let calls: Array<{ name: string; input: unknown }>;
let created: PickupRequest[];
let listed: Pickup[];

beforeEach(() => {
  calls = [];
  created = [];
  listed = [booked];
  const core = createPickupFormHandlers(async (request) => {
    created.push(request);
    return { ...booked, id: 2, pickupId: 'BRTR20261127000002', pickupTime: request.pickupTime };
  });
  const api: StationApi = {
    invoke: (async (name: CommandName, input: CommandInput<CommandName>) => {
      calls.push({ name, input });
      // As over a transport: JSON in.
      const sent = JSON.parse(JSON.stringify(input ?? {})) as { form: PickupDraft };
      if (name === 'pickups.check') return core['pickups.check'](sent);
      if (name === 'pickups.book') return core['pickups.book'](sent);
      if (name === 'pickups.list') return listed;
      throw new StationError('unknown_command', name);
    }) as StationApi['invoke'],
    on: () => () => {},
  };
  setStation(api);
  usePickup.setState({ booking: false, duplicate: null, formErrors: {}, errors: {}, pickups: [] });
  useApp.setState({ banner: null });
});

const names = () => calls.map((c) => c.name).filter((n) => n.startsWith('pickups.'));

describe('the Pickup screen sends its form; the core checks and books it', () => {
  it('a form with fields to fix stops at the check: errors by the form’s names, nothing listed or booked', async () => {
    expect(await usePickup.getState().book({ ...form, count: '0', totalWeight: '' })).toBe('invalid');
    expect(usePickup.getState().formErrors).toEqual({ count: ['Parcels must be a whole number from 1 to 50'], totalWeight: ['Weight is required'] });
    expect(useApp.getState().banner).toMatchObject({ kind: 'error', detail: 'Parcels must be a whole number from 1 to 50' });
    expect(names()).toEqual(['pickups.check']);
    expect(usePickup.getState().booking).toBe(false);
  });

  it('the same contract, date and point asks first; yes books the form as typed, once', async () => {
    expect(await usePickup.getState().book(form)).toBe('duplicate');
    expect(usePickup.getState().duplicate).toEqual({ existing: booked, form });
    expect(created).toEqual([]);

    const yes = usePickup.getState().book(form, true);
    // A second yes while the first is in flight books nothing.
    expect(await usePickup.getState().book(form, true)).toBe('ignored');
    expect(await yes).toBe('booked');
    expect(usePickup.getState().duplicate).toBeNull();
    expect(calls.filter((c) => c.name === 'pickups.book').map((c) => c.input)).toEqual([{ form }]);
    expect(calls.every((c) => c.name !== 'pickups.book' || !('request' in (c.input as object)))).toBe(true);
    const parcel = { weight: { value: 2.5, units: 'KG' }, dimensions: { length: 40, width: 30, height: 30, units: 'CM' } };
    expect(created).toEqual([{ serviceType: 'BRT-STD', pickupDate: '2026-11-27', pickupTime: 'PM', packages: [parcel, parcel, parcel], warehouseId: 2, instructions: 'ring twice' }]);
    expect(useApp.getState().banner?.kind).toBe('ok');
  });

  it('another pickup point is no repeat: booked without asking', async () => {
    expect(await usePickup.getState().book({ ...form, warehouseId: '3' })).toBe('booked');
    expect(names()).toEqual(['pickups.check', 'pickups.list', 'pickups.book', 'pickups.list']);
    expect(created[0]?.warehouseId).toBe(3);
  });

  it('a refused booking keeps the core’s details on the form’s fields', async () => {
    // 3 parcels of 1200 kg: over the station's bound, which the check does not know.
    expect(await usePickup.getState().book({ ...form, warehouseId: '3', totalWeight: '3600' })).toBe('failed');
    expect(usePickup.getState().errors).toEqual({ totalWeight: ['A parcel weighs at most 1000 kg'] });
    expect(created).toEqual([]);
  });
});
