/**
 * Orders submitted with POST /orders and the account's address book, as the
 * sandbox keeps them (spec: Resources > Order; Endpoints > Orders). Orders
 * wait in the panel's "orders from API" list until an operator ships them;
 * the API only creates them, so `shipped` stays false in the sandbox.
 * Weights are kg, money EUR, `orderDate` a Europe/Rome calendar date.
 */

/** Catalog product of an account: an order item without `name` takes `title` of the product with its SKU. */
export interface CatalogProduct {
  sku: string;
  title: string;
  /** Shop price, EUR. */
  price: number;
}

/** Recipient of a stored order or address-book entry (the order's recipient after defaults and normalisation). */
export interface OrderParty {
  name: string;
  company: string | null;
  address: { street: string; street2: string | null; city: string; province: string | null; postalCode: string; countryCode: string };
  phone: string | null;
  email: string | null;
  reference: string | null;
}

/** One stored order line; `name` is the given one or the catalog title. */
export interface OrderItemRecord {
  sku: string | null;
  name: string;
  quantity: number;
  unitPrice: number | null;
}

/** An order as the platform keeps it after POST /orders. */
export interface OrderRecord {
  id: number;
  accountId: number;
  orderNumber: string | null;
  /** `YYYY-MM-DD`; today (Europe/Rome) when not sent. */
  orderDate: string;
  recipient: OrderParty;
  parcels: number;
  weightKg: number;
  /** Given, or the client's company name. */
  senderReference: string;
  cod: { amount: number; currency: string } | null;
  insurance: { amount: number; currency: string } | null;
  total: number | null;
  contentDescription: string | null;
  notes: string | null;
  items: OrderItemRecord[];
  shipped: boolean;
  /** Set when an operator ships the order (not reachable through the API). */
  shipmentId: number | null;
  createdAt: Date;
}

/** A saved recipient (`saveToAddressBook: true`); one entry per name + street + postal code + country. */
export interface AddressBookEntry extends OrderParty {
  id: number;
  accountId: number;
  createdAt: Date;
  updatedAt: Date;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/** Orders and address books of every account, with their id sequences. */
export class OrderBook {
  readonly orders: OrderRecord[] = [];
  readonly addressBook: AddressBookEntry[] = [];
  private orderSeq = 70_000;
  private contactSeq = 300;
  private readonly byNumber = new Map<string, OrderRecord>();

  /** The account's order with this exact `orderNumber`, if it was submitted before. */
  findByNumber(accountId: number, orderNumber: string): OrderRecord | undefined {
    return this.byNumber.get(`${accountId}\u0000${orderNumber}`);
  }

  /** Stores an order under a new id (the record's `id` is overwritten) and returns it. */
  add(order: Omit<OrderRecord, 'id'>): OrderRecord {
    const rec: OrderRecord = { ...order, id: ++this.orderSeq };
    this.orders.push(rec);
    if (rec.orderNumber !== null) this.byNumber.set(`${rec.accountId}\u0000${rec.orderNumber}`, rec);
    return rec;
  }

  /** The account's orders, oldest first. */
  ordersOf(accountId: number): OrderRecord[] {
    return this.orders.filter((o) => o.accountId === accountId);
  }

  /** The account's address book, oldest first. */
  contactsOf(accountId: number): AddressBookEntry[] {
    return this.addressBook.filter((c) => c.accountId === accountId);
  }

  /**
   * Saves a recipient in the account's address book: a new entry, or the
   * existing one with the same name, street, postal code and country
   * (case and accents ignored) updated with the new contact details.
   */
  saveContact(accountId: number, party: OrderParty, now: Date): AddressBookEntry {
    const key = (p: OrderParty) => [fold(p.name), fold(p.address.street), p.address.postalCode.replace(/\s/g, ''), p.address.countryCode].join('|');
    const k = key(party);
    const existing = this.addressBook.find((c) => c.accountId === accountId && key(c) === k);
    if (existing) {
      Object.assign(existing, structuredClone(party), { updatedAt: now });
      return existing;
    }
    const entry: AddressBookEntry = { ...structuredClone(party), id: ++this.contactSeq, accountId, createdAt: now, updatedAt: now };
    this.addressBook.push(entry);
    return entry;
  }
}

/** Catalog of Bottega Verdi (fine food and kitchen linen), prices EUR. */
export function verdiCatalog(): CatalogProduct[] {
  return [
    { sku: 'BV-OLIO-500', title: 'Olio extravergine di oliva 500 ml', price: 12.9 },
    { sku: 'BV-OLIO-1000', title: 'Olio extravergine di oliva 1 l', price: 22.5 },
    { sku: 'BV-PASTA-TAG', title: "Tagliatelle all'uovo 500 g", price: 4.2 },
    { sku: 'BV-CAFFE-250', title: 'Caffè macinato miscela bar 250 g', price: 6.8 },
    { sku: 'BV-ACETO-250', title: 'Aceto balsamico di Modena IGP 250 ml', price: 9.9 },
    { sku: 'BV-TOVA-LIN', title: 'Tovaglia in lino 150 x 250 cm', price: 59 },
    { sku: 'BV-TAGL-ULI', title: "Tagliere in legno d'ulivo", price: 34 },
    { sku: 'BV-GREM-BLU', title: 'Grembiule da cucina in cotone blu', price: 18.5 },
  ];
}

/** Catalog of Ceramiche Rossi (Impruneta terracotta and painted ceramics), prices EUR. */
export function rossiCatalog(): CatalogProduct[] {
  return [
    { sku: 'CR-PIAT-27', title: 'Piatto piano dipinto a mano 27 cm', price: 18 },
    { sku: 'CR-CIOT-14', title: 'Ciotola in terracotta 14 cm', price: 12.5 },
    { sku: 'CR-VASO-30', title: 'Vaso in cotto smaltato 30 cm', price: 65 },
    { sku: 'CR-ORCIO-60', title: "Orcio in terracotta dell'Impruneta 60 cm", price: 180 },
    { sku: 'CR-TAZZ-2', title: 'Set di 2 tazze da caffè dipinte a mano', price: 24 },
  ];
}
