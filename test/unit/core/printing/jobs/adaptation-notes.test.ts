/** The label preview's notes as locale texts (electron/core/printing/jobs/adaptation-notes.ts), said by the screens in the bench's language. */
import { afterEach, describe, expect, it } from 'vitest';
import { pdfCropNotes, zplAdaptationNotes } from '../../../../../electron/core/printing/jobs/adaptation-notes';
import type { LabelAdaptation } from '../../../../../electron/core/printing/zpl/label-fit';
import { stationText } from '../../../../../renderer/src/lib/format';
import { setLanguage } from '../../../../../renderer/src/lib/i18n';

const fitted: LabelAdaptation = {
  madeForDpi: 203,
  madeForFrom: '^PW',
  dpi: 300,
  factor: 1.4778,
  shrink: 0.95,
  shiftMm: { x: 1.5, y: 0 },
  inkMm: { x: 0, y: 0, width: 96.5, height: 140.2 },
  stockMm: { width: 101.6, height: 152.4 },
  labelMm: null,
  inkMeasured: true,
  note: 'made for 203 dpi, …',
};

afterEach(async () => {
  await setLanguage('en');
});

describe('label preview notes', () => {
  it('names what was done to carrier ZPL, numbers kept as numbers', () => {
    expect(zplAdaptationNotes(fitted)).toEqual([
      { key: 'madeFor', values: { madeFor: 203, dpi: 300, factor: 1.48 } },
      { key: 'ink', values: { width: 96.5, height: 140.2, stockWidth: 101.6, stockHeight: 152.4 } },
      { key: 'moved', values: { x: 1.5, y: 0 } },
      { key: 'shrunk', values: { percent: 95 } },
    ]);
    expect(zplAdaptationNotes({ ...fitted, madeForFrom: 'default', shrink: 1, shiftMm: { x: 0, y: 0 }, inkMm: null, labelMm: { width: 101.6, height: 152.4 } }).map((n) => n.key)).toEqual(['madeForAssumed', 'fits']);
    expect(zplAdaptationNotes({ ...fitted, inkMm: null, inkMeasured: false, shrink: 1, shiftMm: { x: 0, y: 0 } }).map((n) => n.key)).toEqual(['madeFor', 'inkNotMeasured']);
  });

  it('names what was done to an A4 PDF page', () => {
    const notes = pdfCropNotes([{ page: 1, pageMm: { width: 210, height: 297 }, labelMm: { width: 100, height: 150 }, turned: true, shrinkPct: null, otherParts: 2, otherPartsMm: [{ width: 182, height: 127 }, { width: 40, height: 20 }] }]);
    expect(notes.map((n) => n.key)).toEqual(['pdfLabelTurned', 'pdfOtherParts']);
  });

  it('reads in Italian on an Italian bench, decimal comma and plural forms, and in English on an English one', async () => {
    const notes = [...zplAdaptationNotes(fitted), ...pdfCropNotes([{ page: 1, pageMm: { width: 210, height: 297 }, labelMm: { width: 100, height: 150 }, turned: false, shrinkPct: 90, otherParts: 1, otherPartsMm: [{ width: 182, height: 127 }] }])];
    await setLanguage('it');
    const it = notes.map((n) => stationText('labelPreview.note', n));
    expect(it[0]).toBe('fatta per 203 dpi, stampata a 300 dpi, scala ×1,48');
    expect(it[1]).toBe('inchiostro di 96,5 × 140,2 mm sul supporto di 101,6 × 152,4 mm');
    expect(it.at(-1)).toMatch(/^la pagina contiene un’altra parte/);
    expect(it.join(' ')).not.toMatch(/\b(?:made|printing|scaled|ink|stock|page|printed)\b/);
    await setLanguage('en');
    const en = notes.map((n) => stationText('labelPreview.note', n));
    expect(en[0]).toBe('made for 203 dpi, printing at 300 dpi, scaled ×1.48');
    expect(en.at(-1)).toMatch(/^the page holds another part/);
    expect(stationText('labelPreview.note', { key: 'noSuchNote' })).toBeNull();
  });
});
