/**
 * The platform's books for each client (spec: Resources > Financial records;
 * Endpoints > "Invoices, credit, COD lists, returns"): invoices, cash-on-delivery
 * lists (remittances), return lists, and the link between credit top-ups and
 * their invoices. Credit movements themselves live on the account
 * (`Account.movements`, moved by `SandboxState.moveCredit`).
 *
 * The records follow the shipments over SIMULATED time, as the platform's
 * back office would (cycles at 06:00 Europe/Rome, catching up in order after
 * a time jump; {@link FinanceLedger.sync} runs on every request and clock move):
 * - COD: a shipment with COD delivered (`deliveredAt`) goes into the COD list
 *   made on the first Monday after its delivery day (`processing`, shipment
 *   `cod.status` 1); the list is paid 7 days later (`paid`, `paymentDate`,
 *   `codPaid` = `codAmount`, `cod.status` 2). Before that the shipment's
 *   `cod.status` is 0 (waiting).
 * - Returns: a shipment whose status turns 7 (returned to sender) is charged
 *   its return leg (the outbound weight and fuel price, net) on the prepaid
 *   credit at the instant of the carrier's event; on the 1st of the next
 *   month the returns of the months before form a return list, invoiced on the 10th.
 * - Subscription: on the 1st of each month an invoice for the plan's fee
 *   (business 39.00, starter 19.00 EUR net), paid at once unless the
 *   subscription payment failed.
 * - Top-ups: each has an invoice (made by the history seed; the API cannot top up).
 * Prices on invoices are net; VAT 22% is added (`vatAmount`); credit
 * movements are net.
 *
 * Invoice PDFs become available {@link PDF_GENERATION_MS} after the invoice is
 * issued; before that, or while {@link FinanceLedger.pdfUnavailable} is set
 * (fault injection), GET /invoices/{id}/pdf answers 503.
 */
import type { InvoiceKind } from '../../shared/platform/finance';
import type { SimClock } from './clock';
import type { SandboxEvents } from './events';
import type { ShipmentLifecycle } from './lifecycle';
import type { Account, CreditMovement, ShipmentRecord } from './model';
import { round2 } from './pricing';
import { addDays, dayOfWeek, localDate } from './time';
import { localInstant } from './workdays';

/** Italian standard VAT rate, percent. */
const VAT_RATE = 22;
/** Hour (Europe/Rome) at which the back office runs its cycles. */
const CYCLE_HOUR = 6;
/** Days from a COD list to its payment. */
const COD_PAYMENT_DAYS = 7;
/** Day of the month a return list (made on the 1st) is invoiced. */
const RETURN_INVOICE_DAY = 10;
/** Time from issuing an invoice to its PDF being available, ms (simulated). */
export const PDF_GENERATION_MS = 15 * 60_000;
/** Monthly fee per subscription plan, EUR net. */
const PLAN_FEES: Readonly<Record<string, number>> = { business: 39, starter: 19 };

/** An invoice line: net `unitPrice` x `quantity` = net `total`. */
interface InvoiceItemRecord {
  description: string;
  quantity: number;
  unitPrice: number;
  total: number;
}

/** An invoice (or proforma) of a client. */
export interface InvoiceRecord {
  id: number;
  accountId: number;
  number: string;
  proforma: boolean;
  archived: boolean;
  kind: InvoiceKind;
  invoiceDate: string;
  dueDate: string;
  /** When it was issued; its PDF is ready {@link PDF_GENERATION_MS} later. */
  issuedAt: Date;
  items: InvoiceItemRecord[];
  subtotal: number;
  vatRate: number;
  vatAmount: number;
  total: number;
  paid: number;
  currency: string;
  returnListId: number | null;
}

/** A shipment in a COD list. */
interface CodEntry {
  shipmentId: number;
  trackingNumber: string;
  reference: string | null;
  recipientName: string;
  deliveredAt: Date | null;
  codAmount: number;
  codPaid: number;
}

