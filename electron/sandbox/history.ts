/**
 * A plausible past for the demo accounts, relative to the simulated clock at
 * start (and at every reset): shipments of the last few months (delivered,
 * some with cash on delivery, a few refused and returned to sender), credit
 * top-ups with their invoices, and a pending top-up proforma issued "now".
 * From these the books follow by their own rules (finance.ts): paid COD
 * lists, return lists and their invoices, monthly fee invoices.
 *
 * Every history shipment is at least 60 days old, so it stays out of the
 * default 30-day lists and of the current month's plan usage; the simulated
 * carrier (lifecycle.ts) replays its journey, so it has a real tracking
 * history. The credit movements are laid out so the balance ends at the
 * seed's balance. Labels of history shipments are rendered on first request
 * ({@link ensureLabel}) to keep the start fast.
 */
import type { Party } from '../../shared/platform/common';
import type { SimClock } from './clock';
import { returnCost, type FinanceLedger } from './finance';
import type { ShipmentLifecycle } from './lifecycle';
import type { Account, AccountHistorySeed, CreditMovement, HistoryShipment, ShipmentRecord, WarehouseDef } from './model';
import { normalizePackage, round2, type QuoteInput } from './pricing';
import { quoteAll } from './quoting';
import { newShipmentRecord, renderShipmentLabel, warehouseParty, type ShipmentNumbering } from './shipment-records';
import { addDays, dayOfWeek, localDate } from './time';
import { localInstant } from './workdays';

const party = (name: string, street: string, postalCode: string, city: string, province: string | undefined, countryCode = 'IT', phone?: string): Party => ({
  name,
  address: { street, city, postalCode, countryCode, ...(province ? { province } : {}) },
  ...(phone ? { phone } : {}),
});
const box = (kg: number, l = 30, w = 20, h = 15) => ({ kg, l, w, h });

/** History of Bottega Verdi (Milano): 16 shipments over five months, 10 of them COD, 3 refused. */
export function verdiHistory(): AccountHistorySeed {
  return {
    startDaysAgo: 150,
    topUps: [{ daysAgo: 100, amount: 300, method: 'carta di credito' }],
    pendingTopUp: 250,
    shipments: [
      { daysAgo: 140, reference: 'BV-10412', recipient: party('Rosalia Amato', 'Via Maqueda 212', '90134', 'Palermo', 'PA', 'IT', '+39 338 5512093'), packages: [box(2.4)], cod: 45.9, outcome: 'delivered' },
      { daysAgo: 137, reference: 'BV-10418', recipient: party('Lorenzo Galli', 'Via dei Serragli 41', '50124', 'Firenze', 'FI'), packages: [box(1.2)], outcome: 'delivered' },
      { daysAgo: 133, reference: 'BV-10433', recipient: party('Ciro Esposito', 'Via Toledo 156', '80134', 'Napoli', 'NA', 'IT', '+39 339 7781204'), packages: [box(3.1), box(1.8)], cod: 62, outcome: 'delivered' },
      { daysAgo: 131, reference: 'BV-10447', recipient: party('Nicola Loiacono', 'Corso Cavour 88', '70121', 'Bari', 'BA'), packages: [box(1.6)], cod: 38.5, outcome: 'delivered' },
      { daysAgo: 121, reference: 'BV-10455', recipient: party('Marta Zanetti', 'Via San Vitale 23', '40125', 'Bologna', 'BO'), packages: [box(2.0)], cod: 35, outcome: 'refused' },
      { daysAgo: 119, reference: 'BV-10461', recipient: party('Francesca De Santis', 'Via Merulana 120', '00185', 'Roma', 'RM', 'IT', '+39 347 2209871'), packages: [box(4.5, 40, 30, 20)], cod: 120, outcome: 'delivered' },
      { daysAgo: 112, reference: 'BV-10470', recipient: party('Katrin Vogel', 'Torstraße 112', '10119', 'Berlin', undefined, 'DE'), packages: [box(1.9)], outcome: 'delivered' },
      { daysAgo: 105, reference: 'BV-10488', recipient: party('Giuseppe Russo', 'Via Etnea 301', '95124', 'Catania', 'CT'), packages: [box(2.7)], cod: 74.3, outcome: 'delivered' },
      { daysAgo: 103, reference: 'BV-10502', recipient: party('Elena Ferraris', 'Via Po 18', '10124', 'Torino', 'TO'), packages: [box(0.9)], cod: 29.9, outcome: 'delivered' },
      { daysAgo: 95, reference: 'BV-10509', recipient: party('Davide Di Marco', 'Corso Vittorio Emanuele 70', '65121', 'Pescara', 'PE'), packages: [box(1.4)], outcome: 'refused' },
      { daysAgo: 91, reference: 'BV-10517', recipient: party('Sara Benedetti', 'Via Mazzini 44', '37121', 'Verona', 'VR'), packages: [box(3.3)], outcome: 'delivered' },
      { daysAgo: 84, reference: 'BV-10530', recipient: party('Antonio Ferrara', 'Corso Vittorio Emanuele 210', '84123', 'Salerno', 'SA'), packages: [box(2.2)], cod: 55, outcome: 'delivered' },
      { daysAgo: 77, reference: 'BV-10544', recipient: party('Chiara Parodi', 'Via XX Settembre 150', '16121', 'Genova', 'GE'), packages: [box(1.1)], outcome: 'delivered' },
      { daysAgo: 70, reference: 'BV-10558', recipient: party('Domenico Arena', 'Corso Garibaldi 300', '89125', 'Reggio Calabria', 'RC'), packages: [box(5.2, 40, 30, 25)], cod: 89, outcome: 'delivered' },
      { daysAgo: 66, reference: 'BV-10563', recipient: party('Paolo Marin', 'Via Roma 57', '35122', 'Padova', 'PD'), packages: [box(1.7)], outcome: 'refused' },
      { daysAgo: 63, reference: 'BV-10571', recipient: party('Valentina Greco', 'Via Trinchese 19', '73100', 'Lecce', 'LE', 'IT', '+39 320 6645120'), packages: [box(2.9)], cod: 47.5, outcome: 'delivered' },
    ],
  };
}

