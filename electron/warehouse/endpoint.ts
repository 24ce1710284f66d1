/**
 * The warehouse's webhook endpoint at the platform (issue 44 item 1; spec: Endpoints > Webhooks, Resources >
 * Webhook endpoint): `npm run warehouse -- --public-url https://…` registers `<public url>/platform/events` for
 * the four events and keeps the secret in the warehouse database (`webhook_endpoint`, schema 7: the owner's only,
 * never granted to the benches), as the warehouse keeps its supervisors' PIN hashes; it is never logged,
 * answered or shown. Registering again replaces the old endpoint (the secret cannot be rotated: spec), and an
 * endpoint of the same URL left by an earlier run is deleted too. The page reads the endpoint's state, its recent
 * deliveries and sends the platform's test through here.
 */
import type { Pool } from 'pg';
import { z } from 'zod';
import { CreatedWebhook, Webhook, WebhookDelivery, WebhooksResponse, WebhookTestResult, isLoopbackHost } from '../../shared/platform/webhooks';
import { EVENTS_PATH } from './events-receiver';
import { PlatformCallError, type WarehousePlatform } from './platform';

/** The four events (spec: Events). */
const ALL_EVENTS = ['tracking.update', 'shipment.created', 'stock.opened', 'stock.closed'] as const;

/** The endpoint as the page shows it: never its secret. */
export interface EndpointView {
  id: number;
  url: string;
  registeredAt: string;
  /** The platform's word (GET /webhooks/{id}); null when it could not be asked. */
  isActive: boolean | null;
  /** The latest deliveries (GET /webhooks/{id}/deliveries, newest first, at most 10); empty when not asked. */
  deliveries: Array<{ at: string; event: string; status: 'success' | 'failed'; responseCode: number; trackingNumber: string | null }>;
  /** Why the platform could not be asked, when it could not. */
  problem: string | null;
}

/**
 * The endpoint URL for a public address: its path kept (a reverse proxy's prefix), {@link EVENTS_PATH} after it.
 * @throws Error naming `--public-url` when it is not an absolute https URL (http only for a loopback test receiver) without user or query
 */
export function endpointUrl(publicUrl: string): string {
  let u: URL;
  try {
    u = new URL(publicUrl);
  } catch {
    throw new Error(`--public-url must be an absolute https URL, e.g. https://warehouse.example.com, not ${publicUrl}`);
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopbackHost(u.hostname))) throw new Error('--public-url must use https (the platform calls only https addresses)');
  if (u.username || u.password || u.search || u.hash) throw new Error('--public-url must have no user, password, query or fragment');
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}${EVENTS_PATH}`;
}

/** The secret of the registered endpoint, or null when none is registered. */
export async function endpointSecret(db: Pool): Promise<string | null> {
  const res = await db.query<{ secret: string }>('SELECT secret FROM webhook_endpoint');
  return res.rows[0]?.secret ?? null;
}

/**
 * Registers the warehouse's endpoint for `publicUrl` (see the module doc), replacing the one registered before.
 * @returns the new endpoint and its secret (for the receiver only)
 * @throws Error for a bad `publicUrl`; PlatformCallError when the platform refuses (402 `subscription_required`,
 *   422 `validation_failed` for a URL it does not take) or does not answer: the old endpoint then stays
 */
export async function registerEndpoint(platform: WarehousePlatform, db: Pool, publicUrl: string): Promise<{ id: number; url: string; secret: string }> {
  const url = endpointUrl(publicUrl);
  const created = (await platform.call('POST', '/webhooks', CreatedWebhook, { url, description: 'Shipping Station warehouse', events: [...ALL_EVENTS] }))!;
  const before = (await db.query<{ webhook_id: number }>('SELECT webhook_id FROM webhook_endpoint')).rows[0]?.webhook_id;
  await db.query(
    `INSERT INTO webhook_endpoint (one, webhook_id, url, secret) VALUES (true, $1, $2, $3)
     ON CONFLICT (one) DO UPDATE SET webhook_id = EXCLUDED.webhook_id, url = EXCLUDED.url, secret = EXCLUDED.secret, registered_at = now()`,
    [created.id, url, created.secret],
  );
  const listed = (await platform.call('GET', '/webhooks', WebhooksResponse))!.data;
  const old = new Set(listed.filter((w) => w.id !== created.id && w.url === url).map((w) => w.id));
  if (before !== undefined && before !== created.id) old.add(before);
  for (const id of old) {
    try {
      await platform.call('DELETE', `/webhooks/${id}`, null);
    } catch (e) {
      // Deleted already (in the web panel): nothing left to replace.
      if (!(e instanceof PlatformCallError && e.status === 404)) throw e;
    }
  }
  return { id: created.id, url, secret: created.secret };
}

const DeliveriesPage = z.object({ data: z.array(WebhookDelivery) });

/** The registered endpoint as the page shows it (see {@link EndpointView}); null when none is registered. */
export async function readEndpoint(platform: WarehousePlatform | null, db: Pool): Promise<EndpointView | null> {
  const row = (await db.query<{ webhook_id: number; url: string; registered_at: Date }>('SELECT webhook_id, url, registered_at FROM webhook_endpoint')).rows[0];
  if (!row) return null;
  const view: EndpointView = { id: row.webhook_id, url: row.url, registeredAt: row.registered_at.toISOString(), isActive: null, deliveries: [], problem: null };
  if (!platform) return { ...view, problem: 'no platform account given to the warehouse program' };
  try {
    view.isActive = (await platform.call('GET', `/webhooks/${row.webhook_id}`, Webhook))!.isActive;
    const page = (await platform.call('GET', `/webhooks/${row.webhook_id}/deliveries?per_page=10`, DeliveriesPage))!;
    view.deliveries = page.data.map((d) => ({
      at: d.createdAt,
      event: d.event,
      status: d.status,
      responseCode: d.responseCode,
      trackingNumber: typeof d.payload.ldv === 'string' ? d.payload.ldv : null,
    }));
  } catch (e) {
    view.problem = e instanceof PlatformCallError && e.status === 404 ? 'the platform no longer has this endpoint: register it again' : (e as Error).message;
    if (e instanceof PlatformCallError && e.status === 404) view.isActive = false;
  }
  return view;
}

/**
 * POST /webhooks/{id}/test: the platform sends a real signed tracking.update now (5 a minute: spec, Limits).
 * @returns whether it was delivered and the answer's code
 * @throws PlatformCallError (404: no shipment in transit, or no endpoint; 429 with Retry-After)
 */
export async function testEndpoint(platform: WarehousePlatform, db: Pool): Promise<{ delivered: boolean; responseCode: number }> {
  const row = (await db.query<{ webhook_id: number }>('SELECT webhook_id FROM webhook_endpoint')).rows[0];
  if (!row) throw new PlatformCallError(404, 'not_found', 'No endpoint is registered: start the warehouse program with --public-url');
  const out = (await platform.call('POST', `/webhooks/${row.webhook_id}/test`, WebhookTestResult))!;
  return { delivered: out.delivered, responseCode: out.responseCode };
}
