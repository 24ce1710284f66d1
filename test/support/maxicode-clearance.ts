/**
 * Issue 36, item 1: a MaxiCode keeps its place clear. MaxiCode (`^BD`) is drawn
 * by the printer at its fixed size (ISO/IEC 16023, about 1.11 × 1.054 in) at
 * any dpi, so on a label shrunk to fit its stock the fields shrunk towards it
 * could run into it. Measured on what the renderer (zpl-renderer-js, through
 * renderZplStream) draws: the MaxiCode field rendered alone gives its box; the
 * label without that field gives the rest's ink; the rest's ink inside the box
 * grown by the quiet zone is the overlap, in mm², and where it lies.
 *
 * The box is the rendered symbol's top-left corner with the size a printer
 * draws (1.11 × 1.054 in, 28.2 × 26.8 mm) where the renderer draws it smaller
 * (26.3 × 25.3 mm): what is measured is what a Zebra prints.
 * Quiet zone: 1X on all four sides (ISO/IEC 16023:2000 §4.11.5, as cited by
 * zint's backend/output.c; TEC-IT's barcode reference says the same; the
 * standard itself was not at hand), X the nominal module, taken as 0.88 mm.
 */
import { PNG } from 'pngjs';
import { renderZplStream } from '../../electron/core/printing/zpl/preview';
import { lexZpl } from '../../electron/core/printing/zpl/zpl-lexer';
// A MaxiCode as a printer draws it at any dpi, inches.
import { MAXICODE_IN } from '../../electron/core/printing/zpl/zpl-scale';

/** The MaxiCode's quiet zone, mm: 1X, X = 0.88 mm (see the module comment). */
const MAXICODE_QUIET_MM = 0.88;

/** How far two places may differ and be the same place, mm: a dot or two of rounding and scaling. */
const NEAR_MM = 0.3;


/** A stream split at its MaxiCode fields: each `^BD` field alone (with the format's own commands), and the stream without them. */
function splitMaxiCode(zpl: string): { alone: string; rest: string } | null {
  const tokens = lexZpl(zpl);
  const alone: string[] = [];
  const rest: string[] = [];
  let field: { raw: string; fieldStart: boolean }[] = [];
  let found = false;
  const flush = (): void => {
    const start = field.findIndex((t) => t.fieldStart);
    const isBd = field.some((t) => /^.BD/i.test(t.raw));
    if (start < 0) {
      for (const t of field) {
        alone.push(t.raw);
        rest.push(t.raw);
      }
    } else {
      // Commands before the field's origin are the format's (^BY, ^CF…): kept in both.
      for (const t of field.slice(0, start)) {
        alone.push(t.raw);
        rest.push(t.raw);
      }
      for (const t of field.slice(start)) (isBd ? alone : rest).push(t.raw);
      if (isBd) found = true;
    }
    field = [];
  };
  for (const t of tokens) {
    const n = t.kind === 'command' && !t.control ? t.name : '';
    if (n === 'XZ') {
      flush();
      alone.push(t.raw);
      rest.push(t.raw);
      continue;
    }
    field.push({ raw: t.raw, fieldStart: n === 'FO' || n === 'FT' });
    if (n === 'FS') flush();
  }
  flush();
  return found ? { alone: alone.join(''), rest: rest.join('') } : null;
}

/** Ink (grey < 128, not transparent) of one PNG as a bit per pixel. */
function inkOf(png: Buffer): { width: number; height: number; ink: Uint8Array } {
  const img = PNG.sync.read(png);
  const ink = new Uint8Array(img.width * img.height);
  for (let i = 0; i < ink.length; i++) ink[i] = img.data[i * 4]! < 128 && img.data[i * 4 + 3]! > 0 ? 1 : 0;
  return { width: img.width, height: img.height, ink };
}

/** What lies on a MaxiCode's place: its box and the rest's ink inside its box and quiet zone, mm and mm² from the label's top-left. */
export interface MaxiCodeClearance {
  /** The MaxiCode as drawn, mm. */
  box: { x: number; y: number; width: number; height: number };
  /** The rest's ink inside the box, mm². */
  insideMm2: number;
  /** The rest's ink in the quiet zone ring, by side (left/right: the full height of the ring), mm². */
  quietMm2: { top: number; bottom: number; left: number; right: number };
  /** Inside plus quiet zone, mm². */
  totalMm2: number;
  /**
   * The rest's ink on the box, its quiet zone and {@link NEAR_MM} around them, each dot as its centre in mm from the
   * box's top-left (for comparing places); `inZone` when it is on the box or its quiet zone (counted above).
   */
  dotsMm: Array<{ x: number; y: number; inZone: boolean }>;
  /** One dot's side, mm. */
  dotMm: number;
}

