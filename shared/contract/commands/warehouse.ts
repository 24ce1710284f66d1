/** Commands of the warehouse link (issue 35; see ./index.ts for the contract as a whole). */
import { WarehouseSettings, type WarehouseStatusView } from '../warehouse';
import { command, Empty } from './define';

/** Commands of the warehouse link. */
export const warehouseCommands = {
  /** Whether the warehouse database answers and since when, and this bench's id and name. */
  'warehouse.status': command<WarehouseStatusView>()(Empty),
  /** The warehouse's settings (the claim heartbeat timeout); a station alone answers its own. */
  'warehouse.settings.get': command<WarehouseSettings>()(Empty),
  /**
   * Changes the warehouse's settings for every bench (a supervisor's command). Errors: `supervisor_required`,
   * `invalid_input` by field, `warehouse_offline` (read-only while the warehouse is away), `changed_elsewhere`.
   */
  'warehouse.settings.set': command<WarehouseSettings>()(WarehouseSettings),
} as const;
