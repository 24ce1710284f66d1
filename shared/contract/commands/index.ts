/**
 * The station contract (DESIGN.md "One contract, typed end to end"): every
 * command the screens can send, declared once as `domain.verb` with a zod
 * input schema and its output type, each domain in its own file beside this
 * one (./orders.ts, ./shipping.ts, ...), merged here by `mergeDisjoint` (./merge.ts),
 * which refuses a name two domains declare. Electron IPC and the headless
 * host's `POST /rpc/<command>` both parse inputs with these schemas before
 * any handler runs; handlers in electron/core/<domain> are typed against them.
 */
import { accountCommands } from './account';
import { ordersCommands } from './orders';
import { shippingCommands } from './shipping';
import { printingCommands } from './printing';
import { scalesCommands } from './scales';
import { pickupsManifestsCommands } from './pickups-manifests';
import { outboxCommands } from './outbox';
import { slipsCommands } from './slips';
import { packingCommands } from './packing';
import { stocksCommands } from './stocks';
import { storageCommands } from './storage';
import { rulesCommands } from './rules';
import { productsCommands } from './products';
import { shippingPlanCommands } from './shipping-plan';
import { packersCommands } from './packers';
import { reportsCommands } from './reports';
import { warehouseCommands } from './warehouse';
import { z } from 'zod';
import { PickupRequest } from '../../platform';
import type { SlipJobView } from '../slips';
import type { PackerSessionView } from '../packers';
import type { AppInfo, ImportProgressView, OutboxState, PrintJobView, ScaleView } from '../views';
import { mergeDisjoint } from './merge';

export { IMPORT_CHUNK_BYTES, TRACKING_NUMBER_PATTERN, inputShapeProblem, QuoteInput, ShipInput, type OrderClaimView, type OrderShippedView, type OrdersSubmitView, type ScanResult, type ShipResult } from './define';

/** All station commands. */
export const commands = mergeDisjoint(
  (name) => `Command ${name} is declared twice in the contract`,
  accountCommands, ordersCommands, shippingCommands, printingCommands, scalesCommands, pickupsManifestsCommands, outboxCommands, slipsCommands, packingCommands, stocksCommands, storageCommands,
  rulesCommands, productsCommands, shippingPlanCommands, packersCommands, reportsCommands, warehouseCommands);

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
  'scales.changed': ScaleView;
  /** A packing slip job was created or changed state. */
  'slips.changed': SlipJobView;
  /** How far an order import is (at most every 100 ms while reading, and when done). */
  'imports.changed': ImportProgressView;
  /** The rules changed (edited, imported, or reloaded from the shared file). */
  'rules.changed': { count: number };
  /** Product data or its suggestions changed. */
  'products.changed': { count: number };
  /** A packer signed in or out, or the station's name changed (issue 26). */
  'packers.changed': PackerSessionView;
  /** Shared settings came from the warehouse (issue 35), by setting key (`boxes.presets`, `orders.allowUnpaid`, …): the screens showing them reload. */
  'settings.changed': { keys: string[] };
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
