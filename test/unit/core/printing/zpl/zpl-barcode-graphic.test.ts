import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { adaptZpl } from '../../../../../electron/core/printing';
import { barcodeGraphic, barcodeModuleOverflows, decodeFieldHex } from '../../../../../electron/core/printing/zpl/zpl-barcode-graphic';
import { decodeGraphic, type ZplBitmap } from '../../../../../electron/core/printing/zpl/zpl-graphics';
import { scaleZpl } from '../../../../../electron/core/printing/zpl/zpl-scale';

const REAL = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/labels/real');
const real = (file: string): string => fs.readFileSync(path.join(REAL, file), 'latin1');
const TO_600 = 600 / 203;
const BY = { moduleDots: 2, ratio: 3, heightDots: 10 };

/** The graphic of `^GFA,n,n,bpr,:Z64:…` (the parameters after ^GF). */
function bitmap(gf: string): ZplBitmap {
  const [, total, , perRow, ...data] = gf.split(',');
  return decodeGraphic('A', Number(total), Number(perRow), data.join(','));
}

/** Dark and light runs along one row of a bitmap, from its first dark dot. */
function runs(bm: ZplBitmap, y: number): number[] {
  const out: number[] = [];
  let last: boolean | null = null;
  for (let x = 0; x < bm.bytesPerRow * 8; x++) {
    const dark = (bm.bits[y * bm.bytesPerRow + (x >> 3)]! & (0x80 >> (x & 7))) !== 0;
    if (last === null && !dark) continue;
    if (dark === last) out[out.length - 1]!++;
    else out.push(1);
    last = dark;
  }
  // Trailing light dots are padding to the byte, not a space.
  if (out.length % 2 === 0) out.pop();
  return out;
}

