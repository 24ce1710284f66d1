/**
 * The one rule deciding what a failed outbox request becomes (DESIGN.md
 * "Offline and exactly-once"): `queued` (the worker sends it again by
 * itself) or `needs_attention` (it waits for the packer). The core's worker
 * classifies a platform failure with {@link outboxStateAfterFailure}; the
 * screens read the code of a rejected command with {@link outcomeOfCode}.
 * The core guarantees that the code a press receives is in
 * {@link QUEUED_CODES} exactly when its row is queued (shipping/shipments.ts
 * `pressError`), so both sides always agree.
 *
 * Pure TypeScript (shared/: no node, no DOM).
 */

/** What became of a request that did not finish: sent again by the worker, or waiting for the packer. */
export type FailedRequestState = 'queued' | 'needs_attention';

/**
 * Error codes a press receives while its request stays queued and the
 * worker will send it by itself:
 * - `offline`, `timeout`: no answer (spec: none; the station's own codes);
 * - `rate_limited`: 429 (spec: Errors);
 * - `internal_error`: 500/503, `carrier_error`: 502 (spec: Errors);
 * - `queued`: the station's own, for a row queued for any other reason (it
 *   waits behind another request, a 5xx or unreadable answer with an unknown
 *   code, a timed-out create being checked on the platform).
 */
export const QUEUED_CODES: ReadonlySet<string> = new Set(['offline', 'timeout', 'rate_limited', 'internal_error', 'carrier_error', 'queued']);

/**
 * A failed platform call: the client's code (`offline`, `timeout`, or the
 * envelope's `error.code`) and the HTTP status (0 or absent when no answer
 * arrived).
 */
export interface PlatformFailure {
  code: string;
  status?: number | null;
}

/**
 * The state a request is left in after a failed platform call:
 * - no answer (`offline`, `timeout`): queued;
 * - 429: queued (the platform refused before doing anything);
 * - 5xx: queued (the request finished without a usable answer; the outbox
 *   looks it up before sending again);
 * - 2xx whose body could not be read: queued (it may have succeeded; looked up first);
 * - any other answer (4xx, including codes the station does not know): needs attention.
 */
export function outboxStateAfterFailure(f: PlatformFailure): FailedRequestState {
  const status = f.status ?? 0;
  if (status === 0) return f.code === 'offline' || f.code === 'timeout' ? 'queued' : 'needs_attention';
  if (status === 429 || status >= 500 || (status >= 200 && status < 300)) return 'queued';
  return 'needs_attention';
}

/** What the screen says for a rejected press: `queued` exactly when {@link QUEUED_CODES} holds its code. */
export function outcomeOfCode(code: string): FailedRequestState {
  return QUEUED_CODES.has(code) ? 'queued' : 'needs_attention';
}
