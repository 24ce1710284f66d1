/**
 * What every command of the contract is built from (./index.ts): the
 * declaration helper, the input bounds checked before any schema, and the
 * inputs several domains share (tracking numbers, ids, the platform's
 * requests with the station's parcel and money bounds).
 */
import { z } from 'zod';
import { PickupRequest, RatesRequest, ShipmentRequest } from '../../platform';
import { ManualOrderInput, type StationOrder } from '../../domain/order';
import type { PrintJobView, ShipmentView, StationText } from '../views';
import type { PackerView } from '../packers';

/** One command of the contract: its input schema, phantom output type and input bounds. */
export interface CommandDef<I extends z.ZodType = z.ZodType, O = unknown> {
  input: I;
  output: O;
  /** Dotted paths of strings allowed beyond {@link INPUT_LIMITS.textChars} (up to `csvChars`). */
  longText?: readonly string[];
}

/** Declares one command: `command<Output>()(inputSchema, bounds?)`; the output type is phantom. */
export function command<O>() {
  return <I extends z.ZodType>(input: I, bounds: { longText?: readonly string[] } = {}): CommandDef<I, O> => ({ input, output: undefined as unknown as O, ...bounds });
}

/** Input of a command that takes nothing: `{}` and no other key. */
export const Empty = z.object({}).strict();

/** Bytes of one `orders.importChunk` piece (1 MiB), and the length of its base64. */
export const IMPORT_CHUNK_BYTES = 1024 * 1024;
export const IMPORT_CHUNK_BASE64 = Math.ceil(IMPORT_CHUNK_BYTES / 3) * 4;

/**
 * Bounds of every command input (issue 7 item 10: an unbounded input ended in
 * a 500 instead of a field error). Two layers: {@link inputShapeProblem}
 * checks any raw input before its schema (depth, array sizes, string
 * lengths, well-formed UTF-16), and the schemas below add the per-field
 * limits and the station's own parcel and money ranges. Lengths are UTF-16
 * code units (JavaScript string length).
 */
export const INPUT_LIMITS = {
  /** Longest string anywhere in an input, unless a command allows more ({@link CommandDef.longText}). */
  textChars: 1000,
  /** Longest CSV text `orders.importCsv` accepts (32 MiB, the headless host's body limit). */
  csvChars: 32 * 1024 * 1024,
  /** Most items of any array in an input (spec: items per order 200; packages 50). */
  arrayItems: 200,
  /** Most keys of any object in an input. */
  objectKeys: 100,
  /** Deepest nesting of objects and arrays. */
  depth: 12,
  /** Tracking number (LDV): letters, digits, `-`, `_`. */
  trackingNumber: 64,
  /** A scanned or typed code (order or tracking number; GS1-128 barcodes carry at most 48 characters). */
  scanCode: 200,
  /** CSV file name. */
  fileName: 255,
  /** Printer device URI. */
  printerUri: 1024,
  /** Contract code (`serviceType`), carrier code, COD method/type, ids the platform gave. */
  codeChars: 200,
  /** Heaviest parcel, kg (the heaviest contract of the platform takes 70 kg; more is a typing mistake). */
  parcelKg: 1000,
  /** Longest side of a parcel, cm. */
  parcelSideCm: 500,
  /** Shortest side of a parcel, cm (1 mm: an envelope; less is a typing slip or a denormal number). */
  parcelMinSideCm: 0.1,
  /** Lightest parcel, kg (1 g). */
  parcelMinKg: 0.001,
  /**
   * Smallest face a parcel must have, cm (longest × second side): the common
   * minimum parcel size of European carriers (15 × 11 cm, e.g. DHL Paket, GLS,
   * DPD), the size a 100 × 150 mm thermal label needs to sit on one face.
   * No minimum thickness: document envelopes are thinner than 1 cm.
   */
  parcelMinFaceCm: [15, 11] as const,
  /** Most pieces of one order line. */
  orderQuantity: 100_000,
  /** Largest money amount (COD, insurance, declared and customs values), EUR or the given currency. */
  moneyAmount: 1_000_000,
} as const;

/** A lone UTF-16 surrogate (half of a pair): not encodable as UTF-8 or in a URL (`encodeURIComponent` throws). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `s` holds no lone surrogate and no NUL character. */
function isWellFormedText(s: string): boolean {
  return !LONE_SURROGATE.test(s) && !s.includes('\u0000');
}

