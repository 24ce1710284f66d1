/**
 * The packer's pickup form becomes the platform's request here (issue 22
 * item 4): the Pickup screen sends the form as typed
 * (shared/contract/pickup-form.ts); the core builds POST /pickups (spec:
 * Endpoints > Pickups), checks it with the platform's own `PickupRequest`
 * schema (shared/platform) and names each bad field by the form's own field:
 * the parcels share one weight/box row, so `packages.3.weight.value` is
 * `totalWeight` and `packages.0.dimensions.length` is `length`. Weights kg,
 * dimensions cm.
 */
import type { Handlers } from '../../../shared/contract/commands';
import { BoundedPickupRequest } from '../../../shared/contract/commands/define';
import { StationError } from '../../../shared/contract/errors';
import { PICKUP_COUNT_RANGE, type PickupDraft } from '../../../shared/contract/pickup-form';
import { parseDecimal } from '../../../shared/domain/decimal';
import { PickupRequest, issuesToDetails, type FieldErrors } from '../../../shared/platform';
import type { Pickup } from '../../../shared/platform/resources';
import type { z } from 'zod';
import { toStationError } from '../common/errors';

/**
 * POST /pickups body from the form: `count` parcels (1 when `count` is not a
 * whole number from 1 to 50) sharing the total weight (kg, to the gram),
 * each of the usual box size (cm); `warehouseId` and `instructions` (trimmed)
 * only when given. Blank and junk numbers are kept (undefined, NaN) for the
 * schema to name the field. Not validated: see {@link checkPickupForm}.
 */
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

/** `packages.3.weight.value` -> `totalWeight`, `packages.0.dimensions.length` -> `length`; other paths unchanged; the first message list per field wins. */
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
 * Field errors of the form, keyed by its own fields (`count` first when out
 * of range, then the platform schema's issues folded onto the one weight/box
 * row); empty when the platform's `PickupRequest` schema accepts the request.
 */
export function checkPickupForm(d: PickupDraft): FieldErrors {
  const out: FieldErrors = {};
  const count = parseDecimal(d.count);
  if (count === undefined || !Number.isInteger(count) || count < 1 || count > 50) out.count = [PICKUP_COUNT_RANGE];
  const r = PickupRequest.safeParse(pickupRequestOf(d));
  if (!r.success) Object.assign(out, foldPackagePaths(issuesToDetails(r.error.issues)));
  return out;
}

/** `invalid_input` naming the form's fields, the first in the message. */
function formRefused(what: string, errors: FieldErrors): StationError {
  const first = Object.entries(errors)[0];
  return new StationError('invalid_input', `${what}: ${first ? `${first[0]}: ${first[1][0] ?? 'invalid'}` : 'invalid input'}`, errors);
}

/**
 * Handlers of the pickup form: `pickups.check` (the form's field errors,
 * nothing sent) and `pickups.book` (the request built from the form, booked
 * through `create`, the pickups domain's booking: outbox, POST /pickups);
 * an integrator's `request` goes to `create` as it is.
 * A refusal's `details` (the station's bounds or the platform's 422) come
 * back folded onto the form's fields, its message unchanged.
 */
export function createPickupFormHandlers(create: (request: z.output<typeof BoundedPickupRequest>) => Promise<Pickup>) {
  return {
    'pickups.check': async ({ form }) => checkPickupForm(form),
    'pickups.book': async ({ form, request }) => {
      // An integrator's request goes as is: its refusals keep the platform's paths.
      if (request !== undefined) return create(request);
      if (form === undefined) throw formRefused('Give the pickup form or the platform request', { form: ['Give the pickup form or the platform request, one of the two'] });
      const errors = checkPickupForm(form);
      if (Object.keys(errors).length) throw formRefused('The pickup form has errors', errors);
      const parsed = BoundedPickupRequest.safeParse(pickupRequestOf(form));
      if (!parsed.success) throw formRefused('Invalid input for pickups.book', foldPackagePaths(issuesToDetails(parsed.error.issues)));
      try {
        return await create(parsed.data);
      } catch (e) {
        const err = toStationError(e);
        if (err.details) throw new StationError(err.code, err.message, foldPackagePaths(err.details), err.text);
        throw e;
      }
    },
  } satisfies Pick<Handlers, 'pickups.check' | 'pickups.book'>;
}
