/**
 * Signing of outgoing webhook calls (spec: Events > Delivery 2-3): the
 * signature is the lowercase hex HMAC-SHA256 of `<unix>.<raw body>` keyed
 * with the endpoint's secret, sent as `Webhook-Signature: t=<unix>,v1=<hex>`
 * next to `Webhook-Timestamp: <unix>`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_HEADERS } from '../../../shared/platform/webhooks';

/** Prefix of endpoint secrets; the rest is 32 random bytes as lowercase hex (64 characters). */
const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` + 64 lowercase hex characters (256 random bits). */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('hex');
}

/**
 * Lowercase hex HMAC-SHA256 of `<unixSeconds>.<rawBody>` keyed with `secret`.
 * @param unixSeconds integer seconds since the epoch (simulated clock).
 * @param rawBody the exact bytes sent (re-serialising a parsed body breaks the signature).
 * @throws RangeError when `unixSeconds` is not a non-negative integer.
 */
export function webhookSignature(secret: string, unixSeconds: number, rawBody: string): string {
  if (!Number.isInteger(unixSeconds) || unixSeconds < 0) throw new RangeError(`unixSeconds must be a non-negative integer, got ${unixSeconds}`);
  return createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`, 'utf8').digest('hex');
}

/**
 * Headers of one webhook call: `Content-Type`, `User-Agent`,
 * `Webhook-Timestamp` and `Webhook-Signature` for `rawBody` signed at `at`.
 * @param at instant of the attempt (simulated clock); seconds are floored.
 */
export function webhookHeaders(secret: string, at: Date, rawBody: string, userAgent: string): Record<string, string> {
  const t = Math.floor(at.getTime() / 1000);
  return {
    'Content-Type': 'application/json',
    'User-Agent': userAgent,
    [WEBHOOK_HEADERS.timestamp]: String(t),
    [WEBHOOK_HEADERS.signature]: `t=${t},v1=${webhookSignature(secret, t, rawBody)}`,
  };
}
