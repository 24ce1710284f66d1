/**
 * The warehouse's own settings (issue 35): how long a silent bench keeps its order claims. Shared by every
 * bench of the warehouse (shared.ts `SHARED_SETTING_KEYS`), changed by a supervisor with
 * `warehouse.settings.set`.
 */
import { WarehouseSettings } from '../../../shared/contract/warehouse';
import { defineSetting } from '../store';

/**
 * Setting `warehouse.claimTimeoutS`: seconds a bench may be silent (no heartbeat) before another bench's
 * claim takes its orders over (default 120, the 2 minutes; 30 to 3600).
 */
export const ClaimTimeoutSetting = defineSetting('warehouse.claimTimeoutS', WarehouseSettings.shape.claimTimeoutS, 120);
