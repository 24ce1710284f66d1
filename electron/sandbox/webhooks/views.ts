/** Wire shapes of webhook records (spec: Resources > Webhook endpoint, Webhook delivery record). */
import type { Webhook, WebhookDelivery } from '../../../shared/platform/webhooks';
import { localIso } from '../time';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from './registry';

/** Webhook as listed and read: never the secret. Date-times with the Europe/Rome offset. */
export function webhookView(ep: WebhookEndpointRecord): Webhook {
  return {
    id: ep.id,
    url: ep.url,
    description: ep.description,
    events: [...ep.events],
    isActive: ep.isActive,
    createdAt: localIso(ep.createdAt),
  };
}

/** Delivery record of GET /webhooks/{id}/deliveries, with the sandbox's `attempt`, `nextRetryAt` and `test`. */
export function deliveryView(d: WebhookDeliveryRecord): WebhookDelivery {
  return {
    id: d.id,
    event: d.event,
    status: d.status,
    responseCode: d.responseCode,
    responseBody: d.responseBody,
    payload: d.payload,
    createdAt: localIso(d.createdAt),
    attempt: d.attempt,
    nextRetryAt: d.nextRetryAt ? localIso(d.nextRetryAt) : null,
    test: d.test,
  };
}
