/**
 * Pickups booked from this station (table `pickups`). A row is written as
 * `requested` together with its outbox row (POST /pickups costs money), then
 * becomes `booked` with the platform's answer (spec: Resources > Pickup, only
 * `pickupId` and `cost` are specified) or `failed`.
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors';
import { fromJson, isoNow, nul, toJson, type Clock } from './sql';

/** Local state of a pickup booking. */
type PickupState = 'requested' | 'booked' | 'failed';

/**
 * A pickup booking.
 * - `contractCode`: the contract booked with (POST /pickups `serviceType`);
 * - `pickupDate`: `YYYY-MM-DD`; `pickupTime`: `AM`, `PM`, `AMPM`;
 * - `platformId`: the platform's integer id (GET /pickups/{id}); `pickupId`: the carrier's identifier;
 * - `costTotal`: in `currency` (EUR);
 * - `request`: the POST /pickups body as sent; `platform`: the Pickup JSON received.
 */
export interface PickupRecord {
  id: number;
  state: PickupState;
  contractCode: string;
  carrierCode: string | null;
  pickupDate: string;
  pickupTime: string | null;
  platformId: number | null;
  pickupId: string | null;
  costTotal: number | null;
  currency: string | null;
  request: unknown;
  platform: unknown;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Repository of pickups. */
export interface PickupsRepo {
  /** Local record of a booking about to be sent (pair it with an outbox row in one `store.tx`). */
  createRequested(input: {
    contractCode: string;
    carrierCode?: string;
    pickupDate: string;
    pickupTime?: string;
    request: unknown;
  }): PickupRecord;
  /** `requested`/`failed` -> `booked` with the platform's answer. @throws StoreError `not_found`. */
  markBooked(
    id: number,
    booked: { platformId?: number; pickupId?: string; costTotal?: number; currency?: string; platform: unknown },
  ): PickupRecord;
  /** -> `failed` with the error text. @throws StoreError `not_found`, `invalid_state` if already booked. */
  markFailed(id: number, error: string): PickupRecord;
  get(id: number): PickupRecord | undefined;
  getByPlatformId(platformId: number): PickupRecord | undefined;
  /** Newest pickup date first; `from`/`to` are inclusive `YYYY-MM-DD`; `limit` default 100. */
  list(opts?: { from?: string; to?: string; state?: PickupState; limit?: number }): PickupRecord[];
}

interface PickupRow {
  id: number;
  state: PickupState;
  contract_code: string;
  carrier_code: string | null;
  pickup_date: string;
  pickup_time: string | null;
  platform_id: number | null;
  pickup_id: string | null;
  cost_total: number | null;
  currency: string | null;
  request: string;
  platform: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

function pickupFromRow(r: PickupRow): PickupRecord {
  return {
    id: r.id,
    state: r.state,
    contractCode: r.contract_code,
    carrierCode: r.carrier_code,
    pickupDate: r.pickup_date,
    pickupTime: r.pickup_time,
    platformId: r.platform_id,
    pickupId: r.pickup_id,
    costTotal: r.cost_total,
    currency: r.currency,
    request: fromJson(r.request),
    platform: fromJson(r.platform),
    lastError: r.last_error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Builds the pickups repository on an open database. */
export function createPickupsRepo(db: Database.Database, clock: Clock): PickupsRepo {
  const COLS = `id, state, contract_code, carrier_code, pickup_date, pickup_time, platform_id, pickup_id, cost_total,
    currency, request, platform, last_error, created_at, updated_at`;
  const byId = db.prepare<[number], PickupRow>(`SELECT ${COLS} FROM pickups WHERE id = ?`);
  const byPlatformId = db.prepare<[number], PickupRow>(`SELECT ${COLS} FROM pickups WHERE platform_id = ?`);
  const insert = db.prepare<Record<string, unknown>, never>(
    `INSERT INTO pickups (state, contract_code, carrier_code, pickup_date, pickup_time, request, created_at, updated_at)
     VALUES ('requested', @contract_code, @carrier_code, @pickup_date, @pickup_time, @request, @now, @now)`,
  );
  const booked = db.prepare<Record<string, unknown>, never>(
    `UPDATE pickups SET state = 'booked', platform_id = @platform_id, pickup_id = @pickup_id, cost_total = @cost_total,
       currency = @currency, platform = @platform, last_error = NULL, updated_at = @now WHERE id = @id`,
  );
  const failed = db.prepare<[string, string, number], never>(
    `UPDATE pickups SET state = 'failed', last_error = ?, updated_at = ? WHERE id = ? AND state != 'booked'`,
  );

  const must = (id: number) => {
    const r = byId.get(id);
    if (!r) throw new StoreError('not_found', `Pickup ${id} not found`);
    return pickupFromRow(r);
  };

  return {
    createRequested(input) {
      const res = insert.run({
        contract_code: input.contractCode,
        carrier_code: nul(input.carrierCode),
        pickup_date: input.pickupDate,
        pickup_time: nul(input.pickupTime),
        request: toJson(input.request, 'request'),
        now: isoNow(clock),
      });
      return must(Number(res.lastInsertRowid));
    },
    markBooked(id, b) {
      const res = booked.run({
        id,
        platform_id: nul(b.platformId),
        pickup_id: nul(b.pickupId),
        cost_total: nul(b.costTotal),
        currency: nul(b.currency),
        platform: toJson(b.platform, 'platform'),
        now: isoNow(clock),
      });
      if (res.changes === 0) throw new StoreError('not_found', `Pickup ${id} not found`);
      return must(id);
    },
    markFailed(id, error) {
      const changes = failed.run(error, isoNow(clock), id).changes;
      const p = must(id);
      if (changes === 0) throw new StoreError('invalid_state', `Pickup ${id} is already booked`);
      return p;
    },
    get(id) {
      const r = byId.get(id);
      return r ? pickupFromRow(r) : undefined;
    },
    getByPlatformId(platformId) {
      const r = byPlatformId.get(platformId);
      return r ? pickupFromRow(r) : undefined;
    },
    list(opts = {}) {
      return db
        .prepare<Record<string, unknown>, PickupRow>(
          `SELECT ${COLS} FROM pickups
           WHERE (@from IS NULL OR pickup_date >= @from) AND (@to IS NULL OR pickup_date <= @to)
             AND (@state IS NULL OR state = @state)
           ORDER BY pickup_date DESC, id DESC LIMIT @limit`,
        )
        .all({
          from: opts.from ?? null,
          to: opts.to ?? null,
          state: opts.state ?? null,
          limit: Math.max(1, Math.min(1000, Math.floor(opts.limit ?? 100))),
        })
        .map(pickupFromRow);
    },
  };
}
