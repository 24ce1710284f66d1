/**
 * Shapes of the simulated carrier's bookkeeping: a shipment's journey, its
 * planned steps and their effects, tracking entries and stocks; and the small
 * helpers the plan and the lifecycle share.
 */
import type { Address } from '../../../shared/platform/common';
import type { StockActionName, StockOutcome } from '../../../shared/platform/tracking';
import type { ShipmentRecord } from '../model';
import type { Scenario } from './scenarios';
import { MINUTE } from '../time';

/** One event of a shipment's tracking history. */
export interface TrackingEntry {
  at: Date;
  /** Status after the event. */
  statusCode: number;
  /** Carrier's text (Stato). */
  description: string;
  /** Where it happened (Luogo). */
  location: string;
}

/** Side effects of a planned step. */
export type Effect =
  | { kind: 'pickup' }
  | { kind: 'delivered' }
  | { kind: 'reissue'; trackingNumber: string }
  | { kind: 'open_stock'; reason: { code: string; description: string }; location: string }
  | { kind: 'close_stock'; outcome: StockOutcome };

/** A planned carrier event. */
export interface Step extends TrackingEntry {
  effects: Effect[];
}

/** A stock (giacenza) as the sandbox keeps it. */
export interface StockRecord {
  id: number;
  accountId: number;
  shipmentId: number;
  /** Carrier dossier number (`giacenza_id`). */
  giacenzaId: string;
  /** 1 for the parcel's first stock, 2 for the next one, ... */
  dossier: number;
  status: 'open' | 'instructed' | 'closed';
  /** LDV the parcel was held under. */
  carrierTrackingNumber: string;
  /** New LDV issued when this stock was released (redirection), else null. */
  reissuedTrackingNumber: string | null;
  reason: { code: string; description: string };
  /** Depot holding the parcel. */
  location: string;
  openedAt: Date;
  /** Last date (YYYY-MM-DD, Europe/Rome) to give instructions. */
  deadline: string;
  action: StockActionName | null;
  actionDetails: Record<string, unknown> | null;
  instructedAt: Date | null;
  sentToCarrier: boolean | null;
  outcome: StockOutcome | null;
  closedAt: Date | null;
}

/** Progress of one shipment. */
export interface Journey {
  shipment: ShipmentRecord;
  scenario: Scenario;
  /** History, oldest first. */
  entries: TrackingEntry[];
  /** Planned steps, earliest first; null while waiting for the carrier to collect. */
  steps: Step[] | null;
  /** LDV the parcel travels under now. */
  carrierTrackingNumber: string;
  /** Stocks opened so far on the parcel. */
  dossiers: number;
  /** Stock not yet closed, or null. */
  stockId: number | null;
  /** Cached collection instant with the manifest it was computed for. */
  pickupCache?: { manifestId: number | null; at: number };
}

/** Depot/city label of an address: city upper case, with the country code abroad (`BERLIN (DE)`). */
export function placeOf(a: Pick<Address, 'city' | 'countryCode'>): string {
  const city = a.city.trim().toUpperCase();
  return a.countryCode.toUpperCase() === 'IT' ? city : `${city} (${a.countryCode.toUpperCase()})`;
}

export const plus = (d: Date, minutes: number) => new Date(d.getTime() + minutes * MINUTE);