/** A COD list (remittance). */
export interface CodListRecord {
  id: number;
  accountId: number;
  number: string;
  status: 'processing' | 'paid';
  createdAt: Date;
  /** Date the list is (or was) paid. */
  payDate: string;
  paymentDate: string | null;
  currency: string;
  entries: CodEntry[];
}

/** A returned shipment in a return list. */
interface ReturnEntry {
  shipmentId: number;
  trackingNumber: string;
  returnTrackingNumber: string | null;
  reference: string | null;
  recipientName: string;
  returnedAt: Date;
  cost: number;
}

/** A return list. */
export interface ReturnListRecord {
  id: number;
  accountId: number;
  number: string;
  createdAt: Date;
  currency: string;
  entries: ReturnEntry[];
  totalCost: number;
  invoiceId: number | null;
}

/** Where the cycles of one account stand (local dates already processed). */
interface Cursor {
  codMonday: string | null;
  returnMonth: string | null;
  feeMonth: string | null;
}

/** A new invoice's content, before numbering. */
export interface InvoiceDraft {
  kind: InvoiceKind;
  proforma?: boolean;
  issuedAt: Date;
  dueDays: number;
  items: InvoiceItemRecord[];
  paid: 'all' | 'none';
  returnListId?: number | null;
}

const first = (date: string) => `${date.slice(0, 8)}01`;
const nextMonth = (monthFirst: string) => {
  const [y, m] = monthFirst.split('-').map(Number);
  const yy = (y ?? 1970) + ((m ?? 1) === 12 ? 1 : 0);
  const mm = ((m ?? 1) % 12) + 1;
  return `${String(yy).padStart(4, '0')}-${String(mm).padStart(2, '0')}-01`;
};
const MONTHS_IT = ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'];
/** "settembre 2026" for a date of that month. */
function monthNameIt(date: string): string {
  return `${MONTHS_IT[Number(date.slice(5, 7)) - 1] ?? ''} ${date.slice(0, 4)}`;
}

/** Cost of a shipment's return leg: the outbound weight and fuel price, net EUR. */
export function returnCost(s: ShipmentRecord): number {
  return round2(s.cost.breakdown.weight + s.cost.breakdown.fuel);
}

/**
 * What the books use of the sandbox's state (`SandboxState` implements it):
 * the clock, the accounts and their shipments, the carrier's events (a
 * return is charged when the carrier reports it) and credit movements
 * (EUR, negative for a debit).
 */
export interface LedgerState {
  readonly clock: SimClock;
  readonly accounts: ReadonlyArray<Account>;
  readonly shipments: ReadonlyArray<ShipmentRecord>;
  readonly events: SandboxEvents;
  readonly lifecycle: Pick<ShipmentLifecycle, 'resolve'>;
  accountById(accountId: number): Account | undefined;
  moveCredit(account: Account, amount: number, description: string, refs?: { shipmentId?: number; pickupId?: number }): CreditMovement;
  /** Notes that a shipment changed (for the state store, state-db.ts). */
  touch(s: ShipmentRecord): void;
}

/** The client's books; one per `SandboxState` (`state.finance`). */
export class FinanceLedger {
  readonly invoices: InvoiceRecord[] = [];
  readonly codLists: CodListRecord[] = [];
  readonly returnLists: ReturnListRecord[] = [];
  /** Credit movement id of a top-up -> its invoice id. */
  readonly topUpInvoices = new Map<number, number>();
  /**
   * Fault injection: while true every GET /invoices/{id}/pdf answers 503
   * ("PDF generation temporarily unavailable"). Set by tests or the admin prefix.
   */
  pdfUnavailable = false;
  /** Shipment id -> instant its return was registered and charged. */
  private readonly returns = new Map<number, { at: Date; cost: number }>();
  private readonly codListed = new Set<number>();
  private readonly returnListed = new Set<number>();
  private readonly cursors = new Map<number, Cursor>();
  private readonly seq = { invoice: 4000, cod: 80, ret: 20 };
  /** Documents already numbered per series and day (`FT|2026-09-14` -> count). */
  private readonly perDay = new Map<string, number>();
  private syncing = false;
  private quiet = false;

