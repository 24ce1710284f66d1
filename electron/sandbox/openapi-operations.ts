/**
 * The catalogue of the sandbox's OpenAPI document (openapi.ts builds the
 * document from it): one entry per endpoint of the table
 * (shared/platform/endpoints.ts) with its query, body, answers and error
 * statuses, in the order of the spec's Endpoints section, and the tags.
 */
import { z } from 'zod';
import {
  CancelShipmentResponse,
  CarriersResponse,
  CodList,
  CodListDetail,
  CodListStatusFilter,
  CreatedShipment,
  CreatedWebhook,
  CreditBalance,
  CreditMovement,
  DeliveryPointsQuery,
  DeliveryPointsResponse,
  Invoice,
  InvoiceDetail,
  InvoicePdf,
  IsoDate,
  Manifest,
  ManifestRequest,
  ManifestsCreated,
  MovementTypeFilter,
  OrdersRequest,
  OrdersResponse,
  Paginated,
  Pickup,
  PickupRequest,
  RatesRequest,
  RatesResponse,
  ReturnList,
  ReturnListDetail,
  Shipment,
  ShipmentLabelResponse,
  ShipmentListQuery,
  ShipmentRequest,
  Stock,
  StockActionRequest,
  StockStatusFilter,
  TaricQuery,
  TaricResponse,
  TrackingRecord,
  Warehouse,
  Webhook,
  WebhookCreateRequest,
  WebhookDelivery,
  WebhookTestResult,
  WebhooksResponse,
} from '../../shared/platform';
import { ENDPOINTS, type Endpoint, type Operation } from '../../shared/platform/endpoints';

/** One endpoint of the catalogue: the endpoint (shared/platform/endpoints.ts) and what the document says of it. */
export interface OperationDoc extends Endpoint {
  operationId: Operation;
  summary: string;
  /** Longer text for integrators (defaults to the summary plus the spec section). */
  description?: string;
  tag: string;
  /** Query parameters (an object schema; each property one parameter). */
  query?: z.ZodObject;
  /** Paginated list: adds `per_page` and `page`. */
  paginated?: boolean;
  body?: z.ZodType;
  /** Success answers: status -> schema (undefined = no body). */
  ok: Record<number, { description: string; schema?: z.ZodType }>;
  /** Error statuses of this endpoint (401 and 403 are added to every authenticated one). */
  errors?: number[];
  /** No bearer token needed. */
  public?: boolean;
  /** Not in the spec: a sandbox extension. */
  extension?: boolean;
}

/** The table's endpoint `name` with its operation name: method, path template and rate limit come from there. */
function operation(name: Operation): Endpoint & { operationId: Operation } {
  return { ...ENDPOINTS[name], operationId: name };
}

const Period = z.object({ from: IsoDate.optional(), to: IsoDate.optional() });
const boolString = z.enum(['true', 'false', '1', '0']);

