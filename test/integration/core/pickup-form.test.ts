/**
 * The Pickup screen's intent (issue 22 item 4) through the commands, against
 * the sandbox: the packer's form as typed goes to `pickups.check` and
 * `pickups.book`; the core builds POST /pickups. Proof: the body the sandbox
 * received carries the form's parcels (count, weight shared, box), date,
 * window, pickup point and instructions, and the booked pickup says the
 * same; bad fields come back under the form's own names (`count`,
 * `totalWeight`, `length`, `pickupDate`) and nothing reaches the sandbox on a
 * bad form; the platform's own refusal names the form's field too.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PickupDraft } from '../../../shared/contract/pickup-form';
import { pickupDate, stationFailure } from './helpers';
import { useStation } from './station-fixture';

const fx = useStation({ options: () => ({ fetch: recording, platformTimeoutMs: 5000, printerTimeoutMs: 2000, platformRateLimits: false }) });
const invoke = fx.invoke;

/** Every request the station sent, `METHOD pathname` with its body (POST /pickups is what matters). */
const sent: Array<{ call: string; body: string | null }> = [];
const recording = (async (input: RequestInfo | URL, init?: RequestInit) => {
  sent.push({ call: `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`, body: typeof init?.body === 'string' ? init.body : null });
  return fetch(input, init);
}) as typeof fetch;
const posts = () => sent.filter((s) => /^POST \S*\/pickups$/.test(s.call));

let contractCode: string;
let warehouseId: number;

/** A form as the packer fills it: 3 parcels, 7,5 kg in all (typed the Italian way), the 40 × 30 × 30 box. */
function form(over: Partial<PickupDraft> = {}): PickupDraft {
  return { serviceType: contractCode, pickupDate: pickupDate(), pickupTime: 'PM', count: '3', totalWeight: '7,5', length: '40', width: '30', height: '30', warehouseId: String(warehouseId), instructions: ' Citofono 3 ', ...over };
}

/** The next Sunday after `from` (`YYYY-MM-DD`): the sandbox refuses a pickup then (422 `pickupDate`). */
function nextSunday(from = new Date()): string {
  const d = new Date(from.getTime() + 86_400_000);
  while (d.getUTCDay() !== 0) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

beforeAll(async () => {
  const carriers = await invoke('carriers.list');
  contractCode = carriers.find((c) => c.canRequestPickup)!.contracts[0]!.contractCode;
  warehouseId = (await invoke('warehouses.list'))[0]!.id;
});

beforeEach(() => {
  sent.length = 0;
});

describe('the pickup form: the core builds POST /pickups', () => {
  it('names the bad fields by the form’s own names, sending nothing', async () => {
    const bad = form({ serviceType: '', count: '0', totalWeight: '', length: 'abc', pickupDate: '23/11/2026' });
    const errors = await invoke('pickups.check', { form: bad });
    expect(errors).toEqual({
      count: ['Parcels must be a whole number from 1 to 50'],
      serviceType: ['Contract is required'],
      pickupDate: ['Date must be YYYY-MM-DD'],
      totalWeight: ['Weight is required'],
      length: [expect.stringMatching(/^Length must be a number/)],
    });
    expect(Object.keys(errors)[0]).toBe('count');
    expect(await invoke('pickups.check', { form: form() })).toEqual({});

    const err = await stationFailure(invoke('pickups.book', { form: bad }));
    expect(err.code).toBe('invalid_input');
    expect(err.message).toBe('The pickup form has errors: count: Parcels must be a whole number from 1 to 50');
    expect(err.details).toEqual(errors);
    expect(sent).toEqual([]);
  });

  it('folds the station’s parcel bounds onto the weight field, sending nothing', async () => {
    // 3 parcels sharing 3600 kg: 1200 kg each, over the station's 1000 kg a parcel.
    const heavy = form({ totalWeight: '3600' });
    expect(await invoke('pickups.check', { form: heavy })).toEqual({});
    const err = await stationFailure(invoke('pickups.book', { form: heavy }));
    expect(err.code).toBe('invalid_input');
    expect(err.details).toEqual({ totalWeight: ['A parcel weighs at most 1000 kg'] });
    expect(posts()).toEqual([]);
  });

  it('books the form’s parcels, box, window, point and instructions', async () => {
    const before = (await invoke('pickups.list')).length;
    const p = await invoke('pickups.book', { form: form() });
    expect(posts()).toHaveLength(1);
    const body = JSON.parse(posts()[0]!.body!) as Record<string, unknown>;
    const parcel = { weight: { value: 2.5, units: 'KG' }, dimensions: { length: 40, width: 30, height: 30, units: 'CM' } };
    expect(body).toEqual({ serviceType: contractCode, pickupDate: pickupDate(), packages: [parcel, parcel, parcel], pickupTime: 'PM', warehouseId, instructions: 'Citofono 3' });
    expect(p).toMatchObject({ serviceType: contractCode, pickupDate: pickupDate(), pickupTime: 'PM', packages: 3, weight: { value: 7.5, units: 'KG' }, warehouseId, instructions: 'Citofono 3' });
    expect(p.pickupId).toBeTruthy();
    const list = await invoke('pickups.list');
    expect(list).toHaveLength(before + 1);
    expect(list.map((x) => x.pickupId)).toContain(p.pickupId);
  });

  it('passes the platform’s refusal on under the form’s field', async () => {
    const sunday = nextSunday();
    const err = await stationFailure(invoke('pickups.book', { form: form({ pickupDate: sunday }) }));
    expect(err.code).toBe('validation_failed');
    expect(err.details).toEqual({ pickupDate: ['Carriers do not collect on Sunday'] });
    expect(posts()).toHaveLength(1);
  });

  it('refuses a form that is not the form', async () => {
    const err = await stationFailure(invoke('pickups.check', { form: { ...form(), pickupTime: 'NOON' } } as never));
    expect(err.code).toBe('invalid_input');
    expect(err.details).toEqual({ 'form.pickupTime': ['Pickup time must be AM, PM or AMPM'] });
  });
});
