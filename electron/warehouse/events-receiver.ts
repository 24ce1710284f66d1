/**
 * The one path of the warehouse's server meant to be reached from outside (issue 44 item 2): `POST
 * /platform/events`, where the platform delivers its events (spec: Events > Delivery), behind the warehouse's
 * reverse proxy or TLS. It skips the page's loopback Host/Origin rule and its session; instead every call must:
 *
 * - be `Content-Type: application/json` (415 otherwise) of at most 1 MB (413);
 * - carry `Webhook-Timestamp` and `Webhook-Signature: t=<unix>,v1=<hex>` with the same `t` (401 otherwise);
 * - be signed: `v1` = HMAC-SHA256 of `<t>.<raw body>` with the endpoint's secret, compared in constant time (401);
 * - be fresh: `t` within 300 s of the warehouse's clock, either way (401, "replay");
 * - be one of the four events with its tracking number (`ldv`) and ISO `timestamp` (400).
 *
 * A refused call stores nothing and is said in at most one log line a minute (with how many were refused).
 * An accepted one is stored in `platform_events` (schema 7) in one statement and answered 200 at once, `{stored:
 * true}` or `{stored: false}` for one stored already (a retry or a replay: same dedup key); it is applied after
 * ({@link EventsReceiverOptions.onStored}). No secret is ever logged or answered.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { parseWebhookSignatureHeader, WebhookEventName } from '../../shared/platform/webhooks';

/** The path the platform calls (the URL registered is the public address + this path). */
export const EVENTS_PATH = '/platform/events';
/** Largest body accepted, bytes (the issue: 1 MB). */
const MAX_BODY_BYTES = 1024 * 1024;
/** Signature freshness, s (spec: Limits, "signature freshness 300 seconds"). */
const FRESH_S = 300;
/** At most one log line of refusals per this many ms. */
const LOG_EVERY_MS = 60_000;

/** Options of {@link registerEventsRoute}. */
export interface EventsReceiverOptions {
  db: Pool;
  /** The endpoint's signing secret now; null while none is registered (answered 503: the platform retries). */
  secret: () => string | null;
  /** Clock, ms (tests pass the sandbox's simulated one). */
  now: () => number;
  /** Log line sink (stderr in the program). */
  log: (line: string) => void;
  /** An event was stored (not a duplicate): apply it soon. */
  onStored: () => void;
}

/** An event as stored: what the dedup key and the row are made of. */
export interface StoredEvent {
  event: WebhookEventName;
  trackingNumber: string;
  /** The payload's `timestamp`, ms. */
  at: number;
  statusCode: number | null;
  payload: Record<string, unknown>;
}

/**
 * What identifies an event, so a retry or a replay is stored once (spec: Events > Delivery 7, "deduplicate on
 * ldv, event and timestamp"): a stock event by its stock (it opens and closes once), a shipment.created by its
 * tracking number, a tracking.update by tracking number, instant (ms: two spellings of one instant are one) and
 * status. The catch-up makes the same keys for what it finds, so an event it found is not applied again.
 */
function eventKey(e: Pick<StoredEvent, 'event' | 'trackingNumber' | 'at' | 'statusCode' | 'payload'>): string {
  if (e.event === 'stock.opened' || e.event === 'stock.closed') return `${e.event}|${String(e.payload.stock_id)}`;
  if (e.event === 'shipment.created') return `${e.event}|${e.trackingNumber}`;
  return `${e.event}|${e.trackingNumber}|${e.at}|${e.statusCode ?? ''}`;
}

/**
 * Stores events (one statement; duplicates by {@link eventKey} skipped).
 * @returns how many were new
 * @throws the database's error
 */
export async function storeEvents(db: Pool, events: readonly StoredEvent[], source: 'webhook' | 'catch_up'): Promise<number> {
  if (events.length === 0) return 0;
  const res = await db.query(
    `INSERT INTO platform_events (dedup_key, event, tracking_number, event_at, status_code, payload, source)
     SELECT k, e, t, to_timestamp(a / 1000.0), s, p, $7 FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::int[], $6::jsonb[]) AS x(k, e, t, a, s, p)
     ON CONFLICT (dedup_key) DO NOTHING`,
    [events.map(eventKey), events.map((e) => e.event), events.map((e) => e.trackingNumber), events.map((e) => e.at), events.map((e) => e.statusCode), events.map((e) => JSON.stringify(e.payload)), source],
  );
  return res.rowCount ?? 0;
}

