/**
 * A number as the packer types it at the bench, read the same way by the
 * screens (to tidy a field) and by the core (to build the wire request from
 * the packer's form, electron/core/shipping/ship-form.ts).
 */

/**
 * Parses a number typed at the bench: accepts a decimal comma (`1,5`) and a decimal point (`1.5`).
 * Blank -> undefined (so the schema says "required"); junk -> NaN (schema says "must be a number").
 */
export function parseDecimal(text: string): number | undefined {
  const t = text.trim().replace(',', '.');
  if (t === '') return undefined;
  return /^-?\d*\.?\d+$|^-?\d+\.$/.test(t) ? Number(t) : Number.NaN;
}
