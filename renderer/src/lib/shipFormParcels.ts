/**
 * The parcels of the quote/ship form: a parcel as typed (weight kg,
 * dimensions cm, box preset), the box a new parcel takes, the box rule (a
 * parcel without any dimension asks for a box) and whether the volume rather
 * than the weight decides the billed weight. Paths are the spec's `details`
 * paths (`packages.0.weight.value`, `packages.0.dimensions.length`).
 */
import type { FieldErrors, Rate } from '../../../shared/platform';
import type { BoxPreset } from '../../../shared/contract/boxes';
import type { ShipPlanView } from '../../../shared/contract/plan';
import { decimalText, parseDecimal } from './format';

/** One parcel as typed: weight kg, dimensions cm, and the box preset whose dimensions these are ('' when typed by hand). */
export interface PackageDraft {
  weight: string;
  /** True while `weight` is the weight known from product data (issue 24), not typed or weighed: the field says so, and it is not a typed weight. */
  fromProducts?: boolean;
  length: string;
  width: string;
  height: string;
  box: string;
}

/** The fields of a parcel a packer types (the box name is chosen, not typed). */
export type PackageField = 'weight' | 'length' | 'width' | 'height';

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

/** Path of a package field in `details`: `packages.<i>.weight.value`, `packages.<i>.dimensions.length`. */
export function packagePath(index: number, field: PackageField): string {
  return field === 'weight' ? `packages.${index}.weight.value` : `packages.${index}.dimensions.${field}`;
}

/**
 * A new parcel: blank weight and the given box (the one used last, or the
 * station's default preset). Without a box the dimensions stay blank and the
 * quote asks for one: never a silent default size (issue 14 item 3).
 */
export function emptyPackage(box?: BoxChoice): PackageDraft {
  return { weight: '', length: box?.length ?? '', width: box?.width ?? '', height: box?.height ?? '', box: box?.name ?? '' };
}

/** The parcels as the `packages` of POST /rates and POST /shipments: weight KG, dimensions CM (numbers parsed; blanks left for the schema to name). */
export function packagesOf(packages: readonly PackageDraft[]) {
  return packages.map((p) => ({
    weight: { value: parseDecimal(p.weight) as number, units: 'KG' as const },
    dimensions: {
      length: parseDecimal(p.length) as number,
      width: parseDecimal(p.width) as number,
      height: parseDecimal(p.height) as number,
      units: 'CM' as const,
    },
  }));
}

/** Message on a parcel that has no dimensions at all: the packer chooses a box. */
export const CHOOSE_BOX = 'Choose a box (Alt+1–9, or its number or barcode in Box) or type the dimensions';

/** A parcel without any dimension gets one message, on its length, asking for a box (instead of three "required"). Changes and returns `errors`. */
export function withChooseBox(packages: readonly PackageDraft[], errors: FieldErrors): FieldErrors {
  packages.forEach((p, i) => {
    if (p.length.trim() !== '' || p.width.trim() !== '' || p.height.trim() !== '') return;
    errors[packagePath(i, 'length')] = [CHOOSE_BOX];
    delete errors[packagePath(i, 'width')];
    delete errors[packagePath(i, 'height')];
  });
  return errors;
}

/**
 * When the carrier bills the volume rather than the weight: the rate's
 * billable weight (kg) above the parcels' real weight. Returns both figures
 * (kg) or null when the real weight decides (or the weights are not numbers).
 * Source: spec Rate `billableWeight` = max(real, volumetric).
 */
export function volumetricDecides(d: { readonly packages: readonly PackageDraft[] }, rate: Pick<Rate, 'billableWeight' | 'volumetricWeight'>): { realKg: number; billableKg: number } | null {
  let realKg = 0;
  for (const p of d.packages) {
    const w = parseDecimal(p.weight);
    if (w === undefined || Number.isNaN(w)) return null;
    realKg += w;
  }
  const toKg = (w: { value: number; units: string }) => (w.units === 'G' ? w.value / 1000 : w.value);
  const billableKg = toKg(rate.billableWeight);
  return billableKg > realKg + 0.0005 && toKg(rate.volumetricWeight) >= billableKg - 0.0005 ? { realKg, billableKg } : null;
}

/** The parcels' total weight as typed (kg), or undefined while one is blank or not a number. */
export function typedWeightKg(packages: readonly PackageDraft[]): number | undefined {
  let sum = 0;
  for (const p of packages) {
    if (p.fromProducts) return undefined;
    const w = parseDecimal(p.weight);
    if (w === undefined || Number.isNaN(w) || w <= 0) return undefined;
    sum += w;
  }
  return packages.length ? Math.round(sum * 1000) / 1000 : undefined;
}

/**
 * The parcels with the weight the core's plan ships from product data (the products' weight plus the
 * box's tare, kg) in the one parcel's blank weight field, marked {@link PackageDraft.fromProducts};
 * null when the plan's weight is not from product data, or the form is not one parcel with a blank weight.
 */
export function withProductWeight(packages: readonly PackageDraft[], plan: Pick<ShipPlanView, 'weightSource' | 'packages'>): PackageDraft[] | null {
  const [only] = packages;
  const planned = plan.packages?.[0]?.weight;
  if (plan.weightSource !== 'products' || !only || packages.length !== 1 || only.weight.trim() !== '' || plan.packages?.length !== 1 || !planned) return null;
  const kg = planned.units === 'G' ? planned.value / 1000 : planned.value;
  return [{ ...only, weight: decimalText(Math.round(kg * 1000) / 1000), fromProducts: true }];
}