  /** Subscribes to the carrier's events: a return is charged at the instant the carrier reports it. */
  constructor(private readonly state: LedgerState) {
    state.events.on('tracking.update', (e) => {
      if (this.quiet || e.payload.statusCode !== 7 || typeof e.payload.ldv !== 'string') return;
      const s = state.lifecycle.resolve(e.accountId, e.payload.ldv);
      const account = state.accountById(e.accountId);
      if (s && account && s.statusCode === 7) this.chargeReturn(account, s, e.at);
    });
  }

  /** Runs `fn` without reacting to events (the history seed books its past itself). */
  quietly<T>(fn: () => T): T {
    const was = this.quiet;
    this.quiet = true;
    try {
      return fn();
    } finally {
      this.quiet = was;
    }
  }

  /** Registers a shipment's return once and debits its return leg on the credit, dated `at`. */
  private chargeReturn(account: Account, s: ShipmentRecord, at: Date): void {
    if (this.returns.has(s.id)) return;
    const cost = returnCost(s);
    this.returns.set(s.id, { at, cost });
    if (cost > 0) this.state.moveCredit(account, -cost, `Addebito reso al mittente ${s.trackingNumber}`, { shipmentId: s.id }).createdAt = at;
  }

  /**
   * Number of a document: `<series> <year>/<n>` where n grows with the day of
   * the year (100 per day, the platform's other clients fill the gaps), so
   * numbers follow dates whatever order the sandbox issues them in.
   */
  private docNumber(series: string, date: string, width: number, perDayRoom: number): string {
    const key = `${series}|${date}`;
    const k = (this.perDay.get(key) ?? 0) + 1;
    this.perDay.set(key, k);
    const year = Number(date.slice(0, 4));
    const doy = Math.round((Date.UTC(year, Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) - Date.UTC(year, 0, 1)) / 86_400_000) + 1;
    return `${series} ${date.slice(0, 4)}/${String(doy * perDayRoom + Math.min(k, perDayRoom - 1)).padStart(width, '0')}`;
  }

  /** Cursor of an account's cycles (created on first use). */
  private cursor(accountId: number): Cursor {
    let c = this.cursors.get(accountId);
    if (!c) {
      c = { codMonday: null, returnMonth: null, feeMonth: null };
      this.cursors.set(accountId, c);
    }
    return c;
  }

  /**
   * Starts the monthly fee invoices of an account after `date` (the first one
   * on the 1st of the next month). Without a call, fees start with the month
   * after the first sync.
   */
  startFees(accountId: number, date: string): void {
    this.cursor(accountId).feeMonth = first(date);
  }

  /** Instant and cost of a shipment's registered return, if any. */
  returnOf(shipmentId: number): { at: Date; cost: number } | undefined {
    return this.returns.get(shipmentId);
  }

  /**
   * Records a shipment's return as already charged (the history seed books the
   * debit itself, at the return's own time).
   */
  markReturnCharged(shipmentId: number, at: Date, cost: number): void {
    this.returns.set(shipmentId, { at, cost });
  }

  /**
   * Issues an invoice: numbered `FT <year>/<nnnnnn>` (proforma `PF ...`, see {@link docNumber}),
   * VAT added to the net items, paid in full or not at all.
   */
  issue(account: Account, d: InvoiceDraft): InvoiceRecord {
    const date = localDate(d.issuedAt);
    const proforma = d.proforma ?? false;
    const subtotal = round2(d.items.reduce((s, i) => s + i.total, 0));
    const vatAmount = round2((subtotal * VAT_RATE) / 100);
    const total = round2(subtotal + vatAmount);
    const inv: InvoiceRecord = {
      id: ++this.seq.invoice,
      accountId: account.accountId,
      number: this.docNumber(proforma ? 'PF' : 'FT', date, 6, 100),
      proforma,
      archived: false,
      kind: d.kind,
      invoiceDate: date,
      dueDate: addDays(date, d.dueDays),
      issuedAt: d.issuedAt,
      items: d.items,
      subtotal,
      vatRate: VAT_RATE,
      vatAmount,
      total,
      paid: d.paid === 'all' ? total : 0,
      currency: account.credit.currency,
      returnListId: d.returnListId ?? null,
    };
    this.invoices.push(inv);
    return inv;
  }