/**
 * Measures a label's MaxiCode place (see the module comment): renders the `^BD` field alone and the label
 * without it at `dpi` on a `widthMm` × `heightMm` canvas. Dots are counted at the head's true pitch
 * (25.4 / dpi mm: a 300 dpi head is 11.81 dots/mm, not the renderer's 12), so labels printed at
 * different dpi compare in the same mm.
 * @returns null when the stream has no `^BD` field or the MaxiCode draws nothing
 */
export async function measureMaxiCodeClearance(zpl: string, widthMm: number, heightMm: number, dpi: 203 | 300 | 600): Promise<MaxiCodeClearance | null> {
  const split = splitMaxiCode(zpl);
  if (!split) return null;
  const [maxiPng] = await renderZplStream(split.alone, dpi, widthMm, heightMm);
  const [restPng] = await renderZplStream(split.rest, dpi, widthMm, heightMm);
  if (!maxiPng || !restPng) return null;
  const maxi = inkOf(maxiPng);
  const rest = inkOf(restPng);
  let [x0, y0, x1, y1] = [maxi.width, maxi.height, -1, -1] as [number, number, number, number];
  for (let y = 0; y < maxi.height; y++)
    for (let x = 0; x < maxi.width; x++)
      if (maxi.ink[y * maxi.width + x]) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  if (x1 < 0) return null;
  // At least the printer's size, from the drawn top-left corner (^BD is placed by its top-left, ^FO).
  x1 = Math.max(x1, x0 + Math.round(MAXICODE_IN.width * dpi) - 1);
  y1 = Math.max(y1, y0 + Math.round(MAXICODE_IN.height * dpi) - 1);
  const dotMm = 25.4 / dpi;
  const q = Math.round(MAXICODE_QUIET_MM / dotMm);
  const dot2 = dotMm * dotMm;
  const quiet = { top: 0, bottom: 0, left: 0, right: 0 };
  let inside = 0;
  const dotsMm: Array<{ x: number; y: number; inZone: boolean }> = [];
  const r = q + Math.ceil(NEAR_MM / dotMm);
  for (let y = Math.max(0, y0 - r); y <= Math.min(rest.height - 1, y1 + r); y++) {
    for (let x = Math.max(0, x0 - r); x <= Math.min(rest.width - 1, x1 + r); x++) {
      if (!rest.ink[y * rest.width + x]) continue;
      const inZone = x >= x0 - q && x <= x1 + q && y >= y0 - q && y <= y1 + q;
      dotsMm.push({ x: (x + 0.5 - x0) * dotMm, y: (y + 0.5 - y0) * dotMm, inZone });
      if (!inZone) continue;
      if (x < x0) quiet.left += dot2;
      else if (x > x1) quiet.right += dot2;
      else if (y < y0) quiet.top += dot2;
      else if (y > y1) quiet.bottom += dot2;
      else inside += dot2;
    }
  }
  return {
    box: { x: x0 * dotMm, y: y0 * dotMm, width: (x1 + 1 - x0) * dotMm, height: (y1 + 1 - y0) * dotMm },
    insideMm2: inside,
    quietMm2: quiet,
    totalMm2: inside + quiet.top + quiet.bottom + quiet.left + quiet.right,
    dotsMm,
    dotMm,
  };
}

/**
 * The overlap on a printed MaxiCode's place that the carrier's own label does not have at the same place:
 * the printed label's overlapping dots (mm from the symbol's top-left) with no overlapping dot of the
 * original (on the zone or just outside it) within {@link NEAR_MM} (positions drift by a dot or two with
 * rounding and scaling: a line that touched the zone's edge on the original may touch it a dot further in).
 * @returns the new overlap's area, mm², and its box relative to the symbol's top-left, mm (null when none)
 */
export function newOverlap(original: MaxiCodeClearance, printed: MaxiCodeClearance): { mm2: number; at: { x0: number; y0: number; x1: number; y1: number } | null } {
  const cell = original.dotMm;
  const key = (x: number, y: number): string => `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
  const seen = new Set(original.dotsMm.map((d) => key(d.x, d.y)));
  const reach = Math.ceil(NEAR_MM / cell);
  const near = (x: number, y: number): boolean => {
    const [cx, cy] = [Math.floor(x / cell), Math.floor(y / cell)];
    for (let dy = -reach; dy <= reach; dy++) for (let dx = -reach; dx <= reach; dx++) if (seen.has(`${cx + dx},${cy + dy}`)) return true;
    return false;
  };
  let n = 0;
  let at: { x0: number; y0: number; x1: number; y1: number } | null = null;
  for (const d of printed.dotsMm) {
    if (!d.inZone || near(d.x, d.y)) continue;
    n++;
    at = at ? { x0: Math.min(at.x0, d.x), y0: Math.min(at.y0, d.y), x1: Math.max(at.x1, d.x), y1: Math.max(at.y1, d.y) } : { x0: d.x, y0: d.y, x1: d.x, y1: d.y };
  }
  return { mm2: n * printed.dotMm * printed.dotMm, at };
}
