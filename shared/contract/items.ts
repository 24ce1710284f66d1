/**
 * Scan to verify (issue 14 item 5): the station's item data and settings.
 * An item is named by its SKU (as on the order lines); its barcodes are the
 * codes printed on the product when they are not the SKU itself (EAN-13,
 * UPC-A…); its unit weight (kg) lets the station check the parcel's weight.
 */
import { z } from 'zod';

const barcode = z
  .string()
  .trim()
  .min(1, { error: 'A barcode cannot be empty' })
  .max(64, { error: 'A barcode is at most 64 characters' })
  .regex(/^[\x21-\x7e]+$/, { error: 'A barcode is printable characters without spaces' });

/** One item as saved (`items.save`): SKU, alias barcodes (may be empty), unit weight kg or null. */
export const ItemInput = z.object({
  sku: z.string().trim().min(1, { error: 'SKU is required' }).max(100, { error: 'SKU is at most 100 characters' }),
  barcodes: z.array(barcode).max(20, { error: 'At most 20 barcodes an item' }),
  unitWeightKg: z.number({ error: 'Unit weight must be a number of kg' }).gt(0, { error: 'Unit weight must be above 0 kg' }).max(1000, { error: 'Unit weight must be at most 1000 kg' }).nullable(),
});
export type ItemInput = z.output<typeof ItemInput>;

/** An item as the screens see it. */
export interface ItemView extends ItemInput {
  updatedAt: string;
}

/**
 * Per-station scan-to-verify settings: `enabled` (after an order, its items
 * are scanned before shipping); the weight check warns when the scale's
 * weight differs from the expected one (items + box tare) by more than
 * `tolerancePct` percent and at least `toleranceKg`.
 */
export const VerifySettings = z.object({
  enabled: z.boolean(),
  tolerancePct: z.number({ error: 'Tolerance must be a number of %' }).min(1, { error: 'Tolerance is 1 to 100 %' }).max(100, { error: 'Tolerance is 1 to 100 %' }),
  toleranceKg: z.number({ error: 'Tolerance must be a number of kg' }).min(0, { error: 'Tolerance must be 0 kg or more' }).max(50, { error: 'Tolerance must be at most 50 kg' }),
});
export type VerifySettings = z.output<typeof VerifySettings>;

/** A skipped verification (`verify.skip`): the reason and the lines not (fully) scanned. */
export const VerifySkipInput = z.object({
  orderId: z.number().int().positive(),
  reason: z.string().trim().min(3, { error: 'Say why the items are not scanned (3 characters or more)' }).max(200, { error: 'The reason is at most 200 characters' }),
  missing: z
    .array(z.object({ sku: z.string().max(100), name: z.string().max(500), missing: z.number().int().min(1) }))
    .max(200),
});
export type VerifySkipInput = z.output<typeof VerifySkipInput>;

/**
 * A scan refused while verifying an order's items (issue 26: verify
 * mismatches per packer): `wrong_item`, a code not in the order;
 * `too_many`, one more of a line already complete. `code` as scanned.
 */
export const VerifyMismatchInput = z
  .object({
    orderId: z.number().int().positive(),
    code: z.string().trim().min(1, { error: 'The scanned code is required' }).max(100, { error: 'The scanned code is at most 100 characters' }),
    kind: z.enum(['wrong_item', 'too_many'], { error: 'Kind must be wrong_item or too_many' }),
  })
  .strict();
