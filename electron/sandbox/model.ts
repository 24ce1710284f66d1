/**
 * Data model of the sandbox: the seed an account is built from (carriers,
 * contracts with price lists, pickup points, credit) and the records the API
 * creates (shipments, manifests, pickups, credit movements, tokens).
 * Money is EUR, weights kg, lengths cm, instants `Date` of the simulated clock.
 */
import type { Address, Party, PriceBreakdown } from '../../shared/platform';
import type { CatalogProduct } from './orders';

/**
 * Price-list zone matched by the destination (the Rate's `zone`).
 * Italian zones come from the postal code (or province), the others from the country.
 */
export type ZoneId =
  | 'italy'
  | 'italy_calabria_sicily'
  | 'italy_sardinia'
  | 'italy_minor_islands'
  | 'eu_1'
  | 'eu_2'
  | 'europe_non_eu'
  | 'world';

/** One weight band: `price` EUR for a billable weight up to and including `maxKg`. */
export interface WeightBand {
  maxKg: number;
  price: number;
}

/** A carrier contract with its price list (GET /carriers `contracts[]` plus pricing the API does not show). */
export interface ContractDef {
  contractCode: string;
  contractName: string;
  level: number;
  slave: boolean;
  paused: boolean;
  multiParcel: boolean;
  /** COD method key -> label shown to the client, e.g. `{cash: 'Contanti'}`; empty when COD is not offered. */
  cashOnDeliveryMethods: Record<string, string>;
  /** COD method key -> carrier internal code accepted as `options.cod.type`. */
  codTypes: Record<string, string>;
  /** Heaviest parcel the contract accepts, kg of real weight. */
  maxParcelKg: number;
  /** Bands by zone; a zone absent here is not served by the contract. Bands sorted by `maxKg`. */
  prices: Partial<Record<ZoneId, WeightBand[]>>;
  /** EUR per started kg above the last band. */
  overPerKg: number;
  /** EUR added as `extra` for the `italy_minor_islands` zone (minor islands, Venice lagoon). */
  remoteAreaSurcharge: number;
  /**
   * Automatic carrier return (spec: Resources > Label, "For a carrier with
   * automatic return, the return label is the second page of the same PDF"):
   * every shipment on the contract gets a return tracking number (LDV) at
   * creation and a return label after its parcel labels. Absent = false. Not
   * shown by GET /carriers (the spec's contract has no such field).
   */
  automaticReturn?: boolean;
}

/** Accessory service of a carrier, with its price (EUR per shipment). */
interface AccessoryServiceDef {
  serviceId: number;
  serviceCode: string;
  serviceName: string;
  price: number;
}

/** Carrier of an account: flags, pricing rules and contracts. */
export interface CarrierDef {
  carrierCode: string;
  carrierName: string;
  canManageStocks: boolean;
  canRequestPickup: boolean;
  /** Two uppercase letters starting each tracking number. */
  trackingPrefix: string;
  /** Volumetric divisor, cm³ per kg (5000: 1 m³ = 200 kg; 4000: 1 m³ = 250 kg). */
  volumetricDivisor: number;
  /** Fuel surcharge, percent of the weight price. */
  fuelSurchargePct: number;
  /** Pickup fee, EUR per booking (zero from a point with approved free pickup). */
  pickupFee: number;
  /** COD fee: `fixed` EUR plus `pct` percent of the COD amount. */
  codFee: { fixed: number; pct: number };
  /** Insurance premium: `pct` percent of the insured value, at least `min` EUR. */
  insuranceFee: { pct: number; min: number };
  services: AccessoryServiceDef[];
  contracts: ContractDef[];
  logoUrl: string | null;
}

/** Pickup point (warehouse) of an account; ids are unique across accounts. */
export interface WarehouseDef {
  id: number;
  name: string;
  /** Sender name printed on labels leaving from this point. */
  senderName: string;
  address: Address;
  phone: string;
  email: string;
  isDefault: boolean;
  /** Approved free pickup: pickups from here cost zero and move no credit. */
  freePickup: boolean;
}

