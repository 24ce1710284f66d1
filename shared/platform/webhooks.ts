/**
 * Webhooks of the Client Shipping API 2026-09 (spec: Resources > Webhook
 * endpoint, Webhook delivery record; Endpoints > Webhooks; Events). Request
 * schemas validate strictly (the sandbox answers 422 `validation_failed` with
 * their issue paths, e.g. `url`, `events.0`); response schemas accept unknown
 * fields (spec: Versioning 2).
 *
 * Pure TypeScript: `URL` is the WHATWG global available in Node and browsers.
 */
import ipaddr from 'ipaddr.js';
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

/**
 * Why an IP address may not receive webhooks from a platform (SSRF: a
 * client must not make the platform call into its own network), or
 * undefined for a public unicast address. Refused: every range ipaddr.js
 * does not call `unicast` — loopback (127/8, ::1), private (10/8,
 * 172.16/12, 192.168/16), link-local (169.254/16, fe80::/10, cloud metadata
 * included), unique-local (fc00::/7), carrier-grade NAT, unspecified,
 * multicast, broadcast, reserved and documentation ranges, and the IPv6
 * forms that embed an IPv4 address (IPv4-mapped is judged by that IPv4;
 * NAT64, 6to4 and Teredo are refused outright).
 * @param address an IPv4 or IPv6 address, with or without `[]`.
 */
function localAddressProblem(address: string): string | undefined {
  const kind = localAddressKind(address);
  return kind === undefined ? undefined : `${kind.ip} is ${kind.kind}`;
}

/** {@link localAddressProblem} in parts: the normalised address and what it is (`a loopback address`). */
export function localAddressKind(address: string): { ip: string; kind: string } | undefined {
  const a = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(a)) return undefined;
  let ip = ipaddr.parse(a);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range === 'unicast') return undefined;
  const names: Record<string, string> = {
    loopback: 'a loopback address',
    private: 'a private-network address',
    linkLocal: 'a link-local address',
    uniqueLocal: 'a unique-local (private) IPv6 address',
    carrierGradeNat: 'a carrier-grade NAT address',
    unspecified: 'the unspecified address',
  };
  return { ip: ip.toString(), kind: names[range] ?? `a reserved address (${range})` };
}

/**
 * Why a URL host may not receive webhooks unless local targets are allowed
 * (see {@link localAddressProblem}): `localhost` and `*.localhost` names
 * (RFC 6761: always loopback) and IP literals in refused ranges. Other names
 * are judged when they are resolved, at each delivery (the sandbox's
 * dispatcher), since DNS can change after registration.
 */
export function localTargetProblem(hostname: string): string | undefined {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return `${h} is a localhost name`;
  return localAddressProblem(h);
}

/** Options of {@link webhookCreateRequestSchema}. */
export interface WebhookUrlRules {
  /**
   * Accept plain `http://` URLs whose host is loopback (localhost, 127.x, ::1),
   * and loopback targets at all. Only a local sandbox offers this, so tests
   * can run a receiver without TLS; the platform (and the default schema)
   * require HTTPS to a public address.
   */
  allowLoopbackHttp?: boolean;
  /**
   * Accept receivers on loopback, private, link-local and unique-local
   * addresses and `localhost` names (over HTTPS, or plain http on loopback
   * with `allowLoopbackHttp`). Only a sandbox running locally for training
   * or tests offers this; otherwise they are refused (SSRF).
   */
  allowLocalTargets?: boolean;
}

/**
 * Problem with a webhook URL, or undefined when it is acceptable: absolute,
 * `https:` (or loopback `http:` when allowed), with a host and no user info,
 * and (unless allowed) not a local target ({@link localTargetProblem}).
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
  if (u.protocol === 'http:' && rules.allowLoopbackHttp) {
    if (!isLoopbackHost(u.hostname)) return 'Plain http is accepted only for loopback receivers (localhost, 127.0.0.1, ::1); use https';
  } else if (u.protocol !== 'https:') {
    return 'URL must use https';
  }
  const local = localTargetProblem(u.hostname);
  if (local === undefined || rules.allowLocalTargets) return undefined;
  if (rules.allowLoopbackHttp && isLoopbackHost(u.hostname)) return undefined;
  return `URL must point to a public address: ${local}`;
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
