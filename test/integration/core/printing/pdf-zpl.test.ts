/**
 * PDF-only labels to ZPL, round trip: the sandbox's own PDF label ->
 * station ZPL (`^GFA` Z64, PDFium raster) -> rendered back to an image by an
 * independent ZPL renderer (zpl-renderer-js) -> the Code 128 decoded by a
 * barcode reader (ZXing-C++ as zxing-wasm) equals the tracking number; at 203 and 300 dpi.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfToZpl } from '../../../../electron/core/printing/pdf/pdf-zpl';
import { crc16 } from '../../../../electron/core/printing/zpl/zpl-graphics';
import { renderZplPreview, stopZplPreviewWorker } from '../../../../electron/core/printing';
import { renderLabelsPdf } from '../../../../electron/sandbox/labels';
import { parcels } from '../../../unit/sandbox/labels/fixtures';

afterAll(() => stopZplPreviewWorker());

let zxingReady: Promise<unknown> | undefined;

/** Decodes the Code 128 barcodes of a label image with ZXing-C++ (zxing-wasm, the wasm shipped in the package). */
async function decodeCode128(png: Buffer): Promise<string[]> {
  zxingReady ??= (async () => {
    const wasm = fs.readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    return prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer }, fireImmediately: true });
  })();
  await zxingReady;
  const found = await readBarcodes(new Uint8Array(png), { formats: ['Code128'] });
  return found.filter((b) => b.isValid).map((b) => b.text);
}

describe('PDF label -> ZPL ^GFA Z64', () => {
  for (const dpi of [203, 300] as const) {
    it(`round-trips at ${dpi} dpi: each page one label, a few KB, its Code 128 decodes to the tracking number`, async () => {
      const labels = parcels(2);
      const pdf = await renderLabelsPdf(labels);
      const { zpl, pages } = await pdfToZpl(pdf, { dpi, widthMm: 101.6, heightMm: 152.4 });
      expect(pages).toBe(2);
      const text = new TextDecoder().decode(zpl);
      const formats = text.match(/\^XA[\s\S]*?\^XZ/g) ?? [];
      expect(formats).toHaveLength(2);
      expect(zpl.length / 2).toBeLessThan(40_000);
      // Z64 payload: zlib deflate of the 1-bit rows, CRC over the base64 text.
      const m = /\^GFA,(\d+),(\d+),(\d+),:Z64:([A-Za-z0-9+/=]+):([0-9A-F]{4})/.exec(formats[0] ?? '');
      expect(m).not.toBeNull();
      const [, total, , perRow, b64 = '', crc] = m!;
      expect(inflateSync(Buffer.from(b64, 'base64')).length).toBe(Number(total));
      expect(Number(perRow)).toBe(Math.ceil(Math.round((101.6 / 25.4) * dpi) / 8));
      expect(crc).toBe(crc16(b64).toString(16).toUpperCase().padStart(4, '0'));

      const { pngs } = await renderZplPreview(text, { dpi: dpi === 300 ? 300 : 203 });
      const decoded = await Promise.all(pngs.map(decodeCode128));
      expect(decoded).toEqual(labels.map((l) => [l.trackingNumber]));
    }, 60_000);
  }

  it('refuses bytes that are not a PDF, naming the problem', async () => {
    await expect(pdfToZpl(new TextEncoder().encode('^XA^XZ'), { dpi: 203, widthMm: 100, heightMm: 150 })).rejects.toThrow(/not a PDF/);
  });

  it('computes the Z64 CRC as CRC-16/XMODEM', () => {
    expect(crc16('123456789')).toBe(0x31c3);
  });
});
