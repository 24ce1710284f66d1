/**
 * The whole warehouse's day report (issue 35 item 5, issue 42 item 4), in Italian or English: a CSV with
 * one row per shipment (day, time Europe/Rome, bench, packer, tracking number, contract, cost EUR, weight
 * kg, parcels) and an A4 PDF drawn by the bench's day report code (electron/core/reports/pdf.ts): the
 * day's totals, shipments per hour per bench as a chart, totals per bench and per packer, then every
 * shipment (time, bench, packer, tracking number, contract, cost), numbers right-aligned.
 *
 * Written the language's way: in Italian decimal commas and days dd/mm/yyyy (the bench's End of day,
 * shared/reports/formats.ts); the CSV for that language's spreadsheet: `;` between fields in Italian (an
 * Italian spreadsheet splits on it, and `,` is its decimal mark), `,` in English, days `YYYY-MM-DD` in
 * English (no spreadsheet reads 07/12 the wrong way round). Fields as the bench's CSV writes them
 * (electron/core/reports/csv.ts `csvField`: quoted when needed, formulas defused), CRLF, a UTF-8 byte
 * order mark. A contract is named by its name; its code (possibly an opaque token) only when the bench
 * did not send the name. Both gain the delivery exceptions begun that day (issue 44 item 5: time, status,
 * carrier, order, tracking number, the carrier's last event; the CSV also when it was delivered), the CSV's
 * after an empty line under their own header row, only when there are some.
 */
import type { EChartsOption } from 'echarts';
import { romeDay, romeTime } from '../../shared/domain/rome-day';
import { CHART_COLOURS, type DayChart } from '../../shared/reports/charts';
import { chartFormats } from '../../shared/reports/formats';
import { reportText } from '../../shared/reports/text';
import { csvField } from '../core/reports/csv';
import { dayReportPdf } from '../core/reports/pdf';
import type { ReportShipment } from './floor';
import type { DeliveryException } from './platform-view';

/** The report's languages (the page's). */
export type ReportLanguage = 'it' | 'en';

/** The words of the report. */
interface WarehouseReportText {
  title: string;
  day: string;
  shipments: string;
  parcels: string;
  weightKg: string;
  costEur: string;
  benches: string;
  bench: string;
  packer: string;
  nobody: string;
  perHourTitle: string;
  perHourSummary: string;
  hour: string;
  perBench: string;
  perPacker: string;
  allShipments: string;
  time: string;
  /** The time column of the PDF, where the zone is in the heading's lines. */
  timeShort: string;
  zone: string;
  trackingNumber: string;
  contract: string;
  /** The day's delivery exceptions (issue 44 item 5). */
  exceptions: string;
  status: string;
  carrier: string;
  order: string;
  lastEvent: string;
  closed: string;
  exceptionKind: Readonly<Record<DeliveryException['statusKey'], string>>;
}

const WORDS: Readonly<Record<ReportLanguage, WarehouseReportText>> = {
  en: {
    title: 'Warehouse day report',
    day: 'Day',
    shipments: 'Shipments',
    parcels: 'Parcels',
    weightKg: 'Weight (kg)',
    costEur: 'Cost (EUR)',
    benches: 'Benches',
    bench: 'Bench',
    packer: 'Packer',
    nobody: 'nobody signed in',
    perHourTitle: 'Shipments per hour per bench',
    perHourSummary: 'Shipments per hour on {day} at each bench: {total} in total.',
    hour: 'Hour',
    perBench: 'Totals per bench',
    perPacker: 'Totals per packer',
    allShipments: 'Shipments',
    time: 'Time (Europe/Rome)',
    timeShort: 'Time',
    zone: 'Europe/Rome',
    trackingNumber: 'Tracking number',
    contract: 'Contract',
    exceptions: 'Delivery exceptions begun this day',
    status: 'Status',
    carrier: 'Carrier',
    order: 'Order',
    lastEvent: 'Last carrier event',
    closed: 'Delivered at',
    exceptionKind: { held_at_depot: 'Held', undelivered: 'Undelivered', returned_to_sender: 'Returned', awaiting_instructions: 'Awaiting instructions', awaiting_collection: 'Awaiting collection' },
  },
  it: {
    title: 'Rapporto del giorno del magazzino',
    day: 'Giorno',
    shipments: 'Spedizioni',
    parcels: 'Colli',
    weightKg: 'Peso (kg)',
    costEur: 'Costo (EUR)',
    benches: 'Banchi',
    bench: 'Banco',
    packer: 'Operatore',
    nobody: 'nessuno connesso',
    perHourTitle: 'Spedizioni per ora per banco',
    perHourSummary: 'Spedizioni per ora il {day} a ogni banco: {total} in tutto.',
    hour: 'Ora',
    perBench: 'Totali per banco',
    perPacker: 'Totali per operatore',
    allShipments: 'Spedizioni',
    time: 'Ora (Europa/Roma)',
    timeShort: 'Ora',
    zone: 'Europa/Roma',
    trackingNumber: 'Lettera di vettura',
    contract: 'Contratto',
    exceptions: 'Eccezioni di consegna iniziate nel giorno',
    status: 'Stato',
    carrier: 'Corriere',
    order: 'Ordine',
    lastEvent: 'Ultimo evento del corriere',
    closed: 'Consegnato il',
    exceptionKind: { held_at_depot: 'In giacenza', undelivered: 'Non consegnato', returned_to_sender: 'Reso al mittente', awaiting_instructions: 'In attesa di istruzioni', awaiting_collection: 'In attesa di ritiro' },
  },
};

