/**
 * The day report's charts as images (issue 45: drawn without pdf-lib's PNG
 * round trip): RGBA to RGB four pixels a word gives the bytes of the plain
 * rule, and a chart drawn on a page is one RGB image of its pixels at 2×.
 */
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { drawChart, rgbOf } from '../../../../electron/core/reports/chart-images';
import type { DayStatsView } from '../../../../shared/contract/reports';
import { dayCharts } from '../../../../shared/reports/charts';
import { chartFormats } from '../../../../shared/reports/formats';
import { reportText } from '../../../../shared/reports/text';
import { pdfImageCounts } from '../../../support/pdf-text';

describe('chart images', () => {
  it('RGBA to RGB: the same bytes as pixel by pixel, word-aligned or not, any pixel count', () => {
    const plain = (rgba: Uint8Array): Uint8Array => Uint8Array.from({ length: (rgba.length / 4) * 3 }, (_, i) => rgba[Math.floor(i / 3) * 4 + (i % 3)]!);
    for (const pixels of [0, 1, 3, 4, 5, 7, 1000, 1001]) {
      const rgba = Uint8Array.from({ length: pixels * 4 }, (_, i) => (i * 2654435761) >>> 24);
      expect(Buffer.from(rgbOf(rgba)).equals(Buffer.from(plain(rgba)))).toBe(true);
      // Off a word boundary: byte by byte.
      const shifted = new Uint8Array(rgba.length + 1).subarray(1);
      shifted.set(rgba);
      expect(Buffer.from(rgbOf(shifted)).equals(Buffer.from(plain(rgba)))).toBe(true);
    }
  });

  it('a chart on a page is one RGB image, 8 bits, at twice its CSS size, with ink on a white ground', async () => {
    const stats: DayStatsView = {
      day: '2026-12-07',
      range: 'day',
      firstDay: '2026-12-07',
      lastDay: '2026-12-07',
      hourly: Array.from({ length: 24 }, (_, hour) => ({ hour, parcels: hour % 5, usual: 2 })),
      byContract: [{ carrier: 'BRT', contract: 'Express', shipments: 3, parcels: 4, cost: 21 }],
      byPacker: [],
      costPerDay: [{ day: '2026-12-07', cost: 21 }],
      exceptions: { needsAttention: 0, held: 0, voided: 0 },
      totals: { shipments: 3, parcels: 4, cost: 21, currency: 'EUR' },
    };
    const [hourly] = dayCharts(stats, reportText('en'), chartFormats('en', 'EUR'));
    const doc = await PDFDocument.create();
    const page = doc.addPage([595.28, 841.89]);
    await drawChart(doc, page, hourly!.option, { width: 200, height: 100 }, { x: 40, y: 500, width: 400, height: 200 });
    const pdf = await doc.save();
    expect(await pdfImageCounts(pdf)).toEqual([1]);

    const images = doc.context.enumerateIndirectObjects().map(([, o]) => o).filter((o): o is PDFRawStream => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
    expect(images).toHaveLength(1);
    const dict = images[0]!.dict;
    expect([dict.get(PDFName.of('Width')), dict.get(PDFName.of('Height')), dict.get(PDFName.of('BitsPerComponent'))].map((n) => (n as PDFNumber).asNumber())).toEqual([400, 200, 8]);
    expect(dict.get(PDFName.of('ColorSpace'))).toBe(PDFName.of('DeviceRGB'));
    const rgb = inflateSync(images[0]!.contents);
    expect(rgb.length).toBe(400 * 200 * 3);
    // The top-left corner is the white ground; the bars and text are ink.
    expect([...rgb.subarray(0, 3)]).toEqual([255, 255, 255]);
    expect(rgb.some((v) => v < 128)).toBe(true);
  });
});
