/**
 * The 4x6 in carrier label laid out once, as drawing primitives in printer dots
 * at 203 dpi (812 x 1218 dots, origin top-left), so the ZPL and the PDF
 * renderers print exactly the same content in the same places: ZPL scales the
 * dots to the printer's dpi, the PDF maps them onto a 100 x 150 mm page.
 */
import type { LabelData } from './types';
import { cityLine, cleanText, formatDateTime, formatKg, formatMoney, upper } from './text';

/** Label width in dots at 203 dpi (4 in). */
export const LABEL_W = 812;
/** Label height in dots at 203 dpi (6 in). */
export const LABEL_H = 1218;

/** A drawing primitive; all lengths in dots at 203 dpi. */
export type LabelElement =
  /** Rectangle outline of border `t` (filled when `t` >= the smaller side), black or white (`^GB...,W`), as ZPL `^GB`. */
  | { kind: 'box'; x: number; y: number; w: number; h: number; t: number; white?: boolean }
  /**
   * One line of text whose cell's top-left is (x, y) and height `size`, kept
   * inside `maxWidth` (aligned within it). `inverse` prints white on black
   * (drawn over a filled box; ZPL `^FR`).
   */
  | { kind: 'text'; x: number; y: number; size: number; text: string; maxWidth: number; align: 'L' | 'C' | 'R'; bold: boolean; inverse: boolean }
  /** Code 128 of `data`, bars `height` tall, narrowest bar `module` dots. */
  | { kind: 'barcode'; x: number; y: number; module: number; height: number; data: string; modules: number };

// Advance of font 0 (CG Triumvirate Bold Condensed) glyphs as a fraction of
// the character height, measured on the zebrash renderer at ^A0N,100,100 and
// rounded up. Used only to shrink or cut text that would run out of its box.
const NARROW = new Set([...'Iijlft.,:;\'!|/()[]ìí1']);
const WIDE = new Set([...'MWmw@%&-']);
const UPPER_WIDE = new Set([...'DGHNOQRUÒÙÓÚ']);
function charWidth(ch: string): number {
  if (ch === ' ') return 0.28;
  if (NARROW.has(ch)) return 0.32;
  if (WIDE.has(ch)) return 0.86;
  if (UPPER_WIDE.has(ch)) return 0.64;
  if (ch === 'r') return 0.37;
  if (ch === 'J') return 0.48;
  if (ch >= 'a' && ch <= 'z') return 0.53;
  if (ch >= '0' && ch <= '9') return 0.53;
  return 0.6;
}

/** Estimated printed width of `text` at character height `size` (dots). */
function estimateTextWidth(text: string, size: number): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch) * size;
  return w;
}

/** Cuts `text` so its estimated width at `size` fits `maxWidth` dots. */
function fitText(text: string, size: number, maxWidth: number): string {
  if (estimateTextWidth(text, size) <= maxWidth) return text;
  let w = 0;
  let out = '';
  for (const ch of text) {
    w += charWidth(ch) * size;
    if (w > maxWidth) break;
    out += ch;
  }
  return out.trimEnd();
}

/** The longest run of whole words of `text` that fits `maxWidth` at `size` (a cut word if even one does not fit). */
function wrapLine(text: string, size: number, maxWidth: number): string {
  const fitted = fitText(text, size, maxWidth);
  if (fitted.length >= text.length) return text;
  const cut = fitted.lastIndexOf(' ');
  return cut > 0 ? fitted.slice(0, cut) : fitted;
}

/**
 * Modules of the shortest Code 128 symbol for `data` using code sets B and C
 * (start + data + check symbols at 11 modules each, stop at 13). Zebra's
 * automatic mode (`^BC...,A`) picks the same sets, so this sizes the bars.
 */
