/**
 * The text of a PDF as a reader extracts it, with Mozilla's pdf.js
 * (pdfjs-dist): an engine other than pdf-lib, which wrote the file, so a test
 * sees what a person's viewer shows, one string per text-showing operator.
 */

/**
 * The text items of every page of `pdf`, page by page.
 * @throws Error from pdf.js when the file cannot be read
 */
export async function pdfTextItems(pdf: Uint8Array): Promise<string[][]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: pdf.slice(), verbosity: 0 }).promise;
  try {
    const pages: string[][] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent();
      pages.push(content.items.flatMap((it) => ('str' in it ? [it.str] : [])));
    }
    return pages;
  } finally {
    await doc.loadingTask.destroy();
  }
}

/**
 * How many images each page of `pdf` paints, as pdf.js reads its drawing
 * operators (`paintImageXObject` and its inline and repeated forms).
 * @throws Error from pdf.js when the file cannot be read
 */
export async function pdfImageCounts(pdf: Uint8Array): Promise<number[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const paint = new Set([pdfjs.OPS.paintImageXObject, pdfjs.OPS.paintInlineImageXObject, pdfjs.OPS.paintImageXObjectRepeat]);
  const doc = await pdfjs.getDocument({ data: pdf.slice(), verbosity: 0 }).promise;
  try {
    const counts: number[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const ops = await (await doc.getPage(i)).getOperatorList();
      counts.push(ops.fnArray.filter((f) => paint.has(f)).length);
    }
    return counts;
  } finally {
    await doc.loadingTask.destroy();
  }
}