/** Everything an account starts with. */
export interface AccountSeed {
  /** Numeric client id of the platform (webhook payload `client_id`). */
  accountId: number;
  /** OAuth2 App credentials. */
  clientId: string;
  clientSecret: string;
  /** App name shown in the panel and the station header. */
  name: string;
  companyName: string;
  credit: { balance: number; currency: string; prepaid: boolean };
  carriers: CarrierDef[];
  warehouses: WarehouseDef[];
  /** Subscription (spec: Access requirements 4; Errors 402); absent = the platform requires none. See access.ts. */
  subscription?: SubscriptionDef;
  /** State of the App's user and client (spec: Access requirements 1-2; Errors 403); absent = all in order. See access.ts. */
  access?: AccessDef;
  /** Static API key of the deprecated interfaces (spec: Versioning 4-5): bearer on `/api/v2/`, `/api/v2.1/`, `/api/tracking/`; Basic password on `/api/v1/`. See routes/legacy.ts. */
  legacyApiKey?: string;
  /** Shop catalog: an order item sent without `name` takes the `title` of the product with its SKU (spec: Order). See routes/orders.ts. */
  catalog?: CatalogProduct[];
  /** Past shipments, top-ups and documents seeded when `SandboxSeed.history` is set. See history.ts. */
  history?: AccountHistorySeed;
}

/** One past shipment of a recipe. */
export interface HistoryShipment {
  /** Days before the sandbox's "today" it was created (at least 60). */
  daysAgo: number;
  reference: string;
  recipient: Party;
  /** Parcels in kg and cm. */
  packages: Array<{ kg: number; l: number; w: number; h: number }>;
  /** COD amount, EUR (cash, the contract's first method). */
  cod?: number;
  /** What the carrier did with it. */
  outcome: 'delivered' | 'refused';
  /** Contract; default the first of the quote (as POST /shipments). */
  serviceType?: string;
}

/** The past of one account (seeded by history.ts). */
export interface AccountHistorySeed {
  /** Days before today of the first top-up (the account's opening). */
  startDaysAgo: number;
  /** Later top-ups: days ago and net EUR amount. The opening amount is computed so the balance ends at the seed's. */
  topUps: Array<{ daysAgo: number; amount: number; method: string }>;
  shipments: HistoryShipment[];
  /** A top-up requested but not yet paid: a proforma issued at start (its PDF is still being generated). */
  pendingTopUp?: number;
}

/**
 * A client's subscription. `status`: `active`, `none` (402 `subscription_required`)
 * or `payment_failed` (402 `subscription_payment_failed`). `monthlyShipmentLimit`:
 * shipments per calendar month (Europe/Rome) of the plan, null = unlimited
 * (402 `plan_limit_reached` beyond it). `otherShipmentsThisMonth`: shipments
 * the client made this month outside the API (panel, imports), counted too.
 */
export interface SubscriptionDef {
  status: 'active' | 'none' | 'payment_failed';
  plan: string;
  monthlyShipmentLimit: number | null;
  otherShipmentsThisMonth?: number;
}

/**
 * Access state behind an App (spec: Access requirements 1-2):
 * `disabled` client (403 `account_disabled`), owning user's `userRole`
 * other than `client` (403 `client_role_required`), Enterprise platform
 * (`enterprise`) with fewer than 3 `validatedDocuments` (403 `forbidden`).
 */
export interface AccessDef {
  disabled?: boolean;
  userRole?: 'client' | 'operator' | 'admin';
  enterprise?: boolean;
  validatedDocuments?: number;
}

/** Seed of a sandbox: accounts and the seed of the tracking-number generator. */
export interface SandboxSeed {
  accounts: AccountSeed[];
  /** Seed of the pseudo-random tracking numbers; omit for a random one (numbers differ per run). */
  randomSeed?: number;
  /** Seed the accounts' `history` (past shipments, credit, invoices, COD and return lists); default false. createSandbox turns it on. */
  history?: boolean;
}

