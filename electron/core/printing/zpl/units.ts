/**
 * Units of the print head: label sizes in millimetres become whole dots at
 * the head's resolution (dpi). One conversion for the profile's `^PW`/`^LL`,
 * the PDF-to-ZPL rasteriser and the ZPL preview.
 */

/** Millimetres per inch. */
const MM_PER_INCH = 25.4;

/** Millimetres to whole dots at `dpi` dots per inch (rounded to the nearest dot): 100 mm at 203 dpi = 799. */
export function mmToDots(mm: number, dpi: number): number {
  return Math.round((mm * dpi) / MM_PER_INCH);
}