/** The event in a body, or why it is not one (400). */
function readEvent(raw: Buffer): StoredEvent | string {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return 'the body is not JSON';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  const p = body as Record<string, unknown>;
  const event = WebhookEventName.safeParse(p.event);
  if (!event.success) return 'event is not one of tracking.update, shipment.created, stock.opened, stock.closed';
  if (typeof p.ldv !== 'string' || p.ldv === '' || p.ldv.length > 100) return 'ldv (the tracking number) is missing';
  const at = typeof p.timestamp === 'string' ? Date.parse(p.timestamp) : NaN;
  if (!Number.isFinite(at)) return 'timestamp is not an ISO 8601 date-time';
  const statusCode = typeof p.statusCode === 'number' && Number.isInteger(p.statusCode) ? p.statusCode : null;
  if (event.data === 'tracking.update' && statusCode === null) return 'statusCode is missing';
  if ((event.data === 'stock.opened' || event.data === 'stock.closed') && !Number.isInteger(p.stock_id)) return 'stock_id is missing';
  return { event: event.data, trackingNumber: p.ldv, at, statusCode, payload: p };
}

/** Why the signature headers do not hold for `raw` at `nowMs`, or undefined when they do. */
function signatureProblem(headers: Record<string, string | string[] | undefined>, raw: Buffer, secret: string, nowMs: number): string | undefined {
  const ts = headers['webhook-timestamp'];
  const sig = headers['webhook-signature'];
  if (typeof ts !== 'string' || typeof sig !== 'string') return 'Webhook-Timestamp or Webhook-Signature is missing';
  const parsed = parseWebhookSignatureHeader(sig);
  if (!parsed || String(parsed.t) !== ts.trim()) return 'Webhook-Signature is not t=<unix>,v1=<hex> with the Webhook-Timestamp';
  if (Math.abs(nowMs / 1000 - parsed.t) > FRESH_S) return `the timestamp is ${Math.round(nowMs / 1000 - parsed.t)} s away from now (more than ${FRESH_S} s)`;
  // Over the raw bytes as received: `<t>.` then the body, never a re-serialised copy.
  const want = createHmac('sha256', secret).update(`${parsed.t}.`).update(raw).digest();
  const got = Buffer.from(parsed.v1, 'hex');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return 'the signature does not match';
  return undefined;
}

/**
 * Registers {@link EVENTS_PATH} on `app` in a scope of its own (its body parser and errors), see the module doc.
 * The page's onRequest hook must let the path through (server.ts).
 */
export async function registerEventsRoute(app: FastifyInstance, opts: EventsReceiverOptions): Promise<void> {
  let refusedSinceLog = 0;
  let lastLog = -Infinity;
  /** A refused call: counted, said at most once a minute (what was refused last, and how many). */
  const refuse = (reply: FastifyReply, status: number, code: string, message: string) => {
    refusedSinceLog++;
    const t = Date.now();
    if (t - lastLog >= LOG_EVERY_MS) {
      opts.log(`warehouse: refused ${refusedSinceLog} platform event call(s) in the last minute; last: ${status} ${message}`);
      lastLog = t;
      refusedSinceLog = 0;
    }
    return reply.code(status).header('cache-control', 'no-store').send({ error: { code, message } });
  };
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) => done(null, body));
    scope.setErrorHandler((err: { statusCode?: number; code?: string; message: string }, _req, reply) => {
      if (err.statusCode === 413) return refuse(reply, 413, 'too_large', `The body is over ${MAX_BODY_BYTES} bytes`);
      if (err.statusCode === 415) return refuse(reply, 415, 'unsupported_media_type', 'Send Content-Type: application/json');
      if (err.statusCode !== undefined && err.statusCode < 500) return refuse(reply, err.statusCode, 'invalid_input', err.message);
      opts.log(`warehouse: a platform event could not be stored: ${err.message}`);
      // 5xx: the platform tries again (30 s, 2 min, 5 min), then the catch-up finds it.
      return reply.code(503).header('cache-control', 'no-store').send({ error: { code: 'unavailable', message: 'The warehouse database did not answer; try again' } });
    });
    scope.post(EVENTS_PATH, async (req, reply) => {
      const raw = req.body;
      if (!Buffer.isBuffer(raw)) return refuse(reply, 415, 'unsupported_media_type', 'Send Content-Type: application/json');
      const secret = opts.secret();
      if (secret === null) return reply.code(503).header('cache-control', 'no-store').send({ error: { code: 'unavailable', message: 'No endpoint is registered yet' } });
      const bad = signatureProblem(req.headers, raw, secret, opts.now());
      if (bad !== undefined) return refuse(reply, 401, 'bad_signature', bad);
      const event = readEvent(raw);
      if (typeof event === 'string') return refuse(reply, 400, 'invalid_input', event);
      const stored = (await storeEvents(opts.db, [event], 'webhook')) === 1;
      if (stored) opts.onStored();
      return reply.header('cache-control', 'no-store').send({ stored });
    });
  });
}
