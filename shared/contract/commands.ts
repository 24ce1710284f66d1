/**
 * The station contract (DESIGN.md "One contract, typed end to end"): every
 * command the screens can send, declared once as `domain.verb` with a zod
 * input schema and its output type. Electron IPC and the headless host's
 * `POST /rpc/<command>` both parse inputs with these schemas before any
 * handler runs; handlers in electron/core/handlers are typed against them.
 */
import { z } from 'zod';
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
import type { AppInfo, ManifestView, OutboxListView, OutboxRowView, OutboxState, PrintJobView, PrinterView, ShipmentView, TrackingView } from './views';

/** Declares one command: `command<Output>()(inputSchema)`; the output type is phantom. */
function command<O>() {
  return <I extends z.ZodType>(input: I): { input: I; output: O } => ({ input, output: undefined as unknown as O });
}

const Empty = z.object({}).strict();
const TrackingNumberInput = z.object({
  trackingNumber: z.string().trim().min(1, { error: 'Tracking number is required' }),
});

const OutboxRowInput = z.object({
  id: z.number({ error: 'Row id must be a number' }).int({ error: 'Row id must be a whole number' }).positive({ error: 'Row id must be positive' }),
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
}

/** Shipment form input: the platform's ShipmentRequest plus the local order it ships. */
export const ShipInput = z.object({
  orderId: z.number().int().optional(),
  request: ShipmentRequest,
});

/** Quote input: the platform's RatesRequest, optionally tied to a local order. */
const QuoteInput = z.object({ orderId: z.number().int().optional(), request: RatesRequest });

/** Largest order file the station takes (bytes; a 10,000-order export is about 6 MB). */
const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

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
        fileName: z.string().min(1, { error: 'File name is required' }).max(255, { error: 'File name too long (max 255)' }),
        content: z.string().max(MAX_IMPORT_BYTES, { error: 'File too large (max 50 MB)' }).optional(),
        contentBase64: z.string().max(Math.ceil(MAX_IMPORT_BYTES / 3) * 4, { error: 'File too large (max 50 MB)' }).optional(),
        shop: ShopName.optional(),
      })
      .refine((v) => v.content !== undefined || v.contentBase64 !== undefined, { error: 'The file content is missing', path: ['content'] }),
  ),
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
  'orders.create': command<StationOrder>()(ManualOrderInput),
  /** Orders of the day, open first. */
  'orders.list': command<StationOrder[]>()(
    z.object({ status: z.enum(['open', 'shipped', 'all']).optional(), q: z.string().optional() }),
  ),

  /** Resolve a scanned code: order number (with or without `#`) or tracking number (LDV). */
  'scan.resolve': command<ScanResult>()(
    z.object({ code: z.string().trim().min(1, { error: 'Scan or type a code' }) }),
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

  /** The label printer in use and its status. */
  'printers.get': command<PrinterView>()(Empty),
  /** Choose the label printer by device URI (`socket://host:9100`, `file:///dir`). */
  'printers.set': command<PrinterView>()(
    z.object({ uri: z.string().trim().min(1, { error: 'Printer URI is required' }) }),
  ),

  /** Book a pickup (POST /pickups via the outbox). */
  'pickups.create': command<Pickup>()(PickupRequest),
  /** Booked pickups, newest first. */
  'pickups.list': command<Pickup[]>()(Empty),

  /** Close the day: one manifest per contract for every unmanifested shipment (POST /manifests). */
  'manifests.closeDay': command<ManifestView[]>()(Empty),
  /** Manifests created by this station, newest first. */
  'manifests.list': command<ManifestView[]>()(Empty),
  /** The manifest PDF as base64 (to save or print). */
  'manifests.pdf': command<{ id: number; fileName: string; pdfBase64: string }>()(
    z.object({ id: z.number().int() }),
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
   * Close a row that needs attention without sending it, with an optional note. Only when the
   * platform surely refused it (a 4xx answer to the create call); otherwise `invalid_state`.
   */
  'outbox.dismiss': command<OutboxRowView>()(
    OutboxRowInput.extend({ note: z.string().trim().max(200, { error: 'Note must be at most 200 characters' }).optional() }),
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