/** Credit movement (spec: Financial records; amount negative for debits, balance after the movement). */
export interface CreditMovement {
  id: number;
  type: 'credit' | 'debit';
  amount: number;
  balance: number;
  currency: string;
  description: string;
  shipmentId: number | null;
  pickupId: number | null;
  createdAt: Date;
}

/** Runtime account: the seed plus live credit and movements. */
export interface Account extends Omit<AccountSeed, 'credit'> {
  credit: { balance: number; currency: string; prepaid: boolean; updatedAt: Date };
  movements: CreditMovement[];
}

/** A package of a stored shipment, normalised to kg and cm. */
interface ShipmentPackageRecord {
  number: number;
  trackingNumber: string;
  weightKg: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  description: string | null;
  value: number | null;
}

/** A shipment (LDV) as the sandbox keeps it. */
export interface ShipmentRecord {
  id: number;
  accountId: number;
  trackingNumber: string;
  reference: string | null;
  statusCode: number;
  carrierCode: string;
  carrierName: string;
  contractCode: string;
  contractName: string;
  warehouseId: number | null;
  sender: Party;
  recipient: Party;
  packages: ShipmentPackageRecord[];
  cost: { total: number; currency: string; breakdown: PriceBreakdown };
  zone: ZoneId;
  billableWeightKg: number;
  volumetricWeightKg: number;
  cod: { amount: number; currency: string; method: string | null; type: string | null; status: number } | null;
  insurance: { amount: number; currency: string } | null;
  accessoryServices: number[];
  notes: string | null;
  contentDescription: string | null;
  pickupFromAddress: boolean;
  customsDetail: unknown;
  labelFormat: 'PDF' | 'ZPL';
  /** Base64 label documents: one page / one ^XA..^XZ per package; `zpl` null for PDF-only carriers (labels/formats.ts). */
  label: { pdf: string; zpl: string | null };
  createdAt: Date;
  shippedAt: Date | null;
  pickedUpAt: Date | null;
  deliveredAt: Date | null;
  manifestId: number | null;
  cancelledAt: Date | null;
  refunded: number;
  /**
   * LDV of the shipment's return: set at creation on a contract with
   * `automaticReturn` (unless the carrier could not create it), otherwise when
   * the carrier returns the parcel to sender (status 7); null before.
   */
  returnTrackingNumber: string | null;
  /** The return was created with the shipment (automatic carrier return): its label is the last page of the label PDF. Absent = false. */
  automaticReturn?: boolean;
  /** Carrier pickup point the parcel is delivered to (`options.deliveryPoint`, resolved); absent = home delivery. */
  deliveryPoint?: { carrier: string; id: string; name: string; type: 'shop' | 'locker'; address: Address } | null;
}

/** A manifest (closing of the day) for one contract. */
export interface ManifestRecord {
  id: number;
  accountId: number;
  carrierCode: string;
  carrierName: string;
  contractCode: string;
  contractName: string;
  shipmentIds: number[];
  trackingNumbers: string[];
  totalCost: number;
  createdAt: Date;
  /** Base64 manifest PDF. */
  pdf: string;
}

/** A pickup booking. */
export interface PickupRecord {
  id: number;
  accountId: number;
  /** Carrier's booking identifier. */
  pickupId: string;
  carrierCode: string;
  carrierName: string;
  serviceType: string;
  pickupDate: string;
  pickupTime: string;
  warehouseId: number | null;
  address: Party;
  packages: number;
  weightKg: number;
  shipmentId: string | null;
  instructions: string | null;
  cost: { total: number; currency: string };
  status: 'booked';
  createdAt: Date;
}

/**
 * The legacy webhook of an account (deprecated `/api/v2/webhook`; routes/legacy.ts):
 * the 2026-09 webhook endpoint it was registered as, and the LDVs subscribed
 * through `/webhook/subscriptions` (kept for compatibility).
 */
export interface LegacyWebhookRecord {
  webhookId: number;
  subscriptions: Array<{ ldv: string; createdAt: Date }>;
}

/** An issued access token. */
export interface TokenRecord {
  accountId: number;
  scope: string;
  issuedAt: number;
  /** Epoch ms of the simulated clock after which the token is refused. */
  expiresAt: number;
}
