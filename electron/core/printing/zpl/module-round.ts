/**
 * One rounding rule for every barcode dimension scaled to a print head
 * (issue 36): a module width (`^BY` w, `^BX` module size, `^BQ`/`^BO`
 * magnification, the modules of a barcode drawn as `^GF`), a bar height
 * (`^BY` h, the h of `^BC`, `^B3`, `^B2`, `^B7`…) and the wide-to-narrow
 * ratio of `^BY` (Zebra ZPL II Programming Guide, `^BY`: 2.0–3.0 in steps
 * of 0.1) all become whole dots the same way:
 *
 * 1. the nearest whole dot to the ideal (carrier's dots × target dots per
 *    carrier dot), never under 1: a 2-dot module made for 203 dpi is
 *    5.91 dots at 600 dpi and prints at 6, not 5;
 * 2. a value under the ideal must keep at least 90 % of it, else it rounds
 *    up (1 dot at 203 dpi is 1.48 at 300: 1 would keep 68 %, so 2);
 * 3. then checked: when the caller says the value does not fit (its field,
 *    the label), the next smaller dot is used only if it keeps at least 90 %
 *    of the ideal and fits; otherwise the rounded value stays and the result
 *    says it does not fit, for the caller to report or hold the job.
 *
 * All values are dots at the print head (203, 300 or 600 dpi).
 */

/** The least share of its ideal size a dimension may keep when rounded or stepped down. */
export const MIN_KEPT = 0.9;

/** A dimension in whole dots at the head and how it relates to its ideal. */
export interface DotChoice {
  /** Whole dots at the head, ≥ 1. */
  dots: number;
  /** `dots / ideal` (1 = exactly the carrier's size). */
  kept: number;
  /** False when no choice within the rule fits (the caller's `fits` said no to each). */
  fits: boolean;
}

/**
 * A barcode dimension in whole dots at the head (see the module comment for the rule).
 * @param ideal the carrier's value × target dots per carrier dot, dots (fractional, > 0)
 * @param opts.max the largest value the command accepts (ZPL: 10 for `^BY`, `^BQ`, `^BO`), dots; default none
 * @param opts.fits whether a candidate (dots) fits its field and the label; default every candidate fits
 */
export function roundToDots(ideal: number, opts: { max?: number; fits?: (dots: number) => boolean } = {}): DotChoice {
  const max = opts.max ?? Number.POSITIVE_INFINITY;
  const fits = opts.fits ?? ((): boolean => true);
  const choice = (dots: number, ok: boolean): DotChoice => ({ dots, kept: ideal > 0 ? dots / ideal : 1, fits: ok });
  if (!(ideal > 0)) return choice(1, fits(1));
  const down = Math.max(1, Math.floor(ideal));
  const up = Math.max(1, Math.ceil(ideal));
  const keeps = (d: number): boolean => d >= ideal || d >= MIN_KEPT * ideal - 1e-9;
  let first = Math.max(1, Math.round(ideal));
  if (!keeps(first)) first = up;
  first = Math.min(max, first);
  if (fits(first)) return choice(first, true);
  const smaller = Math.min(max, first - 1);
  if (smaller >= 1 && smaller <= down && keeps(smaller) && fits(smaller)) return choice(smaller, true);
  return choice(first, false);
}

/**
 * The `^BY` wide-to-narrow ratio for a module of `moduleDots`, so that wide bars keep their ideal width:
 * the nearest 0.1 to `idealWideDots / moduleDots`, within ZPL's 2.0–3.0.
 * @param idealWideDots the carrier's wide bar (module × ratio) × target dots per carrier dot, dots
 * @param moduleDots the narrow bar chosen by {@link roundToDots}, dots
 * @returns the ratio and the share of the ideal wide bar it keeps (`moduleDots × ratio / idealWideDots`)
 */
export function wideRatio(idealWideDots: number, moduleDots: number): { ratio: number; kept: number } {
  const ratio = Math.min(3, Math.max(2, Math.round((idealWideDots / moduleDots) * 10) / 10));
  return { ratio, kept: idealWideDots > 0 ? (moduleDots * ratio) / idealWideDots : 1 };
}