  /** Invoice of a credit top-up movement (net amount credited; VAT on top). */
  invoiceTopUp(account: Account, m: CreditMovement): InvoiceRecord {
    const inv = this.issue(account, {
      kind: 'credit_top_up',
      issuedAt: m.createdAt,
      dueDays: 0,
      items: [{ description: 'Ricarica credito prepagato', quantity: 1, unitPrice: m.amount, total: m.amount }],
      paid: 'all',
    });
    this.topUpInvoices.set(m.id, inv.id);
    return inv;
  }

  /**
   * Brings every account's books up to the simulated now: registers returns,
   * makes and pays COD lists, makes and invoices return lists, issues the
   * monthly fee invoices — each dated at its own cycle instant.
   */
  sync(now: Date = this.state.clock.now()): void {
    if (this.syncing) return;
    this.syncing = true;
    try {
      for (const account of this.state.accounts) this.syncAccount(account, now);
    } finally {
      this.syncing = false;
    }
  }

  private syncAccount(account: Account, now: Date): void {
    const mine = this.state.shipments.filter((s) => s.accountId === account.accountId && s.cancelledAt === null);
    const cur = this.cursor(account.accountId);
    const today = localDate(now);
    const due = (date: string, day = 0) => localInstant(addDays(date, day), CYCLE_HOUR).getTime() <= now.getTime();

    // Returns not reported by an event (e.g. a status set by hand): charged now.
    for (const s of mine) if (s.statusCode === 7) this.chargeReturn(account, s, now);

    // COD lists: every Monday, the COD shipments delivered before that day.
    const delivered = mine.filter((s) => s.cod !== null && s.cod.amount > 0 && s.statusCode === 5 && s.deliveredAt !== null && !this.codListed.has(s.id));
    if (delivered.length > 0) {
      const earliest = delivered.reduce((m, s) => (localDate(s.deliveredAt ?? now) < m ? localDate(s.deliveredAt ?? now) : m), today);
      let monday = addDays(earliest, ((8 - dayOfWeek(earliest)) % 7) || 7);
      if (cur.codMonday !== null && monday <= cur.codMonday) monday = addDays(cur.codMonday, 7);
      while (monday <= today && due(monday)) {
        const batch = delivered.filter((s) => !this.codListed.has(s.id) && localDate(s.deliveredAt ?? now) < monday);
        if (batch.length > 0) this.makeCodList(account, batch, localInstant(monday, CYCLE_HOUR));
        cur.codMonday = monday;
        monday = addDays(monday, 7);
      }
    }
    for (const l of this.codLists) {
      if (l.accountId !== account.accountId || l.status !== 'processing' || !due(l.payDate)) continue;
      l.status = 'paid';
      l.paymentDate = l.payDate;
      for (const e of l.entries) {
        e.codPaid = e.codAmount;
        const s = mine.find((x) => x.id === e.shipmentId) ?? this.state.shipments.find((x) => x.id === e.shipmentId);
        if (s?.cod) {
          s.cod.status = 2;
          this.state.touch(s);
        }
      }
    }

    // Return lists: on the 1st, the returns registered in the months before.
    const returned = mine.filter((s) => this.returns.has(s.id) && !this.returnListed.has(s.id));
    if (returned.length > 0) {
      const earliest = returned.reduce((m, s) => {
        const d = localDate(this.returns.get(s.id)?.at ?? now);
        return d < m ? d : m;
      }, today);
      let month = nextMonth(first(earliest));
      if (cur.returnMonth !== null && month <= cur.returnMonth) month = nextMonth(cur.returnMonth);
      while (month <= today && due(month)) {
        const batch = returned.filter((s) => !this.returnListed.has(s.id) && localDate(this.returns.get(s.id)?.at ?? now) < month);
        if (batch.length > 0) this.makeReturnList(account, batch, localInstant(month, CYCLE_HOUR));
        cur.returnMonth = month;
        month = nextMonth(month);
      }
    }
    for (const l of this.returnLists) {
      if (l.accountId !== account.accountId || l.invoiceId !== null) continue;
      const day = addDays(localDate(l.createdAt), RETURN_INVOICE_DAY - 1);
      if (!due(day)) continue;
      const inv = this.issue(account, {
        kind: 'returns',
        issuedAt: localInstant(day, CYCLE_HOUR),
        dueDays: 30,
        items: l.entries.map((e) => ({
          description: `Reso al mittente ${e.trackingNumber}${e.reference ? ` (rif. ${e.reference})` : ''}`,
          quantity: 1,
          unitPrice: e.cost,
          total: e.cost,
        })),
        paid: account.credit.prepaid ? 'all' : 'none',
        returnListId: l.id,
      });
      l.invoiceId = inv.id;
    }

    // Monthly platform fee, on the 1st.
    const sub = account.subscription;
    const fee = sub ? PLAN_FEES[sub.plan] : undefined;
    if (sub && fee !== undefined && sub.status !== 'none') {
      if (cur.feeMonth === null) cur.feeMonth = first(today);
      for (let month = nextMonth(cur.feeMonth); month <= today && due(month); month = nextMonth(month)) {
        this.issue(account, {
          kind: 'subscription',
          issuedAt: localInstant(month, CYCLE_HOUR),
          dueDays: 0,
          items: [{ description: `Canone piano ${sub.plan} – ${monthNameIt(month)}`, quantity: 1, unitPrice: fee, total: fee }],
          paid: sub.status === 'active' ? 'all' : 'none',
        });
        cur.feeMonth = month;
      }
    }
  }

