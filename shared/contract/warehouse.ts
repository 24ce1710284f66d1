/**
 * The bench's link to its warehouse (issue 35), as the station's contract
 * shows it: whether the warehouse database answers, since when (the moment it
 * came or went, ISO 8601), and which bench this is. A station without a
 * warehouse works alone: `connected` false, `since` null.
 */
import { z } from 'zod';

/** This bench as the warehouse knows it: a stable id (kept in its database) and its name (Settings › Station). */
interface WarehouseBenchView {
  id: string;
  name: string;
}

/** `warehouse.status`. */
export interface WarehouseStatusView {
  connected: boolean;
  /** When the warehouse last came or went (ISO 8601); null without a warehouse, or before the first answer. */
  since: string | null;
  bench: WarehouseBenchView;
}

/** Settings › Station › Warehouse: what the bench joins at its start. */
export interface WarehouseConnectionView {
  /** The URL the bench joins now (command line, environment or saved), without a password; null: alone. */
  url: string | null;
  /** Where `url` comes from: `--warehouse`/`STATION_WAREHOUSE_URL` (Settings cannot change it then), saved in Settings, or none. */
  source: 'command_line' | 'settings' | 'none';
  /** The URL saved in Settings for the next start (may differ from `url` until a restart); null: none saved. */
  savedUrl: string | null;
  /** Whether the OS secret store holds a password for the saved URL (else PGPASSWORD or ~/.pgpass). */
  passwordSaved: boolean;
}
/**
 * `warehouse.settings.get` / `.set`: the warehouse's settings, shared by every bench. `claimTimeoutS`: seconds
 * a bench may be silent (no heartbeat) before its order claims can be taken over by another bench, 30 to
 * 3600 (default 120).
 */
export const WarehouseSettings = z
  .object({
    claimTimeoutS: z
      .number({ error: 'Claim timeout must be a number of seconds' })
      .int({ error: 'Claim timeout must be a whole number of seconds' })
      .min(30, { error: 'Claim timeout must be at least 30 seconds' })
      .max(3600, { error: 'Claim timeout must be at most 3600 seconds (one hour)' }),
  })
  .strict();
export type WarehouseSettings = z.infer<typeof WarehouseSettings>;

/**
 * A close of the day for the whole warehouse asked at this bench with the supervisor's PIN (issue 43 item 4),
 * carried out by the supervisor's program: when (ISO), the shipments manifested, the manifests per contract, the
 * labels ahead cancelled and refunded (EUR), the cancels the platform refused, and the benches offline (named;
 * their shipments go in the next close).
 */
export interface WarehouseCloseView {
  /** When the day was closed (ISO). */
  at: string;
  /** Shipments manifested. */
  shipments: number;
  manifests: Array<{ contract: string; shipments: number }>;
  cancelled: number;
  refunded: number;
  cancelRefused: number;
  offlineBenches: string[];
}
