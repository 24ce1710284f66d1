/**
 * Webhooks of the Client Shipping API 2026-09 (spec: Resources > Webhook
 * endpoint, Webhook delivery record; Endpoints > Webhooks; Events). Request
 * schemas validate strictly (the sandbox answers 422 `validation_failed` with
 * their issue paths, e.g. `url`, `events.0`); response schemas accept unknown
 * fields (spec: Versioning 2).
 *
 * Pure TypeScript: `URL` is the WHATWG global available in Node and browsers.
 */
import { z } from 'zod';
import { IsoDateTime } from './common';

/** The four event kinds (spec: Events — "Only four event kinds exist"). */
const WEBHOOK_EVENTS = ['tracking.update', 'shipment.created', 'stock.opened', 'stock.closed'] as const;

/** Event name of a webhook subscription or delivery. */
export const WebhookEventName = z.enum(WEBHOOK_EVENTS, {
  error: `Unknown event: use one of ${WEBHOOK_EVENTS.join(', ')}`,
});
export type WebhookEventName = z.infer<typeof WebhookEventName>;

/** Longest `url` and `description` of a webhook endpoint (spec: Limits > Other bounds). */
const WEBHOOK_FIELD_MAX = 255;

/** true for a loopback host name: `localhost`, 127.0.0.0/8, `[::1]`. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Options of {@link webhookCreateRequestSchema}. */
export interface WebhookUrlRules {
  /**
   * Accept plain `http://` URLs whose host is loopback (localhost, 127.x, ::1).
   * Only the sandbox offers this, so tests can run a receiver without TLS;
   * the platform (and the default schema) require HTTPS.
   */
  allowLoopbackHttp?: boolean;
}

/**
 * Problem with a webhook URL, or undefined when it is acceptable: absolute,
 * `https:` (or loopback `http:` when allowed), with a host and no user info.
 */
export function webhookUrlProblem(raw: string, rules: WebhookUrlRules = {}): string | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'URL must be an absolute HTTPS URL, e.g. https://example.com/hooks';
  }
  if (u.username !== '' || u.password !== '') return 'URL must not contain user name or password';
  if (u.hostname === '') return 'URL must have a host';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:' && rules.allowLoopbackHttp) {
    return isLoopbackHost(u.hostname) ? undefined : 'Plain http is accepted only for loopback receivers (localhost, 127.0.0.1, ::1); use https';
  }
  return 'URL must use https';
}

/**
 * POST /webhooks body (spec: Endpoints > Webhooks): `url` (required, max 255,
 * HTTPS), `description` (max 255), `events` (required, each one of the four
 * event names; at least one; duplicates collapse). Issue paths: `url`,
 * `description`, `events`, `events.<i>`.
 */
export function webhookCreateRequestSchema(rules: WebhookUrlRules = {}) {
  return z.object({
    url: z
      .string({ error: 'URL is required' })
      .trim()
      .min(1, { error: 'URL is required' })
      .max(WEBHOOK_FIELD_MAX, { error: `URL must be at most ${WEBHOOK_FIELD_MAX} characters` })
      .superRefine((v, ctx) => {
        const problem = webhookUrlProblem(v, rules);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    description: z
      .string({ error: 'Description must be a string' })
      .max(WEBHOOK_FIELD_MAX, { error: `Description must be at most ${WEBHOOK_FIELD_MAX} characters` })
      .optional(),
    events: z
      .array(WebhookEventName, { error: 'Events are required: an array of event names' })
      .min(1, { error: 'At least one event is required' })
      .transform((list) => [...new Set(list)]),
  });
}

/** POST /webhooks body as the platform validates it (HTTPS only). */
export const WebhookCreateRequest = webhookCreateRequestSchema();
export type WebhookCreateRequest = z.input<typeof WebhookCreateRequest>;

/** Webhook endpoint (spec: Resources > Webhook endpoint), as listed and read: never with `secret`. */
export const Webhook = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: IsoDateTime,
});
export type Webhook = z.infer<typeof Webhook>;

/** POST /webhooks 201 body: the Webhook with its signing `secret`, shown only this once. */
export const CreatedWebhook = Webhook.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

