/**
 * The fast paths of PDF → ZPL (issue 9 speed target): the table CRC-16 gives
 * the XMODEM check value, and the installed @hyzyla/pdfium still exposes the
 * PDFium internals the station renders through (if an update hid them, the
 * slower package render would be used silently: this test says so first).
 */
import { PDFiumLibrary } from '@hyzyla/pdfium';
import { describe, expect, it } from 'vitest';
import { THRESHOLD, pdfiumInternals, toMonoBitmap, type GreyPage, type RasterTarget } from '../../../../../electron/core/printing/pdf/pdf-zpl';
import { crc16 } from '../../../../../electron/core/printing/zpl/zpl-graphics';
import { renderLabelsPdf } from '../../../../../electron/sandbox/labels';
import { parcels } from '../../../sandbox/labels/fixtures';

describe('PDF → ZPL fast paths', () => {
  it('CRC-16/XMODEM by table: the standard check value and the bitwise result', () => {
    expect(crc16('123456789')).toBe(0x31c3);
    const bitwise = (text: string): number => {
      let crc = 0;
      for (let i = 0; i < text.length; i++) {
        crc ^= (text.charCodeAt(i) & 0xff) << 8;
        for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
      }
      return crc;
    };
    const sample = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) & 0xff)).toString('base64');
    expect(crc16(sample)).toBe(bitwise(sample));
  });

  it('finds the PDFium internals of the installed @hyzyla/pdfium page', async () => {
    const lib = await PDFiumLibrary.init();
    const doc = await lib.loadDocument(await renderLabelsPdf(parcels(1)));
    try {
      const [page] = [...doc.pages()];
      expect(pdfiumInternals(page)).toBeDefined();
      expect(pdfiumInternals({})).toBeUndefined();
      expect(pdfiumInternals({ module: { HEAPU8: new Uint8Array(1) }, pageIdx: 1 })).toBeUndefined();
    } finally {
      doc.destroy();
      lib.destroy();
    }
  });
});

describe('toMonoBitmap', () => {
  /** Pixel by pixel, the plain rule: black below the threshold, the page centred. */
  function reference(page: GreyPage, t: RasterTarget): Uint8Array {
    const wd = Math.round((t.widthMm / 25.4) * t.dpi);
    const hd = Math.round((t.heightMm / 25.4) * t.dpi);
    const bpr = Math.ceil(wd / 8);
    const out = new Uint8Array(bpr * hd);
    const ox = Math.max(0, Math.floor((wd - page.width) / 2));
    const oy = Math.max(0, Math.floor((hd - page.height) / 2));
    for (let y = 0; y < Math.min(page.height, hd); y++)
      for (let x = 0; x < Math.min(page.width, wd); x++)
        if (page.grey[y * page.width + x]! < THRESHOLD) out[(y + oy) * bpr + ((x + ox) >> 3)]! |= 0x80 >> ((x + ox) & 7);
    return out;
  }
  const noise = (w: number, h: number): GreyPage => ({ width: w, height: h, grey: Uint8Array.from({ length: w * h }, (_, i) => (i * 2654435761) >>> 24) });

  it('packs the same bits as the pixel-by-pixel rule, full width (8 at a time) and centred', () => {
    const t: RasterTarget = { dpi: 203, widthMm: 101.6, heightMm: 152.4 }; // 812 x 1219 dots
    for (const page of [noise(812, 1219), noise(811, 1000), noise(805, 1300), noise(900, 50)]) {
      expect(Buffer.from(toMonoBitmap(page, t).bits).equals(Buffer.from(reference(page, t)))).toBe(true);
    }
  });

  it('packs the same bits four pixels a word (rows on a 4-byte boundary) as byte by byte (rows off it), at every grey level', () => {
    const t: RasterTarget = { dpi: 203, widthMm: 101.6, heightMm: 152.4 };
    // Mostly white with runs of every level around the threshold, as a label is: the word path skips white words.
    const label = (w: number, h: number): Uint8Array => Uint8Array.from({ length: w * h }, (_, i) => ((i * 2654435761) >>> 28 < 3 ? (i * 40503) & 0xff : 255));
    for (const [w, h] of [[812, 1219], [812, 600], [816, 1219], [814, 900]] as const) {
      const grey = label(w, h);
      // The same pixels at a byte offset of 1 in a larger buffer: not word-aligned, read byte by byte.
      const shifted = new Uint8Array(grey.length + 1).subarray(1);
      shifted.set(grey);
      const fast = toMonoBitmap({ width: w, height: h, grey }, t).bits;
      expect(Buffer.from(fast).equals(Buffer.from(reference({ width: w, height: h, grey }, t)))).toBe(true);
      expect(Buffer.from(toMonoBitmap({ width: w, height: h, grey: shifted }, t).bits).equals(Buffer.from(fast))).toBe(true);
    }
  });
});
