/**
 * Packers at the bench (issue 26): who signs in by badge or PIN, the
 * station's name, and the views the screens get. A station with no packers
 * set works as before: nobody signs in and no setting asks for a PIN.
 */
import { z } from 'zod';

/** Roles: a `supervisor` may change settings that touch money or devices (rules, printers, account, packers). */
export const PackerRole = z.enum(['packer', 'supervisor'], { error: 'role must be packer or supervisor' });
/** One of {@link PackerRole}. */
export type PackerRole = z.infer<typeof PackerRole>;

/** A PIN: 4 to 8 digits, typed at the bench (never a password). */
export const Pin = z.string({ error: 'pin must be text' }).regex(/^\d{4,8}$/, { error: 'pin must be 4 to 8 digits' });

/** A badge barcode as the scanner reads it: 3 to 64 printable ASCII characters without spaces. */
const Badge = z
  .string({ error: 'badge must be text' })
  .trim()
  .regex(/^[\x21-\x7e]{3,64}$/, { error: 'badge must be 3 to 64 letters, digits or signs, without spaces' });

/** A packer as the screens see it (the PIN itself never leaves the core). */
export interface PackerView {
  id: number;
  name: string;
  badge: string | null;
  hasPin: boolean;
  role: PackerRole;
}

/** Input of `packers.save`: `id` absent for a new packer; `pin` absent keeps the PIN, null removes it. */
export const PackerInput = z
  .object({
    id: z.number().int().positive().optional(),
    name: z.string({ error: 'name is required' }).trim().min(1, { error: 'name is required' }).max(60, { error: 'name is at most 60 characters' }),
    badge: Badge.nullable().optional(),
    pin: Pin.nullable().optional(),
    role: PackerRole,
  })
  .strict();

/** Who is at the bench and the station's own settings (`packers.session`, event `packers.changed`). */
export interface PackerSessionView {
  /** The bench's name ("Banco 3"), recorded beside the packer on every action; '' when unset. */
  stationName: string;
  /** The packer signed in, or null. */
  packer: PackerView | null;
  /** False when the station has no packers: nobody signs in and no PIN is asked. */
  packersSet: boolean;
  /** Minutes without a command before the packer is signed out (1 to 480). */
  idleMinutes: number;
  /** True while settings that change money or devices may be changed (a supervisor signed in or unlocked, or no packers set). */
  supervisorUnlocked: boolean;
}

/** Input of `packers.setStation`: the bench's name and the idle sign-out time in minutes. */
export const StationSettingsInput = z
  .object({
    stationName: z.string({ error: 'stationName must be text' }).trim().max(40, { error: 'stationName is at most 40 characters' }),
    idleMinutes: z.number({ error: 'idleMinutes must be a number' }).int({ error: 'idleMinutes must be whole minutes' }).min(1, { error: 'idleMinutes is at least 1' }).max(480, { error: 'idleMinutes is at most 480' }),
  })
  .strict();

/** Input of `packers.signIn`: a badge as scanned, or a PIN as typed (exactly one). */
export const SignInInput = z
  .object({ badge: Badge.optional(), pin: Pin.optional() })
  .strict()
  .refine((v) => (v.badge === undefined) !== (v.pin === undefined), { error: 'give a badge or a pin, not both', path: ['badge'] });
