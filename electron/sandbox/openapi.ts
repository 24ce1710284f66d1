/**
 * OpenAPI 3.1 document of the Client Shipping API 2026-09, generated from the
 * same zod schemas (`shared/platform/`) the sandbox validates requests with
 * and the station parses answers with (zod 4 `z.toJSONSchema`, JSON Schema
 * 2020-12 = the OAS 3.1 dialect). Schemas describe the wire: the schemas'
 * input side (defaults optional, transforms before they run).
 *
 * {@link OPERATIONS} is the catalogue: one entry per endpoint with its query,
 * body, answers and error statuses. The document lists every route actually
 * registered under the version prefix (collected by {@link collectRoutes});
 * a registered route without a catalogue entry still appears, marked
 * `x-sandbox-undocumented: true` (the conformance test fails on it), so a new
 * endpoint is never silently missing.
 */
import type { FastifyInstance } from 'fastify';
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
  ErrorEnvelope,
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
  PageQuery,
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
  WebhookShipmentCreatedPayload,
  WebhookStockPayload,
  WebhookTestResult,
  WebhookTrackingUpdatePayload,
  WebhooksResponse,
  SANDBOX_EXTENSION,
  type PlatformErrorCode,
} from '../../shared/platform';
import { ENDPOINTS, type Endpoint, type Operation } from '../../shared/platform/endpoints';

/** A route as registered with fastify (`url` with `:params`). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Records every route added to `app` from now on (fastify `onRoute`), HEAD
 * routes left out. Call before the routes are registered.
 * @returns the live list.
 */
export function collectRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (r) => {
    for (const m of Array.isArray(r.method) ? r.method : [r.method]) {
      if (m !== 'HEAD') routes.push({ method: m, url: r.url });
    }
  });
  return routes;
}

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

/** `/invoices/:id/pdf` and `/invoices/{invoiceId}/pdf` -> `/invoices/{}/pdf`. */
function shapeOf(path: string): string {
  return path.replace(/:[A-Za-z0-9_]+|\{[^}]*\}/g, '{}');
}

/** The catalogue entry of a registered route (pattern relative to the prefix), or undefined. */
function operationFor(method: string, relPath: string): OperationDoc | undefined {
  const shape = shapeOf(relPath);
  return OPERATIONS.find((o) => o.method === method && shapeOf(o.path) === shape);
}

type Json = Record<string, unknown>;

/** Error answers of the spec's table (Errors > Envelope), by status; `codes` are the `error.code` values each may carry. */
const ERROR_RESPONSES: Record<number, { name: string; description: string; codes: PlatformErrorCode[] }> = {
  401: { name: 'Unauthenticated', description: '`unauthenticated`: token missing, malformed, expired or revoked', codes: ['unauthenticated'] },
  402: {
    name: 'PaymentRequired',
    description: '`subscription_required`, `subscription_payment_failed` or `plan_limit_reached`',
    codes: ['subscription_required', 'subscription_payment_failed', 'plan_limit_reached'],
  },
  403: {
    name: 'Forbidden',
    description: '`insufficient_scope`, `account_disabled`, `client_role_required` or `forbidden`',
    codes: ['insufficient_scope', 'account_disabled', 'client_role_required', 'forbidden'],
  },
  404: { name: 'NotFound', description: '`not_found`: missing or of another client', codes: ['not_found'] },
  405: { name: 'MethodNotAllowed', description: '`method_not_allowed`: the method is not provided for this path; `Allow` lists those that are', codes: ['method_not_allowed'] },
  409: { name: 'Conflict', description: '`invalid_state`: operation no longer possible', codes: ['invalid_state'] },
  413: { name: 'PayloadTooLarge', description: '`http_error`: the request body is larger than 2 MiB', codes: ['http_error'] },
  422: {
    name: 'Unprocessable',
    description: '`validation_failed` (with `details` keyed by field path) or `shipment_rejected`',
    codes: ['validation_failed', 'shipment_rejected'],
  },
  429: { name: 'RateLimited', description: '`rate_limited`; wait `Retry-After` seconds', codes: ['rate_limited'] },
  502: { name: 'CarrierError', description: '`carrier_error`: the carrier or an external service did not answer', codes: ['carrier_error'] },
  503: { name: 'Unavailable', description: '`http_error` or `internal_error`: temporarily unavailable; `Retry-After` seconds when known', codes: ['http_error', 'internal_error'] },
};

