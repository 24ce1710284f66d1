/**
 * A label printer's profile (issue 9 "Printer profiles"): what the station
 * tells the printer with every label, keyed by device URI. Ranges follow the
 * Zebra ZPL II Programming Guide: `~SD` darkness 00–30, `^PR` speed 2–14 ips,
 * `^MT` D/T, `^LT` label top −120…120 dots.
 */
import { z } from 'zod';

/** The profile schema; every error message names its field. */
export const PrinterProfileSchema = z
  .object({
    /** Print-head resolution, dpi (203, 300 or 600). */
    dpi: z.union([z.literal(203), z.literal(300), z.literal(600)], { error: 'dpi must be 203, 300 or 600' }),
    /** Label width, mm (10–220). */
    widthMm: z.number({ error: 'widthMm must be a number of mm' }).min(10, { error: 'widthMm must be at least 10 mm' }).max(220, { error: 'widthMm must be at most 220 mm' }),
    /** Label height (length), mm (10–1000). */
    heightMm: z.number({ error: 'heightMm must be a number of mm' }).min(10, { error: 'heightMm must be at least 10 mm' }).max(1000, { error: 'heightMm must be at most 1000 mm' }),
    /** Absolute darkness, `~SD` 0–30. */
    darkness: z.number({ error: 'darkness must be a whole number 0–30' }).int({ error: 'darkness must be a whole number 0–30' }).min(0, { error: 'darkness must be 0–30' }).max(30, { error: 'darkness must be 0–30' }),
    /** Print speed, inches per second, `^PR` 2–14. */
    speedIps: z.number({ error: 'speedIps must be a whole number 2–14' }).int({ error: 'speedIps must be a whole number 2–14' }).min(2, { error: 'speedIps must be 2–14 ips' }).max(14, { error: 'speedIps must be 2–14 ips' }),
    /** `^MT`: direct thermal (D) or thermal transfer with ribbon (T). */
    media: z.enum(['direct_thermal', 'thermal_transfer'], { error: 'media must be direct_thermal or thermal_transfer' }),
    /** Label top offset, `^LT`, in dots at the profile's dpi (−120…120; positive moves the print down). */
    topOffsetDots: z
      .number({ error: 'topOffsetDots must be a whole number of dots' })
      .int({ error: 'topOffsetDots must be a whole number of dots' })
      .min(-120, { error: 'topOffsetDots must be -120 to 120 dots' })
      .max(120, { error: 'topOffsetDots must be -120 to 120 dots' }),
    /**
     * The resolution the carrier makes its ZPL labels for (the contract's label resolution), dpi; used when a
     * label says nothing (no `^PW`/`^LL`). Absent: 203 dpi, what carriers send unless told otherwise (issue 23).
     */
    zplMadeForDpi: z.union([z.literal(203), z.literal(300), z.literal(600)], { error: 'zplMadeForDpi must be 203, 300 or 600' }).optional(),
  })
  .strict();

/** A printer profile (see {@link PrinterProfileSchema} for units and ranges). */
export type PrinterProfile = z.infer<typeof PrinterProfileSchema>;

/** A printer's profile as `printers.profile.get` answers: `profile` null = none saved (carrier ZPL only stripped of media commands, dpi from the station option). */
export interface PrinterProfileView {
  uri: string;
  profile: PrinterProfile | null;
}
