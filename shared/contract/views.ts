/**
 * View types the station sends to the screens. They are the station's own
 * shapes (built from the SQLite store and platform responses), not wire types.
 */
import type { Money, Status } from '../platform/common';
import type { CreditBalance } from '../platform/resources';

/** Which platform the station talks to: the embedded sandbox (training mode) or a real one. */
export interface PlatformInfo {
  mode: 'sandbox' | 'platform';
  /** `{base_url}` of the API, e.g. `http://127.0.0.1:5123/api/2026-09`. */
  baseUrl: string;
  /** Client name shown in the header (sandbox demo account name, or the configured client id). */
  accountName: string;
}

/** Connection state shown in the header: `online` after the last call succeeded. */
export type ConnectionState = 'online' | 'offline' | 'unknown';

/** Printer state as last read by `~HS` / the folder printer check. */
export interface PrinterView {
  uri: string;
  /** Human name (e.g. "Zebra on 10.0.0.5:9100", "Folder /tmp/labels"). */
  name: string;
  state: 'ready' | 'paper_out' | 'head_open' | 'paused' | 'error' | 'unreachable' | 'unknown';
  detail: string;
}

/** What the header shows. */
export interface AppInfo {
  platform: PlatformInfo;
  connection: ConnectionState;
  credit: CreditBalance | null;
  printer: PrinterView;
  /** Outbox rows not yet done (queued, sending, needs attention). */
  pendingOutbox: number;
  version: string;
}

/** A print job row (DESIGN.md "Print jobs are rows too"). */
export interface PrintJobView {
  id: number;
  trackingNumber: string;
  printerUri: string;
  state: 'queued' | 'printing' | 'printed' | 'failed';
  attempts: number;
  lastError: string | null;
  bytesWritten: number;
  requestedBy: 'auto' | 'reprint';
  createdAt: string;
  printedAt: string | null;
}

/** Outbox state of the call that created a record (DESIGN.md "Offline and exactly-once"). */
export type OutboxState = 'queued' | 'sending' | 'done' | 'needs_attention';

/** A shipment as the bench shows it. Money in `currency` (EUR); weights kg. */
export interface ShipmentView {
  trackingNumber: string;
  reference: string | null;
  orderNumber: string | null;
  status: Status;
  carrier: { code: string; name: string; contractCode: string; contractName: string };
  parcels: number;
  packageTrackingNumbers: string[];
  cost: Money;
  createdAt: string;
  recipient: { name: string; city: string; postalCode: string; countryCode: string } | null;
  cod: Money | null;
  manifestId: number | null;
  cancelled: boolean;
  /** Label formats stored locally (bytes as received), so reprints need no network. */
  labelFormats: Array<'ZPL' | 'PDF'>;
  printJobs: PrintJobView[];
  warning: string | null;
}

/** A manifest (closing list) kept locally with its PDF. */
export interface ManifestView {
  id: number;
  carrier: { code: string; name: string };
  contractCode: string | null;
  totalShipments: number;
  totalCost: number;
  createdAt: string;
  hasPdf: boolean;
}
