/**
 * Webhooks (spec: Endpoints > Webhooks; Resources > Webhook endpoint,
 * Webhook delivery record; Events):
 * - `GET /webhooks` -> `{data: Webhook[]}` (never the secret);
 * - `POST /webhooks` -> 201 Webhook with `secret`, shown only here; 422
 *   `validation_failed` on `url` (HTTPS, max 255, a public address: no loopback,
 *   private, link-local or unique-local literal nor `localhost` name, unless the
 *   sandbox runs locally with local targets allowed),
 *   `description` (max 255), `events` / `events.<i>` (one of the four kinds);
 * - `GET /webhooks/{id}` -> Webhook; 404 (also another client's);
 * - `DELETE /webhooks/{id}` -> 204, deletes the endpoint and its delivery log;
 * - `GET /webhooks/{id}/deliveries` -> paginated attempts of the last 10 days, newest first;
 * - `POST /webhooks/{id}/test` -> 200 `{delivered, responseCode, responseBody, payload}`
 *   after a real signed `tracking.update` built from the client's most recent
 *   shipment in transit; 404 without one.
 *
 * The 402 of `POST /webhooks` (no valid subscription) and the 5-per-minute
 * limit of the test (429 `rate_limited`, `Retry-After`) are applied before
 * these handlers by the API gateway (gateway.ts, access.ts, ratelimit.ts).
 */
import { webhookCreateRequestSchema } from '../../../shared/platform/webhooks';
import { notFound, parseOrThrow } from '../errors';
import { paginate, pathId, type ApiContext, type ApiRouter } from '../http';
import { deliveryWindowStart } from '../webhooks/dispatcher';
import { newWebhookSecret } from '../webhooks/signing';
import { latestShipmentInTransit, testTrackingPayload } from '../webhooks/test-payload';
import { deliveryView, webhookView } from '../webhooks/views';

/** Registers the webhook routes. */
export function registerWebhookRoutes(r: ApiRouter): void {
  const endpointOf = ({ state, account, params }: ApiContext) => {
    const id = pathId(params.id, 'Webhook');
    const ep = state.webhooks.registry.find(account.accountId, id);
    if (!ep) throw notFound(`Webhook ${id} not found`);
    return ep;
  };

  r.get('/webhooks', ({ state, account }) => ({
    body: { data: state.webhooks.registry.ofAccount(account.accountId).map(webhookView) },
  }));

  r.post('/webhooks', ({ state, account, body, now }) => {
    const { allowLoopbackHttp, allowLocalTargets } = state.webhooks.settings;
    const req = parseOrThrow(webhookCreateRequestSchema({ allowLoopbackHttp, allowLocalTargets }), body);
    const reg = state.webhooks.registry;
    const ep = {
      id: reg.nextWebhookId(),
      accountId: account.accountId,
      url: req.url,
      description: req.description ?? '',
      events: req.events,
      secret: newWebhookSecret(),
      isActive: true,
      createdAt: now,
      lastSuccessAt: null,
      failingSince: null,
      deactivatedAt: null,
    };
    reg.add(ep);
    return { status: 201, body: { ...webhookView(ep), secret: ep.secret } };
  });

  r.get('/webhooks/:id', (ctx) => ({ body: webhookView(endpointOf(ctx)) }));

  r.delete('/webhooks/:id', (ctx) => {
    const ep = endpointOf(ctx);
    ctx.state.webhooks.registry.remove(ep.id);
    ctx.state.webhooks.dispatcher.dropEndpoint(ep.id);
    return { status: 204, body: undefined };
  });

  r.get('/webhooks/:id/deliveries', (ctx) => {
    const ep = endpointOf(ctx);
    const items = ctx.state.webhooks.registry.deliveriesOf(ep.id, deliveryWindowStart(ctx.now)).map(deliveryView);
    return { body: paginate(ctx.req, ctx.query, items) };
  });

  r.post('/webhooks/:id/test', async (ctx) => {
    const ep = endpointOf(ctx);
    const shipment = latestShipmentInTransit(ctx.state, ctx.account);
    if (!shipment) throw notFound('The account has no shipment in transit to build a test tracking.update from');
    const payload = testTrackingPayload(ctx.state, shipment, ctx.state.clock.now());
    const out = await ctx.state.webhooks.dispatcher.sendTest(ep, payload);
    return { body: { delivered: out.ok, responseCode: out.responseCode, responseBody: out.responseBody, payload } };
  });
}
