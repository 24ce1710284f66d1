/**
 * What the core knows of the warehouse's labels ahead (issue 43 items 3 and 5): the shapes and the store a bench
 * calls (implemented on the warehouse's pool by warehouse/ahead.ts; schema 8, warehouse/schema-ahead.ts). Here so
 * the services and the shipping code name them without depending on the warehouse's module.
 */
import type { StationOrder } from '../../../shared/domain/order';

/** The supervisor's settings of labels ahead (one row of `ahead_settings`). */
export interface AheadSettings {
  enabled: boolean;
  /** Rule names whose orders get labels ahead; null: every rule that ships by itself. */
  rules: string[] | null;
  /** Orders imported in the last N hours; null: today's imported orders (Europe/Rome day). */
  horizonHours: number | null;
  /** Label purchases a minute background work leaves to the packers. */
  headroom: number;
  /** The batch printer stacks face down: a batch prints its last label first. */
  faceDown: boolean;
}

/**
 * States of a label ahead (`labels_ahead.state`, schemas 8 and 9): `abandoned` is a purchase a packer's press
 * stopped waiting for; whatever it bought is cancelled.
 */
export type LabelAheadState = 'buying' | 'bought' | 'batched' | 'printed' | 'used' | 'cancelled' | 'cancel_refused' | 'failed' | 'abandoned';

/**
 * Why a label ahead was cancelled (`cancel_reason`, schemas 8 and 9): `late` bought after the press stopped waiting
 * for it; `unused` printed in a batch, its order shipped with another label.
 */
export type LabelAheadCancelReason = 'weight' | 'changed' | 'day_closed' | 'order_gone' | 'failed' | 'late' | 'unused';

/** What became of a purchase stored (store_label_ahead): a label ahead now, to be cancelled (abandoned), or gone. */
export type AheadStored = 'bought' | 'abandoned' | 'gone';

/** One label ahead as the warehouse keeps it; money in EUR, weight in kg, label bytes base64 as the platform sent them. */
export interface LabelAhead {
  id: number;
  orderKey: string;
  state: LabelAheadState;
  reference: string;
  fingerprint: string;
  ruleName: string | null;
  weightKg: number | null;
  sku: string | null;
  bin: string | null;
  boughtBy: string;
  reservedAt: string;
  trackingNumber: string | null;
  platformId: number | null;
  contractCode: string | null;
  carrierCode: string | null;
  cost: number | null;
  currency: string | null;
  /** The platform's Shipment JSON without its label (spec: Shipments), as received. */
  shipment: unknown;
  labelZpl: string | null;
  labelPdf: string | null;
  batchId: number | null;
  batchPos: number | null;
  printedBy: string | null;
  printedAt: string | null;
  usedBy: string | null;
  usedAt: string | null;
}

/** An order of the warehouse that may get a label ahead: its key, the station's order as shared, when imported. */
export interface AheadCandidate {
  orderKey: string;
  order: StationOrder;
  importedAt: string;
}

/** What the buyer reserves with: the order's key and reference, and what the label is bought for. */
interface AheadReservation {
  orderKey: string;
  reference: string;
  fingerprint: string;
  ruleName: string | null;
  weightKg: number | null;
  sku: string | null;
  bin: string | null;
}

/** What the buyer stores once the platform sold the label (spec: POST /shipments 201). */
export interface AheadPurchase {
  trackingNumber: string;
  platformId: number;
  contractCode: string;
  carrierCode: string;
  /** EUR. */
  cost: number;
  currency: string;
  shipment: unknown;
  labelZpl: string | null;
  labelPdf: string | null;
}

/** A batch print this bench is asked to print (`label_batches`), its labels in print order. */
export interface LabelBatch {
  id: number;
  faceDown: boolean;
  labels: LabelAhead[];
}

/**
 * The labels-ahead calls of one bench. Every method throws the database's error (the caller decides: the buyer
 * tries again later, a packer's ship goes the ordinary way).
 */
export interface LabelsAheadStore {
  settings(): Promise<AheadSettings>;
  /** The buyer's lease for `leaseS` seconds; false while another live bench buys. */
  lead(leaseS: number): Promise<boolean>;
  /**
   * Up to `limit` orders, oldest imported first, not shipped, not claimed by a live bench, with no label ahead
   * (live or ended), imported since `since` (ISO).
   */
  candidates(since: string, limit: number): Promise<AheadCandidate[]>;
  /**
   * Reservations older than `olderThanS` seconds whose buyer went silent or is this bench: still `buying`, or
   * `abandoned` (whatever they bought is still to be cancelled).
   */
  staleReservations(olderThanS: number): Promise<LabelAhead[]>;
  /** The reservation's id, or null (shipped, claimed, or one exists). */
  reserve(r: AheadReservation): Promise<number | null>;
  /** Keeps the purchase of reservation `id`: `bought`, `abandoned` (kept, to be cancelled by the caller) or `gone`. */
  store(id: number, p: AheadPurchase): Promise<AheadStored>;
  /**
   * A press stops waiting for the purchase `id` (state buying): true when it is now `abandoned`, false when the
   * purchase ended meanwhile (read it again).
   */
  abandon(id: number): Promise<boolean>;
  /**
   * Undoes this bench's reservation `id` (state buying) whose POST /shipments never left (the account's budget
   * refused it, the platform was not reached): the order may get a label ahead later. False when it is not this
   * bench's reservation any more.
   */
  drop(id: number): Promise<boolean>;
  /** Ends a label ahead unused: cancelled with its refund (EUR), refused (the platform's words), or failed. */
  end(id: number, state: 'cancelled' | 'cancel_refused' | 'failed', reason: LabelAheadCancelReason | null, refund: number | null, error: string | null): Promise<void>;
  /** The order's live label ahead (buying, bought, batched, printed, used) or abandoned purchase, or null. */
  ofOrder(orderKey: string): Promise<LabelAhead | null>;
  /** The label ahead with this tracking number, whatever its state, or null. */
  byTrackingNumber(trackingNumber: string): Promise<LabelAhead | null>;
  /** Marks it used by this bench (and `packer`) and returns it; null when it is not usable (see use_label_ahead). */
  use(id: number, packer: string | null): Promise<LabelAhead | null>;
  /** This bench's batch prints waiting, oldest first, each with its labels in print order. */
  waitingBatches(): Promise<LabelBatch[]>;
  /** A batch printed: the labels printed (ids); `error` when it stopped (the rest go back to waiting). */
  batchPrinted(batchId: number, printedIds: number[], error: string | null): Promise<void>;
}

