/**
 * Resources, request bodies and responses of the Client Shipping API 2026-09
 * ("Resources and their fields" and "Endpoints"). Request schemas validate
 * strictly (the sandbox answers 422 with their issue paths); response schemas
 * accept unknown fields, as the spec's versioning rule 2 asks of clients.
 */
import { z } from 'zod';
import { Address, AddressFields, CountryCode, countryCodeNamed, Dimensions, extension, IsoDate, IsoDateTime, Money, Package, Party, Status, Weight, withItalianCap } from './common';
import { DeliveryPointSelection } from './lookups';

/** Map of COD method key -> label (e.g. `{"cash": "Contanti"}`). */
const CodMethods = z.record(z.string(), z.string());

/** Contract of a carrier (item of `contracts[]` in GET /carriers). */
const Contract = z.object({
  contractCode: z.string(),
  contractName: z.string(),
  level: z.number().int(),
  slave: z.boolean(),
  paused: z.boolean(),
  multiParcel: z.boolean(),
  cashOnDeliveryMethods: CodMethods,
});
type Contract = z.infer<typeof Contract>;

/** Accessory service of a carrier. */
const CarrierService = z.object({ serviceId: z.number().int(), serviceCode: z.string(), serviceName: z.string() });

/** Carrier with contracts (GET /carriers `data` item). */
export const Carrier = z.object({
  carrierCode: z.string(),
  carrierName: z.string(),
  canManageStocks: z.boolean(),
  canRequestPickup: z.boolean(),
  contracts: z.array(Contract),
  services: z.array(CarrierService),
});
export type Carrier = z.infer<typeof Carrier>;
/** GET /carriers 200: `{data: Carrier[]}`, only the client's own contracts (spec: Endpoints > Carriers). */
export const CarriersResponse = z.object({ data: z.array(Carrier) });

/** COD option: Money plus `method` (a key of cashOnDeliveryMethods) or `type` (carrier code). */
const CodOption = Money.extend({ method: z.string().optional(), type: z.string().optional() });
type CodOption = z.infer<typeof CodOption>;

/**
 * POST /rates body (spec: Endpoints > Rates). The recipient address follows
 * the CAP rule of Address ({@link withItalianCap}): an IT/SM/VA postal code of
 * 1-4 digits is completed (`7100` -> `07100`), anything else not 5 digits is a
 * 422 at `recipient.address.postalCode`, so the zone is never guessed.
 */
export const RatesRequest = z.object({
  recipient: z.object({
    address: withItalianCap(
      z.object({
        postalCode: z.string({ error: 'Postal code is required' }).trim().min(1, { error: 'Postal code is required' }).max(15, { error: 'Postal code must be at most 15 characters' }),
        countryCode: CountryCode,
        city: z.string().max(80, { error: 'City must be at most 80 characters' }).optional(),
        province: z.string().max(10, { error: 'Province must be at most 10 characters' }).optional(),
      }),
    ),
  }),
  packages: z.array(Package, { error: 'At least one package is required' }).min(1, { error: 'At least one package is required' }).max(50, { error: 'At most 50 packages per shipment' }),
  shipper: z.object({ address: Address }).optional(),
  warehouseId: z.number().int().optional(),
  options: z
    .object({
      pickupFromAddress: z.boolean().optional(),
      cod: CodOption.optional(),
      insurance: Money.optional(),
    })
    .optional(),
});
export type RatesRequest = z.input<typeof RatesRequest>;

/** Price breakdown of a rate, EUR (spec: Rate `price.breakdown`). */
export const PriceBreakdown = z.object({
  weight: z.number(),
  fuel: z.number(),
  insurance: z.number(),
  cod: z.number(),
  services: z.number(),
  extra: z.number(),
  pickup: z.number(),
});
export type PriceBreakdown = z.infer<typeof PriceBreakdown>;

/** Rate: one per available contract (POST /rates `data` item). */
export const Rate = z.object({
  carrierCode: z.string(),
  carrierName: z.string(),
  contractCode: z.string(),
  contractName: z.string(),
  level: z.number().int(),
  slave: z.boolean(),
  price: z.object({ total: z.number(), currency: z.string(), breakdown: PriceBreakdown }),
  billableWeight: Weight,
  volumetricWeight: Weight,
  zone: z.string().nullable(),
  cashOnDeliveryMethods: CodMethods,
  services: z.array(z.object({ serviceId: z.number().int(), serviceName: z.string() })),
  logoUrl: z.string().nullable(),
});
export type Rate = z.infer<typeof Rate>;
/** POST /rates 200: `{data: Rate[]}`; empty when no contract serves the destination and parcels (spec: Endpoints > Rates). */
export const RatesResponse = z.object({ data: z.array(Rate) });

