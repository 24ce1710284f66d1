/**
 * Delivery points (spec: Endpoints > Delivery points): `GET /delivery-points`
 * with `city` and `postalCode` (required), `address`, `carrier` (only `brt`)
 * -> 200 `{data: <the carrier's answer>}` (shape: DeliveryPointsData in
 * shared/platform/lookups.ts); 422 for a missing or bad parameter; 502
 * `carrier_error` when the carrier cannot resolve the place (see
 * delivery-points.ts). Rate limit (30/min) is applied by the gateway.
 */
import { DeliveryPointsQuery } from '../../../shared/platform/lookups';
import { CarrierLookupError, searchDeliveryPoints } from '../delivery-points';
import { ApiError, parseOrThrow } from '../errors';
import { queryString, type ApiRouter } from '../http';

/** Registers GET /delivery-points. */
export function registerDeliveryPointRoutes(r: ApiRouter): void {
  r.get('/delivery-points', ({ query }) => {
    const read = (name: string) => {
      const v = queryString(query, name);
      return v === undefined ? {} : { [name]: v };
    };
    const q = parseOrThrow(DeliveryPointsQuery, { ...read('city'), ...read('postalCode'), ...read('address'), ...read('carrier') });
    try {
      return { body: { data: searchDeliveryPoints(q.city, q.postalCode, q.address) } };
    } catch (e) {
      if (e instanceof CarrierLookupError) throw new ApiError(502, 'carrier_error', e.message);
      throw e;
    }
  });
}
