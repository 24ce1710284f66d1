/**
 * PDF drawing pieces shared by the sandbox's labels and manifests and the
 * station's A4 packing slips: the standard fonts and what they can encode
 * (text to draw with them goes through `pdfText`, shared/print/text.ts),
 * and the bars of a Code 128 (bwip-js's encoding) to draw as rectangles.
 */
import bwipjs from 'bwip-js/node';
import { StandardFonts, type PDFDocument, type PDFFont } from 'pdf-lib';

/** Standard fonts of a document and the code points they can encode. */
export interface Fonts {
  bold: PDFFont;
  regular: PDFFont;
  charset: Set<number>;
}

/** Embeds the standard fonts used by labels and the manifest. */
export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  const [bold, regular] = await Promise.all([doc.embedFont(StandardFonts.HelveticaBold), doc.embedFont(StandardFonts.Helvetica)]);
  return { bold, regular, charset: new Set(regular.getCharacterSet()) };
}

/**
 * `text` cut so that it fits `maxWidth` points in `font` at `size` points,
 * ending with `ellipsis` when cut (binary search over the length: a note may
 * be thousands of characters); the text itself when it fits.
 */
export function fitToWidth(text: string, font: PDFFont, size: number, maxWidth: number, ellipsis = '...'): string {
  if (font.widthOfTextAtSize(text, size) <= maxWidth) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (font.widthOfTextAtSize(`${text.slice(0, mid)}${ellipsis}`, size) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}${ellipsis}`;
}

/** One bar of a Code 128 symbol: offset from the symbol's left edge and width, both in modules. */
export interface Code128Bar {
  x: number;
  w: number;
}

/**
 * The bars of the Code 128 of `data` as bwip-js encodes it (code sets chosen
 * by BWIPP, check symbol, stop), left to right, in modules; no quiet zone.
 *
 * @throws Error from bwip-js when `data` cannot be encoded as Code 128
 */
export function code128Bars(data: string): Code128Bar[] {
  const [sym] = bwipjs.raw({ bcid: 'code128', text: data });
  if (!sym || !('sbs' in sym)) throw new Error(`bwip-js gave no Code 128 bars for ${JSON.stringify(data)}`);
  // sbs alternates bar, space, bar, ... widths in modules, starting with a bar.
  const bars: Code128Bar[] = [];
  let x = 0;
  sym.sbs.forEach((w, i) => {
    if (i % 2 === 0) bars.push({ x, w });
    x += w;
  });
  return bars;
}

