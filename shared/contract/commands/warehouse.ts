/** Commands of the warehouse link (issue 35; see ./index.ts for the contract as a whole). */
import type { WarehouseStatusView } from '../warehouse';
import { command, Empty } from './define';

/** Commands of the warehouse link. */
export const warehouseCommands = {
  /** Whether the warehouse database answers and since when, and this bench's id and name. */
  'warehouse.status': command<WarehouseStatusView>()(Empty),
} as const;
