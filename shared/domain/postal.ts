/**
 * Postal code rules shared by the API schemas (shared/platform), the sandbox
 * and the station's order import: the one place that knows the Italian CAP.
 *
 * Italy, San Marino and Vatican City use the Italian 5-digit CAP. A CAP that
 * lost its leading zeros to number formatting (`184`, Sassari `7100`) is
 * completed (`00184`, `07100`), as the spec does for POST /orders ("An
 * Italian postal code sent without leading zeros is completed"); the station
 * and the sandbox do the same for rates and shipments. Anything that is not 5
 * digits after completion is not a CAP.
 */

/** Countries whose postal code is the Italian CAP: Italy, San Marino, Vatican City. */
const CAP_COUNTRIES: ReadonlySet<string> = new Set(['IT', 'SM', 'VA']);

/** The rule, as field errors say it (details key `...address.postalCode`). */
export const ITALIAN_CAP_RULE = 'Italian postal code (CAP) must be 5 digits';

/** True when `countryCode` (any case) uses the Italian CAP. */
export function usesItalianCap(countryCode: string): boolean {
  return CAP_COUNTRIES.has(countryCode.trim().toUpperCase());
}

/** True when `cap` is exactly 5 ASCII digits (no spaces): the shape of a CAP. */
export function isItalianCap(cap: string): boolean {
  return /^\d{5}$/.test(cap);
}

/**
 * Trims `postalCode` and, for a CAP country ({@link CAP_COUNTRIES}), pads 1 to
 * 4 digits with leading zeros to 5 (`'184'` -> `'00184'`). Other values and
 * other countries are returned trimmed and otherwise unchanged; never throws.
 */
export function completePostalCode(countryCode: string, postalCode: string): string {
  const pc = postalCode.trim();
  return usesItalianCap(countryCode) && /^\d{1,4}$/.test(pc) ? pc.padStart(5, '0') : pc;
}

/**
 * The problem with an already completed postal code, or undefined when fine.
 * Only CAP countries have a rule here ({@link ITALIAN_CAP_RULE}); other
 * countries' formats are left to the carrier.
 */
export function postalCodeProblem(countryCode: string, postalCode: string): string | undefined {
  if (!usesItalianCap(countryCode) || isItalianCap(postalCode)) return undefined;
  return ITALIAN_CAP_RULE;
}
