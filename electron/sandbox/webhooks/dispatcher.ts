/**
 * Delivery engine of the sandbox's webhooks (spec: Events > Delivery;
 * States > Webhook delivery, Webhook endpoint).
 *
 * - A target on a loopback, private, link-local or unique-local address (a
 *   literal, a `localhost` name, or a name resolving to one at delivery time)
 *   is refused without connecting, unless the sandbox runs locally with local
 *   targets allowed (SSRF; issue 7 item 11): a failed attempt, not retried.
 * - Each event becomes one HTTP POST per active endpoint of the account that
 *   subscribed to its kind, sent asynchronously and independently per
 *   endpoint, with a JSON body signed exactly as sent and a 10-second timeout.
 * - 2xx = `success`. A connection error, a timeout or a 5xx is retried 3
 *   times, 30 s, 2 min and 5 min after the previous attempt; any other answer
 *   (4xx, and 3xx since redirects are not followed) is `failed` and not
 *   retried. Every attempt is logged.
 * - Retries are due on the SIMULATED clock: they start when the clock passes
 *   their due time — at once after `clock.advance()` (the clock change hook),
 *   or by a real timer armed for the due time while the clock flows by itself.
 * - An endpoint without a 2xx for 72 h (simulated, counted from the first
 *   unanswered attempt after the last success) is deactivated and the client
 *   is "e-mailed" (a notification record plus a log line).
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { localAddressKind, localTargetProblem, type WebhookEventName } from '../../../shared/platform/webhooks';
import type { SimClock } from '../clock';
import { localIso } from '../time';
import { DELIVERY_LOG_DAYS, truncateResponseBody, type WebhookEndpointRecord, type WebhookRegistry } from './registry';
import { webhookHeaders } from './signing';

/** Per-attempt timeout (spec: Limits — "webhook timeout 10 seconds"). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Delays before retry 1, 2, 3, each after the previous attempt (spec: "retried 3 times, after 30 seconds, 2 minutes, 5 minutes"). */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 300_000];

/** Time without a 2xx after which an endpoint is deactivated (spec: "72 hours without 2xx"). */
const WEBHOOK_DEACTIVATE_AFTER_MS = 72 * 3_600_000;

/** `User-Agent` of the sandbox's calls: `<service> webhook v1 <subdomain>` (spec: Events > Delivery 2). */
export const SANDBOX_WEBHOOK_USER_AGENT = 'ShippingPlatform webhook v1 sandbox';

/** Body bytes read from a receiver's answer; more is discarded (only 1000 characters are kept). */
const MAX_READ_BYTES = 64 * 1024;

/** Outcome of one HTTP attempt. */
export interface AttemptOutcome {
  /** 2xx answered. */
  ok: boolean;
  /** HTTP status, 0 on connection error or timeout. */
  responseCode: number;
  /** Answer body or error text, cut to 1000 characters. */
  responseBody: string;
  /** Worth another try: connection error, timeout or 5xx (not a target refused as local). */
  retryable: boolean;
}

/** The part of `dns.lookup` a delivery uses (always asked with `all: true`); tests inject their own resolver. */
export type AddressLookup = (hostname: string, callback: (err: NodeJS.ErrnoException | null, addresses: Array<{ address: string; family: number }>) => void) => void;

/** `dns.lookup(hostname, {all: true})`: the system resolver, as Node's HTTP client uses it. */
const systemLookup: AddressLookup = (hostname, callback) => dns.lookup(hostname, { all: true }, callback);

/** Code of the error a delivery fails with when its target is refused as local (see {@link guardedLookup}). */
const TARGET_REFUSED = 'ERR_WEBHOOK_TARGET_REFUSED';

/** Where a delivery may connect (SSRF rules, shared/platform/webhooks.ts). */
export interface TargetRules {
  /** Accept loopback, private, link-local, unique-local targets (a local sandbox with the option on). */
  allowLocalTargets: boolean;
  /** Resolver; default {@link systemLookup}. */
  lookup?: AddressLookup;
}

/**
 * A `lookup` for `http.request` that resolves with `rules.lookup` and
 * refuses the connection when ANY address of the name is local (a name
 * answering both a public and a private address must not reach the private
 * one), unless local targets are allowed. The check is on the very
 * addresses the socket connects to, so a name that changed its DNS since
 * registration (DNS rebinding) is caught at delivery time.
 */
