/**
 * Shipment records of the sandbox, apart from the HTTP routes so that both
 * `POST /shipments` (routes/shipments.ts) and the seeded history (history.ts)
 * build them the same way: a new {@link ShipmentRecord} from a priced
 * contract, its label (PDF and ZPL, one label per package) and the automatic
 * carrier return (spec: Resources > Shipment `returnTrackingNumber`,
 * `warning`; Label): on a contract with `automaticReturn` the shipment gets a
 * return LDV at creation and the label PDF a last page with the return label;
 * when the return cannot be created (forced with {@link RETURN_FAILED_TOKEN})
 * the shipment is created all the same and carries `warning`.
 */
import type { Party } from '../../shared/platform/common';
import type { LabelAddress, LabelData } from './labels';
import { renderLabelsZpl } from './labels/zpl';
import { isPdfOnlyCarrier } from './labels/formats';
import type { Account, CarrierDef, ContractDef, ShipmentRecord, WarehouseDef } from './model';
import { ceilKg, type NormalizedPackage, type PricedContract } from './pricing';
import { localIso } from './time';

/** Status code of a newly created shipment: 2 `shipped`, as the spec's example creation shows. */
const NEW_SHIPMENT_STATUS = 2;

/** Label address from a Party. */
export function labelAddress(p: Party): LabelAddress {
  return {
    name: p.name,
    ...(p.company ? { company: p.company } : {}),
    street: p.address.street,
    ...(p.address.street2 ? { street2: p.address.street2 } : {}),
    city: p.address.city,
    ...(p.address.province ? { province: p.address.province } : {}),
    postalCode: p.address.postalCode,
    countryCode: p.address.countryCode,
    ...(p.phone ? { phone: p.phone } : {}),
  };
}

/**
 * Token in `options.notes` that makes the carrier refuse a shipment's
 * automatic return (training aid, like the lifecycle's `sandbox:<scenario>`
 * tokens): the shipment is still created, without `returnTrackingNumber`, and
 * the creation answer carries `warning`.
 */
const RETURN_FAILED_TOKEN = 'sandbox:return-failed';

/** Whether `notes` hold {@link RETURN_FAILED_TOKEN} (any case). */
function returnFailureForced(notes: string | null | undefined): boolean {
  return (notes ?? '').toLowerCase().includes(RETURN_FAILED_TOKEN);
}

/**
 * The return label of a shipment with an automatic return: one label for the
 * return LDV (`returnTrackingNumber`, printed as Code 128), sender and
 * recipient swapped (the parcel goes back from the recipient to the shipment's
 * sender), the total weight in kg, marked RESO / RETURN in the service line and
 * the notes; no COD. Undefined when the shipment has no automatic return LDV.
 */
function returnLabelData(s: ShipmentRecord, createdAt: string = localIso(s.createdAt)): LabelData | undefined {
  if (!s.automaticReturn || s.returnTrackingNumber === null) return undefined;
  return {
    trackingNumber: s.returnTrackingNumber,
    shipmentTrackingNumber: s.returnTrackingNumber,
    carrierCode: s.carrierCode,
    carrierName: s.carrierName,
    serviceName: `RESO / RETURN - ${s.contractName}`,
    sender: labelAddress(s.recipient),
    recipient: labelAddress(s.sender),
    parcelNumber: 1,
    parcelCount: 1,
    weightKg: ceilKg(s.packages.reduce((sum, p) => sum + p.weightKg, 0)),
    ...(s.reference ? { reference: s.reference } : {}),
    notes: `RESO / RETURN della spedizione ${s.trackingNumber}`,
    createdAt,
  };
}

/**
 * Renders a shipment's labels as POST /shipments answers them: one label per
 * package (ZPL ^XA..^XZ and one PDF page each), dated at the shipment's
 * creation (Europe/Rome), both base64. With an automatic return the PDF gets
 * one more page after the parcels, the return label ({@link returnLabelData};
 * spec: Label, "the return label is the second page of the same PDF"); the
 * ZPL keeps the outbound labels only (the bench printer prints what goes on
 * the parcels; the spec places the return label in the PDF).
 * @throws whatever the label renderers throw (e.g. a field a label cannot carry).
 */
export async function renderShipmentLabel(s: ShipmentRecord): Promise<ShipmentRecord['label']> {
  const createdAt = localIso(s.createdAt);
  const labels: LabelData[] = s.packages.map((p) => ({
    trackingNumber: p.trackingNumber,
    shipmentTrackingNumber: s.trackingNumber,
    carrierCode: s.carrierCode,
    carrierName: s.carrierName,
    serviceName: s.contractName,
    sender: labelAddress(s.sender),
    recipient: labelAddress(s.recipient),
    parcelNumber: p.number,
    parcelCount: s.packages.length,
    weightKg: p.weightKg,
    ...(s.reference ? { reference: s.reference } : {}),
    ...(s.cod ? { cod: { amount: s.cod.amount, currency: s.cod.currency } } : {}),
    ...(s.notes ? { notes: s.notes } : {}),
    createdAt,
  }));
  // PDF-only carriers (DHL here, labels/formats.ts) give no ZPL at all, as on the platform.
  const zpl = isPdfOnlyCarrier(s.carrierCode) ? null : renderLabelsZpl(labels);
  const ret = returnLabelData(s, createdAt);
  // The PDF renderer (pdf-lib, bwip-js) is loaded on first use, not at start (issue 15, cold start).
  const { renderLabelsPdf } = await import('./labels/pdf');
  const pdf = await renderLabelsPdf(ret ? [...labels, ret] : labels);
  return { pdf: Buffer.from(pdf).toString('base64'), zpl: zpl === null ? null : Buffer.from(zpl, 'utf8').toString('base64') };
}

