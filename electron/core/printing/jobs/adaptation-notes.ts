/**
 * The label preview's notes (issue 23's adaptation sentence) as texts of the
 * locale files, so each bench reads them in its own language
 * (`labelPreview.note.*`, shared/contract/views.ts `LabelPreviewView.adaptationNotes`).
 * Numbers stay numbers (mm, dpi, %, the scale factor): the screens write them
 * the bench's way.
 */
import type { StationText } from '../../../../shared/contract/views';
import type { LabelAdaptation } from '../zpl/label-fit';
import type { PageCropFacts } from '../pdf/pdf-region';

/** Notes of carrier ZPL fitted to the head and stock: made-for dpi and scale, size or ink on the stock, move, shrink. */
export function zplAdaptationNotes(a: LabelAdaptation): StationText[] {
  const stock = { stockWidth: a.stockMm.width, stockHeight: a.stockMm.height };
  const notes: StationText[] = [{ key: a.madeForFrom === 'default' ? 'madeForAssumed' : 'madeFor', values: { madeFor: a.madeForDpi, dpi: a.dpi, factor: Math.round(a.factor * 100) / 100 } }];
  if (a.labelMm) notes.push({ key: 'fits', values: { width: a.labelMm.width, height: a.labelMm.height, ...stock } });
  if (!a.inkMeasured) notes.push({ key: 'inkNotMeasured' });
  if (a.inkMm) notes.push({ key: 'ink', values: { width: a.inkMm.width, height: a.inkMm.height, ...stock } });
  if (a.shiftMm.x || a.shiftMm.y) notes.push({ key: 'moved', values: { x: a.shiftMm.x, y: a.shiftMm.y } });
  const long = a.longLabel;
  if (long?.kind === 'cut') notes.push({ key: 'cut', values: { mm: long.leftOffMm } });
  else if (long?.kind === 'held') notes.push({ key: 'held', values: { ...long.inches, percent: Math.round(a.shrink * 100) } });
  else if (long?.kind === 'shrunk') notes.push({ key: 'shrunkBarcodes', values: { percent: Math.round(a.shrink * 100) } });
  else if (a.shrink < 1) notes.push({ key: 'shrunk', values: { percent: Math.round(a.shrink * 100) } });
  return notes;
}

/** Notes of PDF pages that were not label-sized: where the label was found, turned or shrunk, what else the page holds. */
export function pdfCropNotes(crops: ReadonlyArray<PageCropFacts & { page: number }>): StationText[] {
  return crops.flatMap((c) => {
    const notes: StationText[] = [
      {
        key: c.shrinkPct === null ? (c.turned ? 'pdfLabelTurned' : 'pdfLabel') : c.turned ? 'pdfLabelTurnedShrunk' : 'pdfLabelShrunk',
        values: { page: c.page, pageWidth: c.pageMm.width, pageHeight: c.pageMm.height, width: c.labelMm.width, height: c.labelMm.height, ...(c.shrinkPct === null ? {} : { percent: c.shrinkPct }) },
      },
    ];
    if (c.otherParts > 0) notes.push({ key: 'pdfOtherParts', values: { count: c.otherParts } });
    return notes;
  });
}
