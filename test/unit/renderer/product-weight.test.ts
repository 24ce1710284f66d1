/**
 * The weight known from product data in the parcel's weight field (issue 24):
 * the plan's parcel weight (products plus the box's tare) fills the one blank
 * weight, marked so; it is not a typed weight; typing or weighing replaces it;
 * several parcels, a typed weight or a weight not from product data are left alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandName, StationApi } from '../../../shared/contract';
import type { ShipPlanView } from '../../../shared/contract/plan';
import { StationError } from '../../../shared/contract/errors';
import type { StationOrder } from '../../../shared/domain/order';
import { setStation } from '../../../renderer/src/api';
import { setLanguage } from '../../../renderer/src/lib/i18n';
import { typedWeightKg, withProductWeight } from '../../../renderer/src/lib/shipFormParcels';
import type { ParcelDraft } from '../../../shared/contract/ship-form';
import { useJob } from '../../../renderer/src/stores/job';

const order = { id: 1, orderNumber: '#1', shop: 'main', status: 'open', delivery: 'ship', needsFix: [], paymentStatus: 'paid', recipient: { name: 'Giulia', street: 'Via Roma 1', city: 'Roma', postalCode: '00184', countryCode: 'IT' }, items: [{ sku: 'TAZ', name: 'Tazza', quantity: 1, unitPrice: 5 }], total: 5, currency: 'EUR' } as unknown as StationOrder;
const parcel = (weight: string): ParcelDraft => ({ weight, length: '40', width: '30', height: '30', box: 'Medium' });
const planned = (value: number): Pick<ShipPlanView, 'weightSource' | 'packages'> => ({ weightSource: 'products', packages: [{ weight: { value, units: 'KG' }, dimensions: { length: 40, width: 30, height: 30, units: 'CM' } }] });

let plan: Pick<ShipPlanView, 'weightSource' | 'packages'>;
beforeEach(() => {
  plan = planned(0.65);
  const api: StationApi = {
    invoke: (async (name: CommandName) => {
      if (name === 'shipping.plan') return plan;
      throw new StationError('unknown_command', name);
    }) as StationApi['invoke'],
    on: () => () => {},
  };
  setStation(api);
  useJob.getState().startBlank();
});
afterEach(async () => {
  await setLanguage('en');
});

describe('withProductWeight', () => {
  it('fills the one blank parcel weight from product data, in the bench’s format, marked; it is not a typed weight', async () => {
    const filled = withProductWeight([parcel('')], planned(0.65));
    expect(filled).toEqual([{ ...parcel('0.65'), fromProducts: true }]);
    expect(typedWeightKg(filled ?? [])).toBeUndefined();
    await setLanguage('it');
    expect(withProductWeight([parcel('')], planned(1.2))?.[0]?.weight).toBe('1,2');
  });

  it('leaves a typed weight, several parcels, and a weight not from product data alone', () => {
    expect(withProductWeight([parcel('0,8')], planned(0.65))).toBeNull();
    expect(withProductWeight([parcel(''), parcel('')], planned(0.65))).toBeNull();
    expect(withProductWeight([parcel('')], { ...planned(0.65), weightSource: null })).toBeNull();
    expect(withProductWeight([parcel('')], { weightSource: 'products', packages: [...(planned(1).packages ?? []), ...(planned(1).packages ?? [])] })).toBeNull();
  });
});

describe('the job store', () => {
  it('puts the product-data weight in the field when the order opens; a typed weight replaces it and is a typed weight again', async () => {
    useJob.getState().startOrder(order);
    await useJob.getState().loadProductWeight();
    const [p] = useJob.getState().draft.parcels;
    expect(p).toMatchObject({ weight: '0.65', fromProducts: true });
    useJob.getState().setParcel(0, 'weight', '0.8');
    expect(useJob.getState().draft.parcels[0]).toMatchObject({ weight: '0.8', fromProducts: false });
    expect(typedWeightKg(useJob.getState().draft.parcels)).toBe(0.8);
  });

  it('leaves the field blank when the weight is not known from product data', async () => {
    plan = { weightSource: null, packages: null };
    useJob.getState().startOrder(order);
    await useJob.getState().loadProductWeight();
    expect(useJob.getState().draft.parcels[0]?.weight).toBe('');
  });
});
