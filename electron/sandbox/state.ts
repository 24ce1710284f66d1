/**
 * In-memory state of a sandbox: accounts (built from the seed), tokens and
 * every record the API creates, plus id sequences and the tracking-number
 * generator. Route modules read and change it only through the request
 * handlers; tests may inspect or adjust it (e.g. lower a credit balance).
 */
import { randomInt } from 'node:crypto';
import type { SimClock } from './clock';
import { SandboxEvents } from './events';
import { ShipmentLifecycle, type LifecycleState } from './lifecycle';
import { FinanceLedger, type LedgerState } from './finance';
import { seedHistory, type HistoryState } from './history';
import { OrderBook } from './orders';
import type {
  Account,
  CarrierDef,
  ContractDef,
  LegacyWebhookRecord,
  CreditMovement,
  ManifestRecord,
  PickupRecord,
  SandboxSeed,
  ShipmentRecord,
  TokenRecord,
  WarehouseDef,
} from './model';
import { round2 } from './pricing';
import { WebhookService } from './webhooks/service';
import { mulberry32 } from '../../shared/domain/random';

/** GS1 mod-10 check digit of a digit string (weights 3,1 from the right). */
export function mod10CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[digits.length - 1 - i]);
    sum += d * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** Everything the sandbox knows. One instance per {@link createSandbox}. */
export class SandboxState implements LifecycleState, LedgerState, HistoryState {
  readonly accounts: Account[];
  /** Access token -> record. */
  readonly tokens = new Map<string, TokenRecord>();
  readonly shipments: ShipmentRecord[] = [];
  readonly manifests: ManifestRecord[] = [];
  readonly pickups: PickupRecord[] = [];
  /** Event bus: `shipment.created`, `tracking.update`, `stock.opened`, `stock.closed` with their webhook payloads (events.ts). */
  readonly events = new SandboxEvents();
  /** The simulated carrier: shipment progress over simulated time, tracking history, stocks (lifecycle.ts). */
  readonly lifecycle: ShipmentLifecycle;
  /** Webhooks: registered endpoints, delivery log, client notifications and the delivery engine (webhooks/). */
  readonly webhooks: WebhookService;
  /** Orders submitted with POST /orders and the address books (orders.ts, routes/orders.ts). */
  readonly orderBook = new OrderBook();
  /** The clients' books: invoices, COD lists, return lists, top-up invoices (finance.ts, routes/finance.ts). */
  readonly finance: FinanceLedger;
  /** Legacy webhook per account id (deprecated `/api/v2/webhook`; routes/legacy.ts). */
  readonly legacyWebhooks = new Map<number, LegacyWebhookRecord>();
  /** Shipment and package tracking numbers -> shipment. */
  private readonly byTracking = new Map<string, ShipmentRecord>();
  /** Every tracking number ever handed out (also those of shipments that failed before being stored). */
  private readonly reserved = new Set<string>();
  private readonly seq = { shipment: 100_000, manifest: 5_000, pickup: 9_000, movement: 0 };
  private readonly random: () => number;
  /** Shipments changed since the state store last asked (an ES private field: not part of the saved state). */
  readonly #changed = new Set<ShipmentRecord>();

  /**
   * @param seed accounts and optional `randomSeed` (fixed seed = reproducible tracking numbers).
   * @param clock simulated clock every timestamp comes from.
   */
  constructor(
    seed: SandboxSeed,
    readonly clock: SimClock,
  ) {
    const now = clock.now();
    this.accounts = seed.accounts.map((a) => ({
      ...a,
      credit: { ...a.credit, updatedAt: now },
      movements: [],
    }));
    const ids = new Set<number>();
    for (const w of this.accounts.flatMap((a) => a.warehouses)) {
      if (ids.has(w.id)) throw new Error(`Sandbox seed: warehouse id ${w.id} is used twice (ids must be unique across accounts)`);
      ids.add(w.id);
    }
    this.random = mulberry32(seed.randomSeed ?? randomInt(0, 2 ** 32 - 1));
    this.webhooks = new WebhookService(clock);
    this.lifecycle = new ShipmentLifecycle(this);
    // Moving the clock replays the carrier's events due by the new instant at once.
    clock.onChange(() => this.lifecycle.advance());
    // The books follow the carrier: COD lists, returns and invoices due by the new instant.
    this.finance = new FinanceLedger(this);
    clock.onChange(() => this.finance.sync());
    if (seed.history) seedHistory(this);
  }

  /** Account owning an OAuth client id, or undefined. */
  accountByClientId(clientId: string): Account | undefined {
    return this.accounts.find((a) => a.clientId === clientId);
  }

