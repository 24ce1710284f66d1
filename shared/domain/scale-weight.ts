/**
 * When a bench scale's reading becomes the parcel's weight, one rule for the
 * core (electron/core/scales) and the screens (renderer/src/stores/scale.ts).
 */

/**
 * State of the weighing, after the HID Point of Sale Usage Tables (usage
 * page 0x8D, "Scale Status" 0x70..0x78) which the serial protocols map onto.
 */
export type ScaleStatus = 'stable' | 'motion' | 'zero' | 'under_zero' | 'over_capacity' | 'fault';

/**
 * True when a reading may fill the Quote and Ship weight: `stable` and
 * above zero (`kg` in kg; null when the scale gives no weight).
 */
export function isUsableWeight<R extends { status: ScaleStatus; kg: number | null }>(r: R | null | undefined): r is R & { kg: number } {
  return !!r && r.status === 'stable' && r.kg !== null && r.kg > 0;
}