/** Answer of every operation for an unexpected error (spec: Errors, 500 `internal_error`). */
const DEFAULT_RESPONSE = { name: 'InternalError', description: '`internal_error`: unexpected error (500)' };

/** Where generated schemas go: named ones are collected into `components.schemas`. */
interface SchemaContext {
  registry: z.core.$ZodRegistry<{ id: string }>;
  schemas: Record<string, Json>;
}

/** Rewrites `#/$defs/X` references (zod's local definitions) to `#/components/schemas/X`. */
function rewriteRefs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(rewriteRefs);
  if (v === null || typeof v !== 'object') return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    out[k] = k === '$ref' && typeof x === 'string' ? x.replace(/^#\/\$defs\//, '#/components/schemas/') : rewriteRefs(x);
  }
  return out;
}

/**
 * Adjustments of the generated JSON Schema where zod's own output says less
 * than the rule: refinements have no JSON Schema form, so the rules they
 * check are written here (in place on the generated node).
 */
const SCHEMA_RULES = new Map<z.core.$ZodType, (js: Json) => void>([
  [
    ManifestRequest,
    (js) => {
      // shipmentIds or trackingNumbers (or both), at least one entry in all: `{}` is refused.
      js.anyOf = [
        { required: ['shipmentIds'], properties: { shipmentIds: { minItems: 1 } } },
        { required: ['trackingNumbers'], properties: { trackingNumbers: { minItems: 1 } } },
      ];
    },
  ],
  [
    WebhookCreateRequest,
    (js) => {
      const url = (js.properties as Record<string, Json> | undefined)?.url;
      if (url) {
        url.format = 'uri';
        url.pattern = '^https://';
        url.description = 'HTTPS URL of the receiver (the sandbox started with `--webhook-loopback-http` also takes plain http to loopback hosts)';
      }
    },
  ],
]);

/**
 * JSON Schema (2020-12) of the wire form of `schema`. Schemas named in the
 * context's registry become `$ref`s to `components.schemas` (and are added
 * there). A schema marked with `extension()` (shared/platform) carries
 * `x-sandbox-extension: true` and its description; {@link SCHEMA_RULES} add
 * what refinements check.
 */
function wire(schema: z.ZodType, ctx: SchemaContext): Json {
  const out = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    metadata: ctx.registry,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const meta = z.globalRegistry.get(zodSchema);
      // A declared format (IsoDateTime: `date-time`), kept by clones such as extension() ones.
      if (typeof meta?.format === 'string') jsonSchema.format = meta.format;
      if (meta?.[SANDBOX_EXTENSION] === true) {
        (jsonSchema as Json)[SANDBOX_EXTENSION] = true;
        if (typeof meta.description === 'string') jsonSchema.description = meta.description;
      }
      SCHEMA_RULES.get(zodSchema)?.(jsonSchema as Json);
    },
  }) as Json;
  const defs = (out.$defs ?? {}) as Record<string, unknown>;
  delete out.$defs;
  delete out.$schema;
  for (const [id, def] of Object.entries(defs)) ctx.schemas[id] ??= rewriteRefs(def) as Json;
  return rewriteRefs(out) as Json;
}

/** Named components: the resources and requests of the spec, referenced from operations. */
const COMPONENTS: Record<string, z.ZodType> = {
  ErrorEnvelope,
  RatesRequest,
  ShipmentRequest,
  Shipment,
  CreatedShipment,
  Manifest,
  ManifestRequest,
  Pickup,
  PickupRequest,
  Stock,
  StockActionRequest,
  TrackingRecord,
  OrdersRequest,
  OrdersResponse,
  Invoice,
  InvoiceDetail,
  CreditMovement,
  CodList,
  ReturnList,
  Webhook,
  WebhookCreateRequest,
  WebhookDelivery,
  WebhookTrackingUpdatePayload,
  WebhookShipmentCreatedPayload,
  WebhookStockPayload,
};