  /** Account by numeric id, or undefined. */
  accountById(accountId: number): Account | undefined {
    return this.accounts.find((a) => a.accountId === accountId);
  }

  /** The account's contract with this exact code, with its carrier; undefined when not the account's. */
  findContract(account: Account, contractCode: string): { carrier: CarrierDef; contract: ContractDef } | undefined {
    for (const carrier of account.carriers) {
      const contract = carrier.contracts.find((c) => c.contractCode === contractCode);
      if (contract) return { carrier, contract };
    }
    return undefined;
  }

  /** The account's pickup point `id`, or its default point when `id` is undefined. */
  warehouse(account: Account, id?: number): WarehouseDef | undefined {
    if (id === undefined) return account.warehouses.find((w) => w.isDefault) ?? account.warehouses[0];
    return account.warehouses.find((w) => w.id === id);
  }

  /** The account's shipment whose shipment (or package) tracking number is `trackingNumber` (any case). */
  shipmentByTracking(account: Account, trackingNumber: string): ShipmentRecord | undefined {
    const s = this.byTracking.get(trackingNumber.toUpperCase());
    return s && s.accountId === account.accountId ? s : undefined;
  }

  /** Next shipment id. */
  nextShipmentId(): number {
    return ++this.seq.shipment;
  }

  /** Next manifest id. */
  nextManifestId(): number {
    return ++this.seq.manifest;
  }

  /** Next pickup id. */
  nextPickupId(): number {
    return ++this.seq.pickup;
  }

  /**
   * A new, unused 12-character tracking number: the carrier's 2-letter
   * prefix, 9 pseudo-random digits and a GS1 mod-10 check digit.
   */
  newTrackingNumber(prefix: string): string {
    if (!/^[A-Z]{2}$/.test(prefix)) throw new Error(`Tracking prefix must be 2 uppercase letters, got "${prefix}"`);
    for (;;) {
      const body = String(Math.floor(this.random() * 1e9)).padStart(9, '0');
      const candidate = `${prefix}${body}${mod10CheckDigit(body)}`;
      if (!this.byTracking.has(candidate) && !this.reserved.has(candidate)) {
        this.reserved.add(candidate);
        return candidate;
      }
    }
  }
  /** Stores a new shipment and indexes its tracking numbers. */
  addShipment(s: ShipmentRecord): void {
    this.shipments.push(s);
    this.byTracking.set(s.trackingNumber, s);
    for (const p of s.packages) this.byTracking.set(p.trackingNumber, s);
  }

  /**
   * Notes that `s` or its carrier journey changed in place, so a store that
   * writes only what changed (state-db.ts) writes its row at the next save.
   * Every change of a stored shipment goes through here (the carrier's steps,
   * cancellation, manifest, new label, COD status).
   */
  touch(s: ShipmentRecord): void {
    this.#changed.add(s);
  }

  /** The shipments noted by {@link touch} since the last call; forgets them. */
  takeChanged(): ShipmentRecord[] {
    const out = [...this.#changed];
    this.#changed.clear();
    return out;
  }

  /**
   * Removes the shipments `ids` from the state: the list, the tracking-number
   * index and their carrier journeys (retention of a long-lived training
   * sandbox, state-db.ts). Their tracking numbers stay reserved, so none is
   * handed out again. Unknown ids are ignored.
   * @returns how many shipments were removed.
   */
  forgetShipments(ids: ReadonlySet<number>): number {
    if (ids.size === 0) return 0;
    this.lifecycle.forget(ids);
    const before = this.shipments.length;
    let w = 0;
    for (const s of this.shipments) if (!ids.has(s.id)) this.shipments[w++] = s;
    this.shipments.length = w;
    for (const [ldv, s] of this.byTracking) if (ids.has(s.id)) this.byTracking.delete(ldv);
    return before - w;
  }

  /**
   * Moves credit: `amount` EUR, negative for a debit. Records the movement
   * (balance after it) and returns it. Throws RangeError on a non-finite amount.
   */
  moveCredit(account: Account, amount: number, description: string, refs: { shipmentId?: number; pickupId?: number } = {}): CreditMovement {
    if (!Number.isFinite(amount)) throw new RangeError(`Credit movement amount must be finite, got ${amount}`);
    const now = this.clock.now();
    account.credit.balance = round2(account.credit.balance + amount);
    account.credit.updatedAt = now;
    const m: CreditMovement = {
      id: ++this.seq.movement,
      type: amount < 0 ? 'debit' : 'credit',
      amount: round2(amount),
      balance: account.credit.balance,
      currency: account.credit.currency,
      description,
      shipmentId: refs.shipmentId ?? null,
      pickupId: refs.pickupId ?? null,
      createdAt: now,
    };
    account.movements.push(m);
    return m;
  }
}
