/**
 * Shipments (LDV) of this station (table `shipments`). A row starts `pending`
 * when the shipment is queued in the outbox (no tracking number yet, only the
 * `reference` the worker will look it up by), and is completed with the
 * platform's answer. `platform` keeps the full Shipment JSON as received
 * (spec: Resources > Shipment); callers parse it with the shared schemas.
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors';
import { fromJson, isoNow, isUniqueViolation, nul, toJson, type Clock } from './sql';

/**
 * A shipment row.
 * - `trackingNumber`: LDV, null while pending;
 * - `platformId`: the platform's shipment `id`;
 * - `statusKey`: last known spec status key (`shipped`, `in_transit`, ...), null while pending;
 * - `costTotal`: in `currency` (EUR);
 * - `manifestId`: local manifest row id once closed in a manifest;
 * - `cancelledAt`: ISO time the station cancelled it (DELETE /shipments/{ldv});
 * - `platform`: the last Shipment JSON received, or null.
 */
export interface ShipmentRecord {
  id: number;
  trackingNumber: string | null;
  platformId: number | null;
  orderId: number | null;
  reference: string | null;
  contractCode: string | null;
  carrierCode: string | null;
  statusKey: string | null;
  costTotal: number | null;
  currency: string | null;
  manifestId: number | null;
  cancelledAt: string | null;
  platform: unknown;
  createdAt: string;
  updatedAt: string;
}

/** Fields taken from a platform Shipment (POST /shipments 201, GET /shipments/{ldv}). */
interface PlatformShipmentFields {
  trackingNumber: string;
  platformId?: number;
  reference?: string;
  contractCode?: string;
  carrierCode?: string;
  statusKey?: string;
  costTotal?: number;
  currency?: string;
  /** The whole Shipment object as received, stored as JSON. */
  platform: unknown;
}

/** Repository of shipments. */
export interface ShipmentsRepo {
  /** Local record of a shipment about to be sent (goes with an outbox row in one `store.tx`). */
  createPending(input: { reference: string; orderId?: number; contractCode?: string; carrierCode?: string }): ShipmentRecord;
  /**
   * Stores the platform's shipment. With `localId`, completes that pending row;
   * otherwise inserts, or updates the row with the same tracking number.
   * Optional fields left out keep their stored value.
   * @throws StoreError `not_found` (unknown `localId`), `conflict` (the tracking number
   *   already belongs to another row).
   */
  recordPlatform(fields: PlatformShipmentFields, opts?: { localId?: number; orderId?: number }): ShipmentRecord;
  getById(id: number): ShipmentRecord | undefined;
  getByTrackingNumber(trackingNumber: string): ShipmentRecord | undefined;
  /** Newest row with this reference (pending or not). */
  getByReference(reference: string): ShipmentRecord | undefined;
  listByOrder(orderId: number): ShipmentRecord[];
  /** Newest first; `limit` default 50, max 1000. `since`: ISO lower bound on `createdAt`. */
  listRecent(opts?: { limit?: number; since?: string; includePending?: boolean }): ShipmentRecord[];
  /** Created (tracking number known), not cancelled, not yet in a manifest; optional carrier filter. Oldest first. */
  listUnmanifested(opts?: { carrierCode?: string; contractCode?: string }): ShipmentRecord[];
  /** Shipments of a manifest, oldest first; at most `limit` (default all). */
  listByManifest(manifestId: number, limit?: number): ShipmentRecord[];
  /** Updates the status key (and the stored JSON when given). @throws StoreError `not_found`. */
  setStatus(trackingNumber: string, statusKey: string, platform?: unknown): ShipmentRecord;
  /** Marks the shipment cancelled at `at` (default now). @throws StoreError `not_found`. */
  markCancelled(trackingNumber: string, at?: string): ShipmentRecord;
  /** Puts shipments in a manifest; returns how many rows changed. */
  assignManifest(trackingNumbers: readonly string[], manifestId: number): number;
  /** Removes a pending row (the outbox gave up before anything was created). @throws StoreError `invalid_state` if not pending. */
  deletePending(id: number): void;
}

interface ShipmentRow {
  id: number;
  tracking_number: string | null;
  platform_id: number | null;
  order_id: number | null;
  reference: string | null;
  contract_code: string | null;
  carrier_code: string | null;
  status_key: string | null;
  cost_total: number | null;
  currency: string | null;
  manifest_id: number | null;
  cancelled_at: string | null;
  platform: string | null;
  created_at: string;
  updated_at: string;
}

