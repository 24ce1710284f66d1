/**
 * Event bus of the sandbox: everything that the spec's webhooks report
 * (spec: Events — `tracking.update`, `shipment.created`, `stock.opened`,
 * `stock.closed`) is emitted here first, with its complete webhook payload.
 * The webhook dispatcher subscribes to it; tests may subscribe too.
 *
 * Delivery is synchronous and in emission order. A listener that throws does
 * not stop the others nor the emitter (the failure goes to `onListenerError`):
 * a broken subscriber must never break a shipment creation or the simulated
 * carrier's progress.
 */
import type { ShipmentRecord } from './model';
import { localIso } from './time';

/** The four event kinds of the spec (spec: Events). */
export type SandboxEventKind = 'tracking.update' | 'shipment.created' | 'stock.opened' | 'stock.closed';

/**
 * One event.
 * - `accountId`: the client it belongs to (`Account.accountId`, webhook payload `client_id`);
 * - `at`: simulated instant it happened (for carrier progress, the instant of the
 *   carrier event, which may be earlier than the clock's "now" when time jumped);
 * - `payload`: the webhook body exactly as the spec's Events section describes it:
 *   common fields `event`, `timestamp` (ISO 8601 with the Europe/Rome offset),
 *   `ldv`, `contractCode`, `statusCode`, `domain`, then the kind's own fields.
 */
export interface SandboxEvent {
  kind: SandboxEventKind;
  accountId: number;
  at: Date;
  payload: Record<string, unknown>;
}

/** A subscriber. */
export type SandboxEventListener = (e: SandboxEvent) => void;

/**
 * Platform host put in every payload's `domain` (spec: common payload fields,
 * "domain (platform host)"). The sandbox poses as the platform `sandbox`
 * subdomain of a local host.
 */
export const SANDBOX_DOMAIN = 'sandbox.shipping-station.local';

/** Typed emitter `on(kind, listener)`; `'*'` listens to every kind. */
export class SandboxEvents {
  private readonly listeners = new Map<SandboxEventKind | '*', Set<SandboxEventListener>>();
  /** Events emitted so far, oldest first, at most {@link SandboxEvents.historyLimit} (the oldest are dropped). */
  readonly history: SandboxEvent[] = [];
  /** How many events {@link history} keeps. */
  historyLimit = 10_000;
  /** Called when a listener throws; default writes to stderr. */
  onListenerError: (err: unknown, e: SandboxEvent) => void = (err, e) => {
    process.stderr.write(`sandbox: ${e.kind} listener failed: ${err instanceof Error ? err.message : String(err)}\n`);
  };

  /** @param domain value of every payload's `domain`. */
  constructor(readonly domain: string = SANDBOX_DOMAIN) {}

  /** Subscribes `listener` to `kind` (or `'*'` for all); returns the unsubscribe function. */
  on(kind: SandboxEventKind | '*', listener: SandboxEventListener): () => void {
    let set = this.listeners.get(kind);
    if (!set) this.listeners.set(kind, (set = new Set()));
    set.add(listener);
    return () => this.off(kind, listener);
  }

  /** Removes a subscription made with {@link on}. */
  off(kind: SandboxEventKind | '*', listener: SandboxEventListener): void {
    this.listeners.get(kind)?.delete(listener);
  }

  /** Records the event and hands it to the kind's listeners, then to the `'*'` listeners. */
  emit(e: SandboxEvent): void {
    this.history.push(e);
    if (this.history.length > this.historyLimit) this.history.splice(0, this.history.length - this.historyLimit);
    for (const key of [e.kind, '*'] as const) {
      for (const l of [...(this.listeners.get(key) ?? [])]) {
        try {
          l(e);
        } catch (err) {
          this.onListenerError(err, e);
        }
      }
    }
  }

  /**
   * Common payload fields of the spec (Events > Common payload fields) for a
   * shipment, in the spec's order: `event`, `timestamp`, `ldv`, `contractCode`,
   * `statusCode`, `domain`.
   */
  common(kind: SandboxEventKind, s: ShipmentRecord, at: Date, statusCode: number = s.statusCode): Record<string, unknown> {
    return {
      event: kind,
      timestamp: localIso(at),
      ldv: s.trackingNumber,
      contractCode: s.contractCode,
      statusCode,
      domain: this.domain,
    };
  }

  /**
   * Emits `shipment.created` for a new shipment (spec: shipment.created payload):
   * common fields plus `shipping_id`, `client_id`, `client_store_id` (null: the
   * sandbox has no online stores), `order_id` (the reference, null without one)
   * and `vector_name` (carrier name). `at` defaults to the shipment's `createdAt`.
   */
  emitShipmentCreated(s: ShipmentRecord, at: Date = s.createdAt): SandboxEvent {
    const e: SandboxEvent = {
      kind: 'shipment.created',
      accountId: s.accountId,
      at,
      payload: {
        ...this.common('shipment.created', s, at),
        shipping_id: s.id,
        client_id: s.accountId,
        client_store_id: null,
        order_id: s.reference,
        vector_name: s.carrierName,
      },
    };
    this.emit(e);
    return e;
  }
}
