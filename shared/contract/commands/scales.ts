/** Commands of the scale (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import type { ScaleView } from '../views';
import { command, Empty, INPUT_LIMITS } from './define';

/** Commands of the scale. */
export const scalesCommands = {
  /** The scale, its reading and its settings. */
  'scales.get': command<ScaleView>()(Empty),
  /** Choose the scale (none, USB HID, serial port with baud rate and protocol) and whether a stable weight re-quotes; saved per station. */
  'scales.set': command<ScaleView>()(
    z
      .object({
        config: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('none') }).strict(),
          z.object({ kind: z.literal('hid') }).strict(),
          z
            .object({
              kind: z.literal('serial'),
              path: z.string().trim().min(1, { error: 'Serial port is required, e.g. /dev/ttyUSB0 or COM3' }).max(INPUT_LIMITS.fileName),
              baudRate: z.number().int().min(300, { error: 'Baud rate must be 300 to 115200' }).max(115200, { error: 'Baud rate must be 300 to 115200' }),
              protocol: z.enum(['mt-sics', 'continuous']),
            })
            .strict(),
        ]).optional(),
        requoteOnStable: z.boolean().optional(),
      })
      .strict(),
  ),
} as const;
