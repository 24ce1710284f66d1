/** The platform Pickup kept with a local pickup record. */
import { Pickup } from '../../../shared/platform/resources';
import type { PickupRecord } from '../store';

/** The platform Pickup of a booked local record, or undefined when it is not booked or unreadable. */
export function pickupOf(rec: PickupRecord): Pickup | undefined {
  if (rec.state !== 'booked') return undefined;
  const parsed = Pickup.safeParse(rec.platform);
  return parsed.success ? parsed.data : undefined;
}