/** History of Ceramiche Rossi (Impruneta): 5 shipments, 3 with COD, 1 refused. */
export function rossiHistory(): AccountHistorySeed {
  return {
    startDaysAgo: 140,
    topUps: [],
    shipments: [
      { daysAgo: 130, reference: 'CR-2211', recipient: party('Alessandra Conti', 'Via Nazionale 66', '00184', 'Roma', 'RM'), packages: [box(6.5, 40, 40, 30)], cod: 85, outcome: 'delivered' },
      { daysAgo: 110, reference: 'CR-2230', recipient: party('Matteo Colombo', 'Corso Buenos Aires 33', '20124', 'Milano', 'MI'), packages: [box(8.2, 50, 40, 30)], cod: 140, outcome: 'delivered' },
      { daysAgo: 90, reference: 'CR-2247', recipient: party('Luisa Romano', 'Via Chiaia 140', '80121', 'Napoli', 'NA'), packages: [box(4.0, 40, 30, 30)], outcome: 'delivered' },
      { daysAgo: 75, reference: 'CR-2259', recipient: party('Giorgio Bruno', 'Via Garibaldi 9', '10122', 'Torino', 'TO'), packages: [box(3.5, 40, 30, 20)], outcome: 'refused' },
      { daysAgo: 68, reference: 'CR-2266', recipient: party('Irene Fabbri', 'Via Saragozza 77', '40123', 'Bologna', 'BO'), packages: [box(5.0, 40, 40, 25)], cod: 60, outcome: 'delivered' },
    ],
  };
}

/** The working day on or before `date` (a Saturday or Sunday goes back to Friday). */
function weekday(date: string): string {
  const dow = dayOfWeek(date);
  return dow === 6 ? addDays(date, -1) : dow === 0 ? addDays(date, -2) : date;
}

/** Builds and stores one history shipment; undefined when no contract of the account can take it. */
function makeShipment(state: HistoryState, account: Account, h: HistoryShipment, today: string, index: number): ShipmentRecord | undefined {
  const warehouse = state.warehouse(account);
  if (!warehouse) return undefined;
  const packages = h.packages.map((p) => normalizePackage({ weight: { value: p.kg, units: 'KG' }, dimensions: { length: p.l, width: p.w, height: p.h, units: 'CM' } }));
  const input: QuoteInput = {
    countryCode: h.recipient.address.countryCode,
    postalCode: h.recipient.address.postalCode,
    province: h.recipient.address.province,
    packages,
    codAmount: h.cod ?? 0,
    insuranceAmount: undefined,
    pickupFromAddress: false,
    freePickup: warehouse.freePickup,
    serviceIds: undefined,
  };
  const found = quoteAll(account, input).find((q) => q.outcome.ok && (h.serviceType === undefined || q.contract.contractCode === h.serviceType));
  if (!found || !found.outcome.ok) return undefined;
  const { carrier, contract } = found;
  const priced = found.outcome.priced;
  const createdAt = localInstant(weekday(addDays(today, -h.daysAgo)), 9, 40 + ((index * 17) % 80));
  const codMethod = Object.keys(contract.cashOnDeliveryMethods)[0] ?? null;
  const rec = newShipmentRecord(state, account, { carrier, contract, priced }, warehouse, packages, createdAt, {
    reference: h.reference,
    sender: warehouseParty(warehouse),
    recipient: h.recipient,
    cod: h.cod ? { amount: round2(h.cod), currency: 'EUR', method: codMethod, type: codMethod ? (contract.codTypes[codMethod] ?? null) : null, status: 0 } : null,
    insurance: null,
    accessoryServices: [],
    notes: null,
    contentDescription: null,
    pickupFromAddress: false,
    customsDetail: null,
    labelFormat: 'PDF',
  });
  state.addShipment(rec);
  state.lifecycle.setScenario(rec.id, h.outcome);
  return rec;
}

