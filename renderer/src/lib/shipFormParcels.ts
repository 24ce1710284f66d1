/**
 * The parcels of the quote/ship form: the box a new parcel takes, and
 * whether the volume rather than the weight decides the billed weight. A
 * parcel as typed, its `details` paths and the box rule are the contract's
 * (shared/contract/ship-form.ts); the core checks them.
 */
import type { Rate } from '../../../shared/platform';
import type { ParcelDraft } from '../../../shared/contract/ship-form';
import type { BoxPreset } from '../../../shared/contract/boxes';
import type { ShipPlanView } from '../../../shared/contract/plan';
import { decimalText, parseDecimal } from './format';

/** A box as a new parcel takes it: preset name ('' for dimensions typed by hand) and dimensions cm as text. */
export interface BoxChoice {
  name: string;
  length: string;
  width: string;
  height: string;
}

/** The dimensions of a box preset as a parcel's text fields. */
export function boxChoice(preset: Pick<BoxPreset, 'name' | 'lengthCm' | 'widthCm' | 'heightCm'>): BoxChoice {
  return { name: preset.name, length: decimalText(preset.lengthCm), width: decimalText(preset.widthCm), height: decimalText(preset.heightCm) };
}

/**
 * A new parcel: blank weight and the given box (the one used last, or the
 * station's default preset). Without a box the dimensions stay blank and the
 * quote asks for one: never a silent default size (issue 14 item 3).
 */
export function emptyParcel(box?: BoxChoice): ParcelDraft {
  return { weight: '', length: box?.length ?? '', width: box?.width ?? '', height: box?.height ?? '', box: box?.name ?? '' };
}

/**
 * When the carrier bills the volume rather than the weight: the rate's
 * billable weight (kg) above the parcels' real weight. Returns both figures
 * (kg) or null when the real weight decides (or the weights are not numbers).
 * Source: spec Rate `billableWeight` = max(real, volumetric).
 */
export function volumetricDecides(d: { readonly parcels: readonly ParcelDraft[] }, rate: Pick<Rate, 'billableWeight' | 'volumetricWeight'>): { realKg: number; billableKg: number } | null {
  let realKg = 0;
  for (const p of d.parcels) {
    const w = parseDecimal(p.weight);
    if (w === undefined || Number.isNaN(w)) return null;
    realKg += w;
  }
  const toKg = (w: { value: number; units: string }) => (w.units === 'G' ? w.value / 1000 : w.value);
  const billableKg = toKg(rate.billableWeight);
  return billableKg > realKg + 0.0005 && toKg(rate.volumetricWeight) >= billableKg - 0.0005 ? { realKg, billableKg } : null;
}

/** The parcels' total weight as typed (kg), or undefined while one is blank or not a number. */
export function typedWeightKg(parcels: readonly ParcelDraft[]): number | undefined {
  let sum = 0;
  for (const p of parcels) {
    if (p.fromProducts) return undefined;
    const w = parseDecimal(p.weight);
    if (w === undefined || Number.isNaN(w) || w <= 0) return undefined;
    sum += w;
  }
  return parcels.length ? Math.round(sum * 1000) / 1000 : undefined;
}

/**
 * The parcels with the weight the core's plan ships from product data (the products' weight plus the
 * box's tare, kg) in the one parcel's blank weight field, marked {@link ParcelDraft.fromProducts};
 * null when the plan's weight is not from product data, or the form is not one parcel with a blank weight.
 */
export function withProductWeight(parcels: readonly ParcelDraft[], plan: Pick<ShipPlanView, 'weightSource' | 'packages'>): ParcelDraft[] | null {
  const [only] = parcels;
  const planned = plan.packages?.[0]?.weight;
  if (plan.weightSource !== 'products' || !only || parcels.length !== 1 || only.weight.trim() !== '' || plan.packages?.length !== 1 || !planned) return null;
  const kg = planned.units === 'G' ? planned.value / 1000 : planned.value;
  return [{ ...only, weight: decimalText(Math.round(kg * 1000) / 1000), fromProducts: true }];
}