export function code128Modules(data: string): number {
  const isDigit = (i: number): boolean => {
    const c = data.charCodeAt(i);
    return c >= 48 && c <= 57;
  };
  // best[i][s]: fewest data symbols to encode data[0..i) ending in set s (0 = B, 1 = C).
  const n = data.length;
  const INF = Number.MAX_SAFE_INTEGER;
  const best: Array<[number, number]> = Array.from({ length: n + 1 }, () => [INF, INF]);
  best[0] = [0, 0];
  for (let i = 0; i < n; i++) {
    const cur = best[i] as [number, number];
    for (const s of [0, 1] as const) {
      const c = cur[s];
      if (c === INF) continue;
      // One char in set B (switching costs one symbol).
      const nb = best[i + 1] as [number, number];
      nb[0] = Math.min(nb[0], c + (s === 0 ? 1 : 2));
      // Two digits in set C.
      if (i + 1 < n && isDigit(i) && isDigit(i + 1)) {
        const nc = best[i + 2] as [number, number];
        nc[1] = Math.min(nc[1], c + (s === 1 ? 1 : 2));
      }
    }
  }
  const last = best[n] as [number, number];
  const symbols = Math.min(last[0], last[1]);
  return 11 * (symbols + 2) + 13;
}

/** Top of the barcode block (dots at 203 dpi); everything above must end before it. */
const BAR_TOP = 846;

/**
 * Lays out one parcel's label (already validated) as primitives at 203 dpi.
 * A label whose address and notes would run into the barcode block is laid out
 * again with smaller recipient text; notes that still do not fit are cut.
 */
export function layoutLabel(l: LabelData): LabelElement[] {
  const normal = layout(l, false);
  return normal.overflow ? layout(l, true).elements : normal.elements;
}

