/**
 * Typed errors of the platform client (spec: Errors > Envelope). Every failed
 * call throws a {@link PlatformError}; callers match on `code` (and `status`),
 * never on `message`.
 */
import { coreText } from '../../../shared/contract/core-text';
import type { StationText } from '../../../shared/contract/views';
import type { FieldErrors, PlatformErrorCode } from '../../../shared/platform/common';

/**
 * Codes added by the client for failures where no envelope arrived:
 * - `offline`: the request did not reach the platform (DNS, refused, reset);
 * - `timeout`: no answer within the client's timeout. For a call that creates
 *   something the outcome is then UNKNOWN (the platform may have committed it).
 */
type PlatformClientLocalCode = 'offline' | 'timeout';

/** Any code a {@link PlatformError} may carry. */
export type PlatformClientErrorCode = PlatformErrorCode | PlatformClientLocalCode;

/**
 * Error of a platform call.
 * - `status`: HTTP status of the answer, or 0 when none arrived (`offline`, `timeout`);
 * - `code`: the envelope's `error.code` unchanged (an unknown code becomes `http_error`),
 *   or a local code;
 * - `details`: field path -> messages, present on 422 `validation_failed`;
 * - `retryAfterMs`: the server's Retry-After on a 429, when given;
 * - `route`: the call that failed as `METHOD path-template` (`POST /shipments`),
 *   when the client knows it (the outbox tells a refused create from a refused look-up);
 * - `notSent`: true when the request surely never reached the platform (the
 *   connection was refused or the host not found), so a create call cannot
 *   be in flight; false when unknown (timeout, connection lost mid-call).
 */
export class PlatformError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: PlatformClientErrorCode,
    message: string,
    public readonly details?: FieldErrors,
    public readonly retryAfterMs?: number,
    public readonly route?: string,
    public readonly notSent: boolean = false,
    /** The message as a core text (shared/contract/core-text.ts) when the client worded it (`offline`, `timeout`; issue 25). */
    public readonly text?: StationText,
  ) {
    super(message);
    this.name = 'PlatformError';
  }

  /**
   * True when the request may or may not have been carried out by the
   * platform: no answer arrived (`timeout`), or a 5xx answered (the spec does
   * not say whether a 500/502 rolls the request back). A create call failing
   * this way must be reconciled (GET /shipments?reference=...) before it is
   * sent again.
   */
  get outcomeUnknown(): boolean {
    return this.code === 'timeout' || this.status >= 500;
  }

  /** True when the platform was not reached or did not answer (connection state `offline`). */
  get isNetwork(): boolean {
    return this.code === 'offline' || this.code === 'timeout';
  }
}

/**
 * A call the station did not send because the route's rate window (spec:
 * Limits > Rate limits, kept client side) has no room for longer than the
 * client may wait: 429 `rate_limited`, `retryAfterMs` = ms until a slot is
 * free, `notSent` true. The outbox keeps such a row queued until then; a
 * press the packer waits for is told at once when to try again.
 */
export class RateWindowFull extends PlatformError {
  /**
   * @param ahead calls of the account waiting before this one (the warehouse's budget, issue 43 item 2); undefined
   *   for a bench alone. A label (`POST /shipments`) is said as the packer's wait: "Label in 40 s: the account’s
   *   30 labels a minute are in use (12 before you)".
   */
  constructor(route: string, retryAfterMs: number, perMinute: number, public readonly ahead?: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    const said =
      route === 'POST /shipments'
        ? ahead !== undefined
          ? coreText('labelWaitsForBudget', { seconds, perMinute, ahead })
          : coreText('labelWaitsForWindow', { seconds, perMinute })
        : coreText('rateWindowFull', { perMinute, route, seconds });
    super(429, 'rate_limited', said.message, undefined, retryAfterMs, route, true, said.text);
    this.name = 'RateWindowFull';
  }
}
