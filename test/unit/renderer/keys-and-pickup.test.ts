/** Global screen keys and the pickup form's POST /pickups body as the core builds it (electron/core/pickups/pickup-form.ts). */
import { describe, expect, it } from 'vitest';
import { PickupRequest } from '../../../shared/contract';
import { nextWorkingDay } from '../../../renderer/src/lib/format';
import { checkPickupForm as pickupErrors, foldPackagePaths, pickupRequestOf } from '../../../electron/core/pickups/pickup-form';
import type { PickupDraft } from '../../../shared/contract/pickup-form';
import { screenForKey } from '../../../renderer/src/stores/app';

const k = (key: string, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; code: string }> = {}) => ({ key, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });

describe('screenForKey', () => {
  it('maps F1..F10 and Alt+letters, ignores Ctrl/Meta/Shift combinations', () => {
    expect(screenForKey(k('F1'))).toBe('scan');
    expect(screenForKey(k('F2'))).toBe('quote');
    expect(screenForKey(k('F6'))).toBe('day');
    expect(screenForKey(k('h', { altKey: true }))).toBe('ship');
    expect(screenForKey(k('ß', { altKey: true, code: 'KeyS' }))).toBe('scan');
    expect(screenForKey(k('F1', { ctrlKey: true }))).toBeNull();
    expect(screenForKey(k('q'))).toBeNull();
    expect(screenForKey(k('F7'))).toBe('queue');
    expect(screenForKey(k('o', { altKey: true }))).toBe('queue');
    expect(screenForKey(k('F8'))).toBe('settings');
    expect(screenForKey(k('a', { altKey: true }))).toBe('settings');
    expect(screenForKey(k('F9'))).toBe('stocks');
    expect(screenForKey(k('g', { altKey: true }))).toBe('stocks');
    expect(screenForKey(k('F10'))).toBe('account');
    expect(screenForKey(k('b', { altKey: true }))).toBe('account');
    expect(screenForKey(k('F11'))).toBeNull();
  });
});

const draft: PickupDraft = {
  serviceType: 'BRT-STD',
  pickupDate: '2026-11-23',
  pickupTime: 'PM',
  count: '3',
  totalWeight: '7,5',
  length: '40',
  width: '30',
  height: '30',
  warehouseId: '2',
  instructions: ' ring twice ',
};

describe('pickup form', () => {
  it('spreads the total weight over the parcels and passes the platform schema', () => {
    const req = pickupRequestOf(draft);
    expect(req.packages).toHaveLength(3);
    expect(req.packages[0]!.weight).toEqual({ value: 2.5, units: 'KG' });
    expect(req).toMatchObject({ serviceType: 'BRT-STD', pickupDate: '2026-11-23', pickupTime: 'PM', warehouseId: 2, instructions: 'ring twice' });
    expect(PickupRequest.safeParse(req).success).toBe(true);
    expect(pickupErrors(draft)).toEqual({});
  });

  it('reports bad fields under the form names', () => {
    const e = pickupErrors({ ...draft, serviceType: '', count: '0', totalWeight: '', pickupDate: '23/11/2026' });
    expect(e.serviceType).toEqual(['Contract is required']);
    expect(e.count).toEqual(['Parcels must be a whole number from 1 to 50']);
    expect(e.totalWeight).toEqual(['Weight is required']);
    expect(e.pickupDate).toEqual(['Date must be YYYY-MM-DD']);
    expect(foldPackagePaths({ 'packages.2.dimensions.width': ['w'], instructions: ['i'] })).toEqual({ width: ['w'], instructions: ['i'] });
  });

  it('defaults the pickup date to the next working day', () => {
    expect(nextWorkingDay(new Date(2026, 10, 20))).toBe('2026-11-23'); // Friday -> Monday
    expect(nextWorkingDay(new Date(2026, 10, 23))).toBe('2026-11-24');
  });
});
