/**
 * The shapes the page's API gives for labels ahead, batch prints and the day's close (issue 43 items 3–6),
 * shared by the server (./day-close.ts, ./ahead-routes.ts) and the page (./page/ahead-panel.ts), which
 * imports types only.
 */
import type { AheadSettings, BenchChoice, RuleChoice } from './ahead-settings';
import type { BatchView } from './batch';

/** A label ahead the platform would not cancel at the close, and what to do. */
export interface RefusedCancel {
  trackingNumber: string;
  orderKey: string;
  /** `invalid_state`: 409 (already in a manifest or handed over); `not_found`: 404; `error`: no answer or another error (left bought). */
  reason: 'invalid_state' | 'not_found' | 'error';
  message: string;
}

/** A manifest the close made (or tried to): one per contract. */
export interface CloseManifest {
  contractCode: string;
  contractName: string | null;
  /** The platform's manifest id; null when none was made (`already`, or `error`). */
  manifestId: number | null;
  shipments: number;
  /** The platform had every shipment in a manifest already (404): they count as closed. */
  already?: boolean;
  /** Why no manifest was made (they go in the next close). */
  error?: string;
}

/** A bench offline at the close: its shipments wait for the next close. */
export interface OfflineBench {
  id: string;
  name: string;
  lastSeen: string;
  /** Its shipments not closed yet. */
  waiting: number;
}

/** One close of the day for the warehouse. */
export interface CloseResult {
  id: number;
  closedAt: string;
  /** Where it was closed: 'page' or a bench's id. */
  place: string;
  packer: string | null;
  cancelled: number;
  /** EUR refunded for the labels ahead cancelled. */
  refunded: number;
  cancelRefused: RefusedCancel[];
  manifests: CloseManifest[];
  offlineBenches: OfflineBench[];
}

/** `GET /api/ahead`: everything the page's labels-ahead panels show. */
export interface AheadAnswer {
  settings: AheadSettings;
  rules: RuleChoice[];
  benches: BenchChoice[];
  batches: BatchView[];
  /** SKUs and shops of the labels ahead waiting (state bought), for the batch's selection. */
  waiting: { total: number; single: number; skus: Array<{ value: string; n: number }>; shops: Array<{ value: string; n: number }> };
  lastClose: CloseResult | null;
  platformGiven: boolean;
}