/**
 * First problem of a raw command input against {@link INPUT_LIMITS}, checked
 * before its schema so no handler or schema ever sees an unbounded value:
 * `{path, message}` (path dotted like the spec's `details` keys, `''` for
 * the input itself), or undefined. Strings longer than `textChars` are
 * allowed only at the dotted paths of `longText` (up to `csvChars`).
 * Numbers must be finite (IPC can carry NaN and Infinity, JSON cannot); no
 * object may have a key `__proto__` (a record schema would drop it silently).
 */
export function inputShapeProblem(raw: unknown, longText: readonly string[] = []): { path: string; message: string } | undefined {
  const walk = (v: unknown, path: string[], depth: number): { path: string; message: string } | undefined => {
    const at = path.join('.');
    if (typeof v === 'string') {
      const max = longText.includes(at) ? INPUT_LIMITS.csvChars : INPUT_LIMITS.textChars;
      if (v.length > max) return { path: at, message: `Text is too long (max ${max} characters)` };
      if (!isWellFormedText(v)) return { path: at, message: 'Text contains an invalid character (a broken emoji or a NUL byte): type it again' };
      return undefined;
    }
    if (typeof v === 'number') return Number.isFinite(v) ? undefined : { path: at, message: 'Must be a finite number' };
    if (v === null || typeof v !== 'object') return undefined;
    if (depth >= INPUT_LIMITS.depth) return { path: at, message: `Nested too deeply (max ${INPUT_LIMITS.depth} levels)` };
    if (Array.isArray(v)) {
      if (v.length > INPUT_LIMITS.arrayItems) return { path: at, message: `Too many items (max ${INPUT_LIMITS.arrayItems})` };
      for (let i = 0; i < v.length; i++) {
        const p = walk(v[i], [...path, String(i)], depth + 1);
        if (p) return p;
      }
      return undefined;
    }
    const keys = Object.keys(v);
    if (keys.length > INPUT_LIMITS.objectKeys) return { path: at, message: `Too many fields (max ${INPUT_LIMITS.objectKeys})` };
    for (const k of keys) {
      if (k.length > INPUT_LIMITS.codeChars || !isWellFormedText(k)) return { path: at, message: 'Field name is not valid' };
      // A schema would drop it without a word (it is the prototype to a plain object).
      if (k === '__proto__') return { path: [...path, k].join('.'), message: 'A field cannot be named __proto__' };
      const p = walk((v as Record<string, unknown>)[k], [...path, k], depth + 1);
      if (p) return p;
    }
    return undefined;
  };
  return walk(raw, [], 0);
}

/** Pattern of a tracking number (LDV) as the station accepts it: letters, digits, `-` and `_`, 1..64. */
export const TRACKING_NUMBER_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Tracking number input: trimmed, letters, digits, `-`, `_`, at most 64 (never a path segment like `..`). */
const TrackingNumber = z
  .string({ error: 'Tracking number is required' })
  .trim()
  .min(1, { error: 'Tracking number is required' })
  .max(INPUT_LIMITS.trackingNumber, { error: `Tracking number is too long (max ${INPUT_LIMITS.trackingNumber} characters)` })
  .regex(TRACKING_NUMBER_PATTERN, { error: 'Tracking number may contain only letters, digits, - and _' });

/** `{trackingNumber}`: one shipment by its tracking number (LDV). */
export const TrackingNumberInput = z.object({ trackingNumber: TrackingNumber });

/** A positive whole number id (row ids, order ids, manifest ids). */
export const Id = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .int({ error: `${what} must be a whole number` })
    .positive({ error: `${what} must be positive` });

/** `{id}`: one outbox row by its id. */
export const OutboxRowInput = z.object({ id: Id('Row id') });

/** Centimetres of a Dimensions value (`MM` divided by 10). */
function sidesCm(d: { length: number; width: number; height: number; units?: 'CM' | 'MM' | undefined }): number[] {
  const f = d.units === 'MM' ? 0.1 : 1;
  return [d.length * f, d.width * f, d.height * f];
}

type ParcelLike = { weight: { value: number; units?: 'KG' | 'G' | undefined }; dimensions: { length: number; width: number; height: number; units?: 'CM' | 'MM' | undefined }; value?: number | undefined; description?: string | undefined };
type MoneyLike = { amount: number } | undefined;

