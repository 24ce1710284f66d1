/**
 * The Pickup screen's own arithmetic: what the courier collects today. The
 * form itself goes to the core as typed (shared/contract/pickup-form.ts,
 * `pickups.check` / `pickups.book`), which builds POST /pickups.
 */

/**
 * Parcels and total weight (kg) of the day's shipments of `carrierCode` not yet
 * in a manifest: what the courier collects. `weightKg` is null when a
 * shipment's weight is unknown (the packer types it).
 */
export function dayLoadOf(shipments: ReadonlyArray<{ carrier: { code: string }; parcels: number; weightKg: number | null; cancelled: boolean }>, carrierCode: string): { parcels: number; weightKg: number | null; shipments: number } {
  const mine = shipments.filter((s) => s.carrier.code === carrierCode && !s.cancelled);
  let weight: number | null = 0;
  for (const s of mine) weight = weight === null || s.weightKg === null ? null : weight + s.weightKg;
  return { parcels: mine.reduce((a, s) => a + s.parcels, 0), weightKg: weight === null ? null : Math.round(weight * 1000) / 1000, shipments: mine.length };
}
