/**
 * Adapting carrier ZPL to the bench's printer before it is sent
 * (DESIGN.md "Printing": dpi, print-mode commands).
 */
import { lexZpl } from './zpl-lexer';
import { scaleZpl } from './zpl-scale';

/**
 * Commands removed from carrier ZPL because they change how the printer
 * handles its media, not what the label shows, and the right values depend
 * on the printer and the roll loaded at this bench, which the operator set up:
 * - `^MM` print mode (tear-off, peel-off, cutter, rewind...): a carrier's `^MMC`
 *   on a tear-off printer without cutter stops it with an error; `^MMP` waits
 *   for a label to be taken that nobody peels;
 * - `^MT` media type (direct thermal / thermal transfer) and `^MN` media
 *   tracking (gap, black mark, continuous): wrong values feed blank labels;
 * - `^MF` media feed at power-up / head close;
 * - `^MD` and `~SD` darkness: tuned per print head and roll;
 * - `^PR` print speed: decided to strip too: speed is tuned together with
 *   darkness for the media, and the carrier's choice either slows the bench
 *   or fades the barcode;
 * - `^LT` label top and `~TA` tear-off position: calibration of this unit;
 * - `^JU` configuration update: `^JUS` would save the carrier's settings for good;
 * - `~JC` / `~JL` media calibration and label length: they feed labels.
 */
const PRINTER_SETTINGS = new Set(['MM', 'MT', 'MN', 'MF', 'MD', 'PR', 'LT', 'JU']);
const PRINTER_CONTROLS = new Set(['SD', 'TA', 'JC', 'JL']);

/** The stream without the commands of {@link PRINTER_SETTINGS}/{@link PRINTER_CONTROLS}, whatever its prefixes. */
function stripPrinterSettings(zpl: string): string {
  return lexZpl(zpl)
    .filter((t) => t.kind === 'text' || !(t.control ? PRINTER_CONTROLS.has(t.name) : PRINTER_SETTINGS.has(t.name)))
    .map((t) => t.raw)
    .join('');
}

/**
 * The dpi a ZPL stream was made for, from its first `^PW` (print width):
 * 1800 dots or more means 600 dpi (a 4 in label is 2400 dots), 1000 or
 * more 300 dpi (1200 dots), less 203 dpi (812 dots); without `^PW`, from its
 * first `^LL` (label length): 3000 or more 600 dpi (6 in: 3600), 1700 or
 * more 300 dpi (1800), less 203 dpi (1218). `null` when it has neither.
 */
export function detectZplDpi(zpl: string): ZplDpi | null {
  const tokens = lexZpl(zpl).filter((t) => t.kind === 'command');
  const first = (name: string): number | null => {
    const t = tokens.find((c) => c.name === name && !c.control);
    const n = t ? Number(/^\s*(\d+)/.exec(t.params)?.[1] ?? NaN) : NaN;
    return Number.isFinite(n) && n > 0 ? n : null;
  };
  const pw = first('PW');
  if (pw !== null) return pw >= 1800 ? 600 : pw >= 1000 ? 300 : 203;
  const ll = first('LL');
  if (ll !== null) return ll >= 3000 ? 600 : ll >= 1700 ? 300 : 203;
  return null;
}

/** Print-head resolutions the adaptation knows, dpi. */
export type ZplDpi = 203 | 300 | 600;

/**
 * Adapts carrier ZPL to this bench's printer:
 * 1. removes the media and print-mode commands listed at
 *    {@link PRINTER_SETTINGS} (`^MM`, `^MT`, `^MN`, `^MF`, `^MD`, `~SD`,
 *    `^PR`, `^LT`, `~TA`, `^JU`, `~JC`, `~JL`) so the printer's own settings
 *    apply, whatever reference printer the carrier wrote for;
 * 2. when the ZPL was made for another resolution (`opts.sourceDpi`, else
 *    {@link detectZplDpi}, else 203 dpi: 8 dots/mm, what carriers send when
 *    nothing says otherwise), scales it to the printer with {@link scaleZpl}:
 *    positions, sizes, fonts, barcode modules and heights, `^GF`/`~DG`
 *    graphics; field data untouched. `opts.factor`/`opts.shift` override the
 *    plain `dpi / sourceDpi` (label fitting, see label-fit.ts).
 *
 * Commands are found by {@link lexZpl}: ZPL that changes its prefix or
 * delimiter (`^CC`, `^CT`, `^CD`) is read as the printer reads it.
 *
 * @param zpl ZPL as a string; for bytes use {@link adaptZplBytes} (encoding-safe)
 * @param opts.dpi the printer's resolution
 * @throws RangeError when `dpi` is not 203, 300 or 600
 */
export function adaptZpl(zpl: string, opts: AdaptOptions): string {
  if (opts.dpi !== 203 && opts.dpi !== 300 && opts.dpi !== 600) throw new RangeError('adaptZpl: dpi must be 203, 300 or 600');
  const source = opts.sourceDpi ?? detectZplDpi(zpl) ?? 203;
  const stripped = stripPrinterSettings(zpl);
  const factor = opts.factor ?? opts.dpi / source;
  if (factor === 1 && !opts.shift) return stripped;
  return scaleZpl(stripped, { factor, headDpi: opts.dpi, ...(opts.shift ? { shift: opts.shift } : {}), ...(opts.unshrunkFactor ? { unshrunkFactor: opts.unshrunkFactor } : {}) }).zpl;
}

/** Options of {@link adaptZpl}: the printer's dpi, the dpi the ZPL was made for, and an explicit factor/shift (dots at the printer). */
export interface AdaptOptions {
  dpi: ZplDpi;
  sourceDpi?: ZplDpi;
  factor?: number;
  shift?: { x: number; y: number };
  /** The factor before shrinking to the stock (see ZplScaleOptions.unshrunkFactor). */
  unshrunkFactor?: number;
}

/**
 * {@link adaptZpl} on bytes, keeping every byte that is not a removed or
 * rescaled command exactly as it was (UTF-8 `^CI28` text, Latin-1 `^CI0`
 * text and `^GFA` data alike), via a byte-per-character (latin1) round trip.
 */
export function adaptZplBytes(zpl: Uint8Array, opts: AdaptOptions): Uint8Array {
  const text = Buffer.from(zpl.buffer, zpl.byteOffset, zpl.byteLength).toString('latin1');
  return Buffer.from(adaptZpl(text, opts), 'latin1');
}
