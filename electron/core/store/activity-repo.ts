/**
 * Who did what and when (table `activity`, migration 10, issue 26): one row
 * per shipment, print, reprint, verify mismatch, void, pickup, manifest,
 * order scan, sign-in and sign-out, with the packer's and the station's
 * names as they were. `day` is the Europe/Rome day of `at`
 * (shared/domain/rome-day.ts), so a day's rows come from the index.
 */
import type Database from 'better-sqlite3';
import { romeDay } from '../../../shared/domain/rome-day';
import { isoNow, type Clock } from './sql';

/** What an activity row says was done. */
type ActivityAction = 'scan' | 'ship' | 'print' | 'reprint' | 'verify' | 'void' | 'pickup' | 'manifest' | 'sign_in' | 'sign_out';

/** One action to record; the time is the store's clock. */
interface ActivityInput {
  action: ActivityAction;
  packerId: number | null;
  packerName: string | null;
  stationName: string | null;
  trackingNumber?: string | null;
  orderId?: number | null;
  /** What else names the action (pickup id, manifest ids, print job id), free text. */
  subject?: string | null;
}

/** A recorded action. */
interface ActivityRecord extends Required<ActivityInput> {
  id: number;
  day: string;
  at: string;
}

/** Repository of activity. */
export interface ActivityRepo {
  /** Records one action now; returns its id. */
  record(input: ActivityInput): number;
  /** The actions of Europe/Rome days `firstDay`..`lastDay` (inclusive), oldest first; `action` narrows. */
  listDays(firstDay: string, lastDay: string, action?: ActivityAction): ActivityRecord[];
  /** Who shipped each tracking number (the `ship` row), for the day report's CSV. */
  shippersOf(firstDay: string, lastDay: string): Map<string, string | null>;
  /** The actions after row `id` (exclusive), oldest first, at most `limit`: what the warehouse has not been sent yet. */
  listAfter(id: number, limit: number): ActivityRecord[];
}

interface Row {
  id: number;
  day: string;
  at: string;
  action: ActivityAction;
  packer_id: number | null;
  packer_name: string | null;
  station_name: string | null;
  tracking_number: string | null;
  order_id: number | null;
  subject: string | null;
}

const COLS = 'id, day, at, action, packer_id, packer_name, station_name, tracking_number, order_id, subject';

const record = (r: Row): ActivityRecord => ({
  id: r.id,
  day: r.day,
  at: r.at,
  action: r.action,
  packerId: r.packer_id,
  packerName: r.packer_name,
  stationName: r.station_name,
  trackingNumber: r.tracking_number,
  orderId: r.order_id,
  subject: r.subject,
});

/** Builds the activity repository on an open database. */
export function createActivityRepo(db: Database.Database, clock: Clock): ActivityRepo {
  const insert = db.prepare<[string, string, string, number | null, string | null, string | null, string | null, number | null, string | null], never>(
    'INSERT INTO activity (day, at, action, packer_id, packer_name, station_name, tracking_number, order_id, subject) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const selectDays = db.prepare<[string, string], Row>(`SELECT ${COLS} FROM activity WHERE day BETWEEN ? AND ? ORDER BY id`);
  const selectDaysAction = db.prepare<[string, string, string], Row>(`SELECT ${COLS} FROM activity WHERE day BETWEEN ? AND ? AND action = ? ORDER BY id`);
  const selectShippers = db.prepare<[string, string], { tracking_number: string; packer_name: string | null }>(
    "SELECT tracking_number, packer_name FROM activity WHERE day BETWEEN ? AND ? AND action = 'ship' AND tracking_number IS NOT NULL ORDER BY id",
  );
  const selectAfter = db.prepare<[number, number], Row>(`SELECT ${COLS} FROM activity WHERE id > ? ORDER BY id LIMIT ?`);
  return {
    listAfter(id, limit) {
      return selectAfter.all(id, limit).map(record);
    },
    record(input) {
      const at = isoNow(clock);
      return Number(
        insert.run(
          romeDay(Date.parse(at)),
          at,
          input.action,
          input.packerId,
          input.packerName,
          input.stationName,
          input.trackingNumber ?? null,
          input.orderId ?? null,
          input.subject ?? null,
        ).lastInsertRowid,
      );
    },
    listDays(firstDay, lastDay, action) {
      const rows = action ? selectDaysAction.all(firstDay, lastDay, action) : selectDays.all(firstDay, lastDay);
      return rows.map(record);
    },
    shippersOf(firstDay, lastDay) {
      const m = new Map<string, string | null>();
      for (const r of selectShippers.all(firstDay, lastDay)) m.set(r.tracking_number, r.packer_name);
      return m;
    },
  };
}