function shipmentFromRow(r: ShipmentRow): ShipmentRecord {
  return {
    id: r.id,
    trackingNumber: r.tracking_number,
    platformId: r.platform_id,
    orderId: r.order_id,
    reference: r.reference,
    contractCode: r.contract_code,
    carrierCode: r.carrier_code,
    statusKey: r.status_key,
    costTotal: r.cost_total,
    currency: r.currency,
    manifestId: r.manifest_id,
    cancelledAt: r.cancelled_at,
    platform: fromJson(r.platform),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Builds the shipments repository on an open database. */
export function createShipmentsRepo(db: Database.Database, clock: Clock): ShipmentsRepo {
  const COLS = `id, tracking_number, platform_id, order_id, reference, contract_code, carrier_code, status_key,
    cost_total, currency, manifest_id, cancelled_at, platform, created_at, updated_at`;
  const byId = db.prepare<[number], ShipmentRow>(`SELECT ${COLS} FROM shipments WHERE id = ?`);
  const byTracking = db.prepare<[string], ShipmentRow>(`SELECT ${COLS} FROM shipments WHERE tracking_number = ?`);
  const byReference = db.prepare<[string], ShipmentRow>(
    `SELECT ${COLS} FROM shipments WHERE reference = ? ORDER BY id DESC LIMIT 1`,
  );
  const byOrder = db.prepare<[number], ShipmentRow>(`SELECT ${COLS} FROM shipments WHERE order_id = ? ORDER BY id`);
  const byManifest = db.prepare<[number, number], ShipmentRow>(`SELECT ${COLS} FROM shipments WHERE manifest_id = ? ORDER BY id LIMIT ?`);
  const insertPending = db.prepare<[number | null, string, string | null, string | null, string, string], never>(
    `INSERT INTO shipments (order_id, reference, contract_code, carrier_code, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insertFull = db.prepare<Record<string, unknown>, never>(
    `INSERT INTO shipments (tracking_number, platform_id, order_id, reference, contract_code, carrier_code, status_key,
       cost_total, currency, platform, created_at, updated_at)
     VALUES (@tracking_number, @platform_id, @order_id, @reference, @contract_code, @carrier_code, @status_key,
       @cost_total, @currency, @platform, @now, @now)`,
  );
  // COALESCE keeps stored values for fields the caller left out.
  const updateFull = db.prepare<Record<string, unknown>, never>(
    `UPDATE shipments SET tracking_number = @tracking_number, platform_id = COALESCE(@platform_id, platform_id),
       order_id = COALESCE(@order_id, order_id), reference = COALESCE(@reference, reference),
       contract_code = COALESCE(@contract_code, contract_code), carrier_code = COALESCE(@carrier_code, carrier_code),
       status_key = COALESCE(@status_key, status_key), cost_total = COALESCE(@cost_total, cost_total),
       currency = COALESCE(@currency, currency), platform = @platform, updated_at = @now
     WHERE id = @id`,
  );
  const updateStatus = db.prepare<[string, string | null, string, string], never>(
    'UPDATE shipments SET status_key = ?, platform = COALESCE(?, platform), updated_at = ? WHERE tracking_number = ?',
  );
  const updateCancelled = db.prepare<[string, string, string], never>(
    'UPDATE shipments SET cancelled_at = ?, updated_at = ? WHERE tracking_number = ?',
  );
  const updateManifest = db.prepare<[number, string, string], never>(
    'UPDATE shipments SET manifest_id = ?, updated_at = ? WHERE tracking_number = ? AND manifest_id IS NULL',
  );
  const deleteRow = db.prepare<[number], never>('DELETE FROM shipments WHERE id = ? AND tracking_number IS NULL');

  const get = (id: number) => {
    const r = byId.get(id);
    return r ? shipmentFromRow(r) : undefined;
  };
  const getTracking = (t: string) => {
    const r = byTracking.get(t);
    return r ? shipmentFromRow(r) : undefined;
  };
  const mustTracking = (t: string) => {
    const s = getTracking(t);
    if (!s) throw new StoreError('not_found', `Shipment ${t} not found`);
    return s;
  };

  const recordPlatform = db.transaction(
    (f: PlatformShipmentFields, opts: { localId?: number; orderId?: number }): ShipmentRecord => {
      const params = {
        tracking_number: f.trackingNumber,
        platform_id: nul(f.platformId),
        order_id: nul(opts.orderId),
        reference: nul(f.reference),
        contract_code: nul(f.contractCode),
        carrier_code: nul(f.carrierCode),
        status_key: nul(f.statusKey),
        cost_total: nul(f.costTotal),
        currency: nul(f.currency),
        platform: toJson(f.platform, 'platform'),
        now: isoNow(clock),
      };
      let id = opts.localId ?? byTracking.get(f.trackingNumber)?.id;
      try {
        if (id === undefined) {
          id = Number(insertFull.run(params).lastInsertRowid);
        } else if (updateFull.run({ ...params, id }).changes === 0) {
          throw new StoreError('not_found', `Shipment row ${id} not found`);
        }
      } catch (err) {
        if (isUniqueViolation(err)) {
          throw new StoreError('conflict', `Tracking number ${f.trackingNumber} is already stored for another shipment`, {
            trackingNumber: ['already stored for another shipment'],
          });
        }
        throw err;
      }
      const out = get(id);
      if (!out) throw new StoreError('not_found', `Shipment row ${id} not found`);
      return out;
    },
  );

  return {
    createPending(input) {
      const now = isoNow(clock);
      const res = insertPending.run(nul(input.orderId), input.reference, nul(input.contractCode), nul(input.carrierCode), now, now);
      const out = get(Number(res.lastInsertRowid));
      if (!out) throw new StoreError('not_found', 'Pending shipment vanished');
      return out;
    },
    recordPlatform: (fields, opts = {}) => recordPlatform(fields, opts),
    getById: get,
    getByTrackingNumber: getTracking,
    getByReference(reference) {
      const r = byReference.get(reference);
      return r ? shipmentFromRow(r) : undefined;
    },
    listByOrder: (orderId) => byOrder.all(orderId).map(shipmentFromRow),
    listRecent(opts = {}) {
      const clauses: string[] = [];
      if (!opts.includePending) clauses.push('tracking_number IS NOT NULL');
      if (opts.since !== undefined) clauses.push('created_at >= @since');
      const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
      return db
        .prepare<Record<string, unknown>, ShipmentRow>(`SELECT ${COLS} FROM shipments ${where} ORDER BY id DESC LIMIT @limit`)
        .all({ since: opts.since ?? null, limit: Math.max(1, Math.min(1000, Math.floor(opts.limit ?? 50))) })
        .map(shipmentFromRow);
    },
    listUnmanifested(opts = {}) {
      return db
        .prepare<Record<string, unknown>, ShipmentRow>(
          `SELECT ${COLS} FROM shipments
           WHERE tracking_number IS NOT NULL AND cancelled_at IS NULL AND manifest_id IS NULL
             AND (@carrier IS NULL OR carrier_code = @carrier) AND (@contract IS NULL OR contract_code = @contract)
           ORDER BY id`,
        )
        .all({ carrier: opts.carrierCode ?? null, contract: opts.contractCode ?? null })
        .map(shipmentFromRow);
    },
    listByManifest: (manifestId, limit) => byManifest.all(manifestId, limit === undefined ? -1 : Math.max(0, Math.floor(limit))).map(shipmentFromRow),
    setStatus(trackingNumber, statusKey, platform) {
      const json = platform === undefined ? null : toJson(platform, 'platform');
      if (updateStatus.run(statusKey, json, isoNow(clock), trackingNumber).changes === 0) {
        throw new StoreError('not_found', `Shipment ${trackingNumber} not found`);
      }
      return mustTracking(trackingNumber);
    },
    markCancelled(trackingNumber, at) {
      const now = isoNow(clock);
      if (updateCancelled.run(at ?? now, now, trackingNumber).changes === 0) {
        throw new StoreError('not_found', `Shipment ${trackingNumber} not found`);
      }
      return mustTracking(trackingNumber);
    },
    assignManifest: db.transaction((trackingNumbers: readonly string[], manifestId: number): number => {
      const now = isoNow(clock);
      let n = 0;
      for (const t of trackingNumbers) n += updateManifest.run(manifestId, now, t).changes;
      return n;
    }),
    deletePending(id) {
      if (deleteRow.run(id).changes === 0) {
        throw new StoreError(byId.get(id) ? 'invalid_state' : 'not_found', `Shipment row ${id} is not a pending shipment`);
      }
    },
  };
}