function layout(l: LabelData, dense: boolean): { elements: LabelElement[]; overflow: boolean } {
  const el: LabelElement[] = [];
  const fs = dense ? { name: 42, line: 32, city: 52, gap: 4 } : { name: 50, line: 38, city: 62, gap: 8 };
  const M = 10; // outer margin
  const W = LABEL_W - 2 * M; // 792
  // One line of text; `min` lets it shrink (down to that height) before it is cut.
  const text = (x: number, y: number, size: number, s: string, maxWidth: number, o: { align?: 'L' | 'C' | 'R'; bold?: boolean; inverse?: boolean; min?: number } = {}): number => {
    let sz = size;
    while (sz > (o.min ?? size) && estimateTextWidth(s, sz) > maxWidth) sz -= 2;
    const t = fitText(s, sz, maxWidth);
    if (t) el.push({ kind: 'text', x, y: y + (size - sz), size: sz, text: t, maxWidth, align: o.align ?? 'L', bold: o.bold ?? true, inverse: o.inverse ?? false });
    return y + size;
  };
  const hline = (y: number, t = 3): void => {
    el.push({ kind: 'box', x: M, y, w: W, h: t, t });
  };

  // Frame.
  el.push({ kind: 'box', x: M, y: M, w: W, h: LABEL_H - 2 * M, t: 4 });

  // Header band: carrier and service in white on black, parcel n/N at right.
  el.push({ kind: 'box', x: M, y: M, w: W, h: 130, t: 130 });
  text(30, 24, 58, upper(cleanText(l.carrierName)), 560, { inverse: true, min: 40 });
  text(30, 92, 30, cleanText(l.serviceName), 560, { inverse: true, bold: false, min: 24 });
  el.push({ kind: 'box', x: 606, y: 22, w: 184, h: 106, t: 106, white: true });
  text(606, 32, 22, 'COLLO / PARCEL', 184, { align: 'C', bold: false });
  text(606, 60, 60, `${l.parcelNumber}/${l.parcelCount}`, 184, { align: 'C', min: 36 });

  // Sender (left) and date / weight (right).
  let y = 150;
  const senderTop = 140;
  text(30, y, 22, 'MITTENTE / FROM', 500, { bold: false });
  y += 30;
  const s = l.sender;
  y = text(30, y, 30, cleanText(s.name), 500, { min: 24 }) + 6;
  if (cleanText(s.company)) y = text(30, y, 26, cleanText(s.company), 500, { bold: false }) + 4;
  y = text(30, y, 26, [cleanText(s.street), cleanText(s.street2)].filter(Boolean).join(', '), 500, { bold: false }) + 4;
  y = text(30, y, 26, `${cityLine(s)} ${upper(cleanText(s.countryCode))}`, 500, { bold: false }) + 4;
  if (cleanText(s.phone)) y = text(30, y, 24, `Tel. ${cleanText(s.phone)}`, 500, { bold: false }) + 4;
  const senderBottom = Math.max(y + 10, 330);
  el.push({ kind: 'box', x: 560, y: senderTop - 10, w: 3, h: senderBottom - senderTop + 10, t: 3 });
  text(578, 150, 22, 'DATA / DATE', 212, { bold: false });
  text(578, 178, 28, formatDateTime(l.createdAt), 212, { min: 22 });
  text(578, 230, 22, 'PESO / WEIGHT', 212, { bold: false });
  text(578, 258, 52, formatKg(l.weightKg), 212, { min: 34 });
  hline(senderBottom);

  // Recipient: the biggest text on the label, upper case as carriers print it.
  const r = l.recipient;
  y = senderBottom + 14;
  text(30, y, 24, 'DESTINATARIO / TO', 500, { bold: false });
  y += 34;
  y = text(30, y, fs.name, upper(cleanText(r.name)), 752, { min: 34 }) + fs.gap + 2;
  if (cleanText(r.company)) y = text(30, y, fs.line, upper(cleanText(r.company)), 752, { min: 28 }) + fs.gap;
  y = text(30, y, fs.line, upper(cleanText(r.street)), 752, { min: 28 }) + fs.gap;
  if (cleanText(r.street2)) y = text(30, y, fs.line, upper(cleanText(r.street2)), 752, { min: 28 }) + fs.gap;
  y = text(30, y, fs.city, upper(cityLine(r)), 752, { min: 40 }) + fs.gap + 2;
  const phone = cleanText(r.phone);
  text(30, y, 40, upper(cleanText(r.countryCode)), 120);
  if (phone) text(160, y + 6, 30, `Tel. ${phone}`, 620, { bold: false });
  y += 52;
  hline(y);

  // COD, reference, notes.
  y += 12;
  // A zero COD is no COD: nothing for the driver to collect.
  if (l.cod && l.cod.amount > 0) {
    el.push({ kind: 'box', x: 20, y, w: 772, h: 62, t: 62 });
    text(20, y + 10, 46, `CONTRASSEGNO / COD  ${formatMoney(l.cod.amount, l.cod.currency)}`, 772, { inverse: true, align: 'C', min: 34 });
    y += 74;
  }
  const ref = cleanText(l.reference);
  if (ref) y = text(30, y, 32, `RIF. / REF.: ${ref}`, 752, { min: 26 }) + 8;
  const notes = cleanText(l.notes);
  const limit = BAR_TOP - 18;
  let overflow = y > limit;
  if (notes) {
    // Notes wrap on up to two lines, as room allows.
    let rest = `NOTE: ${notes}`;
    for (let line = 0; line < 2 && rest; line++) {
      if (y + 26 > limit) {
        overflow = true;
        break;
      }
      const part = line === 1 ? rest : wrapLine(rest, 26, 752);
      y = text(30, y, 26, part, 752, { bold: false }) + 4;
      rest = rest.slice(part.length).trimStart();
    }
  }

  // Barcode block, anchored to the bottom so it never moves between labels.
  const barTop = BAR_TOP;
  hline(barTop - 14);
  const modules = code128Modules(l.trackingNumber);
  const quiet = 20; // quiet zone of 10 modules at 2 dots each side at least
  const module = Math.max(1, Math.min(4, Math.floor((W - 2 * quiet) / modules)));
  const barW = modules * module;
  el.push({ kind: 'barcode', x: Math.round((LABEL_W - barW) / 2), y: barTop, module, height: 220, data: l.trackingNumber, modules });
  text(M, barTop + 232, 50, l.trackingNumber, W, { align: 'C', min: 30 });

  // Footer: shipment LDV and carrier code.
  hline(1140);
  const trackingNumber = cleanText(l.shipmentTrackingNumber);
  text(30, 1158, 26, `LDV ${trackingNumber}`, 480, { bold: false });
  text(500, 1158, 26, `${upper(cleanText(l.carrierCode))}  ${l.parcelNumber}/${l.parcelCount}`, 282, { align: 'R' });
  return { elements: el, overflow };
}
