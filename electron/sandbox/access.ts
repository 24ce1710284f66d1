/**
 * Authorization rules of the API beyond the token (spec: Access requirements
 * 1-4; Errors 402 and 403; Authentication 6). The spec does not show which
 * endpoint yields which 403 code; the sandbox's choice:
 *
 * - 403 on EVERY call of the API (the token endpoint still issues tokens, so
 *   the refusal names the real cause), checked in this order:
 *   1. `insufficient_scope` — the token lacks `client-api` (e.g. issued with
 *      `scope=panel-read`, see routes/oauth.ts);
 *   2. `account_disabled` — the client is disabled;
 *   3. `client_role_required` — the App belongs to a user without client role;
 *   4. `forbidden` — Enterprise platform and fewer than 3 validated documents.
 * - 402 only on the endpoints that cost or register webhooks
 *   (`POST /shipments`, `POST /pickups`, `POST /webhooks`):
 *   `subscription_required` (no subscription), `subscription_payment_failed`
 *   (payment failed) and, on `POST /shipments` only, `plan_limit_reached`
 *   (shipments of the calendar month, Europe/Rome, at the plan's limit).
 *
 * An account without `subscription` or `access` (custom seeds) passes every check.
 */
import { ApiError } from './errors';
import type { Account } from './model';
import { API_SCOPE } from './routes/oauth';
import type { SandboxState } from './state';
import { localDate } from './time';

/** Validated documents an Enterprise client needs (spec: Access requirements 2). */
const REQUIRED_VALIDATED_DOCUMENTS = 3;

/** Endpoints (method + pattern relative to `{base_url}`) that need a valid subscription (spec: Access requirements 4; Errors). */
const SUBSCRIPTION_ENDPOINTS: ReadonlyArray<string> = ['POST /shipments', 'POST /pickups', 'POST /webhooks'];

/** Endpoints counted against the plan's monthly shipment limit. */
const PLAN_LIMITED_ENDPOINTS: ReadonlyArray<string> = ['POST /shipments'];

/**
 * 403 checks of a call, in the order above.
 * @param tokenScope space-separated scopes of the bearer token.
 * @throws ApiError 403 with the first failing code.
 */
export function checkAuthorization(account: Account, tokenScope: string): void {
  if (!tokenScope.split(/\s+/).includes(API_SCOPE)) {
    throw new ApiError(403, 'insufficient_scope', `The access token was issued for "${tokenScope}"; the API needs scope ${API_SCOPE}`);
  }
  const access = account.access;
  if (!access) return;
  if (access.disabled) throw new ApiError(403, 'account_disabled', `The client ${account.companyName} is disabled`);
  if (access.userRole !== undefined && access.userRole !== 'client') {
    throw new ApiError(403, 'client_role_required', `The App belongs to a user with role "${access.userRole}"; only users with client role may use the API`);
  }
  if (access.enterprise && (access.validatedDocuments ?? 0) < REQUIRED_VALIDATED_DOCUMENTS) {
    throw new ApiError(
      403,
      'forbidden',
      `The client's record has ${access.validatedDocuments ?? 0} validated documents; at least ${REQUIRED_VALIDATED_DOCUMENTS} are required on this platform`,
    );
  }
}

/** Shipments counted against the plan in the calendar month (Europe/Rome) of `now`: the account's shipments created that month (cancelled ones too) plus those made outside the API. */
export function planUsage(state: SandboxState, account: Account, now: Date): number {
  const month = localDate(now).slice(0, 7);
  const viaApi = state.shipments.filter((s) => s.accountId === account.accountId && localDate(s.createdAt).slice(0, 7) === month).length;
  return viaApi + (account.subscription?.otherShipmentsThisMonth ?? 0);
}

/**
 * 402 checks for `endpoint` (`"POST /shipments"`, pattern relative to `{base_url}`, `{name}` params).
 * @throws ApiError 402 `subscription_required`, `subscription_payment_failed` or `plan_limit_reached`.
 */
export function checkSubscription(state: SandboxState, account: Account, endpoint: string, now: Date): void {
  if (!SUBSCRIPTION_ENDPOINTS.includes(endpoint)) return;
  const sub = account.subscription;
  if (!sub) return;
  if (sub.status === 'none') {
    throw new ApiError(402, 'subscription_required', `${endpoint} needs an active subscription; the client has none`);
  }
  if (sub.status === 'payment_failed') {
    throw new ApiError(402, 'subscription_payment_failed', `The payment of the "${sub.plan}" subscription failed; ${endpoint} is unavailable until it is settled`);
  }
  if (PLAN_LIMITED_ENDPOINTS.includes(endpoint) && sub.monthlyShipmentLimit !== null) {
    const used = planUsage(state, account, now);
    if (used >= sub.monthlyShipmentLimit) {
      throw new ApiError(402, 'plan_limit_reached', `The "${sub.plan}" plan allows ${sub.monthlyShipmentLimit} shipments per month; ${used} used this month`);
    }
  }
}
