/**
 * What a bench scale says, whatever its wire: HID POS reports
 * (./hid.ts) and serial lines (./serial.ts) are both turned into a
 * {@link ScaleReading}.
 */
import type { ScaleStatus } from '../../../shared/domain/scale-weight';

/** One reading of a scale. */
export interface ScaleReading {
  status: ScaleStatus;
  /** Weight in kg, rounded to the precision the scale gives; null when the scale gives no weight (fault, over capacity). */
  kg: number | null;
  /** Decimals of `kg` the scale resolves (e.g. 3 for a gram display). */
  decimals: number;
}

/** Units a scale may report, with their value in kg. */
export const UNIT_KG = {
  mg: 1e-6,
  g: 1e-3,
  kg: 1,
  t: 1000,
  ct: 2e-4,
  oz: 0.028349523125,
  lb: 0.45359237,
  ozt: 0.0311034768,
} as const;
export type ScaleUnit = keyof typeof UNIT_KG;

/**
 * Converts `value × 10^exponent unit` to kg, rounded to the resolution of
 * one step of the scale (e.g. 1 g → 3 decimals, 0.1 oz → 3 decimals).
 */
export function toKg(value: number, exponent: number, unit: ScaleUnit): { kg: number; decimals: number } {
  const step = UNIT_KG[unit] * 10 ** exponent;
  const decimals = Math.min(6, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
  const kg = Number((value * step).toFixed(decimals));
  return { kg: Object.is(kg, -0) ? 0 : kg, decimals };
}
