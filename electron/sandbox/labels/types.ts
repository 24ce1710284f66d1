/**
 * Input shapes of the sandbox's carrier labels and manifest (closing list)
 * PDFs, and their validation. The sandbox fills these from a created shipment
 * (spec: Resources > Shipment, Label; Manifest) and returns the rendered bytes
 * base64-encoded in `label.zpl` / `label.pdf` / manifest `pdf`.
 */

/** A postal address as printed on a label. `countryCode` is ISO 3166-1 alpha-2 (`IT`). */
export interface LabelAddress {
  name: string;
  company?: string;
  street: string;
  street2?: string;
  city: string;
  /** Italian province code (`MI`, `RM`) or region; printed after the city. */
  province?: string;
  postalCode: string;
  countryCode: string;
  phone?: string;
}

/**
 * One parcel's label. A shipment of N parcels (spec: `packages[]`, each with its
 * own `trackingNumber`) yields N labels with `parcelNumber` 1..N.
 */
export interface LabelData {
  /** This parcel's tracking number (12 characters on the platform); encoded as Code 128. Letters, digits and `-` only. */
  trackingNumber: string;
  /** The shipment's tracking number (LDV); equals `trackingNumber` for a one-parcel shipment. */
  shipmentTrackingNumber: string;
  /** Carrier code (spec `carrierCode`, e.g. `BRT`). */
  carrierCode: string;
  /** Carrier display name (e.g. `BRT Corriere Espresso`). */
  carrierName: string;
  /** Service: the contract name (spec `contractName`). */
  serviceName: string;
  sender: LabelAddress;
  recipient: LabelAddress;
  /** 1-based parcel number within the shipment. */
  parcelNumber: number;
  /** Parcels in the shipment (>= 1). */
  parcelCount: number;
  /** This parcel's weight in kg. */
  weightKg: number;
  /** Client reference (spec `reference`, often the order number). */
  reference?: string;
  /** Cash on delivery to collect (spec `options.cod.amount`), printed in a black box when present. */
  cod?: { amount: number; currency: string };
  /** Free delivery notes (spec `options.notes`). */
  notes?: string;
  /** Creation time, ISO 8601; printed as the label date in Europe/Rome time. */
  createdAt: string;
}

/**
 * Data of a manifest PDF (spec: Manifest; the Italian "distinta di affidamento"):
 * one contract's shipments handed to the driver. Money in `currency` (EUR),
 * weights in kg.
 */
export interface ManifestPdfData {
  manifestId: number;
  carrierName: string;
  contractName: string;
  /** Contract code (spec `serviceType` / `contractCode`). */
  contractCode: string;
  /** ISO 8601 creation time. */
  createdAt: string;
  sender: LabelAddress;
  shipments: Array<{
    trackingNumber: string;
    reference?: string;
    recipientName: string;
    city: string;
    countryCode: string;
    parcels: number;
    weightKg: number;
    codAmount?: number;
    cost: number;
  }>;
  totalCost: number;
  currency: string;
}

/**
 * Bad label or manifest input. `field` is the path of the offending field,
 * e.g. `labels.1.recipient.postalCode`, `shipments.0.weightKg`.
 */
export class LabelDataError extends Error {
  readonly code = 'invalid_label_data';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'LabelDataError';
  }
}

const TRACKING_RE = /^[A-Za-z0-9-]{1,40}$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function requireText(obj: Record<string, unknown>, key: string, path: string): void {
  const v = obj[key];
  if (typeof v !== 'string' || v.trim() === '') throw new LabelDataError(`${path}.${key}`, 'is required (non-empty string)');
}

function optionalText(obj: Record<string, unknown>, key: string, path: string): void {
  const v = obj[key];
  if (v !== undefined && v !== null && typeof v !== 'string') throw new LabelDataError(`${path}.${key}`, 'must be a string when present');
}

function requireNumber(v: unknown, path: string, min: number, integer = false): void {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new LabelDataError(path, 'must be a finite number');
  if (integer && !Number.isInteger(v)) throw new LabelDataError(path, 'must be an integer');
  if (v < min) throw new LabelDataError(path, `must be >= ${min}`);
}

function requireIsoDate(v: unknown, path: string): void {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw new LabelDataError(path, 'must be an ISO 8601 date-time');
}

