/**
 * Applying a printer profile (shared/contract/printer-profile.ts) to the ZPL
 * sent to the printer. Commands from the Zebra ZPL II Programming Guide:
 * `~SD` set darkness (absolute, 00–30), `^PW` print width and `^LL` label
 * length (dots), `^PR` print rate (ips), `^MT` media type (D direct thermal,
 * T thermal transfer), `^LT` label top (dots, −120…120).
 */
import type { PrinterProfile } from '../../../../shared/contract/printer-profile';
import { adaptZpl, type ZplDpi } from './adapt';
import { mmToDots } from './units';

/** The profile's label size in dots: width for `^PW`, length for `^LL`. */
function profileSizeDots(p: PrinterProfile): { width: number; height: number } {
  return { width: mmToDots(p.widthMm, p.dpi), height: mmToDots(p.heightMm, p.dpi) };
}

/**
 * The format commands a profile puts right after every `^XA`:
 * `^PW{w}^LL{h}^PR{s}^MT{D|T}^LT{off}` (sizes in dots at the profile's dpi).
 */
function profileFormatCommands(p: PrinterProfile): string {
  const { width, height } = profileSizeDots(p);
  return `^PW${width}^LL${height}^PR${p.speedIps}^MT${p.media === 'thermal_transfer' ? 'T' : 'D'}^LT${p.topOffsetDots}`;
}

/** `~SD` with two digits (the guide's `~SDxx`), sent once before the first format. */
function profileDarknessCommand(p: PrinterProfile): string {
  return `~SD${String(p.darkness).padStart(2, '0')}`;
}

const PREFIX_CHANGE = /[\^~]C[CDT]/i;

/**
 * Adapts ZPL to a printer profile:
 * 1. {@link adaptZpl} to the profile's dpi (strips the carrier's media,
 *    darkness, speed and print-mode commands; rescales ZPL made for another
 *    dpi, `opts.sourceDpi` else detected from `^PW`);
 * 2. drops the remaining `^PW`/`^LL` (the profile's label size wins);
 * 3. puts {@link profileDarknessCommand} before the stream and
 *    {@link profileFormatCommands} after every `^XA`.
 *
 * ZPL that changes its command prefix/delimiter is returned unchanged (as adaptZpl does).
 * @param zpl ZPL as a string (latin1 round-trip for bytes, see {@link applyProfileBytes})
 */
export function applyProfile(zpl: string, profile: PrinterProfile, opts: { sourceDpi?: ZplDpi } = {}): string {
  if (PREFIX_CHANGE.test(zpl)) return zpl;
  const adapted = adaptZpl(zpl, { dpi: profile.dpi, ...(opts.sourceDpi ? { sourceDpi: opts.sourceDpi } : {}) });
  const cmds = profileFormatCommands(profile);
  const body = adapted.replace(/\^(?:PW|LL)[^^~]*/gi, '').replace(/\^XA/gi, (xa) => `${xa}${cmds}`);
  return `${profileDarknessCommand(profile)}${body}`;
}

/** {@link applyProfile} on bytes, every other byte kept as is (latin1 round trip, like adaptZplBytes). */
export function applyProfileBytes(zpl: Uint8Array, profile: PrinterProfile, opts: { sourceDpi?: ZplDpi } = {}): Uint8Array {
  const text = Buffer.from(zpl.buffer, zpl.byteOffset, zpl.byteLength).toString('latin1');
  return Buffer.from(applyProfile(text, profile, opts), 'latin1');
}