export function guardedLookup(rules: TargetRules): LookupFunction {
  const resolve = rules.lookup ?? systemLookup;
  return (hostname, options, callback) => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const local = rules.allowLocalTargets ? undefined : addresses.map((a) => localAddressKind(a.address)).find((k) => k !== undefined);
      if (local !== undefined || addresses.length === 0) {
        const e: NodeJS.ErrnoException = new Error(
          local !== undefined ? `Refused: ${hostname} resolves to ${local.ip}, ${local.kind}; webhooks are delivered to public addresses only` : `${hostname} has no address`,
        );
        e.code = local !== undefined ? TARGET_REFUSED : 'ENOTFOUND';
        return callback(e, '', 0);
      }
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      const list = wanted.length > 0 ? wanted : addresses;
      if (options.all) (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** An event ready to send: its kind, account and the exact payload object. */
export interface OutgoingEvent {
  kind: WebhookEventName;
  accountId: number;
  payload: Record<string, unknown>;
}

/** Options of {@link WebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  /** Simulated clock: attempt times, signature timestamps, retry due times. */
  clock: SimClock;
  /** Per-attempt timeout in real milliseconds; default {@link WEBHOOK_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** `User-Agent` header; default {@link SANDBOX_WEBHOOK_USER_AGENT}. */
  userAgent?: string;
  /** Log line sink (deactivation "e-mails", failures); default: nothing. */
  log?: (msg: string) => void;
  /**
   * Simulated milliseconds per real millisecond while the clock flows by
   * itself (1 = real time), used to arm real timers for due retries; 0 or a
   * function answering 0 means the clock does not flow (only advances move it).
   */
  clockRate?: number | (() => number);
  /**
   * Where deliveries may connect, read at each attempt; default: local
   * targets refused, system resolver (shared/platform/webhooks.ts
   * `localAddressProblem`).
   */
  targets?: () => TargetRules;
}

/** A retry waiting for its due time. */
interface PendingAttempt {
  webhookId: number;
  event: WebhookEventName;
  payload: Record<string, unknown>;
  body: string;
  attempt: number;
  dueAt: number;
}

/**
 * Posts one signed body; never throws (errors become responseCode 0). With
 * `rules`, a target refused as local (an IP literal in a refused range, a
 * `localhost` name, or a name resolving to such an address) is answered at
 * once, without connecting, as a failure that is not retried.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal, rules?: TargetRules): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let req: http.ClientRequest | undefined;
    const onAbort = () => {
      fail('Delivery aborted: the sandbox is closing');
      req?.destroy();
    };
    const finish = (o: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ ...o, responseBody: truncateResponseBody(o.responseBody) });
    };
    const fail = (text: string) => finish({ ok: false, responseCode: 0, responseBody: text, retryable: true });
    const refuse = (text: string) => finish({ ok: false, responseCode: 0, responseBody: text, retryable: false });
    try {
      const u = new URL(url);
      // An IP literal never goes through `lookup` (Node connects to it directly): judge it here.
      const literal = rules && !rules.allowLocalTargets ? localTargetProblem(u.hostname) : undefined;
      if (literal !== undefined) return refuse(`Refused: ${literal}; webhooks are delivered to public addresses only`);
      const lib = u.protocol === 'https:' ? https : http;
      const bytes = Buffer.from(body, 'utf8');
      req = lib.request(u, {
        method: 'POST',
        ...(rules ? { lookup: guardedLookup(rules) } : {}),
        // A fresh connection per attempt: no pooled socket outlives the sandbox or hides a receiver restart.
        agent: false,
        headers: { ...headers, 'Content-Length': String(bytes.length), Connection: 'close' },
      });
      const r = req;
      timer = setTimeout(() => {
        fail(`Timeout: no complete answer within ${timeoutMs / 1000} s`);
        r.destroy();
      }, timeoutMs);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort);
      r.on('error', (e: NodeJS.ErrnoException) => (e.code === TARGET_REFUSED ? refuse(e.message) : fail(e.message || e.code || 'Connection error')));
      r.on('response', (res) => {
        const code = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_READ_BYTES) chunks.push(c);
          size += c.length;
        });
        const done = () => {
          const text = Buffer.concat(chunks).subarray(0, MAX_READ_BYTES).toString('utf8');
          finish({ ok: code >= 200 && code < 300, responseCode: code, responseBody: text, retryable: code >= 500 });
        };
        res.on('end', done);
        // The status arrived; a broken body still counts as that answer.
        res.on('error', done);
        res.on('close', done);
      });
      r.end(bytes);
    } catch (e) {
      fail(e instanceof Error ? e.message : String(e));
    }
  });
}

/**
 * Sends events to subscribed endpoints, retries on the simulated clock,
 * logs attempts in the registry and deactivates endpoints that stay silent.
 */
export class WebhookDispatcher {
  private readonly pending: PendingAttempt[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  /**
   * Closed = the abort signal fired. Kept in the AbortController rather than
   * a boolean field so a saved state file (persist.ts walks plain fields)
   * never carries "closed" into the next start.
   */
  private get closed(): boolean {
    return this.abort.signal.aborted;
  }

  /**
   * @param opts read at each use (not copied), so settings changed later —
   *   or getters over a settings object — take effect on the next attempt.
   * @throws RangeError when `opts.timeoutMs` is given and not > 0.
   */
  constructor(
    private readonly registry: WebhookRegistry,
    private readonly opts: WebhookDispatcherOptions,
  ) {
    if (opts.timeoutMs !== undefined && !(opts.timeoutMs > 0)) throw new RangeError(`timeoutMs must be > 0, got ${opts.timeoutMs}`);
  }

  private log(msg: string): void {
    this.opts.log?.(msg);
  }

  /**
   * Fans an event out: one first attempt per active endpoint of the account
   * subscribed to `kind`. `event` and `timestamp` are put in front of the
   * payload when the producer left them out (spec: payload "with `event`
   * and `timestamp` added in front"). Returns at once; sending is async.
   */
  publish(e: OutgoingEvent, at: Date = this.opts.clock.now()): void {
    if (this.closed) return;
    const payload = completePayload(e.kind, e.payload, at);
    const body = JSON.stringify(payload);
    for (const ep of this.registry.subscribers(e.accountId, e.kind)) {
      this.track(this.attempt(ep.id, { webhookId: ep.id, event: e.kind, payload, body, attempt: 1, dueAt: at.getTime() }));
    }
  }

  /**
   * POST /webhooks/{id}/test: sends `payload` once, now, and waits for the
   * answer. Logged like any attempt (with `test: true`) and counted for the
   * 72-hour rule, but never retried — the caller sees the answer at once.
   */
  async sendTest(ep: WebhookEndpointRecord, payload: Record<string, unknown>): Promise<AttemptOutcome> {
    const body = JSON.stringify(payload);
    const p = this.attempt(ep.id, { webhookId: ep.id, event: 'tracking.update', payload, body, attempt: 1, dueAt: this.opts.clock.nowMs() }, true);
    this.track(p);
    const out = await p;
    return out ?? { ok: false, responseCode: 0, responseBody: 'Endpoint deleted during the test', retryable: false };
  }

  /**
   * Starts every retry whose due time the simulated clock has passed, prunes
   * the log to the 10-day window and deactivates endpoints silent for 72 h.
   * Called on every clock change and by the real timer; cheap when idle.
   */
  runDue(): void {
    if (this.closed) return;
    const now = this.opts.clock.nowMs();
    this.sweepDeactivation(now);
    this.registry.prune(new Date(now - DELIVERY_LOG_DAYS * 86_400_000));
    const due = this.pending.filter((p) => p.dueAt <= now).sort((a, b) => a.dueAt - b.dueAt);
    for (const p of due) {
      this.pending.splice(this.pending.indexOf(p), 1);
      const ep = this.registry.byId(p.webhookId);
      if (!ep || !ep.isActive) continue;
      this.track(this.attempt(ep.id, p));
    }
    this.arm();
  }

  /** Retries waiting for their due time (copies; for tests and the admin view). */
  pendingRetries(): Array<{ webhookId: number; event: WebhookEventName; attempt: number; dueAt: Date }> {
    return this.pending.map((p) => ({ webhookId: p.webhookId, event: p.event, attempt: p.attempt, dueAt: new Date(p.dueAt) }));
  }

  /** Forgets retries of an endpoint (deleted or deactivated). */
  dropEndpoint(webhookId: number): void {
    for (let i = this.pending.length - 1; i >= 0; i--) if (this.pending[i]?.webhookId === webhookId) this.pending.splice(i, 1);
    this.arm();
  }

  /** Resolves when no attempt is in flight (attempts started meanwhile are awaited too). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Stops for good: aborts attempts in flight (not logged) and waits for
   * them, clears the timer. Pending retries stay in {@link pendingRetries}
   * data, so a state file written after closing keeps them for the next start.
   */
  async close(): Promise<void> {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.idle();
  }

  private track<T>(p: Promise<T>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** One attempt: send, log, schedule the next one or settle the endpoint's health. Undefined when the endpoint vanished. */
  private async attempt(webhookId: number, p: PendingAttempt, test = false): Promise<AttemptOutcome | undefined> {
    const ep = this.registry.byId(webhookId);
    if (!ep) return undefined;
    const at = this.opts.clock.now();
    const headers = webhookHeaders(ep.secret, at, p.body, this.opts.userAgent ?? SANDBOX_WEBHOOK_USER_AGENT);
    const rules = this.opts.targets?.() ?? { allowLocalTargets: false };
    const out = await postWebhook(ep.url, p.body, headers, this.opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS, this.abort.signal, rules);
    // Deleted while in flight, or the sandbox closed: nothing left to log into.
    if (this.closed || this.registry.byId(webhookId) !== ep) return out;
    const retryAt = !test && !out.ok && out.retryable && p.attempt <= WEBHOOK_RETRY_DELAYS_MS.length && ep.isActive ? at.getTime() + (WEBHOOK_RETRY_DELAYS_MS[p.attempt - 1] ?? 0) : null;
    this.registry.log({
      webhookId,
      accountId: ep.accountId,
      event: p.event,
      status: out.ok ? 'success' : 'failed',
      responseCode: out.responseCode,
      responseBody: out.responseBody,
      payload: p.payload,
      createdAt: at,
      attempt: p.attempt,
      nextRetryAt: retryAt === null ? null : new Date(retryAt),
      test,
    });
    // Attempts run concurrently and may finish out of order: compare start times.
    if (out.ok) {
      if (ep.lastSuccessAt === null || at >= ep.lastSuccessAt) ep.lastSuccessAt = at;
      if (ep.failingSince !== null && ep.failingSince <= at) ep.failingSince = null;
    } else {
      // The streak starts at the earliest unanswered attempt after the last success.
      const afterLastSuccess = ep.lastSuccessAt === null || at >= ep.lastSuccessAt;
      if (afterLastSuccess && (ep.failingSince === null || at < ep.failingSince)) ep.failingSince = at;
      this.log(`webhook ${ep.id} ${p.event} attempt ${p.attempt} failed: ${out.responseCode} ${out.responseBody.slice(0, 200)}`);
    }
    if (retryAt !== null) {
      this.pending.push({ ...p, attempt: p.attempt + 1, dueAt: retryAt });
    }
    // Also starts the retry at once when the clock already passed its due time while this attempt was in flight.
    this.runDue();
    return out;
  }

  private sweepDeactivation(now: number): void {
    for (const ep of this.registry.endpoints) {
      if (!ep.isActive || ep.failingSince === null) continue;
      if (now - ep.failingSince.getTime() < WEBHOOK_DEACTIVATE_AFTER_MS) continue;
      this.deactivate(ep, new Date(now));
    }
  }

  private deactivate(ep: WebhookEndpointRecord, at: Date): void {
    ep.isActive = false;
    ep.deactivatedAt = at;
    this.dropEndpoint(ep.id);
    const since = ep.failingSince ? localIso(ep.failingSince) : 'unknown';
    const n = this.registry.notify({
      accountId: ep.accountId,
      kind: 'webhook_deactivated',
      webhookId: ep.id,
      subject: `Webhook endpoint ${ep.url} deactivated`,
      text:
        `Your webhook endpoint ${ep.url} (id ${ep.id}) has not answered 2xx since ${since} (72 hours) and has been deactivated. ` +
        'Fix the receiver, then re-enable it in the web interface, or delete it and register it again.',
      at,
    });
    this.log(`e-mail to account ${ep.accountId}: ${n.subject}`);
  }

  /** Arms one real timer for the earliest due retry, scaled by the clock's rate. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed || this.pending.length === 0) return;
    const rate = typeof this.opts.clockRate === 'function' ? this.opts.clockRate() : (this.opts.clockRate ?? 1);
    if (!(rate > 0)) return;
    const next = Math.min(...this.pending.map((p) => p.dueAt));
    const realMs = Math.max(0, Math.ceil((next - this.opts.clock.nowMs()) / rate));
    // setTimeout caps at ~24.8 days; re-armed on firing anyway.
    this.timer = setTimeout(() => this.runDue(), Math.min(realMs, 2 ** 31 - 1));
    this.timer.unref();
  }
}

/** `event` and `timestamp` first, then the producer's fields (which win when present). */
function completePayload(kind: WebhookEventName, payload: Record<string, unknown>, at: Date): Record<string, unknown> {
  return { event: kind, timestamp: localIso(at), ...payload };
}

/** Start of the delivery log window answered by the API: `now` minus 10 days (simulated clock). */
export function deliveryWindowStart(now: Date): Date {
  return new Date(now.getTime() - DELIVERY_LOG_DAYS * 86_400_000);
}

