/**
 * Look-ups of the Client Shipping API 2026-09 that help fill a shipment:
 * customs codes (`GET /taric`, spec: Endpoints > Customs codes) and carrier
 * delivery points (`GET /delivery-points`, spec: Endpoints > Delivery points),
 * with the `options.deliveryPoint` shape of POST /shipments.
 *
 * The spec leaves the content of `GET /delivery-points` `data` ("the
 * carrier's own response") and the shape of `options.deliveryPoint` "not
 * shown"; the schemas below describe what the sandbox answers and accepts
 * (electron/sandbox/README.md, "Orders, customs and finance").
 */
import { z } from 'zod';

/** Shortest `q` of GET /taric (spec: Limits). */
const TARIC_MIN_QUERY = 3;
/** Default and largest `limit` of GET /taric (spec: Limits). */
const TARIC_DEFAULT_LIMIT = 25;
/** Largest `limit` of GET /taric (spec: Limits, 100). */
const TARIC_MAX_LIMIT = 100;

/** GET /taric query: `q` at least 3 characters (required), `limit` 1..100 default 25. Values arrive as strings. */
export const TaricQuery = z.object({
  q: z
    .string({ error: 'q is required (at least 3 characters: a code prefix or words)' })
    .trim()
    .min(TARIC_MIN_QUERY, { error: `q must be at least ${TARIC_MIN_QUERY} characters` })
    .max(100, { error: 'q must be at most 100 characters' }),
  limit: z.coerce
    .number({ error: 'limit must be an integer' })
    .int({ error: 'limit must be an integer' })
    .min(1, { error: 'limit must be at least 1' })
    .max(TARIC_MAX_LIMIT, { error: `limit must be at most ${TARIC_MAX_LIMIT}` })
    .default(TARIC_DEFAULT_LIMIT),
});
export type TaricQuery = z.input<typeof TaricQuery>;

/**
 * A customs code of the EU Combined Nomenclature: `code` of 2 (chapter),
 * 4 (heading), 6 (HS subheading) or 8 (CN subheading) digits, Italian
 * `description`, English `descriptionEn` (null when none).
 */
export const TaricCode = z.object({
  code: z.string().regex(/^\d{2}(\d{2}(\d{2}(\d{2})?)?)?$/),
  description: z.string(),
  descriptionEn: z.string().nullable(),
});
export type TaricCode = z.infer<typeof TaricCode>;
/** GET /taric 200: `{data: [{code, description, descriptionEn}]}` (spec: Endpoints > Customs codes). */
export const TaricResponse = z.object({ data: z.array(TaricCode) });
export type TaricResponse = z.infer<typeof TaricResponse>;

/** Carrier code whose delivery points GET /delivery-points searches (the spec's single-value `carrier` enum). */
export const DELIVERY_POINT_CARRIER = 'brt';

/** GET /delivery-points query: `city` and `postalCode` required, `address` optional, `carrier` only `brt`. */
export const DeliveryPointsQuery = z.object({
  city: z.string({ error: 'city is required' }).trim().min(1, { error: 'city is required' }).max(80, { error: 'city must be at most 80 characters' }),
  postalCode: z.string({ error: 'postalCode is required' }).trim().min(1, { error: 'postalCode is required' }).max(15, { error: 'postalCode must be at most 15 characters' }),
  address: z.string().trim().max(150, { error: 'address must be at most 150 characters' }).optional(),
  carrier: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.literal(DELIVERY_POINT_CARRIER, { error: `carrier must be "${DELIVERY_POINT_CARRIER}" (the only carrier with a pickup-point search)` }))
    .optional(),
});
export type DeliveryPointsQuery = z.input<typeof DeliveryPointsQuery>;

/** Opening slot `HH:MM`-`HH:MM`, local time of the point. */
const OpeningSlot = z.object({ from: z.string(), to: z.string() });

/**
 * A delivery point as the carrier (BRT "fermopoint" network) describes it:
 * `id` (use it in `options.deliveryPoint.id`), `type` `shop` (a shop that
 * holds parcels) or `locker`, address, WGS84 position, distance in metres
 * from the searched place, opening hours per weekday (`MON`..`SUN`, an empty
 * list = closed) and whether cash on delivery can be paid there.
 */
export const DeliveryPoint = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['shop', 'locker']),
  address: z.object({ street: z.string(), postalCode: z.string(), city: z.string(), province: z.string().nullable(), countryCode: z.string() }),
  latitude: z.number(),
  longitude: z.number(),
  distanceMeters: z.number().int(),
  openingHours: z.array(z.object({ day: z.enum(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']), slots: z.array(OpeningSlot) })),
  codAccepted: z.boolean(),
  maxParcelKg: z.number(),
});
export type DeliveryPoint = z.infer<typeof DeliveryPoint>;

/** `data` of GET /delivery-points: the carrier's answer (points nearest first). */
const DeliveryPointsData = z.object({
  carrier: z.string(),
  searchedAddress: z.object({ city: z.string(), postalCode: z.string(), address: z.string().nullable(), latitude: z.number(), longitude: z.number() }),
  points: z.array(DeliveryPoint),
});
/** GET /delivery-points 200: `{data}` holding the carrier's own answer (spec: Endpoints > Delivery points; shape chosen by the sandbox, see its README). */
export const DeliveryPointsResponse = z.object({ data: DeliveryPointsData });
export type DeliveryPointsResponse = z.infer<typeof DeliveryPointsResponse>;

/**
 * `options.deliveryPoint` of POST /shipments: the point where the carrier
 * leaves the parcel, as found with GET /delivery-points — its `id` and the
 * carrier code (default `brt`). The shipment must travel with that carrier.
 */
export const DeliveryPointSelection = z.object({
  id: z.string({ error: 'Delivery point id is required (an id from GET /delivery-points)' }).trim().min(1, { error: 'Delivery point id is required (an id from GET /delivery-points)' }).max(40),
  carrier: z.string().trim().toLowerCase().default(DELIVERY_POINT_CARRIER),
});
export type DeliveryPointSelection = z.input<typeof DeliveryPointSelection>;