/** Inputs of {@link buildOpenApiDocument}. */
export interface OpenApiInputs {
  /** `{base_url}`, e.g. `http://127.0.0.1:4100/api/2026-09`. */
  baseUrl: string;
  /** `{auth_url}/oauth/token`. */
  tokenUrl: string;
  /** The version prefix routes are registered under (`/api/2026-09`). */
  prefix: string;
  /** Registered routes (from {@link collectRoutes}). */
  routes: ReadonlyArray<RegisteredRoute>;
}

/**
 * Builds the OpenAPI 3.1 document: every registered route under `prefix`
 * (catalogue entry, or a minimal entry marked `x-sandbox-undocumented`),
 * the error envelope and error responses, the oauth2 client-credentials
 * scheme, the rate limits (`x-rate-limit-per-minute`) and the four webhook
 * events (`webhooks`).
 */
export function buildOpenApiDocument(inp: OpenApiInputs): Json {
  const ctx: SchemaContext = { registry: z.registry<{ id: string }>(), schemas: {} };
  for (const [id, schema] of Object.entries(COMPONENTS)) ctx.registry.add(schema, { id });
  for (const [id, schema] of Object.entries(COMPONENTS)) {
    // A named schema comes back as a reference to itself plus its definition, or inline.
    const js = wire(z.object({ it: schema }), ctx);
    const it = (js.properties as Record<string, Json> | undefined)?.it;
    if (it && it.$ref !== `#/components/schemas/${id}`) ctx.schemas[id] = it;
  }
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  const responses: Json = {};
  const retryAfter = { 'Retry-After': { description: 'Seconds to wait before calling again', schema: { type: 'integer', minimum: 1 } } };
  for (const { name, description, codes } of Object.values(ERROR_RESPONSES)) {
    responses[name] = {
      description,
      // The envelope, with `error.code` narrowed to the codes this status carries.
      content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }, { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } }] } } },
      ...(name === 'RateLimited' || name === 'Unavailable' ? { headers: retryAfter } : {}),
      ...(name === 'MethodNotAllowed' ? { headers: { Allow: { description: 'Methods provided for the path', schema: { type: 'string' } } } } : {}),
    };
  }
  responses[DEFAULT_RESPONSE.name] = { description: DEFAULT_RESPONSE.description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };

  const paths: Record<string, Json> = {};
  const seen = new Set<string>();
  for (const route of inp.routes) {
    if (!route.url.startsWith(inp.prefix + '/')) continue;
    const rel = route.url.slice(inp.prefix.length);
    const method = route.method.toUpperCase();
    const key = `${method} ${shapeOf(rel)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const op = operationFor(method, rel);
    const path = op?.path ?? rel.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const item = (paths[path] ??= {});
    item[method.toLowerCase()] = op ? operationObject(op, ctx, ref) : undocumented(path, method);
  }

  const webhooks: Json = {};
  for (const [event, schema] of [
    ['tracking.update', WebhookTrackingUpdatePayload],
    ['shipment.created', WebhookShipmentCreatedPayload],
    ['stock.opened', WebhookStockPayload],
    ['stock.closed', WebhookStockPayload],
  ] as const) {
    webhooks[event] = {
      post: {
        operationId: `${event.replace(/\.(\w)/g, (_m, c: string) => c.toUpperCase())}Event`,
        summary: `${event} event, sent to the endpoints registered for it`,
        description: `The platform POSTs a \`${event}\` event to every active endpoint registered for it, signed with the endpoint's secret (spec: Events > Delivery).`,
        tags: ['Webhooks'],
        parameters: [
          { name: 'Webhook-Timestamp', in: 'header', required: true, schema: { type: 'string' }, description: 'Unix seconds' },
          { name: 'Webhook-Signature', in: 'header', required: true, schema: { type: 'string' }, description: 't=<unix>,v1=<hex HMAC-SHA256 of "<unix>.<raw body>" keyed with the secret>' },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: wire(schema, ctx) } } },
        responses: {
          '200': { description: 'Any 2xx marks the delivery successful' },
          default: { description: 'A 5xx or a network error is retried after 30 s, 2 min, 5 min; a 4xx is logged and not retried' },
        },
      },
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Client Shipping API',
      version: '2026-09',
      description:
        'Quotes, shipments with labels, tracking, manifests, pickups, stocks, delivery points, customs codes, orders, invoices, credit, COD lists, returns and webhooks (Client Shipping API 2026-09). Served by the Shipping Station sandbox and generated from the shared zod schemas it validates with. Fields and operations the sandbox adds beyond the spec carry `x-sandbox-extension: true`; clients ignore fields they do not know (Versioning 2).',
      // Who answers for this document: the project's sandbox (electron/sandbox/README.md).
      contact: { name: 'Shipping Station sandbox' },
    },
    servers: [{ url: inp.baseUrl }],
    security: [{ oauth2: ['client-api'] }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    webhooks,
    components: {
      schemas: Object.fromEntries(Object.entries(ctx.schemas).sort(([x], [y]) => x.localeCompare(y))),
      responses,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: 'OAuth 2.0 client credentials; tokens last one hour.',
          flows: { clientCredentials: { tokenUrl: inp.tokenUrl, scopes: { 'client-api': 'Use the Client Shipping API' } } },
        },
      },
    },
  };
}

