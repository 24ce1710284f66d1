/**
 * The `tracking.update` sent by POST /webhooks/{id}/test (spec: Endpoints >
 * Webhooks — "a real signed tracking.update built from the client's most
 * recent shipment in transit"; Events > tracking.update payload).
 */
import type { Account, ShipmentRecord } from '../model';
import type { SandboxState } from '../state';

/** Status codes counted as "in transit" for the test: 3 `in_transit` and 4 `out_for_delivery` (on the way, not yet delivered). */
const IN_TRANSIT_CODES: ReadonlySet<number> = new Set([3, 4]);

/** The account's newest (by creation, then id) shipment in transit, not cancelled; undefined when none. */
export function latestShipmentInTransit(state: SandboxState, account: Account): ShipmentRecord | undefined {
  let best: ShipmentRecord | undefined;
  for (const s of state.shipments) {
    if (s.accountId !== account.accountId || s.cancelledAt !== null || !IN_TRANSIT_CODES.has(s.statusCode)) continue;
    if (!best || s.createdAt.getTime() > best.createdAt.getTime() || (s.createdAt.getTime() === best.createdAt.getTime() && s.id > best.id)) best = s;
  }
  return best;
}

/**
 * The test payload: exactly what the simulated carrier sends on a status
 * change (lifecycle.ts `trackingUpdatePayload`: common fields with
 * `timestamp` = `now`, `vector_name`, `order_id`, `client_store_id`,
 * `TrackingDettaglio` newest first), so a receiver tested with it handles
 * the real events too.
 */
export function testTrackingPayload(state: SandboxState, s: ShipmentRecord, now: Date): Record<string, unknown> {
  return state.lifecycle.trackingUpdatePayload(s, now);
}
