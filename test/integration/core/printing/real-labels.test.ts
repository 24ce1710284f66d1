/**
 * Issue 23 proof, CI subset: real carrier ZPL labels (test/fixtures/labels/real/,
 * sources in SOURCES.md) sent through the station's adaptation, rendered by an
 * independent ZPL engine (zpl-renderer-js) and decoded by ZXing (zxing-wasm).
 * Every barcode of the original must come out with the same value, inside the
 * stock, within ±12 % of its size and with no bar narrower by more than one dot.
 *
 * CI runs every label at 300 dpi on 100×150 mm (the target that failed most:
 * 7/20 before) and a few labels at 600 dpi without profile and at 203 dpi on
 * 100×150 mm; `npm run bench -- --only real-labels` runs the full matrix.
 * On a label shrunk on purpose to fit its stock (4 × 8 in on 6 in), a barcode
 * kept at the carrier's size is right too (checkBarcode says why).
 * No barcode is excused. PDF417 symbols are measured on a model of what a
 * printer draws from the `^B7`/`^BY` sent (test/support/pdf417-model.ts):
 * the renderer draws them at 2-dot modules whatever `^BY` says, so FedEx's
 * `^BY2` PDF417, rightly sent as `^BY3` at 300 dpi and `^BY6` at 600 dpi,
 * came out a third or two thirds too narrow (12 barcodes excused until
 * then). The model is applied to the original at 203 dpi too, checked
 * against the renderer's own drawing there (where its 2-dot module is the
 * carrier's), and shown to catch a `^BY` left unscaled. Aztec codes drawn as
 * graphics at 600 dpi take the symbol the printer takes for `^BO`'s error
 * control (zpl-aztec.ts; they were 27 modules for 23, 3 excused).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fitZplToStock } from '../../../../electron/core/printing/zpl/label-fit';
import { stopZplPreviewWorker } from '../../../../electron/core/printing/zpl/preview';
import { checkBarcode, measureZpl, PRINT_TARGETS } from '../../../support/label-barcodes';
import { measurePdf417s } from '../../../support/pdf417-model';
import { measureMaxiCodeClearance, newOverlap } from '../../../support/maxicode-clearance';
import { checkLabel, originalBarcodes, realLabelFiles, realLabelSources, realZplLabels, sentFor } from '../../../support/real-labels';

afterAll(() => stopZplPreviewWorker());


const labels = realZplLabels();
const target = (name: string) => PRINT_TARGETS.find((t) => t.name === name)!;
const FEW = new Set(['ups.zpl', 'ups-surepost.zpl', 'usps-priority.zpl', 'gls-dk-return.zpl', 'porterbuddy-no.zpl', 'stored-graphic-dg-xg.zpl', 'dpd-pl.zpl', 'dhl-paket-de.zpl']);
// At 600 dpi their ^BY (4, 5), ^BQ or ^BO pass ZPL's 10-dot module once scaled: drawn as ^GF graphics (zpl-barcode-graphic.ts).
const OVER_TEN = new Set(['labelary-sample.zpl', 'gls-cz.zpl', 'swisspost-ch.zpl', 'return-qrcode-no.zpl', 'reverse-qr.zpl', 'aztec-ec.zpl', 'jcpenney-carton.zpl']);
// FedEx's PDF417 (^BY2 sent as ^BY6), measured on the printer's model (pdf417-model.ts).
const PDF417 = new Set(['fedex-ground.zpl', 'fedex-intl-priority-awb.zpl']);
const runs = [
  ...labels.map((l) => ({ ...l, target: target('300 dpi, 100×150 mm') })),
  ...labels.filter((l) => FEW.has(l.file) || OVER_TEN.has(l.file) || PDF417.has(l.file)).map((l) => ({ ...l, target: target('600 dpi, no profile') })),
  ...labels.filter((l) => FEW.has(l.file)).map((l) => ({ ...l, target: target('203 dpi, 100×150 mm') })),
];

/**
 * Corpus labels whose original, rendered at its own dpi, gives ZXing no barcode to read (not yet
 * found why: DPD PL is one ^GFA bitmap of the whole label; Posten NO and the reversed QR label draw
 * theirs in ways the renderer or ZXing miss). They still go through the station's path here; their
 * barcodes are not checked. Any other label decoding to nothing fails.
 */
const NOTHING_DECODED_ON_ORIGINAL = ['dpd-pl.zpl', 'posten-no.zpl', 'reverse-qr.zpl'];