/** Descriptions of the tags (one per resource family of the spec's Endpoints). */
const TAG_DESCRIPTIONS: Record<string, string> = {
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

function operationObject(op: OperationDoc, ctx: SchemaContext, ref: (name: string) => Json): Json {
  const parameters: Json[] = [];
  for (const m of op.path.matchAll(/\{([^}]+)\}/g)) {
    const name = m[1] ?? '';
    parameters.push({ name, in: 'path', required: true, schema: name === 'id' ? { type: 'integer', minimum: 1 } : { type: 'string' } });
  }
  const addQuery = (schema: z.ZodObject) => {
    const js = wire(schema, ctx);
    const props = (js.properties ?? {}) as Record<string, Json>;
    const required = new Set((js.required ?? []) as string[]);
    for (const [name, s] of Object.entries(props)) parameters.push({ name, in: 'query', required: required.has(name), schema: s });
  };
  if (op.query) addQuery(op.query);
  if (op.paginated) addQuery(PageQuery);
  const responses: Json = {};
  for (const [status, r] of Object.entries(op.ok)) {
    responses[status] = { description: r.description, ...(r.schema ? { content: { 'application/json': { schema: wire(r.schema, ctx) } } } : {}) };
  }
  const errors = new Set(op.errors ?? []);
  if (!op.public) {
    errors.add(401);
    errors.add(403);
  }
  // Any path answers 405 for a method it does not provide (spec: Errors); a body over 2 MiB is 413.
  errors.add(405);
  if (op.body) errors.add(413);
  const limit = op.ratePerMinute;
  if (limit !== undefined) errors.add(429);
  for (const status of [...errors].sort((a, b) => a - b)) {
    const e = ERROR_RESPONSES[status];
    if (e) responses[String(status)] = ref(e.name);
  }
  responses.default = ref(DEFAULT_RESPONSE.name);
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description ?? `${op.summary}.${op.extension ? ' A sandbox extension: not in the Client Shipping API 2026-09.' : ''}`,
    tags: [op.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: wire(op.body, ctx) } } } } : {}),
    responses,
    ...(op.public ? { security: [] } : {}),
    ...(limit !== undefined ? { 'x-rate-limit-per-minute': limit } : {}),
    ...(op.extension ? { 'x-sandbox-extension': true } : {}),
  };
}

function undocumented(path: string, method: string): Json {
  const parameters = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1] ?? '', in: 'path', required: true, schema: { type: 'string' } }));
  return {
    summary: `${method} ${path}`,
    ...(parameters.length ? { parameters } : {}),
    responses: { default: { description: 'Not described yet', content: { 'application/json': { schema: {} } } } },
    'x-sandbox-undocumented': true,
  };
}