describe('barcodes over ZPL module limits drawn as ^GF (600 dpi)', () => {
  it('knows which commands pass the 10-dot limit once scaled', () => {
    expect(barcodeModuleOverflows('BC', ['N'], { ...BY, moduleDots: 4 }, TO_600)).toBe(true);
    expect(barcodeModuleOverflows('BC', ['N'], { ...BY, moduleDots: 3 }, TO_600)).toBe(false);
    expect(barcodeModuleOverflows('BQ', ['N', '2', '5'], BY, TO_600)).toBe(true);
    expect(barcodeModuleOverflows('BQ', ['N', '2', '3'], BY, TO_600)).toBe(false);
    expect(barcodeModuleOverflows('BO', ['N', '5'], BY, TO_600)).toBe(true);
    // A ^BY the printer itself refuses (over 10 at the carrier's resolution) is left to the printer.
    expect(barcodeModuleOverflows('BC', ['N'], { ...BY, moduleDots: 126 }, TO_600)).toBe(false);
    expect(barcodeModuleOverflows('BD', ['2'], { ...BY, moduleDots: 9 }, TO_600)).toBe(false);
  });

  it('reads ^FH escapes in field data', () => {
    expect(decodeFieldHex('[)>_1E01_1D96', '_')).toBe('[)>\x1e01\x1d96');
    expect(decodeFieldHex('50#25 off', '#')).toBe('50% off');
    expect(decodeFieldHex('_zz', '_')).toBe('_zz');
  });

  it('draws Code 128 in subset B at 12 dots a module (0.51 mm, as ^BY4 at 203 dpi), as the printer encodes ZPL mode N', () => {
    const g = barcodeGraphic({ name: 'BC', params: [''], by: { moduleDots: 4, ratio: 2, heightDots: 270 }, data: '12345678', defaultOrientation: 'N', factor: TO_600 });
    const bm = bitmap(g.gf);
    // Start B, eight characters, check, stop: 10 × 11 + 13 = 123 modules, no digit pairs (that would be subset C).
    expect(g.width).toBe(123 * 12);
    expect(g.height).toBe(Math.round(270 * TO_600));
    const r = runs(bm, 0);
    expect(Math.min(...r)).toBe(12);
    // Start B is 2 1 1 2 1 4 modules.
    expect(r.slice(0, 6)).toEqual([24, 12, 12, 24, 12, 48]);
    expect(g.text).toEqual({ value: '12345678', heightDots: Math.round(18 * TO_600), orientation: 'N' });
  });

  it('turns the graphic for ^BCR (bars across, read top to bottom)', () => {
    const upright = barcodeGraphic({ name: 'BC', params: ['N', '100', 'N'], by: { ...BY, moduleDots: 4 }, data: '>;1234', defaultOrientation: 'N', factor: TO_600 });
    const turned = barcodeGraphic({ name: 'BC', params: ['R', '100', 'N'], by: { ...BY, moduleDots: 4 }, data: '>;1234', defaultOrientation: 'N', factor: TO_600 });
    expect(turned.width).toBe(upright.height);
    expect(turned.height).toBe(upright.width);
    expect(turned.text).toBeNull();
  });

  it('a field placed by ^FT becomes a ^GF placed by ^FO at its box: the ^FT origin is the bars’ base, turned with the field', () => {
    // ^BY4 at 203 dpi: 12-dot modules at 600 dpi, over ZPL's 10. Code 128 "12345678" in subset B is 123 modules.
    const w = 123 * 12;
    const h = Math.round(100 * TO_600);
    const pos = (v: number): number => Math.round(v * TO_600);
    const cases: Array<{ o: string; ft: [number, number]; fo: [number, number] }> = [
      { o: 'N', ft: [100, 400], fo: [pos(100), pos(400) - h] },
      // R: turned 90° clockwise, the bars' base faces left: the origin is the top-left corner.
      { o: 'R', ft: [300, 100], fo: [pos(300), pos(100)] },
      { o: 'I', ft: [700, 300], fo: [pos(700) - w, pos(300)] },
      { o: 'B', ft: [300, 1000], fo: [pos(300) - h, pos(1000) - w] },
    ];
    for (const c of cases) {
      const out = scaleZpl(`^XA^BY4^FT${c.ft[0]},${c.ft[1]}^BC${c.o},100,N^FD12345678^FS^XZ`, { factor: TO_600 });
      expect(out.warnings, c.o).toEqual([]);
      expect(out.zpl, c.o).not.toMatch(/\^BC|\^FT/);
      expect(out.zpl, c.o).toMatch(new RegExp(`\\^FO${c.fo[0]},${c.fo[1]}\\^GFA,`));
    }
  });

  it('the readable line of a turned field is drawn under its bars in the field’s frame, turned with it', () => {
    // ^FT300,100 R: bars at (887, 296), 296 dots across and 1476 down; the line 53 dots high, 12 dots left of them.
    const out = scaleZpl('^XA^BY4^FT300,100^BCR,100,Y^FD12345678^FS^XZ', { factor: TO_600 });
    expect(out.warnings).toEqual([]);
    expect(out.zpl).toMatch(/\^FO887,296\^GFA,[^^]+\^FS\^FO822,296\^A0R,53,53\^FB1476,1,0,C\^FD12345678\^FS\^XZ$/);
    // B: the line right of the bars; I: above them.
    expect(scaleZpl('^XA^BY4^FT300,1000^BCB,100,Y^FD12345678^FS^XZ', { factor: TO_600 }).zpl).toContain(`^FO${591 + 296 + 12},1480^A0B,53,53^FB1476,1,0,C^FD12345678^FS`);
    expect(scaleZpl('^XA^BY4^FT700,300^BCI,100,Y^FD12345678^FS^XZ', { factor: TO_600 }).zpl).toContain(`^FO593,${887 - 12 - 53}^A0I,53,53^FB1476,1,0,C^FD12345678^FS`);
  });

  it('a ^FT field it cannot place (no x and y, or off the label once turned) keeps its barcode command at 10 dots', () => {
    const bare = scaleZpl('^XA^BY4^FT^BCR,100,N^FD12345678^FS^XZ', { factor: TO_600 });
    expect(bare.zpl).toContain('^BCR,296,N');
    expect(bare.warnings).toEqual(['^BC: module over 10 dots kept at 10 (a field placed by ^FT without x and y)']);
    const off = scaleZpl('^XA^BY4^FT100,300^BCI,100,N^FD12345678^FS^XZ', { factor: TO_600 });
    expect(off.zpl).toContain('^FT296,887^BCI,296,N');
    expect(off.warnings[0]).toMatch(/^\^BC: module over 10 dots kept at 10 \(a field placed by \^FT whose I graphic would start off the label/);
  });

  it('refuses what it cannot draw, naming it', () => {
    const field = { params: ['N', '2', '5'], by: BY, defaultOrientation: 'N', factor: TO_600 };
    expect(() => barcodeGraphic({ ...field, name: 'BQ', data: 'MM,AHELLO' })).toThrow(/automatic mode/);
    expect(() => barcodeGraphic({ ...field, name: 'BC', params: ['N', '100', 'Y', 'N', 'N', 'U'], data: '12345' })).toThrow(/mode U/);
    expect(() => barcodeGraphic({ ...field, name: 'BD', data: 'x' })).toThrow(/\^BD/);
  });

  it('Porterbuddy (real): its two QR codes (^BQ magnification 5 and 8) become graphics at 15 and 24 dots a module at 600 dpi', () => {
    const out = adaptZpl(real('porterbuddy-no.zpl'), { dpi: 600, sourceDpi: 203 });
    expect(out).not.toMatch(/\^BQ/);
    const gfs = [...out.matchAll(/\^GF(A,[^^]+)/g)].map((m) => bitmap(m[1]!));
    // QR rows start with a finder pattern: 7 modules dark.
    const finders = gfs.map((bm) => runs(bm, 0)[0]).filter((w) => w === 7 * 15 || w === 7 * 24);
    expect(finders.sort((a, b) => a! - b!)).toEqual([105, 168]);
    // The Code 128 (^BY3) stays a barcode command, at 9 dots, its centre kept (15 dots left of 171: 233 modules × 0.13 / 2).
    expect(out).toMatch(/\^BY9,3,591\s*\^FO156,3724\^BC\^FD011112230000002326\^FS/);
  });

  it('Labelary sample (real): the ^BY5 Code 128 becomes a graphic with its readable line; 300 dpi keeps the barcode command', () => {
    const zpl = real('labelary-sample.zpl');
    const at600 = scaleZpl(zpl, { factor: TO_600 });
    expect(at600.warnings).toEqual([]);
    expect(at600.zpl).not.toMatch(/\^BC/);
    expect(at600.zpl).toMatch(/\^FB\d+,1,0,C\^FD12345678\^FS/);
    const at300 = scaleZpl(zpl, { factor: 300 / 203 });
    expect(at300.zpl).toContain('^BY7,2.1,399');
    expect(at300.zpl).toContain('^FD12345678^FS');
  });

  it('keeps a field it cannot draw as a barcode at 10 dots, with a warning naming the command', () => {
    const out = scaleZpl('^XA^FO10,10^BQN,2,5^FDMM,AHELLO^FS^XZ', { factor: TO_600 });
    expect(out.zpl).toBe('^XA^BY6,3,30^FO30,30^BQN,2,10^FDMM,AHELLO^FS^XZ');
    expect(out.warnings).toEqual(['^BQ: module over 10 dots kept at 10 (QR data not in automatic mode ("<H|Q|M|L>A,…"))']);
  });
});
