/** Commands of the warehouse link (issue 35; see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import { warehouseUrlProblem } from '../../domain/warehouse-url';
import { WarehouseSettings, type WarehouseCloseView, type WarehouseConnectionView, type WarehouseStatusView } from '../warehouse';
import { command, Empty } from './define';

/** Commands of the warehouse link. */
export const warehouseCommands = {
  /** Whether the warehouse database answers and since when, and this bench's id and name. */
  'warehouse.status': command<WarehouseStatusView>()(Empty),
  /** Settings › Station › Warehouse: the warehouse this bench joins at its start, where that comes from, whether a password is saved (never the password). */
  'warehouse.connection.get': command<WarehouseConnectionView>()(Empty),
  /**
   * Saves the warehouse this bench joins at its next start (supervisor): the URL (`postgres://user@host:5432/db`,
   * `sslmode` as libpq spells it; never with the password) in the bench's database, the password, when given, in
   * the OS secret store. `url` null: the bench works alone from its next start (the saved password is forgotten).
   * Errors: invalid_input naming `url`; secret_store_unavailable when this machine has no secret store (then use
   * PGPASSWORD or ~/.pgpass).
   */
  'warehouse.connection.set': command<{ restartRequired: true }>()(
    z
      .object({
        url: z
          .string()
          .trim()
          .max(500, { error: 'The warehouse URL is too long (max 500 characters)' })
          .superRefine((url, c) => {
            const problem = warehouseUrlProblem(url);
            if (problem !== null) c.addIssue({ code: 'custom', message: `The warehouse URL ${problem}` });
          })
          .nullable(),
        password: z.string().min(1, { error: 'The password cannot be empty: leave it out to keep PGPASSWORD or ~/.pgpass' }).max(1000).optional(),
      })
      .strict(),
  ),
  /** The warehouse's settings (the claim heartbeat timeout); a station alone answers its own. */
  'warehouse.settings.get': command<WarehouseSettings>()(Empty),
  /**
   * Changes the warehouse's settings for every bench (a supervisor's command). Errors: `supervisor_required`,
   * `invalid_input` by field, `warehouse_offline` (read-only while the warehouse is away), `changed_elsewhere`.
   */
  'warehouse.settings.set': command<WarehouseSettings>()(WarehouseSettings),
  /**
   * Closes the day for the whole warehouse from this bench (a supervisor's command, issue 43 item 4): the
   * supervisor's program closes it as its page does (unused labels ahead cancelled, one manifest per contract of
   * every bench's printed shipments, offline benches named) and answers within 2 minutes. Errors:
   * `supervisor_required`, `invalid_state` (a bench alone; the program refused: its words), `timeout` (the
   * supervisor's program is not running), `warehouse_offline`.
   */
  'warehouse.closeDay': command<WarehouseCloseView>()(Empty),
} as const;
