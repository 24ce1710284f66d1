/**
 * ZPL graphic data (`^GF`, `~DG`) decoded to 1-bit rows, resampled to another
 * print-head resolution, and written back as `:Z64:` (Zebra ZPL II
 * Programming Guide: `^GF`, `~DG`, "Alternative Data Compression Scheme for
 * ~DG and ~DB Commands", "Z64 encoding").
 *
 * Encodings read: ASCII hex with the compression scheme (`G`–`Y` repeat the
 * next hex digit 1–19 times, `g`–`z` 20–400 times, `,` fills the rest of the
 * row with 0, `!` with 1, `:` repeats the previous row), `:B64:` (base64) and
 * `:Z64:` (base64 of zlib deflate), with or without their `:CRC`, and binary
 * (`^GFB`). Compressed binary (`^GFC`) is refused.
 */
import { deflateSync, inflateSync } from 'node:zlib';

/** CRC-16/XMODEM of every byte value: one table step a character instead of eight shifts. */
const CRC16_TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();

/** CRC-16/XMODEM (poly 0x1021, init 0) of ASCII text, as the `:Z64:` data of `^GFA` wants it (4 hex digits after the data). */
export function crc16(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i++) crc = ((crc << 8) & 0xffff) ^ CRC16_TABLE[((crc >> 8) ^ text.charCodeAt(i)) & 0xff]!;
  return crc;
}

/** A monochrome graphic: `height` rows of `bytesPerRow` bytes, MSB first, 1 = black. */
export interface ZplBitmap {
  bytesPerRow: number;
  height: number;
  bits: Uint8Array;
}

const HEX = '0123456789ABCDEF';

function repeatCount(c: number): number {
  // 'G'..'Y' = 1..19, 'g'..'z' = 20, 40, ... 400.
  if (c >= 0x47 && c <= 0x59) return c - 0x46;
  if (c >= 0x67 && c <= 0x7a) return (c - 0x66) * 20;
  return 0;
}

/** Decodes compressed or plain ASCII hex graphic data into rows of `bytesPerRow` bytes. */
function decodeAsciiHex(data: string, totalBytes: number, bytesPerRow: number): Uint8Array {
  const out = new Uint8Array(totalBytes);
  const rowNibbles = bytesPerRow * 2;
  let row = 0;
  let nib = 0; // nibble index within the row
  let pending = 0; // repeat count read, waiting for its digit
  const put = (v: number): void => {
    const idx = row * bytesPerRow + (nib >> 1);
    if (idx < totalBytes) out[idx]! |= nib & 1 ? v : v << 4;
    nib++;
    if (nib === rowNibbles) {
      nib = 0;
      row++;
    }
  };
  /** Ends the current row: the nibbles left take `fill` (a row start: the whole row). */
  const endRow = (fill: number): void => {
    if (fill) for (let k = nib; k < rowNibbles; k++) {
      const idx = row * bytesPerRow + (k >> 1);
      if (idx < totalBytes) out[idx]! |= k & 1 ? fill : fill << 4;
    }
    row++;
    nib = 0;
  };
  for (let i = 0; i < data.length && row * bytesPerRow < totalBytes; i++) {
    const c = data.charCodeAt(i);
    const ch = data[i]!.toUpperCase();
    const hex = HEX.indexOf(ch);
    if (hex >= 0 && !(c >= 0x67 && c <= 0x7a)) {
      const n = pending || 1;
      for (let k = 0; k < n; k++) put(hex);
      pending = 0;
      continue;
    }
    const r = repeatCount(c);
    if (r) {
      pending += r;
      continue;
    }
    if (ch === ',') endRow(0);
    else if (ch === '!') endRow(0xf);
    else if (ch === ':') {
      // Repeat the previous row (an empty one when it is the first).
      if (nib !== 0) {
        row++;
        nib = 0;
      }
      if (row > 0 && row * bytesPerRow < totalBytes) out.copyWithin(row * bytesPerRow, (row - 1) * bytesPerRow, row * bytesPerRow);
      row++;
    }
    // Whitespace and anything else: ignored, as the printer does.
  }
  return out;
}

/**
 * Decodes the data of a `^GF` or `~DG` graphic.
 * @param kind `A` (ASCII: hex, `:B64:`, `:Z64:`), `B` (binary bytes as latin1 text)
 * @param totalBytes the graphic's byte count (`^GF` b, `~DG` t)
 * @param bytesPerRow bytes per row (`^GF` d, `~DG` w)
 * @param data the data parameter as written
 * @throws Error naming the problem (`^GFC`, a count that does not make whole rows, bad base64 or zlib data)
 */
export function decodeGraphic(kind: string, totalBytes: number, bytesPerRow: number, data: string): ZplBitmap {
  if (!(bytesPerRow > 0) || !(totalBytes > 0) || totalBytes % bytesPerRow !== 0) throw new Error(`graphic: ${totalBytes} bytes do not make rows of ${bytesPerRow}`);
  const height = totalBytes / bytesPerRow;
  const trimmed = data.trim();
  const m = /^:(Z64|B64):([A-Za-z0-9+/=\s]*)(?::[0-9A-Fa-f]{4})?/.exec(trimmed);
  let bits: Uint8Array;
  if (m) {
    const raw = Buffer.from((m[2] ?? '').replace(/\s+/g, ''), 'base64');
    const bytes = m[1] === 'Z64' ? inflateSync(raw) : raw;
    bits = new Uint8Array(totalBytes);
    bits.set(bytes.subarray(0, totalBytes));
  } else if (kind === 'B') {
    bits = new Uint8Array(totalBytes);
    bits.set(Buffer.from(data, 'latin1').subarray(0, totalBytes));
  } else if (kind === 'A') {
    bits = decodeAsciiHex(trimmed, totalBytes, bytesPerRow);
  } else {
    throw new Error(`graphic: compression type ${kind} is not supported`);
  }
  return { bytesPerRow, height, bits };
}

/**
 * Resamples a graphic by `factor` (0.1–10): each target dot takes the source
 * dot under its centre, so a bar of n dots becomes round(n × factor) dots.
 */
export function resampleGraphic(bm: ZplBitmap, factor: number): ZplBitmap {
  if (!(factor >= 0.1 && factor <= 10)) throw new RangeError('resampleGraphic: factor must be 0.1–10');
  const srcW = bm.bytesPerRow * 8;
  const w = Math.max(1, Math.round(srcW * factor));
  const h = Math.max(1, Math.round(bm.height * factor));
  const bytesPerRow = Math.ceil(w / 8);
  const bits = new Uint8Array(bytesPerRow * h);
  const srcX = new Int32Array(w);
  for (let x = 0; x < w; x++) srcX[x] = Math.min(srcW - 1, Math.floor((x + 0.5) / factor));
  for (let y = 0; y < h; y++) {
    const sy = Math.min(bm.height - 1, Math.floor((y + 0.5) / factor));
    const srow = sy * bm.bytesPerRow;
    const drow = y * bytesPerRow;
    for (let x = 0; x < w; x++) {
      const sx = srcX[x]!;
      if (bm.bits[srow + (sx >> 3)]! & (0x80 >> (sx & 7))) bits[drow + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return { bytesPerRow, height: h, bits };
}

/** The graphic's data as `:Z64:<base64 of deflate>:<CRC-16/XMODEM of the base64>`. */
export function z64(bm: ZplBitmap): string {
  const b64 = deflateSync(bm.bits, { level: 6 }).toString('base64');
  return `:Z64:${b64}:${crc16(b64).toString(16).toUpperCase().padStart(4, '0')}`;
}
