/**
 * The pickup booking form (Pickup screen) and its POST /pickups body
 * (spec: Endpoints > Pickups), validated with the platform's PickupRequest schema.
 */
import { PickupRequest } from '../../../shared/contract';
import { issuesToDetails, type FieldErrors } from '../../../shared/platform';
import { parseDecimal } from './format';
import { t } from './i18n';

/** The pickup form as typed. Weight kg, box cm. */
export interface PickupDraft {
  serviceType: string;
  pickupDate: string;
  pickupTime: 'AM' | 'PM' | 'AMPM';
  count: string;
  totalWeight: string;
  length: string;
  width: string;
  height: string;
  warehouseId: string;
  instructions: string;
}

/** Request from the form: `count` parcels sharing the total weight, each of the usual box size. */
export function pickupRequestOf(d: PickupDraft): PickupRequest {
  const count = parseDecimal(d.count);
  const total = parseDecimal(d.totalWeight);
  const n = count !== undefined && Number.isInteger(count) && count > 0 && count <= 50 ? count : 1;
  const each = total === undefined || Number.isNaN(total) ? total : Math.round((total / n) * 1000) / 1000;
  const pkg = {
    weight: { value: each as number, units: 'KG' as const },
    dimensions: { length: parseDecimal(d.length) as number, width: parseDecimal(d.width) as number, height: parseDecimal(d.height) as number, units: 'CM' as const },
  };
  const req: PickupRequest = { serviceType: d.serviceType, pickupDate: d.pickupDate, pickupTime: d.pickupTime, packages: Array.from({ length: n }, () => pkg) };
  if (d.warehouseId) req.warehouseId = Number(d.warehouseId);
  if (d.instructions.trim()) req.instructions = d.instructions.trim();
  return req;
}

/** Errors of the form, keyed by its own fields (package issues fold onto the one weight/box row). */
export function pickupErrors(d: PickupDraft): FieldErrors {
  const out: FieldErrors = {};
  const count = parseDecimal(d.count);
  if (count === undefined || !Number.isInteger(count) || count < 1 || count > 50) out.count = [t('pickup.countRange')];
  const r = PickupRequest.safeParse(pickupRequestOf(d));
  if (!r.success) Object.assign(out, foldPackagePaths(issuesToDetails(r.error.issues)));
  return out;
}

/** `packages.3.weight.value` -> `totalWeight`, `packages.0.dimensions.length` -> `length`; others unchanged. */
export function foldPackagePaths(details: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(details)) {
    const m = /^packages\.\d+\.(weight\.value|dimensions\.(length|width|height))$/.exec(k);
    const key = m ? (m[2] ?? 'totalWeight') : k;
    out[key] ??= v;
  }
  return out;
}


/**
 * Parcels and total weight (kg) of the day's shipments of `carrierCode` not yet
 * in a manifest: what the courier collects. `weightKg` is null when a
 * shipment's weight is unknown (the packer types it).
 */
export function dayLoadOf(shipments: ReadonlyArray<{ carrier: { code: string }; parcels: number; weightKg: number | null; cancelled: boolean }>, carrierCode: string): { parcels: number; weightKg: number | null; shipments: number } {
  const mine = shipments.filter((s) => s.carrier.code === carrierCode && !s.cancelled);
  let weight: number | null = 0;
  for (const s of mine) weight = weight === null || s.weightKg === null ? null : weight + s.weightKg;
  return { parcels: mine.reduce((a, s) => a + s.parcels, 0), weightKg: weight === null ? null : Math.round(weight * 1000) / 1000, shipments: mine.length };
}
