/** Commands of the data folder: its size, what is kept and for how long (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import type { StorageView } from '../views';
import { command, Empty } from './define';

/** Commands of the data folder. */
export const storageCommands = {
  /** The data folder: its size, the database's, the label bytes kept and since when, the retention, the last file check (issue 27). */
  'storage.get': command<StorageView>()(Empty),
  /** How many days label bytes and done queue rows are kept (7 to 3650); shipment facts are kept for ever. */
  'storage.setRetention': command<StorageView>()(
    z.object({
      days: z
        .number({ error: 'Retention must be a number of days' })
        .int({ error: 'Retention must be whole days' })
        .min(7, { error: 'Keep labels at least 7 days' })
        .max(3650, { error: 'Keep labels at most 3650 days' }),
    }),
  ),
} as const;
