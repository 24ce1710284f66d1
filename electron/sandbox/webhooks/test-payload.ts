/**
 * The `tracking.update` sent by POST /webhooks/{id}/test (spec: Endpoints >
 * Webhooks — "a real signed tracking.update built from the client's most
 * recent shipment in transit"; Events > tracking.update payload).
 */
import { statusOf } from '../../../shared/platform/common';
import type { Account, ShipmentRecord } from '../model';
import type { SandboxState } from '../state';
import { localIso } from '../time';

/** Status codes counted as "in transit" for the test: 3 `in_transit` and 4 `out_for_delivery` (on the way, not yet delivered). */
export const IN_TRANSIT_CODES: ReadonlySet<number> = new Set([3, 4]);

/** The account's newest (by creation) shipment in transit, not cancelled; undefined when none. */
export function latestShipmentInTransit(state: SandboxState, account: Account): ShipmentRecord | undefined {
  let best: ShipmentRecord | undefined;
  for (const s of state.shipments) {
    if (s.accountId !== account.accountId || s.cancelledAt !== null || !IN_TRANSIT_CODES.has(s.statusCode)) continue;
    if (!best || s.createdAt.getTime() > best.createdAt.getTime() || (s.createdAt.getTime() === best.createdAt.getTime() && s.id > best.id)) best = s;
  }
  return best;
}

/** `dd/mm/yyyy HH:MM` in Europe/Rome (the legacy `TrackingDettaglio[].Data` format). */
export function legacyTrackingDate(d: Date): string {
  const iso = localIso(d); // YYYY-MM-DDTHH:MM:SS+hh:mm
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 16)}`;
}

/** One row of `TrackingDettaglio` (legacy tracking event): date, status text, place. */
export interface LegacyTrackingRow {
  Data: string;
  Stato: string;
  Luogo: string;
}

/** Italian status texts of the legacy payload, by status code. */
const STATO: Record<number, string> = {
  0: 'In lavorazione',
  1: 'In lavorazione',
  2: 'Spedita',
  3: 'In transito',
  4: 'In consegna',
  5: 'Consegnata',
  6: 'In giacenza',
  7: 'Resa al mittente',
  8: 'Non consegnata',
  9: 'In attesa di istruzioni',
  10: 'In attesa di ritiro',
};

/**
 * The shipment's tracking rows, most recent first: the sandbox's recorded
 * tracking history when the shipment has one (`trackingEvents` with
 * `at`/`status`/`location`), otherwise rows derived from its dates and
 * current status.
 */
export function trackingRows(s: ShipmentRecord, now: Date): LegacyTrackingRow[] {
  const history = (s as ShipmentRecord & { trackingEvents?: ReadonlyArray<{ at: Date; statusCode?: number; description?: string; location?: string }> }).trackingEvents;
  if (Array.isArray(history) && history.length > 0) {
    return [...history]
      .sort((a, b) => b.at.getTime() - a.at.getTime())
      .map((e) => ({ Data: legacyTrackingDate(e.at), Stato: e.description ?? STATO[e.statusCode ?? s.statusCode] ?? statusOf(s.statusCode).label, Luogo: e.location ?? '' }));
  }
  const origin = s.sender.address.city;
  const rows: LegacyTrackingRow[] = [];
  const shipped = s.shippedAt ?? s.createdAt;
  rows.push({ Data: legacyTrackingDate(shipped), Stato: STATO[2] ?? 'Spedita', Luogo: origin });
  if (s.statusCode !== 2) {
    const at = s.pickedUpAt && s.pickedUpAt > shipped ? s.pickedUpAt : now;
    rows.unshift({ Data: legacyTrackingDate(at), Stato: STATO[s.statusCode] ?? statusOf(s.statusCode).label, Luogo: s.statusCode === 4 ? s.recipient.address.city : origin });
  }
  return rows;
}

/**
 * The test `tracking.update` payload: common fields (`event`, `timestamp` =
 * `now`, `ldv`, `contractCode`, `statusCode`, `domain`) then `vector_name`,
 * `order_id`, `client_store_id` (null), `TrackingDettaglio` (most recent first).
 */
export function testTrackingPayload(state: SandboxState, s: ShipmentRecord, now: Date): Record<string, unknown> {
  return {
    ...state.events.common('tracking.update', s, now),
    vector_name: s.carrierName,
    order_id: s.reference,
    client_store_id: null,
    TrackingDettaglio: trackingRows(s, now),
  };
}
