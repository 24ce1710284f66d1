/**
 * The pick list of a batch print (issue 43 item 5) as an A4 PDF, in English or Italian, drawn by the day
 * report's code (electron/core/reports/pdf.ts, as ./report.ts draws the warehouse's day report): a heading
 * (batch, bench, selection, labels, whether the printer stacks face down), then one row per label in the order
 * the labels come off the printer: position, SKU, bin, product name, quantity, order number, shop, tracking number.
 */
import { dayReportPdf } from '../core/reports/pdf';
import { reportText } from '../../shared/reports/text';
import { romeDay, romeTime } from '../../shared/domain/rome-day';
import { chartFormats } from '../../shared/reports/formats';
import type { BatchSelection, BatchView, PickRow } from './batch';
import type { ReportLanguage } from './report';

const WORDS = {
  en: {
    title: 'Pick list: batch {id}',
    bench: 'At {bench}’s printer · {day} {time} · {n} labels',
    selection: { single: 'Single-item orders', all: 'Every label bought ahead', sku: 'SKU {v}', shop: 'Shop {v}' },
    order: 'In the order the labels come off the printer (position 1 first).',
    faceDown: 'The printer stacks face down: the last label was printed first.',
    heading: 'Labels',
    columns: ['#', 'SKU', 'Bin', 'Product', 'Qty', 'Order', 'Shop', 'Tracking number'],
  },
  it: {
    title: 'Lista di prelievo: lotto {id}',
    bench: 'Alla stampante di {bench} · {day} {time} · {n} etichette',
    selection: { single: 'Ordini di un solo articolo', all: 'Tutte le etichette comprate in anticipo', sku: 'SKU {v}', shop: 'Negozio {v}' },
    order: 'Nell’ordine in cui le etichette escono dalla stampante (prima la posizione 1).',
    faceDown: 'La stampante impila a faccia in giù: l’ultima etichetta è stata stampata per prima.',
    heading: 'Etichette',
    columns: ['#', 'SKU', 'Ubicazione', 'Prodotto', 'Q.tà', 'Ordine', 'Negozio', 'Lettera di vettura'],
  },
} as const;

const fill = (t: string, v: Record<string, string | number>) => t.replace(/\{(\w+)\}/g, (_, k: string) => String(v[k] ?? ''));

/** A selection in words of `language`. */
function selectionWords(s: BatchSelection, language: ReportLanguage): string {
  const w = WORDS[language].selection;
  return s.kind === 'sku' || s.kind === 'shop' ? fill(w[s.kind], { v: s.value }) : w[s.kind];
}

/** The pick list's PDF bytes. */
export async function pickListPdf(batch: BatchView, rows: readonly PickRow[], language: ReportLanguage): Promise<Uint8Array> {
  const w = WORDS[language];
  const at = Date.parse(batch.createdAt);
  const count = new Intl.NumberFormat(language === 'it' ? 'it-IT' : 'en-GB');
  return dayReportPdf(
    {
      title: fill(w.title, { id: batch.id }),
      lines: [
        selectionWords(batch.selection, language),
        fill(w.bench, { bench: batch.bench, day: chartFormats(language).day(romeDay(at)), time: romeTime(at).slice(0, 5), n: count.format(batch.labels) }),
        w.order,
        ...(batch.faceDown ? [w.faceDown] : []),
      ],
      charts: [],
      tables: [
        {
          heading: w.heading,
          columns: [...w.columns],
          rows: rows.map((r) => [String(r.position), r.sku, r.bin, r.name, count.format(r.quantity), r.orderNumber, r.shop, r.trackingNumber]),
          align: ['right', 'left', 'left', 'left', 'right', 'left', 'left', 'left'],
          widths: [0.3, 0.8, 0.9, 1.8, 0.4, 0.7, 0.8, 1.3],
        },
      ],
    },
    reportText(language),
  );
}
