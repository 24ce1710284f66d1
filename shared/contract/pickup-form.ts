/**
 * The packer's pickup booking form (Pickup screen) as the screen sends it to
 * the core (issue 22 item 4): every field exactly as typed (text: `7,5` and
 * `7.5` both read by `parseDecimal`, shared/domain/decimal.ts). The core
 * (electron/core/pickups/pickup-form.ts) builds POST /pickups (spec:
 * Endpoints > Pickups) from it and names a bad field by the FORM's own field
 * (`count`, `totalWeight`, `length`, `width`, `height`, `serviceType`,
 * `pickupDate`, `warehouseId`, `instructions`), never by a `packages.N` path.
 */
import { z } from 'zod';

const text = z.string({ error: 'Must be text' });

/**
 * The form: contract code (`serviceType` on the wire), pickup date
 * `YYYY-MM-DD`, time window, number of parcels (1..50), total weight kg
 * shared by the parcels, the usual box cm, warehouse id ('' for the
 * account's default) and instructions for the courier.
 */
export const PickupForm = z
  .object({
    serviceType: text,
    pickupDate: text,
    pickupTime: z.enum(['AM', 'PM', 'AMPM'], { error: 'Pickup time must be AM, PM or AMPM' }),
    count: text,
    totalWeight: text,
    length: text,
    width: text,
    height: text,
    warehouseId: text,
    instructions: text,
  })
  .strict();
/** The pickup form as typed. Weight kg, box cm. */
export type PickupDraft = z.infer<typeof PickupForm>;

/** Message on `count` when it is not a whole number from 1 to 50 (the spec's parcels per pickup). */
export const PICKUP_COUNT_RANGE = 'Parcels must be a whole number from 1 to 50';
