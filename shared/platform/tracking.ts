/**
 * Tracking and stocks of the Client Shipping API 2026-09 (spec: Endpoints >
 * Tracking, Stocks; Resources > Stock; States > Stock). The spec leaves the
 * tracking record, the Stock record and the release instructions "not shown";
 * these schemas are the sandbox's documented choice (electron/sandbox/README.md,
 * "Tracking and stocks"). Response schemas accept unknown fields (versioning
 * rule 2); the stock action request is strict, so an instruction carrying a
 * field of another action (e.g. `address` with `redeliver`) is refused rather
 * than silently ignored.
 */
import { z } from 'zod';
import { Address, IsoDate, IsoDateTime, Status } from './common';

/**
 * One carrier event of a tracking record: `timestamp` ISO 8601 with offset,
 * `status` the shipment status after the event, `description` the carrier's
 * text (Italian, as carriers write it), `location` where it happened (city or depot).
 */
const TrackingEvent = z.object({
  timestamp: IsoDateTime,
  status: Status,
  description: z.string(),
  location: z.string(),
});
type TrackingEvent = z.infer<typeof TrackingEvent>;

/**
 * Tracking record (GET /shipments/{ldv}/tracking, GET /tracking/bda/{bda}).
 * - `trackingNumber`: the shipment's LDV (key of `{ldv}` paths);
 * - `carrierTrackingNumber`: the LDV the parcel travels under now (differs after
 *   the carrier reissued it on a stock release);
 * - `bda`: the carrier's delivery document number (14 digits);
 * - `status`: current status; `events`: newest first;
 * - `estimatedDeliveryDate`: date of the next planned delivery attempt, null when none is planned;
 * - `deliveredAt`: instant of delivery, null until delivered;
 * - `stockId`: the shipment's stock not yet closed, null when none;
 * - `cancelled`: true for a cancelled shipment (it never moves).
 */
export const TrackingRecord = z.object({
  trackingNumber: z.string(),
  carrierTrackingNumber: z.string(),
  bda: z.string(),
  reference: z.string().nullable(),
  carrier: z.object({ code: z.string(), name: z.string() }),
  status: Status,
  estimatedDeliveryDate: IsoDate.nullable(),
  deliveredAt: IsoDateTime.nullable(),
  stockId: z.number().int().nullable(),
  cancelled: z.boolean(),
  events: z.array(TrackingEvent),
});
export type TrackingRecord = z.infer<typeof TrackingRecord>;

/** Stock states (spec: "status filter values `open`, `instructed`, `closed`"). */
const StockStatus = z.enum(['open', 'instructed', 'closed']);
type StockStatus = z.infer<typeof StockStatus>;

/** Values of GET /stocks `status` (default `open`). */
export const StockStatusFilter = z.enum(['open', 'instructed', 'closed', 'all']);
export type StockStatusFilter = z.infer<typeof StockStatusFilter>;

/** Release instruction names accepted by POST /stocks/{id}/actions. */
export const StockActionName = z.enum(['redeliver', 'redeliver_to_address', 'hold_for_collection', 'return_to_sender']);
export type StockActionName = z.infer<typeof StockActionName>;

/** Why a stock was opened: `code` (`recipient_absent`, `address_incomplete`, `business_closed`) and the carrier's text. */
const StockReason = z.object({ code: z.string(), description: z.string() });

/** How a stock closed: released on instructions, delivered (collected at the depot), returned, or expired (returned at the deadline). */
export const StockOutcome = z.enum(['released', 'delivered', 'returned', 'expired']);
export type StockOutcome = z.infer<typeof StockOutcome>;

/**
 * Stock record (spec: Resources > Stock; fields beyond `id` are the sandbox's choice).
 * - `giacenzaId`: carrier dossier number (as in the events' `giacenza_id`);
 * - `dossier`: 1 for the parcel's first stock, 2 for a second dossier after a release;
 * - `trackingNumber`: the shipment's LDV; `carrierTrackingNumber`: the LDV the parcel
 *   was held under (a reissued one for a second dossier after a redirection);
 * - `reissuedTrackingNumber`: the new LDV the carrier issued when releasing this stock, else null;
 * - `deadline`: last date (`YYYY-MM-DD`) to give instructions; afterwards the carrier returns the parcel;
 * - `action`/`actionDetails`/`instructedAt`: the registered instructions, null before;
 * - `sentToCarrier`: whether they reached the carrier (false for carriers with
 *   `canManageStocks` false: registered on the platform only), null before;
 * - `outcome`/`closedAt`: how and when it closed, null while not closed.
 */
export const Stock = z.object({
  id: z.number().int(),
  giacenzaId: z.string(),
  dossier: z.number().int(),
  status: StockStatus,
  trackingNumber: z.string(),
  carrierTrackingNumber: z.string(),
  reissuedTrackingNumber: z.string().nullable(),
  shipmentId: z.number().int(),
  reference: z.string().nullable(),
  carrier: z.object({ code: z.string(), name: z.string() }),
  reason: StockReason,
  location: z.string(),
  shipmentStatus: Status,
  openedAt: IsoDateTime,
  deadline: IsoDate,
  action: StockActionName.nullable(),
  actionDetails: z.record(z.string(), z.unknown()).nullable(),
  instructedAt: IsoDateTime.nullable(),
  sentToCarrier: z.boolean().nullable(),
  outcome: StockOutcome.nullable(),
  closedAt: IsoDateTime.nullable(),
});
export type Stock = z.infer<typeof Stock>;

const notes = z.string().max(255, { error: 'Notes must be at most 255 characters' }).optional();
const releaseDate = IsoDate.optional();

/**
 * POST /stocks/{id}/actions body: release instructions by action name.
 * - `redeliver`: new delivery attempt at the same address; `date` (working day
 *   from the next one up to the stock's deadline), default the next working day;
 * - `redeliver_to_address`: delivery to another address in the same country;
 *   `address` required, `recipientName` (max 100) and `phone` (max 30) optional,
 *   `date` as above; the carrier reissues the LDV;
 * - `hold_for_collection`: the recipient collects the parcel at the depot;
 * - `return_to_sender`: the carrier sends the parcel back.
 * Every action takes optional `notes` (max 255) for the carrier.
 */
export const StockActionRequest = z.discriminatedUnion(
  'action',
  [
    z.strictObject({ action: z.literal('redeliver'), date: releaseDate, notes }),
    z.strictObject({
      action: z.literal('redeliver_to_address'),
      address: Address,
      recipientName: z.string().trim().min(1, { error: 'Recipient name cannot be empty' }).max(100, { error: 'Recipient name must be at most 100 characters' }).optional(),
      phone: z.string().max(30, { error: 'Phone must be at most 30 characters' }).optional(),
      date: releaseDate,
      notes,
    }),
    z.strictObject({ action: z.literal('hold_for_collection'), notes }),
    z.strictObject({ action: z.literal('return_to_sender'), notes }),
  ],
  { error: 'action must be one of: redeliver, redeliver_to_address, hold_for_collection, return_to_sender' },
);
export type StockActionRequest = z.input<typeof StockActionRequest>;