/**
 * What the history seed uses of the sandbox's state (`SandboxState`
 * implements it): the clock, the accounts and their pickup points, the
 * shipment store and numbering, credit movements (EUR, negative for a
 * debit), the carrier (to play the past) and the books (to file it).
 */
export interface HistoryState extends ShipmentNumbering {
  readonly clock: SimClock;
  readonly accounts: ReadonlyArray<Account>;
  readonly finance: FinanceLedger;
  readonly lifecycle: ShipmentLifecycle;
  warehouse(account: Account, id?: number): WarehouseDef | undefined;
  addShipment(s: ShipmentRecord): void;
  moveCredit(account: Account, amount: number, description: string, refs?: { shipmentId?: number; pickupId?: number }): CreditMovement;
}

/**
 * Seeds the history of every account that has a recipe (`AccountSeed.history`):
 * see the module comment. Runs once, from the SandboxState constructor, when
 * the seed asks for it (`SandboxSeed.history`).
 */
export function seedHistory(state: HistoryState): void {
  const now = state.clock.now();
  const today = localDate(now);
  const made: Array<{ account: Account; recipe: AccountHistorySeed; shipments: ShipmentRecord[] }> = [];
  for (const account of state.accounts) {
    const recipe = account.history;
    if (!recipe) continue;
    const shipments = recipe.shipments.flatMap((h, i) => makeShipment(state, account, h, today, i) ?? []);
    made.push({ account, recipe, shipments });
  }
  if (made.length === 0) return;
  // The carrier plays the past: pickups, deliveries, refusals and returns (booked below, not by the ledger's listener).
  state.finance.quietly(() => state.lifecycle.advance(now));

  for (const { account, recipe, shipments } of made) {
    type Move = { at: Date; amount: number; description: string; shipmentId?: number; topUp?: boolean; returnOf?: ShipmentRecord };
    const moves: Move[] = [];
    for (const t of recipe.topUps) {
      moves.push({ at: localInstant(weekday(addDays(today, -t.daysAgo)), 11, 5), amount: t.amount, description: `Ricarica credito (${t.method})`, topUp: true });
    }
    for (const s of shipments) {
      moves.push({ at: s.createdAt, amount: -s.cost.total, description: `Spedizione ${s.trackingNumber} (${s.contractName})`, shipmentId: s.id });
      const back = state.lifecycle.history(s).find((e) => e.statusCode === 7);
      if (s.statusCode === 7 && back) {
        moves.push({ at: back.at, amount: -returnCost(s), description: `Addebito reso al mittente ${s.trackingNumber}`, shipmentId: s.id, returnOf: s });
      }
    }
    moves.sort((a, b) => a.at.getTime() - b.at.getTime());
    const target = account.credit.balance;
    let opening = round2(target - moves.reduce((t, m) => t + m.amount, 0));
    if (opening <= 0) {
      // A small seed balance: one opening top-up covers everything.
      for (let i = moves.length - 1; i >= 0; i--) if (moves[i]?.topUp) moves.splice(i, 1);
      opening = round2(target - moves.reduce((t, m) => t + m.amount, 0));
    }
    const startDate = weekday(addDays(today, -recipe.startDaysAgo));
    if (opening > 0) moves.unshift({ at: localInstant(startDate, 10, 30), amount: opening, description: 'Ricarica credito (bonifico bancario)', topUp: true });

    account.credit.balance = 0;
    for (const m of moves) {
      const mv = state.moveCredit(account, m.amount, m.description, m.shipmentId !== undefined ? { shipmentId: m.shipmentId } : {});
      mv.createdAt = m.at;
      if (m.topUp) state.finance.invoiceTopUp(account, mv);
      if (m.returnOf) state.finance.markReturnCharged(m.returnOf.id, m.at, -m.amount);
    }
    account.credit.balance = round2(target);
    state.finance.startFees(account.accountId, startDate);
    if (recipe.pendingTopUp) {
      state.finance.issue(account, {
        kind: 'credit_top_up',
        proforma: true,
        issuedAt: now,
        dueDays: 7,
        items: [{ description: 'Ricarica credito prepagato (in attesa di pagamento)', quantity: 1, unitPrice: recipe.pendingTopUp, total: recipe.pendingTopUp }],
        paid: 'none',
      });
    }
  }
  state.finance.sync(now);
  // The client archived the documents older than four months.
  const archiveBefore = addDays(today, -120);
  const ids = new Set(made.map((m) => m.account.accountId));
  for (const inv of state.finance.invoices) if (ids.has(inv.accountId) && inv.invoiceDate < archiveBefore) inv.archived = true;
}

/**
 * Renders the labels of a shipment stored without them (history shipments),
 * exactly as POST /shipments would have: one ZPL and one PDF page per package.
 */
export async function ensureLabel(s: ShipmentRecord): Promise<void> {
  if (s.label.pdf !== '' && s.label.zpl !== '') return;
  s.label = await renderShipmentLabel(s);
}
