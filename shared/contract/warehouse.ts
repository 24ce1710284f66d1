/**
 * The bench's link to its warehouse (issue 35), as the station's contract
 * shows it: whether the warehouse database answers, since when (the moment it
 * came or went, ISO 8601), and which bench this is. A station without a
 * warehouse works alone: `connected` false, `since` null.
 */

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
