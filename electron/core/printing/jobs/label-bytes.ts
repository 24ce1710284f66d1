/**
 * The bytes a stored label is sent as to one printer: with the printer's saved profile, ZPL adapted to it
 * (size, darkness, speed, media, top, dpi) and PDFs rasterised at its dpi and
 * label size; without, the station dpi and a 4x6 in label, printer settings
 * untouched. A PDF-only label prints one label per page.
 */
import type { LabelPreviewView, StationText } from '../../../../shared/contract/views';
import type { PrinterProfile } from '../../../../shared/contract/printer-profile';
import { pdfCropNotes, zplAdaptationNotes } from './adaptation-notes';
import { applyProfileBytes } from '../zpl/profile';
import { pdfToZpl } from '../pdf/pdf-zpl';
import { fitZplBytesToStock } from '../zpl/label-fit';
import { LABEL_HEIGHT_MM, LABEL_WIDTH_MM } from './service-api';
import type { PageCrop } from '../pdf/page-rest';
import type { LongLabelPlan } from '../zpl/long-label';

/** A label as sent: the bytes, and the sentence and notes saying how carrier ZPL was adapted (made-for dpi, scale, ink on the stock; issue 23). */
export interface AdaptedLabel {
  bytes: Uint8Array;
  adaptation: string | null;
  adaptationNotes: StationText[];
  inkMm: LabelPreviewView['inkMm'];
  /** The PDF pages that were not label-sized, cropped to their label (./page-rest.ts sends the rest to the A4 printer); [] for ZPL. */
  crops: PageCrop[];
  /** ZPL larger than the stock: cut, shrunk or held (issue 36, zpl/long-label.ts); null when it fits or for a PDF. */
  longLabel: LongLabelPlan | null;
}

/**
 * The bytes of a stored label (`format` ZPL or PDF) for a printer with `profile` (null: none saved) at the station's `dpi`.
 * @throws Error when a PDF cannot be rasterised or the ZPL cannot be read (the caller fails the job).
 */
export async function adaptLabel(format: string, bytes: Uint8Array, profile: PrinterProfile | null, dpi: 203 | 300): Promise<AdaptedLabel> {
  if (format === 'PDF') {
    const target = profile ? { dpi: profile.dpi, widthMm: profile.widthMm, heightMm: profile.heightMm } : { dpi, widthMm: LABEL_WIDTH_MM, heightMm: LABEL_HEIGHT_MM };
    const { zpl: raster, notes, crops } = await pdfToZpl(bytes, target);
    return {
      bytes: profile ? applyProfileBytes(raster, profile, { sourceDpi: profile.dpi }) : raster,
      adaptation: notes.length ? notes.join(' ') : null,
      adaptationNotes: pdfCropNotes(crops),
      inkMm: null,
      crops,
      longLabel: null,
    };
  }
  const stockMm = profile ? { width: profile.widthMm, height: profile.heightMm } : { width: LABEL_WIDTH_MM, height: LABEL_HEIGHT_MM };
  const fitted = await fitZplBytesToStock(bytes, { dpi: profile?.dpi ?? dpi, stockMm, ...(profile?.zplMadeForDpi ? { madeForDpi: profile.zplMadeForDpi } : {}) });
  const at = profile?.dpi ?? dpi;
  return {
    bytes: profile ? applyProfileBytes(fitted.bytes, profile, { sourceDpi: at }) : fitted.bytes,
    adaptation: fitted.adaptation.note,
    adaptationNotes: zplAdaptationNotes(fitted.adaptation),
    inkMm: fitted.adaptation.inkMm,
    crops: [],
    longLabel: fitted.adaptation.longLabel ?? null,
  };
}