/** Customs party identifiers (spec: CustomsDetail exporter/importer). */
const CustomsParty = z.object({
  eori: z.string().nullable().optional(),
  vatNumber: z.string().nullable().optional(),
  taxId: z.string().nullable().optional(),
});

/** Commodity line of a customs declaration (spec: Customs > Commodity). */
export const Commodity = z.object({
  description: z.string({ error: 'Description is required' }).min(1, { error: 'Description is required' }).max(255),
  quantity: z.number({ error: 'Quantity is required' }).int({ error: 'Quantity must be a whole number' }).min(1, { error: 'Quantity must be at least 1' }),
  unitValue: Money,
  weight: Weight,
  countryOfManufacture: countryCodeNamed('Country of manufacture'),
  harmonizedCode: z.string().regex(/^\d{6,10}$/, { error: 'HS code must be 6 to 10 digits' }).nullable().optional(),
  quantityUnits: z.enum(['PCS', 'PR', 'DOZ', 'KG', 'L', 'M', 'M2', 'M3', 'SET']).default('PCS'),
  totalValue: Money.optional(),
  midCode: z.string().nullable().optional(),
  sku: z.string().nullable().optional(),
});

/** Customs declaration, required outside the EU customs territory (spec: Customs > CustomsDetail). */
const CustomsDetail = z.object({
  customsValue: Money,
  commodities: z.array(Commodity).min(1, { error: 'At least one commodity is required' }),
  incoterm: z.enum(['EXW', 'FCA', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP', 'FOB', 'CFR', 'CIF']).default('DAP'),
  dutiesPayment: z.enum(['SENDER', 'RECIPIENT', 'THIRD_PARTY']).default('RECIPIENT'),
  contentType: z.enum(['MERCHANDISE', 'GIFT', 'SAMPLE', 'DOCUMENTS', 'RETURN', 'REPAIR', 'PERSONAL_EFFECTS']).default('MERCHANDISE'),
  exportReason: z.enum(['SALE', 'GIFT', 'SAMPLE', 'RETURN', 'REPAIR', 'PERSONAL']).default('SALE'),
  invoiceNumber: z.string().nullable().optional(),
  invoiceDate: IsoDate.nullable().optional(),
  exporter: CustomsParty.optional(),
  importer: CustomsParty.optional(),
});
type CustomsDetail = z.input<typeof CustomsDetail>;

/** ShipmentOptions (spec: Shipment request fields > ShipmentOptions). */
const ShipmentOptions = z.object({
  notes: z.string().max(255, { error: 'Notes must be at most 255 characters' }).optional(),
  contentDescription: z.string().max(255, { error: 'Content description must be at most 255 characters' }).optional(),
  labelFormat: z.enum(['PDF', 'ZPL']).optional(),
  pickupFromAddress: z.boolean().optional(),
  accessoryServices: z.array(z.number().int()).optional(),
  cod: CodOption.optional(),
  insurance: Money.optional(),
  /** Carrier delivery point to deliver to: `{id, carrier?}` from GET /delivery-points (lookups.ts). */
  deliveryPoint: DeliveryPointSelection.optional(),
});

/** POST /shipments body (spec: Shipment request fields). */
export const ShipmentRequest = z.object({
  recipient: Party,
  packages: z.array(Package, { error: 'At least one package is required' }).min(1, { error: 'At least one package is required' }).max(50, { error: 'At most 50 packages per shipment' }),
  reference: z.string().max(100, { error: 'Reference must be at most 100 characters' }).optional(),
  carrierCode: z.string().optional(),
  serviceType: z.string().optional(),
  shipper: Party.optional(),
  warehouseId: z.number().int().optional(),
  options: ShipmentOptions.optional(),
  customsDetail: CustomsDetail.optional(),
});
export type ShipmentRequest = z.input<typeof ShipmentRequest>;

/** Label (spec: Label): base64 PDF and/or ZPL. */
export const Label = z.object({
  format: z.enum(['PDF', 'ZPL']),
  pdf: z.string().nullable(),
  zpl: z.string().nullable(),
});
export type Label = z.infer<typeof Label>;

/**
 * Detail party as the sandbox returns it. The spec leaves the exact field names
 * of sender/recipient "not shown"; the sandbox uses the request's Party shape.
 */
export const ShipmentParty = Party.partial({ name: true }).extend({ address: AddressFields.partial() });

/**
 * Options of a shipment as the detail echoes them (sandbox extension): the
 * request's ShipmentOptions, completed (absent ones null or empty), with the
 * delivery point resolved to `{carrier, id, name, type, address}` (null for
 * home delivery).
 */
const ShipmentOptionsEcho = z.object({
  notes: z.string().nullable(),
  contentDescription: z.string().nullable(),
  accessoryServices: z.array(z.number().int()),
  pickupFromAddress: z.boolean(),
  labelFormat: z.enum(['PDF', 'ZPL']),
  deliveryPoint: z
    .object({ carrier: z.string(), id: z.string(), name: z.string(), type: z.enum(['shop', 'locker']), address: AddressFields.partial() })
    .nullable()
    .optional(),
});

/**
 * Shipment (spec: Resources > Shipment), detail fields optional. `reference`
 * and `warehouseId` are left out when the shipment has none (the spec types
 * them string and integer, never null). Fields marked with
 * {@link extension} are the sandbox's additions.
 */
export const Shipment = z.object({
  id: z.number().int(),
  trackingNumber: z.string(),
  reference: z.string().optional(),
  status: Status,
  carrier: z.object({ code: z.string(), name: z.string(), contractCode: z.string(), contractName: z.string() }),
  warehouseId: z.number().int().optional(),
  parcels: z.number().int(),
  packages: z.array(
    z.object({
      number: z.number().int(),
      trackingNumber: z.string(),
      weight: Weight.optional(),
      dimensions: Dimensions.optional(),
      description: z.string().nullable().optional(),
      value: z.number().nullable().optional(),
    }),
  ),
  cost: z.object({ total: z.number(), currency: z.string(), breakdown: PriceBreakdown.partial().optional() }),
  createdAt: IsoDateTime,
  returnTrackingNumber: z.string().nullable().optional(),
  warning: z.string().optional(),
  cancelled: extension(z.boolean(), 'true once the shipment was cancelled (DELETE /shipments/{ldv}); it then never moves').optional(),
  sender: ShipmentParty.optional(),
  recipient: ShipmentParty.optional(),
  cod: z.object({ amount: z.number(), currency: z.string(), method: z.string().nullable().optional(), type: z.string().nullable().optional(), status: z.number().int() }).nullable().optional(),
  insurance: Money.nullable().optional(),
  options: extension(ShipmentOptionsEcho, 'The shipment options as registered (detail only)').optional(),
  customsDetail: extension(CustomsDetail.nullable(), 'The completed customs declaration (defaults filled, absent fields null); null when none was sent').optional(),
  zone: extension(z.string().nullable(), 'Price-list zone the destination matched').optional(),
  billableWeight: extension(Weight, 'Billed weight: the greater of real and volumetric, rounded up to 0.01 kg').optional(),
  volumetricWeight: extension(Weight, "Volumetric weight by the carrier's rule, rounded up to 0.01 kg").optional(),
  manifestId: extension(z.number().int().nullable(), 'Manifest the shipment is in, null before the day is closed').optional(),
  bda: extension(z.string(), "The carrier's delivery document number (key of GET /tracking/bda/{bda})").optional(),
  dates: z
    .object({
      shippedAt: IsoDateTime.nullable().optional(),
      pickedUpAt: IsoDateTime.nullable().optional(),
      deliveredAt: IsoDateTime.nullable().optional(),
    })
    .optional(),
  cancelledAt: extension(IsoDateTime.nullable(), 'When the shipment was cancelled, null when it was not').optional(),
});
export type Shipment = z.infer<typeof Shipment>;

/** POST /shipments 201: Shipment plus `label`. */
export const CreatedShipment = Shipment.extend({ label: Label });
export type CreatedShipment = z.infer<typeof CreatedShipment>;

/** DELETE /shipments/{ldv} 200. */
export const CancelShipmentResponse = z.object({ trackingNumber: z.string(), cancelled: z.boolean(), refunded: z.number() });
export type CancelShipmentResponse = z.infer<typeof CancelShipmentResponse>;

/** GET /shipments/{ldv}/label 200: Label fields plus `trackingNumber`. */
export const ShipmentLabelResponse = z.object({
  trackingNumber: z.string(),
  format: z.enum(['PDF', 'ZPL']),
  pdf: z.string().nullable(),
  zpl: z.string().nullable(),
});
export type ShipmentLabelResponse = z.infer<typeof ShipmentLabelResponse>;

/** GET /shipments query (spec: Endpoints > Shipments). Values arrive as strings. */
export const ShipmentListQuery = z.object({
  from: IsoDate.optional(),
  to: IsoDate.optional(),
  status: z.string().optional(),
  carrierCode: z.string().optional(),
  serviceType: z.string().optional(),
  trackingNumber: z.string().optional(),
  reference: z.string().optional(),
  recipientName: z.string().optional(),
  city: z.string().optional(),
  postalCode: z.string().optional(),
  countryCode: z.string().length(2, { error: 'countryCode must be exactly 2 characters' }).optional(),
  hasCod: z.enum(['true', 'false', '1', '0']).optional(),
  hasInsurance: z.enum(['true', 'false', '1', '0']).optional(),
  // Like `page` (common.ts PageQuery): one message naming the field, never zod's "received NaN".
  storeId: z.coerce.number({ error: 'storeId must be an integer' }).int({ error: 'storeId must be an integer' }).optional(),
});
export type ShipmentListQuery = z.input<typeof ShipmentListQuery>;

/**
 * POST /manifests body: `shipmentIds` or `trackingNumbers`, or both (spec:
 * Manifests); at least one id or number in all. The OpenAPI document says so
 * with `anyOf` (openapi.ts), since a refinement has no JSON Schema form.
 */
export const ManifestRequest = z
  .object({
    shipmentIds: z.array(z.number().int()).optional(),
    trackingNumbers: z.array(z.string()).optional(),
  })
  .refine((b) => (b.shipmentIds?.length ?? 0) + (b.trackingNumbers?.length ?? 0) > 0, {
    error: 'Give shipmentIds or trackingNumbers',
    path: ['shipmentIds'],
  });
export type ManifestRequest = z.input<typeof ManifestRequest>;

/** Manifest (spec: Resources > Manifest). `pdf` is base64, present on creation and on detail with `pdf=true`. */
export const Manifest = z.object({
  id: z.number().int(),
  carrier: z.object({ code: z.string(), name: z.string() }),
  contractCode: extension(z.string(), 'Contract (serviceType) of the manifest: one manifest per contract').optional(),
  contractName: extension(z.string(), 'Name of that contract').optional(),
  totalShipments: z.number().int(),
  totalCost: z.number(),
  createdAt: IsoDateTime,
  pdf: z.string().optional(),
  trackingNumbers: extension(z.array(z.string()), 'Tracking numbers of the shipments in the manifest').optional(),
});
export type Manifest = z.infer<typeof Manifest>;
/** POST /manifests 201: `{data: Manifest[]}`, one per contract, each with its base64 `pdf` (spec: Endpoints > Manifests). */
export const ManifestsCreated = z.object({ data: z.array(Manifest) });

/** POST /pickups body (spec: Endpoints > Pickups). */
export const PickupRequest = z
  .object({
    serviceType: z.string({ error: 'Contract is required' }).min(1, { error: 'Contract is required' }),
    pickupDate: IsoDate,
    packages: z.array(Package).min(1, { error: 'At least one package is required' }),
    pickupTime: z.enum(['AM', 'PM', 'AMPM']).default('AMPM'),
    warehouseId: z.number().int().optional(),
    shipper: Party.optional(),
    shipmentId: z.string().optional(),
    instructions: z.string().max(255).optional(),
  });
export type PickupRequest = z.input<typeof PickupRequest>;

/**
 * Pickup record. The spec shows only `pickupId` and `cost`; the sandbox adds
 * `id` (integer, used in paths) and echoes the booking (fields marked
 * {@link extension}).
 */
export const Pickup = z.object({
  id: z.number().int(),
  pickupId: z.string(),
  cost: z.object({ total: z.number(), currency: z.string() }),
  carrierCode: extension(z.string(), 'Carrier of the contract booked with').optional(),
  carrierName: extension(z.string(), 'Its name').optional(),
  serviceType: extension(z.string(), 'Contract code booked with').optional(),
  pickupDate: extension(IsoDate, 'Collection date').optional(),
  pickupTime: extension(z.enum(['AM', 'PM', 'AMPM']), 'Time window').optional(),
  warehouseId: extension(z.number().int().nullable(), 'Pickup point collected from; null when a shipper address was given').optional(),
  address: extension(ShipmentParty, 'Where the carrier collects: the pickup point or the shipper').optional(),
  packages: extension(z.number().int(), 'Number of packages to collect').optional(),
  weight: extension(Weight, 'Their total weight, rounded up to 0.01 kg').optional(),
  shipmentId: extension(z.string().nullable(), 'Reference shipment number given at booking').optional(),
  instructions: extension(z.string().nullable(), 'Notes for the carrier').optional(),
  status: extension(z.string(), 'Booking state (`booked`)').optional(),
  createdAt: extension(IsoDateTime, 'When it was booked').optional(),
});
export type Pickup = z.infer<typeof Pickup>;

/** Credit balance (spec: Financial records). */
export const CreditBalance = z.object({
  balance: z.number(),
  currency: z.string(),
  prepaid: z.boolean(),
  updatedAt: IsoDateTime,
});
export type CreditBalance = z.infer<typeof CreditBalance>;

/** Warehouse of the account (sandbox extension: GET /warehouses is "not shown"; used to pick a warehouse). */
export const Warehouse = z.object({
  id: z.number().int(),
  name: z.string(),
  // An answer: the point's address is taken as the platform gives it (no CAP completion).
  address: AddressFields,
  isDefault: z.boolean(),
  freePickup: z.boolean(),
  senderName: z.string().optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
});
export type Warehouse = z.infer<typeof Warehouse>;

/** Token response of POST {auth_url}/oauth/token (fields "not shown" by the spec; RFC 6749 §5.1 names). */
export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.number(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;
