/**
 * The station contract (DESIGN.md "One contract, typed end to end"): every
 * command the screens can send, declared once as `domain.verb` with a zod
 * input schema and its output type. Electron IPC and the headless host's
 * `POST /rpc/<command>` both parse inputs with these schemas before any
 * handler runs; handlers in electron/core/handlers are typed against them.
 */
import { z } from 'zod';
import { PrinterProfileSchema, type PrinterProfileView } from './printer-profile';
import type { Carrier, CancelShipmentResponse, CreditBalance, Pickup, Rate, Warehouse } from '../platform/resources';
import { PickupRequest, RatesRequest, ShipmentRequest } from '../platform';
import {
  ManualOrderInput,
  OrderPageQuery,
  OrderSettings,
  ORDER_LIMITS,
  ShopName,
  type ImportReport,
  type OrderFacets,
  type OrderPage,
  type StationOrder,
} from '../domain/order';
import type { TaricCode, DeliveryPointsResponse } from '../platform/lookups';
import { StockActionRequest, StockStatusFilter, type Stock } from '../platform/tracking';
import type { PaginatedOf } from '../platform/common';
import type { CodList, CodListDetail, CreditMovement, Invoice, InvoiceDetail, ReturnList, ReturnListDetail } from '../platform/finance';
import { CustomsSettings, type CustomsProductView } from './customs';
import { BoxSettings } from './boxes';
import { SlipSettings, type SlipJobView } from './slips';
import { ItemInput, VerifySettings, VerifySkipInput, type ItemView } from './items';
import type { AccountView, AppInfo, StorageView, DiscoveredPrinterView, ImportProgressView, ImportUploadView, LabelPreviewView, ManifestView, OutboxListView, OutboxRowView, OutboxState, PrintJobView, PrinterView, ScaleView, ShipmentView, TrackingView } from './views';

/** One command of the contract: its input schema, phantom output type and input bounds. */
interface CommandDef<I extends z.ZodType = z.ZodType, O = unknown> {
  input: I;
  output: O;
  /** Dotted paths of strings allowed beyond {@link INPUT_LIMITS.textChars} (up to `csvChars`). */
  longText?: readonly string[];
}

/** Declares one command: `command<Output>()(inputSchema, bounds?)`; the output type is phantom. */
function command<O>() {
  return <I extends z.ZodType>(input: I, bounds: { longText?: readonly string[] } = {}): CommandDef<I, O> => ({ input, output: undefined as unknown as O, ...bounds });
}

const Empty = z.object({}).strict();

/** Bytes of one `orders.importChunk` piece (1 MiB), and the length of its base64. */
export const IMPORT_CHUNK_BYTES = 1024 * 1024;
const IMPORT_CHUNK_BASE64 = Math.ceil(IMPORT_CHUNK_BYTES / 3) * 4;

/**
 * Bounds of every command input (issue 7 item 10: an unbounded input ended in
 * a 500 instead of a field error). Two layers: {@link inputShapeProblem}
 * checks any raw input before its schema (depth, array sizes, string
 * lengths, well-formed UTF-16), and the schemas below add the per-field
 * limits and the station's own parcel and money ranges. Lengths are UTF-16
 * code units (JavaScript string length).
 */