describe('real carrier labels, every barcode at its size', () => {
  it('the corpus holds at least 30 labels (ZPL and PDF), each with its source in SOURCES.md', () => {
    const files = realLabelFiles();
    expect(files.length).toBeGreaterThanOrEqual(30);
    expect(files.filter((f) => f.endsWith('.pdf')).length).toBeGreaterThanOrEqual(3);
    const sources = realLabelSources();
    expect(files.filter((f) => !sources.includes(`| ${f} |`))).toEqual([]);
  });

  it('the ZPL labels are at least 25 and their originals decode to at least 40 barcodes', async () => {
    expect(labels.length).toBeGreaterThanOrEqual(25);
    let n = 0;
    for (const l of labels) n += (await originalBarcodes(l.file, l.zpl)).length;
    expect(n).toBeGreaterThanOrEqual(40);
    // MaxiCode is checked too (each ^BD rendered alone: ZXing finds it only on an image holding nothing else).
    for (const file of ['ups.zpl', 'ups-surepost.zpl']) {
      const zpl = labels.find((l) => l.file === file)!.zpl;
      expect((await originalBarcodes(file, zpl)).filter((b) => b.format === 'MaxiCode').length, file).toBe(1);
    }
  }, 120_000);

  for (const r of runs) {
    const key = `${r.file} @ ${r.target.name}`;
    it(key, async () => {
      const c = await checkLabel(r.file, r.zpl, r.target);
      // Too long for the stock with every barcode at ≥ 90 % (issue 36): the print queue holds it with this sentence (test/unit/core/printing/jobs/long-label-jobs.test.ts); the bench counts it apart.
      if (c.held !== null) {
        expect(c.held).toMatch(/^This label is [\d.]+ × [\d.]+ in: load \d+ × \d+ in labels, or choose a printer profile for them$/);
        return;
      }
      // A label whose original decodes to no barcode would pass with nothing checked: only these three may, named.
      if (c.barcodes.length === 0) expect(NOTHING_DECODED_ON_ORIGINAL, `${r.file}: its original decodes to no barcode`).toContain(r.file);
      else expect(NOTHING_DECODED_ON_ORIGINAL).not.toContain(r.file);
      const problems = c.barcodes.map((b) => b.problem).filter((p): p is string => p !== null);
      expect(problems, c.note).toEqual([]);
      // Issue 36: every barcode of a label that prints, shrunk to fit or not, is at 88–112 % of the carrier's own size.
      expect(c.barcodes.filter((b) => !b.atOriginalSize).map((b) => b.text), c.note).toEqual([]);
    }, 120_000);
  }

  it('a label longer than any profile (barcodes down to 8.9 in) is held at every target with the sentence, its shrunk ZPL kept for printing anyway', async () => {
    const long = '^XA^PW812^LL1827^FO50,50^BY3^BCN,200,N^FD>;12345678^FS^FO50,1600^BY3^BCN,200,N^FD>;87654321^FS^XZ';
    for (const t of PRINT_TARGETS) {
      const fit = await fitZplToStock(long, { dpi: t.dpi, stockMm: t.stockMm });
      expect(fit.adaptation.heldTooLong, t.name).toBe('This label is 4 × 8.9 in: load 4 × 9 in labels, or choose a printer profile for them');
      expect(fit.adaptation.shrink, t.name).toBeLessThan(0.9);
      expect(fit.zpl).toContain('^FD>;87654321');
    }
  }, 120_000);

  it('MaxiCode (^BD) is sent as the carrier wrote it at every target: the same command and data, only its ^FO moved', async () => {
    for (const file of ['ups.zpl', 'ups-surepost.zpl']) {
      const zpl = labels.find((l) => l.file === file)!.zpl;
      const field = (s: string): string => /\^BD[^]*?\^FS/.exec(s)?.[0] ?? '';
      for (const t of PRINT_TARGETS) {
        const fit = await fitZplToStock(zpl, { dpi: t.dpi, stockMm: t.stockMm });
        expect(field(fit.zpl), `${file} @ ${t.name}`).toBe(field(zpl));
        expect(field(zpl)).not.toBe('');
      }
    }
  }, 120_000);

  describe('MaxiCode keeps its place clear (issue 36, item 1; test/support/maxicode-clearance.ts)', () => {
    // The rest of the label's ink on the MaxiCode (at a printer's 1.11 × 1.054 in) and its 1X quiet zone, where
    // the carrier's own label, rendered at its dpi, has none within 0.3 mm at the same place relative to the symbol.
    const MAX_NEW_MM2 = 0.5;
    const withMaxiCode = labels.filter((l) => /\^BD/.test(l.zpl));
    const clearance = async (zpl: string): Promise<Array<{ target: string; mm2: number; at: unknown }>> => {
      const orig = await measureMaxiCodeClearance(zpl, 101.6, 203.2, 203);
      expect(orig).not.toBeNull();
      const out: Array<{ target: string; mm2: number; at: unknown }> = [];
      for (const t of PRINT_TARGETS) {
        const { sent, fit } = await sentFor(zpl, t);
        if (fit.adaptation.heldTooLong) continue;
        const printed = await measureMaxiCodeClearance(sent, t.stockMm.width, t.stockMm.height, t.dpi);
        expect(printed, t.name).not.toBeNull();
        out.push({ target: t.name, ...newOverlap(orig!, printed!) });
      }
      return out;
    };

    it('the corpus has its two UPS labels with a MaxiCode', () => {
      expect(withMaxiCode.map((l) => l.file)).toEqual(['ups-surepost.zpl', 'ups.zpl']);
    });

    for (const l of withMaxiCode) {
      it(`${l.file}: at every target where it prints, nothing more on the MaxiCode's place than on the carrier's label`, async () => {
        const over = (await clearance(l.zpl)).filter((c) => c.mm2 > MAX_NEW_MM2);
        expect(over).toEqual([]);
      }, 240_000);
    }

    // The corpus's UPS labels fit every stock at 100 %: made ~6.6 in long by a barcode at their foot they are shrunk
    // to ~90 %, the MaxiCode is not, and the fields past it move out of its way (zpl-scale.ts). Before: 37–63 mm² new.
    for (const l of withMaxiCode) {
      it(`${l.file} made longer than its stock (shrunk to fit): nothing more on the MaxiCode's place either`, async () => {
        const longer = l.zpl.replace(/\^XZ\s*$/, '^FO100,1240^BY3^BCN,80,N^FD12345678^FS^XZ');
        expect(longer).not.toBe(l.zpl);
        const c = await clearance(longer);
        expect(c.length).toBeGreaterThan(0);
        expect(c.filter((x) => x.mm2 > MAX_NEW_MM2)).toEqual([]);
      }, 240_000);
    }

    it('fails on a MaxiCode moved onto its neighbours (UPS ^FO20,431 put at 260,431: on the Code 128 and the sort code)', async () => {
      const ups = labels.find((l) => l.file === 'ups.zpl')!.zpl;
      const moved = ups.replace('^FO20,431^CVY^BD3', '^FO260,431^CVY^BD3');
      expect(moved).not.toBe(ups);
      const orig = (await measureMaxiCodeClearance(ups, 101.6, 203.2, 203))!;
      const t = PRINT_TARGETS.find((x) => x.name === '300 dpi, 4×6 in')!;
      const printed = (await measureMaxiCodeClearance((await sentFor(moved, t)).sent, t.stockMm.width, t.stockMm.height, t.dpi))!;
      expect(newOverlap(orig, printed).mm2).toBeGreaterThan(20 * MAX_NEW_MM2);
    }, 120_000);
  });

  describe('the PDF417 model (pdf417-model.ts)', () => {
    const fedex = labels.find((l) => l.file === 'fedex-ground.zpl')!;

    it('draws the carrier’s original as the renderer does at 203 dpi, where its 2-dot module is ^BY2: same value, same size within a dot', async () => {
      const model = (await originalBarcodes(fedex.file, fedex.zpl)).filter((b) => b.format === 'PDF417');
      const renderer = (await measureZpl(fedex.zpl, 101.6, 203.2, 8)).flatMap((l) => l.barcodes).filter((b) => b.format === 'PDF417');
      expect(model.map((b) => b.text)).toEqual(renderer.map((b) => b.text));
      expect(model).toHaveLength(1);
      const [m, r] = [model[0]!, renderer[0]!];
      expect(Math.abs(m.box.width - r.box.width)).toBeLessThanOrEqual(0.125);
      expect(Math.abs(m.box.height - r.box.height)).toBeLessThanOrEqual(0.125);
      expect(m.narrowMm).toBeCloseTo(r.narrowMm, 5);
    }, 120_000);

    it('catches a ^BY left at the carrier’s 2 dots on a 300 dpi head (rows and modules unscaled: a third too small)', async () => {
      const [orig] = (await originalBarcodes(fedex.file, fedex.zpl)).filter((b) => b.format === 'PDF417');
      const unscaled = await measurePdf417s(fedex.zpl, 101.6, 152.4, 12);
      const c = checkBarcode(orig!, unscaled, { stockMm: { width: 101.6, height: 152.4 }, dotMm: 1 / 12, shrink: 1 });
      expect(c.problem).toMatch(/^PDF417 .*size 13\.\d×51\.\d mm, want 19\.9×76\.8/);
    }, 120_000);
  });
});