/** Totals of a group of shipments. */
interface Totals {
  name: string;
  shipments: number;
  parcels: number;
  weightKg: number;
  costEur: number;
}

/** `rows` summed per `key` (bench or packer), most shipments first. */
function totalsBy(rows: readonly ReportShipment[], key: (r: ReportShipment) => string): Totals[] {
  const by = new Map<string, Totals>();
  for (const r of rows) {
    const name = key(r);
    let t = by.get(name);
    if (!t) by.set(name, (t = { name, shipments: 0, parcels: 0, weightKg: 0, costEur: 0 }));
    t.shipments += 1;
    t.parcels += r.parcels ?? 0;
    t.weightKg += r.weightKg ?? 0;
    t.costEur += r.costEur ?? 0;
  }
  return [...by.values()].sort((a, b) => b.shipments - a.shipments || a.name.localeCompare(b.name));
}

/** How the report writes numbers: the language's decimal mark; `grouped` with thousands separators (the PDF; a CSV cell has none). */
function numberFormats(language: ReportLanguage, grouped: boolean) {
  const locale = language === 'it' ? 'it-IT' : 'en-GB';
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: grouped });
  const weight = new Intl.NumberFormat(locale, { maximumFractionDigits: 3, useGrouping: grouped });
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0, useGrouping: grouped });
  return {
    /** EUR with two decimals (`6,90`); '' when unknown. */
    eur: (n: number | null): string => (n === null ? '' : money.format(n)),
    /** kg, up to grams (`2,25`); '' when unknown. */
    kg: (n: number | null): string => (n === null ? '' : weight.format(n)),
    count: (n: number | null): string => (n === null ? '' : count.format(n)),
  };
}

/** The contract as the report names it: its name, else its code, else ''. */
const contractOf = (r: ReportShipment): string => r.contractName ?? r.contractCode ?? '';

/**
 * The day's CSV (see the file comment): a header row in `language`, then one row per shipment of `rows`
 * (each with its own Europe/Rome day and time). Number cells hold only digits, a sign and the decimal
 * mark, never the separator: written as they are, so a spreadsheet reads them as numbers.
 */