/** The catalogue of the API (spec: Endpoints), in the spec's order. */
export const OPERATIONS: ReadonlyArray<OperationDoc> = [
  { ...operation('listCarriers'), summary: "The client's carriers and contracts", tag: 'Carriers', ok: { 200: { description: 'Carriers with contracts', schema: CarriersResponse } } },
  {
    ...operation('quoteRates'),
    summary: 'One rate per contract able to take the shipment',
    tag: 'Rates',
    body: RatesRequest,
    ok: { 200: { description: 'Rates (empty when no contract serves the destination and packages)', schema: RatesResponse } },
    errors: [404, 422, 429],
  },
  {
    ...operation('listShipments'),
    summary: 'Shipments, filtered; without filters the last 30 days',
    tag: 'Shipments',
    query: ShipmentListQuery,
    paginated: true,
    ok: { 200: { description: 'Paginated shipments, newest first', schema: Paginated(Shipment) } },
    errors: [422],
  },
  {
    ...operation('createShipment'),
    summary: 'Create a shipment; the label comes back at once',
    tag: 'Shipments',
    body: ShipmentRequest,
    ok: { 201: { description: 'Shipment with its label', schema: CreatedShipment } },
    errors: [402, 404, 422, 429, 502],
  },
  { ...operation('getShipment'), summary: 'Shipment detail', tag: 'Shipments', ok: { 200: { description: 'Full detail', schema: Shipment } }, errors: [404] },
  {
    ...operation('cancelShipment'),
    summary: 'Cancel a shipment not yet in a manifest nor in transit; the cost is refunded',
    tag: 'Shipments',
    ok: { 200: { description: 'Cancelled', schema: CancelShipmentResponse } },
    errors: [404, 409],
  },
  {
    ...operation('getShipmentLabel'),
    summary: 'Label of a shipment (all formats without `format`)',
    tag: 'Shipments',
    query: z.object({ format: z.enum(['pdf', 'zpl', 'PDF', 'ZPL']).optional() }),
    ok: { 200: { description: 'Label', schema: ShipmentLabelResponse } },
    errors: [404, 422],
  },
  {
    ...operation('getShipmentTracking'),
    summary: 'Tracking record of a shipment',
    tag: 'Tracking',
    ok: { 200: { description: 'Tracking record, events newest first', schema: TrackingRecord } },
    errors: [404, 429, 502],
  },
  {
    ...operation('getTrackingByBda'),
    summary: 'Tracking record by delivery document number (last 60 days)',
    tag: 'Tracking',
    ok: { 200: { description: 'Tracking record', schema: TrackingRecord } },
    errors: [404],
  },
  {
    ...operation('createManifests'),
    summary: 'Close the day: one manifest per contract, with PDF',
    tag: 'Manifests',
    body: ManifestRequest,
    ok: { 201: { description: 'Manifests created', schema: ManifestsCreated } },
    errors: [404, 422, 429, 502],
  },
  {
    ...operation('listManifests'),
    summary: 'Manifests of the period',
    tag: 'Manifests',
    query: Period,
    paginated: true,
    ok: { 200: { description: 'Paginated manifests', schema: Paginated(Manifest) } },
    errors: [422],
  },
  {
    ...operation('getManifest'),
    summary: 'Manifest; the PDF only with `pdf=true`',
    tag: 'Manifests',
    query: z.object({ pdf: boolString.optional() }),
    ok: { 200: { description: 'Manifest', schema: Manifest } },
    errors: [404, 422],
  },
  {
    ...operation('listStocks'),
    summary: 'Stocks (held shipments); default status `open`',
    tag: 'Stocks',
    query: z.object({ status: StockStatusFilter.optional(), trackingNumber: z.string().optional() }),
    paginated: true,
    ok: { 200: { description: 'Paginated stocks', schema: Paginated(Stock) } },
    errors: [422],
  },
  { ...operation('getStock'), summary: 'Stock', tag: 'Stocks', ok: { 200: { description: 'Stock', schema: Stock } }, errors: [404] },
  {
    ...operation('instructStock'),
    summary: 'Release instructions for a stock',
    tag: 'Stocks',
    body: StockActionRequest,
    ok: { 201: { description: 'Stock with the instructions registered', schema: Stock } },
    errors: [404, 409, 422, 502],
  },
  {
    ...operation('searchDeliveryPoints'),
    summary: "Carrier pickup points near a place (the carrier's own answer in `data`)",
    tag: 'Delivery points',
    query: DeliveryPointsQuery,
    ok: { 200: { description: 'Delivery points', schema: DeliveryPointsResponse } },
    errors: [422, 429, 502],
  },
  {
    ...operation('searchTaric'),
    summary: 'Customs codes (EU Combined Nomenclature) by code prefix or words',
    tag: 'Customs codes',
    query: TaricQuery,
    ok: { 200: { description: 'Codes', schema: TaricResponse } },
    errors: [422, 429],
  },
  {
    ...operation('bookPickup'),
    summary: 'Book a carrier pickup',
    tag: 'Pickups',
    body: PickupRequest,
    ok: { 201: { description: 'Pickup booked', schema: Pickup } },
    errors: [402, 422, 429],
  },
  {
    ...operation('listPickups'),
    summary: 'Pickups of the period (default last 30 days)',
    tag: 'Pickups',
    query: Period,
    paginated: true,
    ok: { 200: { description: 'Paginated pickups', schema: Paginated(Pickup) } },
    errors: [422],
  },
  { ...operation('getPickup'), summary: 'Pickup', tag: 'Pickups', ok: { 200: { description: 'Pickup', schema: Pickup } }, errors: [404] },
  {
    ...operation('submitOrders'),
    summary: 'Submit orders to the panel (repeatable by orderNumber)',
    tag: 'Orders',
    body: OrdersRequest,
    ok: {
      201: { description: 'At least one order created', schema: OrdersResponse },
      200: { description: 'All orders were already present', schema: OrdersResponse },
    },
    errors: [422, 429],
  },
  {
    ...operation('listInvoices'),
    summary: 'Invoices of the period',
    tag: 'Finance',
    query: Period.extend({ proforma: boolString.optional(), archived: boolString.optional() }),
    paginated: true,
    ok: { 200: { description: 'Paginated invoices', schema: Paginated(Invoice) } },
    errors: [422],
  },
  { ...operation('getInvoice'), summary: 'Invoice with items', tag: 'Finance', ok: { 200: { description: 'Invoice', schema: InvoiceDetail } }, errors: [404] },
  {
    ...operation('getInvoicePdf'),
    summary: 'Invoice with its base64 PDF',
    tag: 'Finance',
    ok: { 200: { description: 'Invoice with `pdf`', schema: InvoicePdf } },
    errors: [404, 429, 503],
  },
  { ...operation('getCredit'), summary: 'Current credit balance', tag: 'Finance', ok: { 200: { description: 'Balance', schema: CreditBalance } } },
  {
    ...operation('listCreditMovements'),
    summary: 'Credit movements, newest first',
    tag: 'Finance',
    query: Period.extend({ type: MovementTypeFilter.optional() }),
    paginated: true,
    ok: { 200: { description: 'Paginated movements', schema: Paginated(CreditMovement) } },
    errors: [422],
  },
  {
    ...operation('listCodLists'),
    summary: 'Cash-on-delivery remittance lists',
    tag: 'Finance',
    query: Period.extend({ status: CodListStatusFilter.optional() }),
    paginated: true,
    ok: { 200: { description: 'Paginated COD lists', schema: Paginated(CodList) } },
    errors: [422],
  },
  { ...operation('getCodList'), summary: 'COD list with its shipments', tag: 'Finance', ok: { 200: { description: 'COD list', schema: CodListDetail } }, errors: [404] },
  {
    ...operation('listReturns'),
    summary: 'Return lists of the period',
    tag: 'Finance',
    query: Period,
    paginated: true,
    ok: { 200: { description: 'Paginated return lists', schema: Paginated(ReturnList) } },
    errors: [422],
  },
  { ...operation('getReturnList'), summary: 'Return list with its shipments', tag: 'Finance', ok: { 200: { description: 'Return list', schema: ReturnListDetail } }, errors: [404] },
  { ...operation('listWebhooks'), summary: 'Registered webhook endpoints', tag: 'Webhooks', ok: { 200: { description: 'Webhooks', schema: WebhooksResponse } } },
  {
    ...operation('registerWebhook'),
    summary: 'Register a webhook endpoint; the secret is answered only here',
    tag: 'Webhooks',
    body: WebhookCreateRequest,
    ok: { 201: { description: 'Webhook with its secret', schema: CreatedWebhook } },
    errors: [402, 422],
  },
  { ...operation('getWebhook'), summary: 'Webhook endpoint', tag: 'Webhooks', ok: { 200: { description: 'Webhook', schema: Webhook } }, errors: [404] },
  { ...operation('deleteWebhook'), summary: 'Delete an endpoint and its delivery log', tag: 'Webhooks', ok: { 204: { description: 'Deleted' } }, errors: [404] },
  {
    ...operation('listWebhookDeliveries'),
    summary: 'Delivery attempts of the last 10 days',
    tag: 'Webhooks',
    paginated: true,
    ok: { 200: { description: 'Paginated deliveries', schema: Paginated(WebhookDelivery) } },
    errors: [404, 422],
  },
  {
    ...operation('testWebhook'),
    summary: "Send a real signed tracking.update built from the client's latest shipment in transit",
    tag: 'Webhooks',
    ok: { 200: { description: 'Outcome of the test delivery', schema: WebhookTestResult } },
    errors: [404, 429],
  },
  {
    ...operation('listWarehouses'),
    summary: "The client's pickup points (sandbox extension)",
    tag: 'Carriers',
    extension: true,
    ok: { 200: { description: 'Pickup points', schema: z.object({ data: z.array(Warehouse) }) } },
  },
  {
    ...operation('getOpenApi'),
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API as this sandbox serves it, generated from the same schemas it validates with. No token needed.',
    tag: 'Meta',
    public: true,
    extension: true,
    ok: { 200: { description: 'OpenAPI 3.1 document', schema: z.object({ openapi: z.string() }).catchall(z.unknown()) } },
  },
];

/** Descriptions of the tags (one per resource family of the spec's Endpoints). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Carriers: "The client's carriers, contracts and pickup points",
  Rates: 'Quotes: one rate per contract able to take the shipment',
  Shipments: 'Shipments (LDV) with their labels; cancellation',
  Tracking: 'Tracking records by tracking number or delivery document (BDA)',
  Manifests: 'Closing the day: one manifest per contract',
  Stocks: 'Held shipments (giacenze) and release instructions',
  'Delivery points': "Carrier pickup points (the carrier's own answer)",
  'Customs codes': 'EU Combined Nomenclature (TARIC) lookup',
  Pickups: 'Carrier pickup bookings',
  Orders: "Orders submitted to the panel's import list",
  Finance: 'Invoices, credit, cash-on-delivery lists and return lists',
  Webhooks: 'Webhook endpoints, their delivery log and test sends',
  Meta: 'About this document',
};
