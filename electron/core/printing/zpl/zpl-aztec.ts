/**
 * The Aztec symbol a Zebra printer prints for a `^BO` field, so that a `^BO`
 * drawn as a `^GF` graphic (zpl-barcode-graphic.ts, 600 dpi heads) has the
 * size the printer would give it (issue 23).
 *
 * `^BOa,b,c,d,…` parameter d (ZPL II Programming Guide, `^BO`): 0 = default
 * error control and size, 01–99 = minimum error-correction percentage,
 * 101–104 = compact symbol of 1–4 layers, 201–232 = full-range symbol of
 * 1–32 layers, 300 = Aztec rune. For 0 and 01–99 the printer takes the
 * smallest symbol, compact (1–4 layers) before full range (4–32 layers),
 * whose check words — `ceil(total words × percent / 100) + 3`, 23 % when d
 * is 0 — leave room for the data words; compact symbols carry at most 64
 * data words (ISO/IEC 24778 §7.2; the same rule as the offline renderer,
 * zebrash, which prints these sizes). bwip-js (BWIPP) would pick among
 * full-range symbols only with its own margin (27 modules where the printer
 * prints 23), so the symbol is chosen here and bwip-js is told its format
 * and layers.
 *
 * Data words are counted on BWIPP's own message bits (its `debugbits`
 * option) after bit stuffing (ISO/IEC 24778 §7.3.1.2), so the choice and the
 * drawn symbol agree; another encoder may spend a few bits more or less on
 * the same data, which moves the size only at a layer's edge.
 */
import bwipjs from 'bwip-js/node';

/** An Aztec symbol: format, layers (0 for a rune) and its side in modules. */
export interface AztecSymbol {
  format: 'compact' | 'full' | 'rune';
  layers: number;
  modules: number;
}

/** Word size (bits) of an Aztec symbol by layers (ISO/IEC 24778 Table 3). */
function wordBits(layers: number): number {
  return layers <= 2 ? 6 : layers <= 8 ? 8 : layers <= 22 ? 10 : 12;
}

/** Side of an Aztec symbol in modules: compact 11 + 4L; full range 15 + 4L plus its reference grid lines. */
export function aztecModules(format: 'compact' | 'full', layers: number): number {
  if (format === 'compact') return 11 + 4 * layers;
  const base = 14 + 4 * layers;
  return base + 1 + 2 * Math.floor((base / 2 - 1) / 15);
}

/** Bits the message takes once stuffed into `w`-bit words (a word whose first w−1 bits are equal takes one bit less of data). */
function stuffedBits(bits: string, w: number): number {
  let n = 0;
  for (let i = 0; i < bits.length; i += w) {
    let head = '';
    for (let j = 0; j < w - 1; j++) head += i + j < bits.length ? bits[i + j] : '1';
    n += w;
    if (!head.includes('0') || !head.includes('1')) i--;
  }
  return n;
}

/** BWIPP's message bits for the data (its `debugbits` option stops the encoder and reports them). */
function messageBits(data: string): string {
  try {
    bwipjs.raw('azteccode', data, 'debugbits');
  } catch (e) {
    const m = /debugbits#\d+: ([01]*)$/.exec(e instanceof Error ? e.message : String(e));
    if (m) return m[1]!;
    throw e;
  }
  throw new Error('bwip-js gave no Aztec message bits');
}

/**
 * The symbol the printer takes for `^BO` data and parameter d (see the file's comment).
 * @param data field data, one character a byte (`^FH` decoded)
 * @param d `^BO` error control and symbol size (0, 1–99, 101–104, 201–232, 300)
 * @throws Error when d is none of those values, when a rune's data is not 0–255, or when the data fits no symbol
 */
export function aztecSymbol(data: string, d: number): AztecSymbol {
  if (d >= 101 && d <= 104) return { format: 'compact', layers: d - 100, modules: aztecModules('compact', d - 100) };
  if (d >= 201 && d <= 232) return { format: 'full', layers: d - 200, modules: aztecModules('full', d - 200) };
  if (d === 300) {
    if (!/^\d{1,3}$/.test(data) || Number(data) > 255) throw new Error('Aztec rune data that is not a number 0–255');
    return { format: 'rune', layers: 0, modules: 11 };
  }
  if (!Number.isInteger(d) || d < 0 || d > 99) throw new Error(`Aztec size ${d} is not drawn`);
  const percent = d === 0 ? 23 : d;
  const bits = messageBits(data);
  const candidates: Array<['compact' | 'full', number]> = [
    ...[1, 2, 3, 4].map((l): ['compact', number] => ['compact', l]),
    ...Array.from({ length: 29 }, (_, i): ['full', number] => ['full', i + 4]),
  ];
  for (const [format, layers] of candidates) {
    const w = wordBits(layers);
    const dataWords = Math.ceil(stuffedBits(bits, w) / w);
    if (format === 'compact' && dataWords > 64) continue;
    const words = Math.floor(((format === 'compact' ? 88 : 112) + 16 * layers) * layers / w);
    if (dataWords <= words - (Math.ceil((words * percent) / 100) + 3)) return { format, layers, modules: aztecModules(format, layers) };
  }
  throw new Error(`Aztec data too long for ${percent} % error control`);
}
