/** Commands of packing slips (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import { SlipSettings, type SlipJobView } from '../slips';
import { command, Empty, INPUT_LIMITS } from './define';

/** Commands of packing slips. */
export const slipsCommands = {
  /** Packing-slip settings of this station (printer URI, escpos/a4, paper width, when to print, shop name). */
  'slips.settings.get': command<SlipSettings>()(Empty),
  /** Saves the slip settings; a device URI the station cannot open is refused on `printerUri`. */
  'slips.settings.set': command<SlipSettings>()(SlipSettings),
  /** Prints the packing slip of an order (or of the order a tracking number shipped) now, on demand or again: queued for the slip printer. */
  'slips.print': command<SlipJobView>()(
    z
      .object({ orderId: z.number().int().positive().optional(), trackingNumber: z.string().trim().min(1).max(INPUT_LIMITS.trackingNumber).optional() })
      .strict()
      .refine((v) => (v.orderId === undefined) !== (v.trackingNumber === undefined), { error: 'Give the order id or the tracking number' }),
  ),
  /** Slip jobs of an order (all when absent), newest first. */
  'slips.list': command<SlipJobView[]>()(z.object({ orderId: z.number().int().positive().optional() }).strict()),
} as const;