/** Throws {@link LabelDataError} naming the first bad field of an address. */
function validateAddress(a: unknown, path: string): void {
  if (!isObject(a)) throw new LabelDataError(path, 'is required (address object)');
  for (const k of ['name', 'street', 'city', 'postalCode', 'countryCode']) requireText(a, k, path);
  for (const k of ['company', 'street2', 'province', 'phone']) optionalText(a, k, path);
  if (!/^[A-Za-z]{2}$/.test(String(a.countryCode).trim())) throw new LabelDataError(`${path}.countryCode`, 'must be an ISO 3166-1 alpha-2 code (e.g. IT)');
}

/**
 * Checks a batch of labels; throws {@link LabelDataError} with the path of the
 * first bad field (`labels.<i>.<field>`). Empty batches are refused.
 */
export function validateLabels(labels: unknown): asserts labels is LabelData[] {
  if (!Array.isArray(labels) || labels.length === 0) throw new LabelDataError('labels', 'must be a non-empty array of labels');
  labels.forEach((l: unknown, i) => {
    const p = `labels.${i}`;
    if (!isObject(l)) throw new LabelDataError(p, 'must be a label object');
    if (typeof l.trackingNumber !== 'string' || !TRACKING_RE.test(l.trackingNumber)) {
      throw new LabelDataError(`${p}.trackingNumber`, 'must be 1-40 letters, digits or "-" (it is encoded as Code 128)');
    }
    for (const k of ['shipmentTrackingNumber', 'carrierCode', 'carrierName', 'serviceName']) requireText(l, k, p);
    optionalText(l, 'reference', p);
    optionalText(l, 'notes', p);
    validateAddress(l.sender, `${p}.sender`);
    validateAddress(l.recipient, `${p}.recipient`);
    requireNumber(l.parcelCount, `${p}.parcelCount`, 1, true);
    requireNumber(l.parcelNumber, `${p}.parcelNumber`, 1, true);
    if ((l.parcelNumber as number) > (l.parcelCount as number)) throw new LabelDataError(`${p}.parcelNumber`, `must be <= parcelCount (${String(l.parcelCount)})`);
    requireNumber(l.weightKg, `${p}.weightKg`, 0);
    if (l.cod !== undefined && l.cod !== null) {
      if (!isObject(l.cod)) throw new LabelDataError(`${p}.cod`, 'must be {amount, currency}');
      requireNumber(l.cod.amount, `${p}.cod.amount`, 0);
      if (typeof l.cod.currency !== 'string' || !/^[A-Za-z]{3}$/.test(l.cod.currency)) throw new LabelDataError(`${p}.cod.currency`, 'must be an ISO 4217 code (e.g. EUR)');
    }
    requireIsoDate(l.createdAt, `${p}.createdAt`);
  });
}

/** Checks manifest PDF data; throws {@link LabelDataError} naming the first bad field. */
export function validateManifest(d: unknown): asserts d is ManifestPdfData {
  if (!isObject(d)) throw new LabelDataError('manifest', 'must be a manifest object');
  requireNumber(d.manifestId, 'manifestId', 0, true);
  for (const k of ['carrierName', 'contractName', 'contractCode']) requireText(d, k, 'manifest');
  requireIsoDate(d.createdAt, 'createdAt');
  validateAddress(d.sender, 'sender');
  if (!Array.isArray(d.shipments)) throw new LabelDataError('shipments', 'must be an array');
  d.shipments.forEach((s: unknown, i) => {
    const p = `shipments.${i}`;
    if (!isObject(s)) throw new LabelDataError(p, 'must be a shipment row');
    for (const k of ['trackingNumber', 'recipientName', 'city', 'countryCode']) requireText(s, k, p);
    optionalText(s, 'reference', p);
    requireNumber(s.parcels, `${p}.parcels`, 1, true);
    requireNumber(s.weightKg, `${p}.weightKg`, 0);
    requireNumber(s.cost, `${p}.cost`, 0);
    if (s.codAmount !== undefined && s.codAmount !== null) requireNumber(s.codAmount, `${p}.codAmount`, 0);
  });
  requireNumber(d.totalCost, 'totalCost', 0);
  if (typeof d.currency !== 'string' || !/^[A-Za-z]{3}$/.test(d.currency)) throw new LabelDataError('currency', 'must be an ISO 4217 code (e.g. EUR)');
}