/** Sender Party of a pickup point: the sender name at the point's address; the point's name is the sender reference. */
export function warehouseParty(w: WarehouseDef): Party {
  return { name: w.senderName, address: { ...w.address }, phone: w.phone, email: w.email, reference: w.name };
}

/** The sandbox's number sequences a new shipment draws from (`SandboxState` implements it). */
export interface ShipmentNumbering {
  /** A new, unused tracking number (LDV) with the carrier's 2-letter prefix. */
  newTrackingNumber(prefix: string): string;
  /** The next shipment id. */
  nextShipmentId(): number;
}

/** What a new shipment takes from its request (or history recipe) rather than from its contract and price. */
export type ShipmentSpecifics = Pick<
  ShipmentRecord,
  'reference' | 'sender' | 'recipient' | 'cod' | 'insurance' | 'accessoryServices' | 'notes' | 'contentDescription' | 'pickupFromAddress' | 'customsDetail' | 'deliveryPoint' | 'labelFormat'
>;

/**
 * A new shipment record, status {@link NEW_SHIPMENT_STATUS}, created and
 * shipped at `at`, labels still empty; not stored. Takes a fresh tracking
 * number (LDV) for the shipment, which is also its first parcel's, then the
 * next shipment id, then one LDV for each further parcel, then, on a
 * contract with `automaticReturn`, the return LDV (`returnTrackingNumber`;
 * left null when `notes` hold {@link RETURN_FAILED_TOKEN}). Used by
 * `POST /shipments` and by the seeded history (history.ts).
 * @param packages parcels in kg and cm, in request order (numbered from 1).
 * @param priced the contract's price for these parcels (EUR, zone, billable and volumetric kg).
 * @param specifics the request's own fields; `deliveryPoint` is set on the record only when present.
 */
export function newShipmentRecord(
  state: ShipmentNumbering,
  account: Account,
  chosen: { carrier: CarrierDef; contract: ContractDef; priced: PricedContract },
  warehouse: WarehouseDef,
  packages: NormalizedPackage[],
  at: Date,
  specifics: ShipmentSpecifics,
): ShipmentRecord {
  const { carrier, contract, priced } = chosen;
  const trackingNumber = state.newTrackingNumber(carrier.trackingPrefix);
  const record: ShipmentRecord = {
    id: state.nextShipmentId(),
    accountId: account.accountId,
    trackingNumber,
    reference: specifics.reference,
    statusCode: NEW_SHIPMENT_STATUS,
    carrierCode: carrier.carrierCode,
    carrierName: carrier.carrierName,
    contractCode: contract.contractCode,
    contractName: contract.contractName,
    warehouseId: warehouse.id,
    sender: specifics.sender,
    recipient: specifics.recipient,
    // The first parcel carries the shipment's number; the others get their own.
    packages: packages.map((p, i) => ({
      number: i + 1,
      trackingNumber: i === 0 ? trackingNumber : state.newTrackingNumber(carrier.trackingPrefix),
      weightKg: p.weightKg,
      lengthCm: p.lengthCm,
      widthCm: p.widthCm,
      heightCm: p.heightCm,
      description: p.description,
      value: p.value,
    })),
    cost: { total: priced.total, currency: 'EUR', breakdown: { ...priced.breakdown } },
    zone: priced.zone,
    billableWeightKg: priced.billableKg,
    volumetricWeightKg: priced.volumetricKg,
    cod: specifics.cod,
    insurance: specifics.insurance,
    accessoryServices: specifics.accessoryServices,
    notes: specifics.notes,
    contentDescription: specifics.contentDescription,
    pickupFromAddress: specifics.pickupFromAddress,
    customsDetail: specifics.customsDetail,
    ...('deliveryPoint' in specifics ? { deliveryPoint: specifics.deliveryPoint } : {}),
    labelFormat: specifics.labelFormat,
    label: { pdf: '', zpl: '' },
    createdAt: at,
    shippedAt: at,
    pickedUpAt: null,
    deliveredAt: null,
    manifestId: null,
    cancelledAt: null,
    refunded: 0,
    returnTrackingNumber: null,
  };
  if (contract.automaticReturn) {
    record.automaticReturn = true;
    // Reserved like every LDV, so no later shipment or parcel can take it.
    if (!returnFailureForced(specifics.notes)) record.returnTrackingNumber = state.newTrackingNumber(carrier.trackingPrefix);
  }
  return record;
}

/** Strips undefined members so records and responses hold only what was given. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A Party without undefined members (nor in its address). */
export function compactParty(p: Party): Party {
  return compact({ ...p, address: compact({ ...p.address }) });
}