/**
 * The station's own parcel and money rules, on top of the spec's (which only
 * ask for > 0): each parcel from 1 g to {@link INPUT_LIMITS.parcelKg} kg and
 * from 1 mm to {@link INPUT_LIMITS.parcelSideCm} cm a side, with a face of at least
 * 15 × 11 cm ({@link INPUT_LIMITS.parcelMinFaceCm}); money amounts at most
 * {@link INPUT_LIMITS.moneyAmount}. Issues at `packages.<i>.weight.value`,
 * `packages.<i>.dimensions.<side>` (the face rule at `.length`), `options.cod.amount`, ...
 */
function checkParcels(parcels: readonly ParcelLike[] | undefined, ctx: z.RefinementCtx, base: PropertyKey[] = ['packages']): void {
  (parcels ?? []).forEach((p, i) => {
    const kg = p.weight.units === 'G' ? p.weight.value / 1000 : p.weight.value;
    if (kg > INPUT_LIMITS.parcelKg) ctx.addIssue({ code: 'custom', path: [...base, i, 'weight', 'value'], message: `A parcel weighs at most ${INPUT_LIMITS.parcelKg} kg` });
    if (kg > 0 && kg < INPUT_LIMITS.parcelMinKg) ctx.addIssue({ code: 'custom', path: [...base, i, 'weight', 'value'], message: `A parcel weighs at least ${INPUT_LIMITS.parcelMinKg} kg (1 g)` });
    const sides = sidesCm(p.dimensions);
    (['length', 'width', 'height'] as const).forEach((side, k) => {
      const cm = sides[k] ?? 0;
      if (cm > INPUT_LIMITS.parcelSideCm) ctx.addIssue({ code: 'custom', path: [...base, i, 'dimensions', side], message: `A side is at most ${INPUT_LIMITS.parcelSideCm} cm` });
      if (cm > 0 && cm < INPUT_LIMITS.parcelMinSideCm) ctx.addIssue({ code: 'custom', path: [...base, i, 'dimensions', side], message: `A side is at least ${INPUT_LIMITS.parcelMinSideCm} cm (1 mm)` });
    });
    const [a = 0, b = 0] = [...sides].sort((x, y) => y - x);
    const [minA, minB] = INPUT_LIMITS.parcelMinFaceCm;
    if (a > 0 && b > 0 && (a < minA || b < minB)) {
      // Under the length field, where the form shows the box.
      ctx.addIssue({ code: 'custom', path: [...base, i, 'dimensions', 'length'], message: `Parcel is too small: its largest face must be at least ${minA} × ${minB} cm, room for the label` });
    }
    if (p.value !== undefined && p.value > INPUT_LIMITS.moneyAmount) ctx.addIssue({ code: 'custom', path: [...base, i, 'value'], message: `Value is at most ${INPUT_LIMITS.moneyAmount}` });
  });
}

function checkMoney(m: MoneyLike, path: PropertyKey[], ctx: z.RefinementCtx): void {
  if (m && m.amount > INPUT_LIMITS.moneyAmount) ctx.addIssue({ code: 'custom', path: [...path, 'amount'], message: `Amount is at most ${INPUT_LIMITS.moneyAmount}` });
}


/** The platform's RatesRequest with the station's parcel and money bounds. */
const BoundedRatesRequest = RatesRequest.superRefine((r, ctx) => {
  checkParcels(r.packages, ctx);
  checkMoney(r.options?.cod, ['options', 'cod'], ctx);
  checkMoney(r.options?.insurance, ['options', 'insurance'], ctx);
});

