/**
 * Issue 23: a barcode field placed by `^FT` (its origin the base of the bars,
 * turned with the field: ZPL II Programming Guide, `^FT`) that must become a
 * `^GF` graphic on a 600 dpi head (module over 10 dots) lands where the
 * carrier put it, whatever its orientation. The carrier's 203 dpi label and
 * what the station sends at 600 dpi are rendered by an independent ZPL
 * engine (zpl-renderer-js, which places `^FT` barcodes as the guide says) and
 * decoded by ZXing (zxing-wasm): same value, same size within the checker's
 * ±12 %, no bar narrower, and the ink's corner at the `^FT` origin (the bars'
 * base, left end, turned with the field) within 0.1 mm. The far corners move
 * by the module's rounding (4 dots at 203 dpi = 11.8 dots at 600, drawn at
 * 12: the symbol grows 1.5 % away from its origin, as the printer's own
 * barcode would).
 */
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { adaptZpl, renderZplPreview } from '../../../../electron/core/printing';
import { stopZplPreviewWorker } from '../../../../electron/core/printing/zpl/preview';
import { barcodeProblem, dpmmOf, measureZpl } from '../../../support/label-barcodes';

afterAll(() => stopZplPreviewWorker());

const STOCK = { width: 101.6, height: 152.4 };

/** The box of the ink of a one-label stream rendered at `dpi`, mm from the label's top-left: left, top, right, bottom. */
async function inkMm(zpl: string, dpi: 203 | 600): Promise<{ left: number; top: number; right: number; bottom: number }> {
  const { pngs } = await renderZplPreview(zpl, { dpi, maxLabels: 1, labelMm: { widthMm: STOCK.width, heightMm: STOCK.height } });
  const img = PNG.sync.read(pngs[0]!);
  let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (img.data[(y * img.width + x) * 4]! < 128) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  const mm = 25.4 / dpi;
  return { left: x0 * mm, top: y0 * mm, right: (x1 + 1) * mm, bottom: (y1 + 1) * mm };
}

describe('^FT-placed barcodes drawn as ^GF at 600 dpi stay where the carrier put them', () => {
  // ^BY4 at 203 dpi is 12 dots at 600 dpi, over ZPL's 10: every field below is drawn as a graphic.
  // The corner of the ink at the ^FT origin: the bars' base, left end, as the field is turned.
  const fields: Array<{ o: string; ft: string; corner: ['left' | 'right', 'top' | 'bottom'] }> = [
    { o: 'N', ft: '100,400', corner: ['left', 'bottom'] },
    { o: 'R', ft: '300,100', corner: ['left', 'top'] },
    { o: 'I', ft: '700,300', corner: ['right', 'top'] },
    { o: 'B', ft: '300,1000', corner: ['right', 'bottom'] },
  ];
  for (const { o, ft, corner } of fields) {
    it(`Code 128 turned ${o}`, async () => {
      const carrier = `^XA^PW812^LL1218^BY4^FT${ft}^BC${o},100,N^FD12345678^FS^XZ`;
      const sent = adaptZpl(carrier, { dpi: 600, sourceDpi: 203 });
      expect(sent).toMatch(/\^FO\d+,\d+\^GFA,/);
      expect(sent).not.toMatch(/\^BC|\^FT/);
      const [before] = (await measureZpl(carrier, STOCK.width, STOCK.height, dpmmOf(203))).map((l) => l.barcodes);
      const [after] = (await measureZpl(sent, STOCK.width, STOCK.height, dpmmOf(600))).map((l) => l.barcodes);
      expect(before).toHaveLength(1);
      expect(after).toHaveLength(1);
      const [b, a] = [before![0]!, after![0]!];
      expect(a.text).toBe('12345678');
      expect(barcodeProblem(b, after!, { stockMm: STOCK, dotMm: 1 / dpmmOf(600), shrink: 1 })).toBeNull();
      const [inkBefore, inkAfter] = [await inkMm(carrier, 203), await inkMm(sent, 600)];
      // The origin corner sits on the ^FT point itself (dots at 203 dpi, in mm).
      const [x, y] = ft.split(',').map((v) => (Number(v) / 203) * 25.4) as [number, number];
      for (const [k, at] of [[corner[0], x], [corner[1], y]] as const) {
        expect(Math.abs(inkBefore[k] - at), `${o} carrier's ${k}`).toBeLessThan(0.1);
        expect(Math.abs(inkAfter[k] - inkBefore[k]), `${o} ${k}: ${inkBefore[k]} → ${inkAfter[k]} mm`).toBeLessThan(0.1);
      }
    }, 60_000);
  }

  it('Code 128 turned R with its readable line: the line left of the bars, as on the carrier’s label, as far out as upright', async () => {
    const carrier = '^XA^PW812^LL1218^BY4^FT300,100^BCR,100,Y^FD12345678^FS^XZ';
    const sent = adaptZpl(carrier, { dpi: 600, sourceDpi: 203 });
    expect(sent).toMatch(/\^A0R,\d+,\d+\^FB\d+,1,0,C\^FD12345678\^FS/);
    const [after] = (await measureZpl(sent, STOCK.width, STOCK.height, dpmmOf(600))).map((l) => l.barcodes);
    expect(after?.map((b) => b.text)).toEqual(['12345678']);
    const [inkBefore, inkAfter] = [await inkMm(carrier, 203), await inkMm(sent, 600)];
    // The bars start at the ^FT point, 300 dots = 37.5 mm across; the line sits left of them on both.
    expect(inkBefore.left).toBeLessThan(37);
    expect(inkAfter.left).toBeLessThan(37);
    // The line's font is the station's (font 0, as for upright fields): it reaches as far from the bars as an upright one does below them.
    const upright = adaptZpl('^XA^PW812^LL1218^BY4^FT100,400^BCN,100,Y^FD12345678^FS^XZ', { dpi: 600, sourceDpi: 203 });
    const below = (await inkMm(upright, 600)).bottom - (400 / 203) * 25.4;
    expect(Math.abs((300 / 203) * 25.4 - inkAfter.left - below)).toBeLessThan(0.1);
  }, 60_000);
});