/** GET /webhooks body. */
export const WebhooksResponse = z.object({ data: z.array(Webhook) });

/**
 * Delivery record (spec: Resources > Webhook delivery record): one per
 * attempt. `responseCode` 0 on connection errors, with the error text in
 * `responseBody`; `responseBody` at most 1000 characters. The sandbox adds
 * `attempt` (1 = first send, 2..4 = retries, 1 for a test send),
 * `nextRetryAt` (date-time of the next attempt, null when none follows) and
 * `test` (sent by POST /webhooks/{id}/test).
 */
export const WebhookDelivery = z.object({
  id: z.number().int(),
  event: z.string(),
  status: z.enum(['success', 'failed']),
  responseCode: z.number().int(),
  responseBody: z.string(),
  payload: z.record(z.string(), z.unknown()),
  createdAt: IsoDateTime,
  attempt: z.number().int().optional(),
  nextRetryAt: IsoDateTime.nullable().optional(),
  test: z.boolean().optional(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** POST /webhooks/{id}/test 200 body. */
export const WebhookTestResult = z.object({
  delivered: z.boolean(),
  responseCode: z.number().int(),
  responseBody: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;

/** Common fields of every webhook payload (spec: Events > Common payload fields). */
const WebhookPayloadCommon = z.looseObject({
  event: WebhookEventName,
  timestamp: IsoDateTime,
  ldv: z.string(),
  contractCode: z.string(),
  statusCode: z.number().int(),
  domain: z.string(),
});
type WebhookPayloadCommon = z.infer<typeof WebhookPayloadCommon>;

/** `tracking.update` payload (spec: Events > tracking.update payload). */
export const WebhookTrackingUpdatePayload = WebhookPayloadCommon.extend({
  event: z.literal('tracking.update'),
  vector_name: z.string(),
  order_id: z.string().nullable(),
  client_store_id: z.union([z.string(), z.number()]).nullable(),
  TrackingDettaglio: z.array(z.looseObject({ Data: z.string(), Stato: z.string(), Luogo: z.string() })),
});
export type WebhookTrackingUpdatePayload = z.infer<typeof WebhookTrackingUpdatePayload>;

/** `shipment.created` payload (spec: Events > shipment.created payload). */
export const WebhookShipmentCreatedPayload = WebhookPayloadCommon.extend({
  event: z.literal('shipment.created'),
  shipping_id: z.number().int(),
  client_id: z.number().int(),
  client_store_id: z.union([z.string(), z.number()]).nullable(),
  order_id: z.string().nullable(),
  vector_name: z.string(),
});
export type WebhookShipmentCreatedPayload = z.infer<typeof WebhookShipmentCreatedPayload>;

/** `stock.opened` / `stock.closed` payload (spec: Events > stock.opened and stock.closed payload). */
export const WebhookStockPayload = WebhookPayloadCommon.extend({
  event: z.enum(['stock.opened', 'stock.closed']),
  giacenza_id: z.string(),
  opened_at: IsoDateTime,
  stock_id: z.number().int(),
  shipping_id: z.number().int(),
});
export type WebhookStockPayload = z.infer<typeof WebhookStockPayload>;

/** Request headers of a webhook call (spec: Events > Delivery 2). */
export const WEBHOOK_HEADERS = {
  timestamp: 'Webhook-Timestamp',
  signature: 'Webhook-Signature',
} as const;

/**
 * Splits a `Webhook-Signature` value `t=<unix>,v1=<hex>` into its parts;
 * undefined when it does not have that form (missing `t` or `v1`, `t` not
 * an integer, `v1` not lowercase hex of 64 characters).
 */
export function parseWebhookSignatureHeader(value: string): { t: number; v1: string } | undefined {
  const parts = new Map<string, string>();
  for (const piece of value.split(',')) {
    const eq = piece.indexOf('=');
    if (eq <= 0) return undefined;
    parts.set(piece.slice(0, eq).trim(), piece.slice(eq + 1).trim());
  }
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (t === undefined || v1 === undefined || !/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) return undefined;
  return { t: Number(t), v1 };
}