/** The platform's ShipmentRequest with the station's parcel, money and code bounds. */
const BoundedShipmentRequest = ShipmentRequest.superRefine((r, ctx) => {
  checkParcels(r.packages, ctx);
  checkMoney(r.options?.cod, ['options', 'cod'], ctx);
  checkMoney(r.options?.insurance, ['options', 'insurance'], ctx);
  checkMoney(r.customsDetail?.customsValue, ['customsDetail', 'customsValue'], ctx);
  r.customsDetail?.commodities.forEach((c, i) => {
    checkMoney(c.unitValue, ['customsDetail', 'commodities', i, 'unitValue'], ctx);
    checkMoney(c.totalValue, ['customsDetail', 'commodities', i, 'totalValue'], ctx);
  });
  for (const [key, v] of [['serviceType', r.serviceType], ['carrierCode', r.carrierCode]] as const) {
    if (v !== undefined && v.length > INPUT_LIMITS.codeChars) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is too long (max ${INPUT_LIMITS.codeChars} characters)` });
  }
});

/** The manual order form with the station's quantity and money bounds. */
export const BoundedManualOrderInput = ManualOrderInput.superRefine((o, ctx) => {
  o.items.forEach((it, i) => {
    if (it.quantity > INPUT_LIMITS.orderQuantity) ctx.addIssue({ code: 'custom', path: ['items', i, 'quantity'], message: `Quantity is at most ${INPUT_LIMITS.orderQuantity}` });
    if (it.unitPrice > INPUT_LIMITS.moneyAmount) ctx.addIssue({ code: 'custom', path: ['items', i, 'unitPrice'], message: `Unit price is at most ${INPUT_LIMITS.moneyAmount}` });
  });
  if (o.total !== undefined && o.total > INPUT_LIMITS.moneyAmount) ctx.addIssue({ code: 'custom', path: ['total'], message: `Total is at most ${INPUT_LIMITS.moneyAmount}` });
});

/** The platform's PickupRequest with the station's parcel bounds. */
export const BoundedPickupRequest = PickupRequest.superRefine((r, ctx) => {
  checkParcels(r.packages, ctx);
  if (r.serviceType.length > INPUT_LIMITS.codeChars) ctx.addIssue({ code: 'custom', path: ['serviceType'], message: `Contract is too long (max ${INPUT_LIMITS.codeChars} characters)` });
});

/** What a scanned code turned out to be (Scan screen). */
export type ScanResult =
  /** `claimedBy`: another bench of the warehouse is packing the order (issue 35); this bench does not ship it. */
  | { kind: 'order'; order: StationOrder; claimedBy?: OrderClaimView; shippedElsewhere?: OrderShippedView }
  /** Several shops share the number: the packer chooses (open orders first). */
  | { kind: 'orders'; code: string; orders: StationOrder[] }
  | { kind: 'shipment'; shipment: ShipmentView }
  | { kind: 'unknown'; code: string }
  /** A packer's badge (issue 26): that packer is now signed in. */
  | { kind: 'packer'; packer: PackerView };

/**
 * An order the warehouse says is shipped already (issue 42 item 7, issue 44): at which bench (null: from the
 * platform's web panel or another program), when (ISO 8601), its tracking number. The scan never opens it for a
 * second label.
 */
export interface OrderShippedView {
  bench: string | null;
  at: string;
  trackingNumber: string;
}

/** Who is packing an order at another bench of the warehouse: the bench's name, its packer (null: none signed in), since when (ISO 8601). */
export interface OrderClaimView {
  bench: string;
  packer: string | null;
  since: string | null;
}

/** Result of shipping: the shipment and the print job the label went to at once. */
export interface ShipResult {
  shipment: ShipmentView;
  printJob: PrintJobView | null;
  /** Set when the label could not be printed; the shipment exists regardless. */
  printError: { code: string; message: string; /** The message as a core text (`coreText.<key>`), when the station worded it (issue 25). */ text?: StationText } | null;
  /**
   * True when the order had already been shipped by another station of the account (found by
   * its reference before the first POST): `shipment` is that shipment, nothing was paid or printed.
   */
  shippedElsewhere?: boolean;
}

/** Shipment form input: the platform's ShipmentRequest plus the local order it ships. */
export const ShipInput = z.object({
  orderId: Id('Order id').optional(),
  request: BoundedShipmentRequest,
});

/** Quote input: the platform's RatesRequest. */
export const QuoteInput = z.object({ request: BoundedRatesRequest });

/** A local order id: a positive whole number. */
export const OrderIdInput = z.number({ error: 'Order id must be a number' }).int({ error: 'Order id must be a whole number' }).positive({ error: 'Order id must be positive' });

/** Result of `orders.submit`: the queue rows (one per batch of up to 100), and the orders refused before sending. */
export interface OrdersSubmitView {
  outboxIds: number[];
  queued: number;
  refused: Array<{ id: number; orderNumber: string; message: string }>;
}

/** All station commands. */
