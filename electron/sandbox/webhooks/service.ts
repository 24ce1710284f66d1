/**
 * The sandbox's webhook service: registry (endpoints, delivery log,
 * notifications), delivery engine and its settings, kept on
 * `state.webhooks`. `start()` subscribes the engine to the event bus
 * (`state.events`) and to clock changes; `close()` stops it.
 */
import type { SimClock } from '../clock';
import type { SandboxEvent, SandboxEvents } from '../events';
import { SANDBOX_WEBHOOK_USER_AGENT, WEBHOOK_TIMEOUT_MS, WebhookDispatcher, type AddressLookup } from './dispatcher';
import { WebhookRegistry } from './registry';

/** Settings of the webhook service (sandbox options `webhookLoopbackHttp`, `webhookTimeoutMs`). */
export interface WebhookSettings {
  /**
   * Accept `http://` receivers on loopback (localhost, 127.x, ::1) at
   * registration; every other URL must still be HTTPS. Default false
   * (the platform's rule: HTTPS only).
   */
  allowLoopbackHttp: boolean;
  /**
   * Accept receivers on loopback, private, link-local and unique-local
   * addresses and `localhost` names, at registration and at delivery.
   * Default false (SSRF). createSandbox turns it on only for a sandbox
   * listening on loopback with `webhookLocalTargets` (or `webhookLoopbackHttp`,
   * for loopback receivers).
   */
  allowLocalTargets: boolean;
  /** Resolver of receiver names at delivery (tests inject one); default the system's. */
  lookup?: AddressLookup;
  /** Per-attempt timeout, real ms; default 10 000 (spec). Tests lower it to exercise a hanging receiver quickly. */
  timeoutMs: number;
  /** `User-Agent` of outgoing calls (`<service> webhook v1 <subdomain>`). */
  userAgent: string;
  /** Log line sink (deactivation "e-mails", failed attempts). */
  log: (msg: string) => void;
  /** Simulated ms per real ms while the clock flows by itself; 0 = only advances move it. Default 1. */
  clockRate: number | (() => number);
}

/** Registry + engine of one sandbox. */
export class WebhookService {
  readonly registry = new WebhookRegistry();
  readonly settings: WebhookSettings = {
    allowLoopbackHttp: false,
    allowLocalTargets: false,
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    userAgent: SANDBOX_WEBHOOK_USER_AGENT,
    log: () => undefined,
    clockRate: 1,
  };
  /** The delivery engine; reads {@link settings} at each attempt. */
  readonly dispatcher: WebhookDispatcher;
  private unsubscribe: Array<() => void> = [];

  /** @param clock the sandbox's simulated clock. */
  constructor(private readonly clock: SimClock) {
    const s = this.settings;
    this.dispatcher = new WebhookDispatcher(this.registry, {
      clock,
      get timeoutMs() {
        return s.timeoutMs;
      },
      get userAgent() {
        return s.userAgent;
      },
      log: (m) => s.log(m),
      clockRate: () => (typeof s.clockRate === 'function' ? s.clockRate() : s.clockRate),
      // Loopback-http receivers are local targets the option explicitly allows.
      targets: () => ({ allowLocalTargets: s.allowLocalTargets, ...(s.lookup ? { lookup: s.lookup } : {}) }),
    });
  }

  /**
   * Changes settings; they apply from the next attempt.
   * @throws RangeError when `timeoutMs` is not > 0.
   */
  configure(s: Partial<WebhookSettings>): void {
    if (s.timeoutMs !== undefined && !(s.timeoutMs > 0)) throw new RangeError(`webhook timeoutMs must be > 0, got ${s.timeoutMs}`);
    Object.assign(this.settings, Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)));
  }

  /**
   * Subscribes the engine to every event of the bus and, when given, to
   * clock changes (so retries become due right after `clock.advance`).
   * Idempotent.
   * @param onClockChange registers a listener called after each clock change; returns its unsubscribe.
   */
  start(events: SandboxEvents, onClockChange?: (listener: () => void) => () => void): void {
    if (this.unsubscribe.length > 0) return;
    const d = this.dispatcher;
    this.unsubscribe.push(
      events.on('*', (e: SandboxEvent) => {
        d.publish({ kind: e.kind, accountId: e.accountId, payload: e.payload }, this.clock.now());
      }),
    );
    if (onClockChange) this.unsubscribe.push(onClockChange(() => d.runDue()));
    // Retries restored from a state file become due (or get their timer) now.
    d.runDue();
  }

  /** Unsubscribes, cancels pending retries and waits for attempts in flight (aborted). */
  async close(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
    await this.dispatcher.close();
  }

  /** Endpoints of every account (live records). */
  get endpoints() {
    return this.registry.endpoints;
  }

  /** Every logged attempt (live records). */
  get deliveries() {
    return this.registry.deliveries;
  }

  /** "E-mails" sent to clients, e.g. endpoint deactivated. */
  get notifications() {
    return this.registry.notifications;
  }
}