export function warehouseDayCsv(rows: readonly ReportShipment[], language: ReportLanguage, exceptions: readonly DeliveryException[] = []): string {
  const w = WORDS[language];
  const separator = language === 'it' ? ';' : ',';
  const n = numberFormats(language, false);
  const dayOf = (ms: number): string => (language === 'it' ? chartFormats('it').day(romeDay(ms)) : romeDay(ms));
  const lines = [[w.day, w.time, w.bench, w.packer, w.trackingNumber, w.contract, w.costEur, w.weightKg, w.parcels].map(csvField).join(separator)];
  for (const r of rows) {
    const ms = Date.parse(r.at);
    const text = [dayOf(ms), romeTime(ms), r.bench, r.packer ?? '', r.trackingNumber, contractOf(r)].map(csvField);
    lines.push([...text, n.eur(r.costEur), n.kg(r.weightKg), n.count(r.parcels)].join(separator));
  }
  if (exceptions.length) {
    // The day's exceptions after an empty line, under their own header row.
    lines.push('', [w.exceptions].map(csvField).join(separator));
    lines.push([w.day, w.time, w.status, w.carrier, w.order, w.trackingNumber, w.lastEvent, w.closed].map(csvField).join(separator));
    for (const x of exceptions) {
      const ms = Date.parse(x.since);
      const closed = x.closedAt ? `${dayOf(Date.parse(x.closedAt))} ${romeTime(Date.parse(x.closedAt))}` : '';
      lines.push([dayOf(ms), romeTime(ms), w.exceptionKind[x.statusKey], x.carrier ?? '', x.orderKey ?? '', x.trackingNumber, x.lastEvent ?? '', closed].map(csvField).join(separator));
    }
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The chart of shipments per hour per bench (stacked bars, the hours that had any), as End of day draws its charts. */
function perHourChart(rows: readonly ReportShipment[], dayShown: string, w: WarehouseReportText): DayChart {
  // By name, as the page orders its series: a bench has the same colour on the page and on paper.
  const benches = [...new Set(rows.map((r) => r.bench))].sort((a, b) => a.localeCompare(b));
  const counts = new Map<string, number[]>(benches.map((b) => [b, Array.from({ length: 24 }, () => 0)]));
  for (const r of rows) {
    const h = Number(romeTime(Date.parse(r.at)).slice(0, 2));
    const c = counts.get(r.bench)!;
    c[h] = (c[h] ?? 0) + 1;
  }
  const used = Array.from({ length: 24 }, (_, h) => h).filter((h) => benches.some((b) => (counts.get(b)![h] ?? 0) > 0));
  const hours = used.length ? used : [8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
  const summary = w.perHourSummary.replace('{day}', dayShown).replace('{total}', String(rows.length));
  const option: EChartsOption = {
    animation: false,
    color: [...CHART_COLOURS],
    aria: { enabled: true, label: { description: summary } },
    title: { text: w.perHourTitle, left: 'center', textStyle: { fontSize: 14 } },
    legend: { bottom: 0 },
    grid: { left: 48, right: 16, top: 40, bottom: 56 },
    xAxis: { type: 'category', name: w.hour, data: hours.map((h) => `${String(h).padStart(2, '0')}:00`) },
    yAxis: { type: 'value', name: w.shipments, minInterval: 1 },
    series: benches.map((b) => ({ type: 'bar', name: b, stack: 'all', data: hours.map((h) => counts.get(b)![h] ?? 0) })),
  };
  return {
    id: 'hourly',
    title: w.perHourTitle,
    summary,
    option,
    table: { columns: [w.hour, ...benches], rows: hours.map((h) => [`${h}:00`, ...benches.map((b) => counts.get(b)![h] ?? 0)]) },
  };
}

/**
 * The day's PDF (A4): title, day and totals, the per-hour chart, totals per bench and per packer, every
 * shipment; numbers right-aligned, written the language's way (`1.234,50` in Italian), the day dd/mm/yyyy.
 * @param day `YYYY-MM-DD` (Europe/Rome)
 */
export async function warehouseDayPdf(rows: readonly ReportShipment[], day: string, language: ReportLanguage, exceptions: readonly DeliveryException[] = []): Promise<Uint8Array> {
  const w = WORDS[language];
  const n = numberFormats(language, true);
  const dayShown = chartFormats(language).day(day);
  const all = totalsBy(rows, () => '')[0] ?? { name: '', shipments: 0, parcels: 0, weightKg: 0, costEur: 0 };
  const totalsRows = (ts: Totals[]) => ts.map((t) => [t.name, n.count(t.shipments), n.count(t.parcels), n.kg(t.weightKg), n.eur(t.costEur)]);
  const totalsColumns = (first: string) => [first, w.shipments, w.parcels, w.weightKg, w.costEur];
  const totalsAlign = ['left', 'right', 'right', 'right', 'right'] as const;
  return dayReportPdf(
    {
      title: w.title,
      lines: [
        `${w.day}: ${dayShown} (${w.zone})`,
        `${w.shipments}: ${n.count(all.shipments)} · ${w.parcels}: ${n.count(all.parcels)} · ${w.weightKg}: ${n.kg(all.weightKg)} · ${w.costEur}: ${n.eur(all.costEur)}`,
        `${w.benches}: ${new Set(rows.map((r) => r.bench)).size}`,
      ],
      charts: rows.length ? [perHourChart(rows, dayShown, w)] : [],
      tables: [
        { heading: w.perBench, columns: totalsColumns(w.bench), rows: totalsRows(totalsBy(rows, (r) => r.bench)), align: totalsAlign },
        { heading: w.perPacker, columns: totalsColumns(w.packer), rows: totalsRows(totalsBy(rows, (r) => r.packer ?? w.nobody)), align: totalsAlign },
        {
          heading: w.allShipments,
          // Six columns, so a tracking number fits its cell on A4; weight and parcels per shipment are in the CSV.
          columns: [w.timeShort, w.bench, w.packer, w.trackingNumber, w.contract, w.costEur],
          rows: rows.map((r) => [romeTime(Date.parse(r.at)), r.bench, r.packer ?? '', r.trackingNumber, contractOf(r), n.eur(r.costEur)]),
          align: ['left', 'left', 'left', 'left', 'left', 'right'],
          // A contract's name ("BRT Espresso Nazionale") is the longest cell; a time the shortest.
          widths: [0.7, 1, 1.1, 1.2, 1.6, 0.8],
        },
        {
          heading: w.exceptions,
          columns: [w.timeShort, w.status, w.carrier, w.order, w.trackingNumber, w.lastEvent],
          // None: the table says so as the others do ("none", "nessuno").
          rows: exceptions.map((x) => [romeTime(Date.parse(x.since)), w.exceptionKind[x.statusKey], x.carrier ?? '', x.orderKey ?? '', x.trackingNumber, x.lastEvent ?? '']),
          align: ['left', 'left', 'left', 'left', 'left', 'left'],
          widths: [0.6, 1.1, 0.8, 0.9, 1.1, 2.5],
        },
      ],
    },
    reportText(language),
  );
}