  private makeCodList(account: Account, batch: ShipmentRecord[], at: Date): void {
    const list: CodListRecord = {
      id: ++this.seq.cod,
      accountId: account.accountId,
      number: this.docNumber('CS', localDate(at), 5, 10),
      status: 'processing',
      createdAt: at,
      payDate: addDays(localDate(at), COD_PAYMENT_DAYS),
      paymentDate: null,
      currency: 'EUR',
      entries: batch
        .sort((a, b) => (a.deliveredAt?.getTime() ?? 0) - (b.deliveredAt?.getTime() ?? 0) || a.id - b.id)
        .map((s) => ({
          shipmentId: s.id,
          trackingNumber: s.trackingNumber,
          reference: s.reference,
          recipientName: s.recipient.name,
          deliveredAt: s.deliveredAt,
          codAmount: s.cod?.amount ?? 0,
          codPaid: 0,
        })),
    };
    for (const s of batch) {
      this.codListed.add(s.id);
      if (s.cod) {
        s.cod.status = 1;
        this.state.touch(s);
      }
    }
    this.codLists.push(list);
  }

  private makeReturnList(account: Account, batch: ShipmentRecord[], at: Date): void {
    const entries = batch
      .map((s) => ({ s, r: this.returns.get(s.id) ?? { at, cost: returnCost(s) } }))
      .sort((a, b) => a.r.at.getTime() - b.r.at.getTime() || a.s.id - b.s.id)
      .map(({ s, r }) => ({
        shipmentId: s.id,
        trackingNumber: s.trackingNumber,
        returnTrackingNumber: s.returnTrackingNumber,
        reference: s.reference,
        recipientName: s.recipient.name,
        returnedAt: r.at,
        cost: r.cost,
      }));
    for (const s of batch) this.returnListed.add(s.id);
    this.returnLists.push({
      id: ++this.seq.ret,
      accountId: account.accountId,
      number: this.docNumber('RS', localDate(at), 5, 10),
      createdAt: at,
      currency: 'EUR',
      entries,
      totalCost: round2(entries.reduce((t, e) => t + e.cost, 0)),
      invoiceId: null,
    });
  }
}
