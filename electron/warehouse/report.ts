/**
 * The whole warehouse's day report (issue 35 item 5), in Italian or English: a CSV with one row per
 * shipment (time Europe/Rome, bench, packer, tracking number, contract code, cost EUR, weight kg, parcels;
 * RFC 4180 as the bench's own day CSV, electron/core/reports/csv.ts) and an A4 PDF drawn by the bench's
 * day report code (electron/core/reports/pdf.ts): the day's totals, shipments per hour per bench as a
 * chart, totals per bench and per packer, then every shipment (time, bench, packer, tracking number,
 * contract code, cost).
 */
import type { EChartsOption } from 'echarts';
import { romeTime } from '../../shared/domain/rome-day';
import { CHART_COLOURS, type DayChart } from '../../shared/reports/charts';
import { reportText } from '../../shared/reports/text';
import { csvField } from '../core/reports/csv';
import { dayReportPdf } from '../core/reports/pdf';
import type { ReportShipment } from './floor';

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
  contractCode: string;
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
    contractCode: 'Contract code',
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
    contractCode: 'Codice contratto',
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

const kg = (n: number | null): string => (n === null ? '' : String(Math.round(n * 1000) / 1000));
const eur = (n: number | null): string => (n === null ? '' : n.toFixed(2));

/**
 * The day's CSV: a header row in `language`, then one row per shipment; CRLF, a UTF-8 byte order mark,
 * fields quoted when they hold a comma, semicolon, quote or line break, formulas defused.
 */
export function warehouseDayCsv(rows: readonly ReportShipment[], language: ReportLanguage): string {
  const w = WORDS[language];
  const lines = [[w.time, w.bench, w.packer, w.trackingNumber, w.contractCode, w.costEur, w.weightKg, w.parcels].map(csvField).join(',')];
  for (const r of rows) {
    lines.push([romeTime(Date.parse(r.at)), r.bench, r.packer ?? '', r.trackingNumber, r.contractCode ?? '', eur(r.costEur), kg(r.weightKg), r.parcels].map(csvField).join(','));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The chart of shipments per hour per bench (stacked bars, the hours that had any), as End of day draws its charts. */
function perHourChart(rows: readonly ReportShipment[], day: string, w: WarehouseReportText): DayChart {
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
  const summary = w.perHourSummary.replace('{day}', day).replace('{total}', String(rows.length));
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
 * The day's PDF (A4): title, day and totals, the per-hour chart, totals per bench and per packer, every shipment.
 * @param day `YYYY-MM-DD` (Europe/Rome), as printed
 */
export async function warehouseDayPdf(rows: readonly ReportShipment[], day: string, language: ReportLanguage): Promise<Uint8Array> {
  const w = WORDS[language];
  const all = totalsBy(rows, () => '')[0] ?? { name: '', shipments: 0, parcels: 0, weightKg: 0, costEur: 0 };
  const totalsRows = (ts: Totals[]) => ts.map((t) => [t.name, t.shipments, t.parcels, kg(t.weightKg), eur(t.costEur)]);
  const totalsColumns = (first: string) => [first, w.shipments, w.parcels, w.weightKg, w.costEur];
  return dayReportPdf(
    {
      title: w.title,
      lines: [
        `${w.day}: ${day} (${w.zone})`,
        `${w.shipments}: ${all.shipments} · ${w.parcels}: ${all.parcels} · ${w.weightKg}: ${kg(all.weightKg)} · ${w.costEur}: ${eur(all.costEur)}`,
        `${w.benches}: ${new Set(rows.map((r) => r.bench)).size}`,
      ],
      charts: rows.length ? [perHourChart(rows, day, w)] : [],
      tables: [
        { heading: w.perBench, columns: totalsColumns(w.bench), rows: totalsRows(totalsBy(rows, (r) => r.bench)) },
        { heading: w.perPacker, columns: totalsColumns(w.packer), rows: totalsRows(totalsBy(rows, (r) => r.packer ?? w.nobody)) },
        {
          heading: w.allShipments,
          // Six columns, so a tracking number fits its cell on A4; weight and parcels per shipment are in the CSV.
          columns: [w.timeShort, w.bench, w.packer, w.trackingNumber, w.contractCode, w.costEur],
          rows: rows.map((r) => [romeTime(Date.parse(r.at)), r.bench, r.packer ?? '', r.trackingNumber, r.contractCode ?? '', eur(r.costEur)]),
        },
      ],
    },
    reportText(language),
  );
}
