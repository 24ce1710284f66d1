/** Commands of packers and the station's name (issue 26; see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import { PackerInput, Pin, SignInInput, StationSettingsInput, type PackerSessionView, type PackerView } from '../packers';
import { command, Empty } from './define';

/** Commands of packers. */
export const packersCommands = {
  /** The packers of this station, by name. */
  'packers.list': command<PackerView[]>()(Empty),
  /** Adds or changes a packer (supervisor). The first packer must be a supervisor; a badge or PIN another packer has is refused naming the field. */
  'packers.save': command<PackerView>()(PackerInput),
  /** Removes a packer (supervisor); their past actions keep their name. */
  'packers.remove': command<{ removed: boolean }>()(z.object({ id: z.number().int().positive() }).strict()),
  /** Who is signed in, the station's name, the idle time. */
  'packers.session': command<PackerSessionView>()(Empty),
  /** Signs a packer in by badge or PIN (another packer's badge switches at once). @throws `unknown_packer`. */
  'packers.signIn': command<PackerSessionView>()(SignInInput),
  /** Signs the packer out. */
  'packers.signOut': command<PackerSessionView>()(Empty),
  /** A supervisor's PIN unlocks the settings that change money or devices for 5 minutes. @throws `unknown_packer`. */
  'packers.unlock': command<PackerSessionView>()(z.object({ pin: Pin }).strict()),
  /** The station's name and the idle sign-out time (supervisor). */
  'packers.setStation': command<PackerSessionView>()(StationSettingsInput),
} as const;
