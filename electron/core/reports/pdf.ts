/**
 * The day report as an A4 PDF (issue 26), drawn with pdf-lib: a heading
 * (report, day, station), the day's totals, End of day's charts as images
 * (the options of shared/reports/charts.ts, rendered by ./chart-images.ts),
 * then tables: totals per carrier and contract, per packer, the day's
 * manifests (distinte di consegna) and pickups (ritiri) with their numbers.
 * Every text goes through {@link pdfText} (standard Helvetica, WinAnsi).
 */
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { embedFonts, fitToWidth } from '../../../shared/pdf/drawing';
import { pdfText } from '../../../shared/print/text';
import type { DayChart } from '../../../shared/reports/charts';
import type { ReportText } from '../../../shared/reports/text';
import { drawChart } from './chart-images';

/** A4 in PDF points (210 × 297 mm). */
const A4 = { width: 595.28, height: 841.89 } as const;
const MARGIN = 40;
/** Chart size in CSS pixels (drawn at 2×) and on the page, points. */
const CHART_PX = { width: 760, height: 360 } as const;
const CHART_PT = { width: A4.width - 2 * MARGIN, height: ((A4.width - 2 * MARGIN) * CHART_PX.height) / CHART_PX.width };

/** What the report shows besides the charts. */
export interface DayReportContent {
  title: string;
  /** Lines under the title: day, station, totals. */
  lines: string[];
  charts: DayChart[];
  /**
   * Tables after the charts, each with a heading; an empty table prints "none". `align` per column (default
   * left): a right-aligned column ends each cell, its heading too, at the column's right edge (numbers).
   * `widths` per column, relative (default equal): `[1, 2]` gives the second column twice the first's width.
   */
  tables: Array<{ heading: string; columns: string[]; rows: Array<Array<string | number>>; align?: ReadonlyArray<'left' | 'right'>; widths?: readonly number[] }>;
}

/** The report as PDF bytes (see file comment). */
export async function dayReportPdf(content: DayReportContent, text: ReportText): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(content.title);
  doc.setCreator('Shipping Station');
  const fonts = await embedFonts(doc);
  const safe = (s: string) => pdfText(s, fonts.charset);
  let pageNo = 0;
  let page!: PDFPage;
  let y = 0;
  const newPage = () => {
    page = doc.addPage([A4.width, A4.height]);
    pageNo += 1;
    page.drawText(safe(`${text.page} ${pageNo}`), { x: A4.width - MARGIN - 50, y: MARGIN / 2, size: 8, font: fonts.regular, color: rgb(0.3, 0.3, 0.3) });
    y = A4.height - MARGIN;
  };
  const room = (h: number) => {
    if (y - h < MARGIN) newPage();
  };
  const line = (s: string, size: number, bold = false, x = MARGIN, maxWidth = A4.width - MARGIN - x) => {
    room(size + 4);
    const font = bold ? fonts.bold : fonts.regular;
    page.drawText(fitToWidth(safe(s), font, size, maxWidth), { x, y: y - size, size, font, color: rgb(0, 0, 0) });
    y -= size + 4;
  };

  newPage();
  line(content.title, 18, true);
  y -= 4;
  for (const l of content.lines) line(l, 10);
  y -= 8;

  for (const chart of content.charts) {
    room(CHART_PT.height + 8);
    await drawChart(doc, page, chart.option, CHART_PX, { x: MARGIN, y: y - CHART_PT.height, width: CHART_PT.width, height: CHART_PT.height });
    y -= CHART_PT.height + 8;
  }

  for (const table of content.tables) {
    y -= 6;
    room(40);
    line(table.heading, 13, true);
    const weights = table.columns.map((_, i) => table.widths?.[i] ?? 1);
    const total = weights.reduce((a, b) => a + b, 0);
    const colW = weights.map((wt) => ((A4.width - 2 * MARGIN) * wt) / total);
    const colX = colW.map((_, i) => MARGIN + colW.slice(0, i).reduce((a, b) => a + b, 0));
    const row = (cells: Array<string | number>, bold: boolean) => {
      room(14);
      cells.forEach((c, i) => {
        const font = bold ? fonts.bold : fonts.regular;
        const width = colW[i] ?? 0;
        const s = fitToWidth(safe(String(c)), font, 9, width - 4);
        const x = (colX[i] ?? MARGIN) + (table.align?.[i] === 'right' ? width - 4 - font.widthOfTextAtSize(s, 9) : 0);
        page.drawText(s, { x, y: y - 9, size: 9, font, color: rgb(0, 0, 0) });
      });
      y -= 13;
    };
    if (table.rows.length === 0) {
      line(text.none, 9);
      continue;
    }
    row(table.columns, true);
    for (const r of table.rows) row(r, false);
  }
  return doc.save();
}
