/**
 * Tracking (spec: Endpoints > Tracking):
 * - `GET /shipments/{ldv}/tracking` -> 200 tracking record
 *   (shared/platform/tracking.ts `TrackingRecord`, events newest first with ISO
 *   timestamps); `{ldv}` may be the shipment's number, one of its packages'
 *   numbers, or an LDV the carrier reissued on a stock release; 404 for an
 *   unknown number or another client's shipment.
 * - `GET /tracking/bda/{bda}` -> the same record, looked up by the carrier's
 *   delivery document number (`bda` on the shipment detail, see lifecycle.ts
 *   `bdaOf`); only shipments created in the last 60 days (spec: Limits, "BDA
 *   tracking window"); 404 otherwise.
 * The carrier's progress is brought up to the simulated clock before every
 * request (index.ts), so these views are current.
 */
import { notFound } from '../errors';
import type { ApiRouter } from '../http';
import { bdaOf } from '../carrier/scenarios';

/** Days back `GET /tracking/bda/{bda}` looks (spec: Limits). */
const BDA_WINDOW_DAYS = 60;

/** Registers the tracking routes. */
export function registerTrackingRoutes(r: ApiRouter): void {
  r.get('/shipments/:ldv/tracking', ({ state, account, params }) => {
    const trackingNumber = (params.ldv ?? '').trim();
    const s = state.lifecycle.resolve(account.accountId, trackingNumber);
    if (!s) throw notFound(`Shipment ${trackingNumber} not found`);
    return { body: state.lifecycle.trackingView(s) };
  });

  r.get('/tracking/bda/:bda', ({ state, account, params, now }) => {
    const bda = (params.bda ?? '').trim();
    const since = now.getTime() - BDA_WINDOW_DAYS * 24 * 3600_000;
    const s = state.shipments.find((x) => x.accountId === account.accountId && bdaOf(x) === bda);
    if (!s || s.createdAt.getTime() < since) throw notFound(`No shipment with BDA ${bda} in the last ${BDA_WINDOW_DAYS} days`);
    return { body: state.lifecycle.trackingView(s) };
  });
}