const INPUT_LIMITS = {
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
  /** Order search text: SQLite refuses LIKE patterns over 50 000 bytes; no packer types more than this. */
  ordersQuery: 100,
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

const TrackingNumberInput = z.object({ trackingNumber: TrackingNumber });

/** A positive whole number id (row ids, order ids, manifest ids). */
const Id = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .int({ error: `${what} must be a whole number` })
    .positive({ error: `${what} must be positive` });

const OutboxRowInput = z.object({ id: Id('Row id') });

/** Centimetres of a Dimensions value (`MM` divided by 10). */
function sidesCm(d: { length: number; width: number; height: number; units?: 'CM' | 'MM' | undefined }): number[] {
  const f = d.units === 'MM' ? 0.1 : 1;
  return [d.length * f, d.width * f, d.height * f];
}

type PackageLike = { weight: { value: number; units?: 'KG' | 'G' | undefined }; dimensions: { length: number; width: number; height: number; units?: 'CM' | 'MM' | undefined }; value?: number | undefined; description?: string | undefined };
type MoneyLike = { amount: number } | undefined;

/**
 * The station's own parcel and money rules, on top of the spec's (which only
 * ask for > 0): each parcel from 1 g to {@link INPUT_LIMITS.parcelKg} kg and
 * from 1 mm to {@link INPUT_LIMITS.parcelSideCm} cm a side, with a face of at least
 * 15 × 11 cm ({@link INPUT_LIMITS.parcelMinFaceCm}); money amounts at most
 * {@link INPUT_LIMITS.moneyAmount}. Issues at `packages.<i>.weight.value`,
 * `packages.<i>.dimensions.<side>` (the face rule at `.length`), `options.cod.amount`, ...
 */
function checkParcels(packages: readonly PackageLike[] | undefined, ctx: z.RefinementCtx, base: PropertyKey[] = ['packages']): void {
  (packages ?? []).forEach((p, i) => {
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

/** A string of at most `max` characters with a message naming the field. */
const bounded = (what: string, max: number) => z.string().max(max, { error: `${what} is too long (max ${max} characters)` });

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
const BoundedManualOrderInput = ManualOrderInput.superRefine((o, ctx) => {
  o.items.forEach((it, i) => {
    if (it.quantity > INPUT_LIMITS.orderQuantity) ctx.addIssue({ code: 'custom', path: ['items', i, 'quantity'], message: `Quantity is at most ${INPUT_LIMITS.orderQuantity}` });
    if (it.unitPrice > INPUT_LIMITS.moneyAmount) ctx.addIssue({ code: 'custom', path: ['items', i, 'unitPrice'], message: `Unit price is at most ${INPUT_LIMITS.moneyAmount}` });
  });
  if (o.total !== undefined && o.total > INPUT_LIMITS.moneyAmount) ctx.addIssue({ code: 'custom', path: ['total'], message: `Total is at most ${INPUT_LIMITS.moneyAmount}` });
});

/** The platform's PickupRequest with the station's parcel bounds. */
const BoundedPickupRequest = PickupRequest.superRefine((r, ctx) => {
  checkParcels(r.packages, ctx);
  if (r.serviceType.length > INPUT_LIMITS.codeChars) ctx.addIssue({ code: 'custom', path: ['serviceType'], message: `Contract is too long (max ${INPUT_LIMITS.codeChars} characters)` });
});

/** What a scanned code turned out to be (Scan screen). */
export type ScanResult =
  | { kind: 'order'; order: StationOrder }
  /** Several shops share the number: the packer chooses (open orders first). */
  | { kind: 'orders'; code: string; orders: StationOrder[] }
  | { kind: 'shipment'; shipment: ShipmentView }
  | { kind: 'unknown'; code: string };

/** Result of shipping: the shipment and the print job the label went to at once. */
export interface ShipResult {
  shipment: ShipmentView;
  printJob: PrintJobView | null;
  /** Set when the label could not be printed; the shipment exists regardless. */
  printError: { code: string; message: string } | null;
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

/** Quote input: the platform's RatesRequest, optionally tied to a local order. */
const QuoteInput = z.object({ orderId: Id('Order id').optional(), request: BoundedRatesRequest });

const OrderIdInput = z.number({ error: 'Order id must be a number' }).int({ error: 'Order id must be a whole number' }).positive({ error: 'Order id must be positive' });

/** Result of `orders.submit`: the queue rows (one per batch of up to 100), and the orders refused before sending. */
export interface OrdersSubmitView {
  outboxIds: number[];
  queued: number;
  refused: Array<{ id: number; orderNumber: string; message: string }>;
}

/** All station commands. */
export const commands = {
  /** Header data: platform, connection, credit, printer, outbox backlog. */
  'app.info': command<AppInfo>()(Empty),

  /**
   * Import a Shopify "Export orders" CSV for a shop. `contentBase64`: the file's
   * bytes (the encoding is detected from them: UTF-8, UTF-16, Windows-1252);
   * `content`: text already decoded (older screens). One of the two.
   */
  'orders.importCsv': command<ImportReport>()(
    z
      .object({
        fileName: z.string().min(1, { error: 'File name is required' }).max(INPUT_LIMITS.fileName, { error: `File name is too long (max ${INPUT_LIMITS.fileName} characters)` }),
        content: z.string().max(INPUT_LIMITS.csvChars, { error: 'The file is larger than 32 MiB' }).optional(),
        // base64 of the bytes: 4 characters per 3 bytes, so the file itself may be up to 24 MiB.
        contentBase64: z.string().max(INPUT_LIMITS.csvChars, { error: 'The file is larger than 24 MiB' }).optional(),
        shop: ShopName.optional(),
      })
      .refine((v) => v.content !== undefined || v.contentBase64 !== undefined, { error: 'The file content is missing', path: ['content'] }),
    { longText: ['content', 'contentBase64'] },
  ),
  /**
   * Starts a chunked upload of an export of any size up to the station's
   * limit (`maxBytes`, 256 MiB): the file goes in `orders.importChunk`
   * pieces of at most `chunkBytes` bytes, then `orders.importFinish` imports
   * it as a stream while scan, quote and ship keep answering.
   * @throws `import_failed` (details `size`) when `size` is over the limit, naming it.
   */
  'orders.importBegin': command<ImportUploadView>()(
    z.object({
      fileName: z.string().min(1, { error: 'File name is required' }).max(INPUT_LIMITS.fileName, { error: `File name is too long (max ${INPUT_LIMITS.fileName} characters)` }),
      size: z.number().int({ error: 'Size must be a whole number of bytes' }).min(0, { error: 'Size must be a whole number of bytes' }),
      shop: ShopName.optional(),
    }),
  ),
  /** One piece of an upload, at byte `offset` (pieces in order, each at most `chunkBytes`). @throws `not_found_locally`, `invalid_input` naming `offset` or `dataBase64`. */
  'orders.importChunk': command<{ received: number }>()(
    z.object({
      importId: z.string().min(1).max(64),
      offset: z.number().int().min(0),
      dataBase64: z.string().max(IMPORT_CHUNK_BASE64, { error: `A piece is larger than ${IMPORT_CHUNK_BYTES} bytes` }),
    }),
    { longText: ['dataBase64'] },
  ),
  /** Imports an uploaded file (progress in `imports.changed`); the upload is removed afterwards. @throws `import_failed`, `not_found_locally`. */
  'orders.importFinish': command<ImportReport>()(z.object({ importId: z.string().min(1).max(64) })),
  /** A page of the order list: view, search (number, name, city, SKU), filters, sorting. */
  'orders.page': command<OrderPage>()(OrderPageQuery),
  /** Shops, countries and shipping methods of open orders (the list's filters). */
  'orders.facets': command<OrderFacets>()(Empty),
  /** One order by its local id. */
  'orders.get': command<StationOrder>()(z.object({ id: OrderIdInput })),
  /** Complete an order that needs a fix: its postal code and/or a shorter note (max 255). */
  'orders.fix': command<StationOrder>()(
    z.object({
      id: OrderIdInput,
      postalCode: z.string().trim().min(1, { error: 'Postal code is required' }).max(ORDER_LIMITS.postalCode, { error: `Postal code is too long (max ${ORDER_LIMITS.postalCode} characters)` }).optional(),
      notes: z.string().trim().max(ORDER_LIMITS.notes, { error: `Notes are too long (max ${ORDER_LIMITS.notes} characters)` }).optional(),
    }),
  ),
  /** Send orders to the platform's order list (POST /orders via the outbox, batches of up to 100). */
  'orders.submit': command<OrdersSubmitView>()(
    z.object({ ids: z.array(OrderIdInput).min(1, { error: 'Choose at least one order' }).max(1000, { error: 'At most 1000 orders at a time' }) }),
  ),
  /** Order settings: unpaid orders allowed, pickup method names per shop. */
  'orders.settings': command<OrderSettings>()(Empty),
  /** Save the order settings. */
  'orders.setSettings': command<OrderSettings>()(OrderSettings),
  /** Create an order by hand (manual form). */
  'orders.create': command<StationOrder>()(BoundedManualOrderInput),
  /** Orders of the day, open first. */
  'orders.list': command<StationOrder[]>()(
    z.object({ status: z.enum(['open', 'shipped', 'all']).optional(), q: bounded('Search', INPUT_LIMITS.ordersQuery).optional() }),
  ),

  /** Resolve a scanned code: order number (with or without `#`) or tracking number (LDV). */
  'scan.resolve': command<ScanResult>()(
    z.object({ code: z.string().trim().min(1, { error: 'Scan or type a code' }).max(INPUT_LIMITS.scanCode, { error: `Code is too long (max ${INPUT_LIMITS.scanCode} characters)` }) }),
  ),

  /** The client's carriers and contracts (GET /carriers). */
  'carriers.list': command<Carrier[]>()(Empty),
  /** Pickup points of the account. */
  'warehouses.list': command<Warehouse[]>()(Empty),
  /** All rates for the parcel, cheapest first (POST /rates). */
  'rates.quote': command<Rate[]>()(QuoteInput),

  /** Ship (POST /shipments via the outbox), store the label, print it at once. */
  'shipments.create': command<ShipResult>()(ShipInput),
  /** One shipment with its print jobs (local first, refreshed from GET /shipments/{ldv}). */
  'shipments.get': command<ShipmentView>()(TrackingNumberInput),
  /**
   * The shipment's tracking (GET /shipments/{ldv}/tracking): status, carrier events newest
   * first, estimated delivery; also records the new status locally. When the platform cannot
   * be asked, the last known status with `source: 'local'` and the reason.
   */
  'shipments.tracking': command<TrackingView>()(TrackingNumberInput),
  /** Cancel and refund (DELETE /shipments/{ldv}); 409 invalid_state once manifested or in transit. */
  'shipments.cancel': command<CancelShipmentResponse>()(TrackingNumberInput),
  /** Shipments of this station not yet in a manifest and not cancelled (End of day). */
  'shipments.unmanifested': command<ShipmentView[]>()(Empty),
  /** Recent shipments of this station, newest first. */
  'shipments.recent': command<ShipmentView[]>()(
    z.object({ limit: z.number().int().min(1).max(500).default(50) }),
  ),

  /** Print the stored label again (explicit packer request). */
  'labels.reprint': command<PrintJobView>()(TrackingNumberInput),
  /** What the printer in use will print for a shipment's stored label, as PNG (its profile's dpi and size). */
  'labels.preview': command<LabelPreviewView>()(TrackingNumberInput),

  /** The label printer in use and its status. */
  'printers.get': command<PrinterView>()(Empty),
  /** Choose the label printer by device URI (`socket://host:9100`, `file:///dir`). */
  'printers.set': command<PrinterView>()(
    z.object({ uri: z.string().trim().min(1, { error: 'Printer URI is required' }).max(INPUT_LIMITS.printerUri, { error: `Printer URI is too long (max ${INPUT_LIMITS.printerUri} characters)` }) }),
  ),
  /** Printers the packer can choose: attached USB label printers, OS print queues, network printers used before. */
  'printers.discover': command<DiscoveredPrinterView[]>()(Empty),
  /** A printer's saved profile (default: the printer in use); `profile` null when none is saved. */
  'printers.getProfile': command<PrinterProfileView>()(z.object({ uri: z.string().trim().min(1).max(INPUT_LIMITS.printerUri).optional() }).strict()),
  /** Save a printer's profile (dpi, label mm, darkness, speed, media, top offset in dots); errors name the field. */
  'printers.setProfile': command<PrinterProfileView>()(
    z.object({ uri: z.string().trim().min(1).max(INPUT_LIMITS.printerUri).optional(), profile: PrinterProfileSchema }).strict(),
  ),
  /** Print jobs still queued or printing, oldest first, with why they wait (`lastError`). */
  'printJobs.pending': command<PrintJobView[]>()(Empty),
  /** Cancel a waiting print job (it will not print by itself). */
  'printJobs.cancel': command<PrintJobView>()(z.object({ id: z.number().int().positive() })),

  /** The scale, its reading and its settings. */
  'scale.get': command<ScaleView>()(Empty),
  /** Choose the scale (none, USB HID, serial port with baud rate and protocol) and whether a stable weight re-quotes; saved per station. */
  'scale.set': command<ScaleView>()(
    z
      .object({
        config: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('none') }).strict(),
          z.object({ kind: z.literal('hid') }).strict(),
          z
            .object({
              kind: z.literal('serial'),
              path: z.string().trim().min(1, { error: 'Serial port is required, e.g. /dev/ttyUSB0 or COM3' }).max(INPUT_LIMITS.fileName),
              baudRate: z.number().int().min(300, { error: 'Baud rate must be 300 to 115200' }).max(115200, { error: 'Baud rate must be 300 to 115200' }),
              protocol: z.enum(['mt-sics', 'continuous']),
            })
            .strict(),
        ]).optional(),
        requoteOnStable: z.boolean().optional(),
      })
      .strict(),
  ),

  /** Book a pickup (POST /pickups via the outbox). */
  'pickups.create': command<Pickup>()(BoundedPickupRequest),
  /** Booked pickups, newest first. */
  'pickups.list': command<Pickup[]>()(Empty),

  /** Close the day: one manifest per contract for every unmanifested shipment (POST /manifests). */
  'manifests.closeDay': command<ManifestView[]>()(Empty),
  /** Manifests created by this station, newest first. */
  'manifests.list': command<ManifestView[]>()(Empty),
  /** The manifest PDF as base64 (to save or print). */
  'manifests.pdf': command<{ id: number; fileName: string; pdfBase64: string }>()(
    z.object({ id: Id('Manifest id') }),
  ),

  /** Current credit balance (GET /credit). */
  'credit.get': command<CreditBalance>()(Empty),

  /** The outbox (Queue panel): rows not done, oldest first, and the last `doneLimit` done rows (default 20). */
  'outbox.list': command<OutboxListView>()(
    z.object({ doneLimit: z.number().int().min(0, { error: 'doneLimit must be 0 to 200' }).max(200, { error: 'doneLimit must be 0 to 200' }).default(20) }),
  ),
  /** Send a row that needs attention again (back to queued; the station reconciles before sending). 409-like `invalid_state` for any other state. */
  'outbox.retry': command<OutboxRowView>()(OutboxRowInput),
  /**
   * Confirm sending again a shipment whose POST got no answer and that the
   * platform does not show after the settle window (row code `outcome_unknown`).
   */
  'outbox.confirmResend': command<OutboxRowView>()(OutboxRowInput),
  /**
   * Close a row that needs attention without sending it, with an optional note. Only when the
   * platform surely refused it (a 4xx answer to the create call); otherwise `invalid_state`.
   */
  'outbox.dismiss': command<OutboxRowView>()(
    OutboxRowInput.extend({ note: z.string().trim().max(200, { error: 'Note must be at most 200 characters' }).optional() }),
  ),

  /** Customs codes for the HS code field (GET /taric): `q` a code prefix or words, at least 3 characters. */
  'customs.taric': command<TaricCode[]>()(
    z.object({ q: z.string().trim().min(3, { error: 'Type at least 3 characters to search customs codes' }).max(100), limit: z.number().int().min(1).max(100).optional() }),
  ),
  /** Customs data remembered for these SKUs (HS code, country of manufacture, unit weight); unknown SKUs are absent. */
  'customs.products': command<CustomsProductView[]>()(z.object({ skus: z.array(z.string().trim().min(1)).max(200) })),
  /** Exporter/importer identifiers (EORI, VAT, tax id) the customs declaration is prefilled with. */
  'customs.settings.get': command<CustomsSettings>()(Empty),
  /** Saves the exporter/importer identifiers; a bad one is refused naming its field (`exporter.eori`). */
  'customs.settings.set': command<CustomsSettings>()(CustomsSettings),
  /** Packing-slip settings of this station (printer URI, escpos/a4, paper width, when to print, shop name). */
  'slips.settings': command<SlipSettings>()(Empty),
  /** Saves the slip settings; a device URI the station cannot open is refused on `printerUri`. */
  'slips.setSettings': command<SlipSettings>()(SlipSettings),
  /** Prints the packing slip of an order (or of the order a tracking number shipped) now, on demand or again: queued for the slip printer. */
  'slips.print': command<SlipJobView>()(
    z
      .object({ orderId: z.number().int().positive().optional(), trackingNumber: z.string().trim().min(1).max(INPUT_LIMITS.trackingNumber).optional() })
      .strict()
      .refine((v) => (v.orderId === undefined) !== (v.trackingNumber === undefined), { error: 'Give the order id or the tracking number' }),
  ),
  /** Slip jobs of an order (all when absent), newest first. */
  'slips.list': command<SlipJobView[]>()(z.object({ orderId: z.number().int().positive().optional() }).strict()),
  /** Scan-to-verify settings of this station (on/off, weight tolerance % and kg). */
  'verify.settings': command<VerifySettings>()(Empty),
  /** Saves the scan-to-verify settings; a bad tolerance is refused naming its field. */
  'verify.setSettings': command<VerifySettings>()(VerifySettings),
  /** Logs a skipped verification: the reason and the lines not scanned. */
  'verify.skip': command<{ id: number }>()(VerifySkipInput),
  /** Items whose SKU or barcode contains `q` (all when empty), by SKU. */
  'items.list': command<ItemView[]>()(z.object({ q: z.string().trim().max(100).optional() }).strict()),
  /** The items of these SKUs (the lines of an order being verified); unknown SKUs are absent. */
  'items.get': command<ItemView[]>()(z.object({ skus: z.array(z.string().trim().min(1).max(100)).max(200) }).strict()),
  /** Creates or replaces an item (its barcodes and unit weight); a barcode of another SKU is refused on `barcodes`. */
  'items.save': command<ItemView>()(ItemInput),
  /** Removes an item. */
  'items.delete': command<{ deleted: boolean }>()(z.object({ sku: z.string().trim().min(1).max(100) }).strict()),
  /** The station's box presets and default box (cm, kg). */
  'boxes.get': command<BoxSettings>()(Empty),
  /** Saves the whole list of boxes; a refused value names its field (`presets.1.lengthCm`), nothing saved is lost. */
  'boxes.set': command<BoxSettings>()(BoxSettings),
  /** Carrier pickup points near the recipient (GET /delivery-points): city and postal code required. */
  'deliveryPoints.search': command<DeliveryPointsResponse['data']>()(
    z.object({
      city: z.string().trim().min(1, { error: 'City is required to search pickup points' }),
      postalCode: z.string().trim().min(1, { error: 'Postal code is required to search pickup points' }),
      address: z.string().trim().optional(),
    }),
  ),
  /** Held shipments (GET /stocks), one page, newest first; `status` default `open`. */
  'stocks.list': command<PaginatedOf<Stock>>()(
    z.object({ status: StockStatusFilter.default('open'), page: z.number().int().min(1).default(1), perPage: z.number().int().min(1).max(200).default(50) }),
  ),
  /** Release instructions for a held shipment (POST /stocks/{id}/actions through the outbox). */
  'stocks.instruct': command<Stock>()(
    z.object({ stockId: z.number().int().positive(), trackingNumber: z.string().optional(), request: StockActionRequest }),
  ),
  /** One page of an account list: credit movements (newest first), invoices, COD lists, return lists. */
  'account.list': command<PaginatedOf<CreditMovement | Invoice | CodList | ReturnList>>()(
    z.object({ list: z.enum(['movements', 'invoices', 'codLists', 'returns']), page: z.number().int().min(1).default(1), perPage: z.number().int().min(1).max(200).default(25) }),
  ),
  /** One invoice with its lines, or one COD / return list with its shipments (GET /invoices/{id}, /cod-lists/{id}, /returns/{id}). */
  'account.detail': command<InvoiceDetail | CodListDetail | ReturnListDetail>()(
    z.object({ list: z.enum(['invoices', 'codLists', 'returns']), id: z.number().int().positive() }),
  ),
  /** An invoice's PDF (GET /invoices/{id}/pdf) as base64; `unavailable` (503) means try later. */
  'account.invoicePdf': command<{ id: number; fileName: string; pdfBase64: string }>()(z.object({ id: z.number().int().positive() })),
  /** Settings › Platform account: what is saved for the next start (never the secret). */
  'settings.account.get': command<AccountView>()(Empty),
  /**
   * Saves the platform account for the next start: URLs and client id in the
   * data folder, the client secret in the OS secret store (Electron
   * safeStorage / OS keyring). Errors: invalid_input naming the field;
   * secret_store_unavailable when this machine has no secret store.
   */
  'settings.account.save': command<{ restartRequired: true }>()(
    z
      .object({
        platformUrl: z.string().trim().min(1, { error: 'Platform URL is required' }).max(2000),
        authUrl: z.string().trim().max(2000).optional(),
        clientId: z.string().trim().min(1, { error: 'Client id is required' }).max(200),
        clientSecret: z.string().min(1, { error: 'Client secret is required' }).max(1000),
      })
      .strict(),
  ),
  /** Forgets the saved account and its secret: the next start is in training mode unless one is given at launch. */
  'settings.account.forget': command<{ restartRequired: true }>()(Empty),
  /** The data folder: its size, the database's, the label bytes kept and since when, the retention, the last file check (issue 27). */
  'storage.get': command<StorageView>()(Empty),
  /** How many days label bytes and done queue rows are kept (7 to 3650); shipment facts are kept for ever. */
  'storage.setRetention': command<StorageView>()(
    z.object({
      days: z
        .number({ error: 'Retention must be a number of days' })
        .int({ error: 'Retention must be whole days' })
        .min(7, { error: 'Keep labels at least 7 days' })
        .max(3650, { error: 'Keep labels at most 3650 days' }),
    }),
  ),
} as const;

/** Name of a station command, `domain.verb`. */
export type CommandName = keyof typeof commands;
/** Input a caller passes (before schema defaults). */
export type CommandInput<K extends CommandName> = z.input<(typeof commands)[K]['input']>;
/** Input a handler receives (after parsing). */
type CommandParsed<K extends CommandName> = z.output<(typeof commands)[K]['input']>;
/** What the command resolves to. */
export type CommandOutput<K extends CommandName> = (typeof commands)[K]['output'];

/** Handler map the core implements: every command, typed by its schema. */
export type Handlers = { [K in CommandName]: (input: CommandParsed<K>) => Promise<CommandOutput<K>> };

/** Events pushed to the screens (`domain.changed` style). */
export interface StationEvents {
  'app.changed': AppInfo;
  'shipments.changed': { trackingNumber: string };
  'printJobs.changed': PrintJobView;
  'orders.changed': { count: number };
  'manifests.changed': { ids: number[] };
  'pickups.changed': { id: number };
  /** An outbox row changed state (sent, failed, retried, dismissed). */
  'outbox.changed': { id: number; state: OutboxState };
  /** Instructions for a held shipment were registered. */
  'stocks.changed': { id: number };
  /** The scale was plugged, unplugged, reconfigured or gave a new reading. */
  'scale.changed': ScaleView;
  /** A packing slip job was created or changed state. */
  'slips.changed': SlipJobView;
  /** How far an order import is (at most every 100 ms while reading, and when done). */
  'imports.changed': ImportProgressView;
}
/** Name of a station event, `domain.changed` style. */
export type EventName = keyof StationEvents;

/** The typed API the renderer's stores call, whatever the transport (IPC bridge or HTTP). */
export interface StationApi {
  invoke<K extends CommandName>(name: K, input: CommandInput<K>): Promise<CommandOutput<K>>;
  on<E extends EventName>(event: E, listener: (payload: StationEvents[E]) => void): () => void;
}

/** True when `name` is a known command. */
export function isCommandName(name: string): name is CommandName {
  return Object.prototype.hasOwnProperty.call(commands, name);
}

// Re-exported so screens build their forms from the very schemas the platform uses.
export { PickupRequest };
