/**
 * OpenAPI 3.1 document of the Client Shipping API 2026-09, generated from the
 * same zod schemas (`shared/platform/`) the sandbox validates requests with
 * and the station parses answers with (zod 4 `z.toJSONSchema`, JSON Schema
 * 2020-12 = the OAS 3.1 dialect). Schemas describe the wire: the schemas'
 * input side (defaults optional, transforms before they run).
 *
 * {@link OPERATIONS} (openapi-operations.ts) is the catalogue: one entry per endpoint with its query,
 * body, answers and error statuses. The document lists every route actually
 * registered under the version prefix (collected by {@link collectRoutes});
 * a registered route without a catalogue entry still appears, marked
 * `x-sandbox-undocumented: true` (the conformance test fails on it), so a new
 * endpoint is never silently missing.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CodList,
  CreatedShipment,
  CreditMovement,
  ErrorEnvelope,
  Invoice,
  InvoiceDetail,
  Manifest,
  ManifestRequest,
  OrdersRequest,
  OrdersResponse,
  PageQuery,
  Pickup,
  PickupRequest,
  RatesRequest,
  ReturnList,
  Shipment,
  ShipmentRequest,
  Stock,
  StockActionRequest,
  TrackingRecord,
  Webhook,
  WebhookCreateRequest,
  WebhookDelivery,
  WebhookShipmentCreatedPayload,
  WebhookStockPayload,
  WebhookTrackingUpdatePayload,
  SANDBOX_EXTENSION,
  type PlatformErrorCode,
} from '../../shared/platform';
import { OPERATIONS, TAG_DESCRIPTIONS, type OperationDoc } from './openapi-operations';

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
