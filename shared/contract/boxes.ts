/**
 * Box presets of a station (issue 11 "Box presets", issue 14 item 3): the
 * packer's named boxes with their inner dimensions (cm) and tare (kg). A box
 * is chosen on Quote/Ship by Alt+1..9 (its place in the list), by typing its
 * number or name, or by scanning its barcode; its dimensions fill the parcel.
 * The scale's weight is the gross weight (box included); the tare only serves
 * the expected-weight check of scan-to-verify.
 */
import { z } from 'zod';

const dimension = (label: string) =>
  z
    .number({ error: `${label} must be a number of cm` })
    .gt(0, { error: `${label} must be above 0 cm` })
    .max(300, { error: `${label} must be at most 300 cm` });

/** One named box: inner dimensions cm (> 0, ≤ 300), tare kg (0 to 30), optional barcode (printed on the box stock). */
export const BoxPreset = z.object({
  name: z.string().trim().min(1, { error: 'Box name is required' }).max(40, { error: 'Box name is at most 40 characters' }),
  lengthCm: dimension('Length'),
  widthCm: dimension('Width'),
  heightCm: dimension('Height'),
  tareKg: z.number({ error: 'Tare must be a number of kg' }).min(0, { error: 'Tare must be 0 kg or more' }).max(30, { error: 'Tare must be at most 30 kg' }),
  barcode: z
    .string()
    .trim()
    .max(64, { error: 'Barcode is at most 64 characters' })
    .refine((b) => b === '' || /^[\x21-\x7e]+$/.test(b), { error: 'Barcode must be printable characters without spaces' })
    .transform((b) => (b === '' ? null : b))
    .nullable()
    .default(null),
});
export type BoxPreset = z.output<typeof BoxPreset>;

/**
 * Room kept between the items and each wall of a box when the station chooses
 * it (issue 37 item 1): cm, 0 to 10; 0 (the default) means the inner size is what fits.
 */
export const BoxMarginCm = z
  .number({ error: 'Margin must be a number of cm' })
  .min(0, { error: 'Margin must be 0 cm or more' })
  .max(10, { error: 'Margin must be at most 10 cm' });

/**
 * The station's boxes: at most 30, names and barcodes unique (case-insensitive);
 * `defaultBox` names the box a new parcel starts with when the packer has not
 * used one yet (null: a new parcel starts without dimensions and the packer
 * chooses); `marginCm` the room between the items and each wall when the
 * station chooses a box ({@link BoxMarginCm}, default 0). Errors are keyed
 * `presets.<i>.<field>`, `defaultBox` and `marginCm`.
 */
export const BoxSettings = z
  .object({
    presets: z.array(BoxPreset).max(30, { error: 'At most 30 boxes' }),
    defaultBox: z.string().trim().nullable().default(null),
    marginCm: BoxMarginCm.default(0),
  })
  .superRefine((s, ctx) => {
    const names = new Map<string, number>();
    const codes = new Map<string, number>();
    s.presets.forEach((p, i) => {
      const n = p.name.toLowerCase();
      if (names.has(n)) ctx.addIssue({ code: 'custom', path: ['presets', i, 'name'], message: `Another box is already called "${p.name}"` });
      names.set(n, i);
      if (p.barcode) {
        const c = p.barcode.toLowerCase();
        if (codes.has(c)) ctx.addIssue({ code: 'custom', path: ['presets', i, 'barcode'], message: `Barcode ${p.barcode} is already on box ${codes.get(c)! + 1}` });
        codes.set(c, i);
      }
    });
    if (s.defaultBox && !names.has(s.defaultBox.toLowerCase())) ctx.addIssue({ code: 'custom', path: ['defaultBox'], message: `Default box "${s.defaultBox}" is not in the list` });
  });
export type BoxSettings = z.output<typeof BoxSettings>;

/**
 * The preset a typed or scanned code names: its number in the list (`1` = the
 * first), its barcode or its name (both case-insensitive); undefined when none.
 */
export function findBox(presets: readonly BoxPreset[], code: string): BoxPreset | undefined {
  const c = code.trim().toLowerCase();
  if (c === '') return undefined;
  if (/^\d{1,2}$/.test(c)) {
    const byNumber = presets[Number(c) - 1];
    if (byNumber) return byNumber;
  }
  return presets.find((p) => p.barcode?.toLowerCase() === c) ?? presets.find((p) => p.name.toLowerCase() === c);
}

/** Names of the training boxes in the bench's language (docs/glossary-it.md: formato scatola). */
const TRAINING_BOX_NAMES = { en: ['Small', 'Medium', 'Large'], it: ['Piccola', 'Media', 'Grande'] } as const;

/**
 * Boxes a training station starts with, so a packer trains with the same flow as at the bench (the
 * middle one is the default), named in the bench's language (`it`: Piccola, Media, Grande; `en`:
 * Small, Medium, Large). Once saved, a preset keeps the name it was saved with.
 */
export function trainingBoxes(language: 'it' | 'en'): BoxSettings {
  const [small, medium, large] = TRAINING_BOX_NAMES[language];
  return {
    presets: [
      { name: small, lengthCm: 25, widthCm: 20, heightCm: 10, tareKg: 0.15, barcode: 'BOX-S' },
      { name: medium, lengthCm: 30, widthCm: 20, heightCm: 15, tareKg: 0.25, barcode: 'BOX-M' },
      { name: large, lengthCm: 40, widthCm: 30, heightCm: 20, tareKg: 0.4, barcode: 'BOX-L' },
    ],
    defaultBox: medium,
    marginCm: 0,
  };
}

/**
 * A box learnt from the bench (issue 37 item 3) for one set of items: the
 * SKUs and quantities of an order (`key`, e.g. `CUP×2, TE-1L×1`, SKUs
 * sorted), the box the packer accepted for them (`box`, a preset name; null
 * while none is accepted) and the box waiting for the packer (`proposed`: the
 * box a packer used instead of the station's choice; null when none waits),
 * seen at `source` (`shipment Ceramiche #5001`) on `learntAt` (ISO time).
 */
export interface LearntBoxView {
  key: string;
  items: Array<{ sku: string; quantity: number }>;
  box: string | null;
  proposed: string | null;
  source: string;
  learntAt: string;
}

/** `shipping.learntBoxes.resolve`: accept (the set of items takes the proposed box) or reject the box waiting for `key`. */
export const LearntBoxDecision = z
  .object({
    key: z.string().trim().min(1, { error: 'The set of items is required' }).max(4000),
    accept: z.boolean({ error: 'Accept is true or false' }),
  })
  .strict();
