/**
 * Webhook registry of the sandbox: the endpoints clients register with
 * POST /webhooks, the log of every delivery attempt (GET
 * /webhooks/{id}/deliveries) and the "e-mails" sent to clients when an
 * endpoint is deactivated (spec: Resources > Webhook endpoint, Webhook
 * delivery record; States > Webhook endpoint). Plain in-memory records;
 * instants are `Date` of the simulated clock.
 */
import type { WebhookEventName } from '../../../shared/platform/webhooks';

/** A registered webhook endpoint. */
export interface WebhookEndpointRecord {
  id: number;
  accountId: number;
  /** Receiver URL (HTTPS; loopback http only when the sandbox allows it). */
  url: string;
  description: string;
  /** Subscribed events, without duplicates, in registration order. */
  events: WebhookEventName[];
  /** Signing key (`whsec_` + 64 hex); answered only by the creation call. */
  secret: string;
  isActive: boolean;
  createdAt: Date;
  /** Last attempt answered 2xx; null before the first. */
  lastSuccessAt: Date | null;
  /** First attempt without a 2xx since the last success; null while healthy. Deactivation counts 72 h from here. */
  failingSince: Date | null;
  deactivatedAt: Date | null;
}

/** One delivery attempt as logged (spec: Webhook delivery record, plus `attempt`, `nextRetryAt`, `test`). */
export interface WebhookDeliveryRecord {
  id: number;
  webhookId: number;
  accountId: number;
  event: WebhookEventName;
  status: 'success' | 'failed';
  /** HTTP status answered; 0 on a connection error or timeout. */
  responseCode: number;
  /** Answer body, or the connection error; at most {@link RESPONSE_BODY_MAX} characters. */
  responseBody: string;
  /** The object that was sent (the body is its JSON serialisation). */
  payload: Record<string, unknown>;
  /** Start of the attempt (simulated clock). */
  createdAt: Date;
  /** 1 = first send, 2..4 = the three retries. */
  attempt: number;
  /** When the next retry is due (simulated clock); null when none follows. */
  nextRetryAt: Date | null;
  /** Sent by POST /webhooks/{id}/test. */
  test: boolean;
}

/** A message the platform would e-mail to the client (here: recorded and logged). */
export interface AccountNotification {
  id: number;
  accountId: number;
  kind: 'webhook_deactivated';
  webhookId: number;
  subject: string;
  text: string;
  at: Date;
}

/** Longest `responseBody` kept in a delivery record (spec: Limits — "responseBody max 1000 chars"). */
export const RESPONSE_BODY_MAX = 1000;

/** Days of delivery log kept and answered (spec: Limits — "delivery log: last 10 days"). */
export const DELIVERY_LOG_DAYS = 10;

/** Cuts a response body (or error text) to {@link RESPONSE_BODY_MAX} characters (UTF-16 code units, never splitting a surrogate pair). */
export function truncateResponseBody(s: string): string {
  if (s.length <= RESPONSE_BODY_MAX) return s;
  let cut = s.slice(0, RESPONSE_BODY_MAX);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut;
}

/** Endpoints, delivery log and notifications of one sandbox. */
export class WebhookRegistry {
  readonly endpoints: WebhookEndpointRecord[] = [];
  readonly deliveries: WebhookDeliveryRecord[] = [];
  /** "E-mails" to clients (endpoint deactivated); newest last. */
  readonly notifications: AccountNotification[] = [];
  private readonly seq = { webhook: 700, delivery: 0, notification: 0 };

  /** Next endpoint id. */
  nextWebhookId(): number {
    return ++this.seq.webhook;
  }

  /** Stores a new endpoint. */
  add(ep: WebhookEndpointRecord): void {
    this.endpoints.push(ep);
  }

  /** The account's endpoint `id`; undefined when missing or another client's (the caller answers 404). */
  find(accountId: number, id: number): WebhookEndpointRecord | undefined {
    return this.endpoints.find((e) => e.id === id && e.accountId === accountId);
  }

  /** Endpoint by id whatever the account (delivery engine). */
  byId(id: number): WebhookEndpointRecord | undefined {
    return this.endpoints.find((e) => e.id === id);
  }

  /** The account's endpoints in registration order. */
  ofAccount(accountId: number): WebhookEndpointRecord[] {
    return this.endpoints.filter((e) => e.accountId === accountId);
  }

  /** Active endpoints of the account subscribed to `event`. */
  subscribers(accountId: number, event: WebhookEventName): WebhookEndpointRecord[] {
    return this.endpoints.filter((e) => e.accountId === accountId && e.isActive && e.events.includes(event));
  }

  /** Removes an endpoint and its whole delivery log; false when it did not exist. */
  remove(id: number): boolean {
    const i = this.endpoints.findIndex((e) => e.id === id);
    if (i < 0) return false;
    this.endpoints.splice(i, 1);
    for (let j = this.deliveries.length - 1; j >= 0; j--) {
      if (this.deliveries[j]?.webhookId === id) this.deliveries.splice(j, 1);
    }
    return true;
  }

  /** Appends an attempt to the log (id assigned here) and returns it. */
  log(rec: Omit<WebhookDeliveryRecord, 'id'>): WebhookDeliveryRecord {
    const full: WebhookDeliveryRecord = { id: ++this.seq.delivery, ...rec, responseBody: truncateResponseBody(rec.responseBody) };
    this.deliveries.push(full);
    return full;
  }

  /** The endpoint's attempts since `since` (inclusive), newest first (ties: higher id first). */
  deliveriesOf(webhookId: number, since: Date): WebhookDeliveryRecord[] {
    const t = since.getTime();
    return this.deliveries
      .filter((d) => d.webhookId === webhookId && d.createdAt.getTime() >= t)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
  }

  /** Drops log entries older than `before`, so memory stays bounded by the 10-day window. */
  prune(before: Date): void {
    const t = before.getTime();
    for (let j = this.deliveries.length - 1; j >= 0; j--) {
      const d = this.deliveries[j];
      if (d && d.createdAt.getTime() < t) this.deliveries.splice(j, 1);
    }
  }

  /** Records an "e-mail" to the client and returns it. */
  notify(n: Omit<AccountNotification, 'id'>): AccountNotification {
    const full: AccountNotification = { id: ++this.seq.notification, ...n };
    this.notifications.push(full);
    return full;
  }

  /** Forgets everything (sandbox reset); id sequences continue so old ids never come back. */
  clear(): void {
    this.endpoints.length = 0;
    this.deliveries.length = 0;
    this.notifications.length = 0;
  }
}
