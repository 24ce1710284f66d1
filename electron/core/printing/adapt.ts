/**
 * Adapting carrier ZPL to the bench's printer before it is sent
 * (DESIGN.md "Printing": dpi, print-mode commands).
 */

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
const PRINTER_SETTING_COMMANDS = /(?:\^(?:MM|MT|MN|MF|MD|PR|LT|JU)|~(?:SD|TA|JC|JL))[^^~]*/gi;

// Commands that change the command prefix or the parameter delimiter: after
// them commands can no longer be found by their `^`/`~`, so we touch nothing.
const PREFIX_CHANGE = /[\^~]C[CDT]/i;

// Numeric parameters counted in dots, by command (parameter indexes after the
// two-letter name), for rescaling between 203, 300 and 600 dpi. ^A (font) is
// handled apart: its name includes the font letter.
const DOT_PARAMS: Record<string, readonly number[]> = {
  FO: [0, 1],
  FT: [0, 1],
  LH: [0, 1],
  LS: [0],
  LL: [0],
  PW: [0],
  GB: [0, 1, 2],
  GE: [0, 1, 2],
  GD: [0, 1, 2],
  GC: [0, 1],
  FB: [0, 2, 4],
  TB: [1, 2],
  BY: [0, 2],
  CF: [1, 2],
  BC: [1],
  B2: [1],
  B3: [2],
  BE: [1],
  B8: [1],
  BU: [1],
  B7: [1],
  BX: [1],
  BQ: [2],
};

/**
 * The dpi a ZPL stream was made for, from its first `^PW` (print width):
 * 1800 dots or more means 600 dpi (a 4 in label is 2400 dots), 1000 or
 * more 300 dpi (1200 dots), less 203 dpi (812 dots). `null` when there is no `^PW`.
 */
export function detectZplDpi(zpl: string): ZplDpi | null {
  const pw = /\^PW\s*(\d+)/i.exec(zpl)?.[1];
  if (pw === undefined) return null;
  const n = Number(pw);
  // 4 in: 812 dots at 203 dpi, 1200 at 300, 2400 at 600.
  return n >= 1800 ? 600 : n >= 1000 ? 300 : 203;
}

/** Print-head resolutions the adaptation knows, dpi. */
export type ZplDpi = 203 | 300 | 600;

function scaleParams(params: string, indexes: readonly number[], f: number): string {
  const parts = params.split(',');
  for (const i of indexes) {
    const p = parts[i];
    if (p === undefined) continue;
    const m = /^(\s*)(\d+)(\s*)$/.exec(p);
    if (!m) continue;
    const v = Number(m[2]);
    // Positions may be 0; sizes never shrink below one dot.
    const scaled = v === 0 ? 0 : Math.max(1, Math.round(v * f));
    parts[i] = `${m[1] ?? ''}${scaled}${m[3] ?? ''}`;
  }
  return parts.join(',');
}

/** Rescales dot-valued parameters of every command by `f` (see {@link DOT_PARAMS}). `^GF` bitmaps are left as they are. */
function rescale(zpl: string, f: number): string {
  return zpl.replace(/\^([^^~]{0,2})([^^~]*)/g, (whole, name: string, params: string) => {
    const upper = name.toUpperCase();
    if (upper.startsWith('A') && upper.length === 2) return `^${name}${scaleParams(params, [1, 2], f)}`;
    const idx = DOT_PARAMS[upper];
    return idx ? `^${name}${scaleParams(params, idx, f)}` : whole;
  });
}

/**
 * Adapts carrier ZPL to this bench's printer:
 * 1. removes the media and print-mode commands listed at
 *    {@link PRINTER_SETTING_COMMANDS} (`^MM`, `^MT`, `^MN`, `^MF`, `^MD`, `~SD`,
 *    `^PR`, `^LT`, `~TA`, `^JU`, `~JC`, `~JL`) so the printer's own settings
 *    apply, whatever reference printer the carrier wrote for;
 * 2. when the ZPL was made for another resolution (`opts.sourceDpi`, else
 *    {@link detectZplDpi}; unknown means "same as the printer"), rescales every
 *    dot-valued parameter (positions, fonts, boxes, field blocks, barcode
 *    module widths and heights, `^PW`/`^LL`) by `dpi / sourceDpi`. Embedded
 *    `^GF` bitmaps are not resampled: they print 1.48x smaller or larger.
 *
 * ZPL that changes its command prefix or delimiter (`^CC`, `~CC`, `^CT`,
 * `~CT`, `^CD`, `~CD`) is returned unchanged. Field data is never touched: a
 * `^` or `~` inside it would start a command on the printer too.
 *
 * @param zpl ZPL as a string; for bytes use {@link adaptZplBytes} (encoding-safe)
 * @param opts.dpi the printer's resolution
 */
export function adaptZpl(zpl: string, opts: { dpi: ZplDpi; sourceDpi?: ZplDpi }): string {
  if (opts.dpi !== 203 && opts.dpi !== 300 && opts.dpi !== 600) throw new RangeError('adaptZpl: dpi must be 203, 300 or 600');
  if (PREFIX_CHANGE.test(zpl)) return zpl;
  const source = opts.sourceDpi ?? detectZplDpi(zpl) ?? opts.dpi;
  const stripped = zpl.replace(PRINTER_SETTING_COMMANDS, '');
  return source === opts.dpi ? stripped : rescale(stripped, opts.dpi / source);
}

/**
 * {@link adaptZpl} on bytes, keeping every byte that is not a removed or
 * rescaled command exactly as it was (UTF-8 `^CI28` text, Latin-1 `^CI0`
 * text and `^GFA` data alike), via a byte-per-character (latin1) round trip.
 */
export function adaptZplBytes(zpl: Uint8Array, opts: { dpi: ZplDpi; sourceDpi?: ZplDpi }): Uint8Array {
  const text = Buffer.from(zpl.buffer, zpl.byteOffset, zpl.byteLength).toString('latin1');
  return Buffer.from(adaptZpl(text, opts), 'latin1');
}
