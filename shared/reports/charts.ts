/**
 * The one definition of End of day's charts (issue 26): each chart's
 * Apache ECharts option, its accessible name (a sentence saying what it
 * shows) and its table, built from `reports.day`'s figures. The screen
 * draws these options with ECharts in the browser; the day report renders
 * the very same options to SVG in the core and puts them in the PDF.
 *
 * Readable for colour-blind packers: the Okabe-Ito palette and ECharts'
 * decal patterns (`aria.decal.show`), and ECharts' own ARIA description
 * (`aria.enabled`). No animation: the screen updates as parcels ship and
 * the report must be the same every time.
 */
import type { EChartsOption } from 'echarts';
import type { DayStatsView } from '../contract/reports';
import { fill, type ReportText } from './text';

/** Okabe-Ito colours, told apart by every common colour-vision deficiency. */
export const CHART_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'] as const;

/** One chart: a stable id, its title, the sentence naming what it shows, the ECharts option and the same figures as a table. */
export interface DayChart {
  id: 'hourly' | 'contracts' | 'packers' | 'cost' | 'exceptions';
  title: string;
  summary: string;
  option: EChartsOption;
  table: { columns: string[]; rows: Array<Array<string | number>> };
}

/** How numbers and money are written in the bench's language. */
export interface ChartFormats {
  money(amount: number): string;
  /** A `YYYY-MM-DD` day as the bench writes it. */
  day(day: string): string;
}

/** What every chart shares (the ARIA part is added by {@link dayCharts} once the summary is known). */
const base = (title: string): EChartsOption => ({
  animation: false,
  color: [...CHART_COLOURS],
  title: { text: title, left: 'center', textStyle: { fontSize: 14 } },
  tooltip: { trigger: 'axis' },
  grid: { left: 16, right: 32, top: 56, bottom: 48 },
});

const hh = (h: number): string => String(h).padStart(2, '0');

/** Every chart of End of day, in screen order, for `stats` in the language of `text`. */
export function dayCharts(stats: DayStatsView, text: ReportText, fmt: ChartFormats): DayChart[] {
  const from = fmt.day(stats.firstDay);
  const to = fmt.day(stats.lastDay);

  const hourlyTotal = stats.hourly.reduce((a, h) => a + h.parcels, 0);
  const usualTotal = Math.round(stats.hourly.reduce((a, h) => a + h.usual, 0) * 10) / 10;
  const peak = stats.hourly.reduce((best, h) => (h.parcels > best.parcels ? h : best), stats.hourly[0] ?? { hour: 0, parcels: 0, usual: 0 });
  const hourly: DayChart = {
    id: 'hourly',
    title: text.hourlyTitle,
    summary: fill(text.hourlySummary, { day: fmt.day(stats.day), total: hourlyTotal, peak: hh(peak.hour), peakN: peak.parcels, usualTotal }),
    option: {
      ...base(text.hourlyTitle),
      legend: { bottom: 0, data: [text.today, text.usual] },
      xAxis: { type: 'category', name: text.hour, data: stats.hourly.map((h) => hh(h.hour)) },
      yAxis: { type: 'value', name: text.parcels, minInterval: 1 },
      series: [
        { type: 'bar', name: text.today, data: stats.hourly.map((h) => h.parcels) },
        { type: 'line', name: text.usual, data: stats.hourly.map((h) => h.usual), symbol: 'triangle', symbolSize: 8, lineStyle: { type: 'dashed', width: 2 } },
      ],
    },
    table: { columns: [text.hour, text.today, text.usual], rows: stats.hourly.map((h) => [`${hh(h.hour)}:00`, h.parcels, h.usual]) },
  };

  const contractNames = stats.byContract.map((c) => (c.contract ? `${c.carrier} — ${c.contract}` : c.carrier));
  const contracts: DayChart = {
    id: 'contracts',
    title: text.contractTitle,
    summary: fill(text.contractSummary, { from, to, list: stats.byContract.length ? stats.byContract.map((c, i) => `${contractNames[i] ?? ''} ${c.parcels}`).join('; ') : text.none }),
    option: {
      ...base(text.contractTitle),
      tooltip: { trigger: 'item' },
      xAxis: { type: 'value', name: text.parcels, minInterval: 1 },
      yAxis: { type: 'category', data: contractNames, inverse: true },
      series: [{ type: 'bar', name: text.parcels, data: stats.byContract.map((c) => c.parcels), colorBy: 'data', label: { show: true, position: 'right' } }],
    },
    table: {
      columns: [text.carrierContract, text.shipments, text.parcels, text.cost],
      rows: stats.byContract.map((c, i) => [contractNames[i] ?? '', c.shipments, c.parcels, fmt.money(c.cost)]),
    },
  };

  const packerNames = stats.byPacker.map((p) => p.packer ?? text.nobody);
  const packers: DayChart = {
    id: 'packers',
    title: text.packerTitle,
    summary: fill(text.packerSummary, {
      from,
      to,
      list: stats.byPacker.length
        ? stats.byPacker
            .map((p, i) => `${packerNames[i] ?? ''}: ${text.parcels.toLowerCase()} ${p.parcels}, ${text.medianScanToLabel.toLowerCase()} ${p.medianScanToLabelS ?? '—'}, ${text.verifyMismatches.toLowerCase()} ${p.verifyMismatches}, ${text.reprints.toLowerCase()} ${p.reprints}`)
            .join('; ')
        : text.none,
    }),
    option: {
      ...base(text.packerTitle),
      legend: { bottom: 0, data: [text.parcels, text.verifyMismatches, text.reprints, text.medianScanToLabel] },
      xAxis: { type: 'category', data: packerNames },
      yAxis: [
        { type: 'value', name: text.count, minInterval: 1 },
        { type: 'value', name: 's', position: 'right' },
      ],
      series: [
        { type: 'bar', name: text.parcels, data: stats.byPacker.map((p) => p.parcels) },
        { type: 'bar', name: text.verifyMismatches, data: stats.byPacker.map((p) => p.verifyMismatches) },
        { type: 'bar', name: text.reprints, data: stats.byPacker.map((p) => p.reprints) },
        { type: 'line', name: text.medianScanToLabel, yAxisIndex: 1, data: stats.byPacker.map((p) => p.medianScanToLabelS), symbol: 'diamond', symbolSize: 10 },
      ],
    },
    table: {
      columns: [text.packer, text.shipments, text.parcels, text.medianScanToLabel, text.verifyMismatches, text.reprints],
      rows: stats.byPacker.map((p, i) => [packerNames[i] ?? '', p.shipments, p.parcels, p.medianScanToLabelS ?? '—', p.verifyMismatches, p.reprints]),
    },
  };

  const costTotal = stats.costPerDay.reduce((a, d) => a + d.cost, 0);
  const cost: DayChart = {
    id: 'cost',
    title: text.costTitle,
    summary: fill(text.costSummary, { from, to, total: fmt.money(costTotal) }),
    option: {
      ...base(text.costTitle),
      xAxis: { type: 'category', name: text.day, data: stats.costPerDay.map((d) => fmt.day(d.day)) },
      yAxis: { type: 'value', name: text.cost },
      series: [{ type: 'bar', name: text.cost, data: stats.costPerDay.map((d) => d.cost) }],
    },
    table: { columns: [text.day, text.cost], rows: stats.costPerDay.map((d) => [fmt.day(d.day), fmt.money(d.cost)]) },
  };

  const ex = stats.exceptions;
  const exNames = [text.needsAttention, text.held, text.voided];
  const exceptions: DayChart = {
    id: 'exceptions',
    title: text.exceptionsTitle,
    summary: fill(text.exceptionsSummary, { from, to, needsAttention: ex.needsAttention, held: ex.held, voided: ex.voided }),
    option: {
      ...base(text.exceptionsTitle),
      tooltip: { trigger: 'item' },
      xAxis: { type: 'category', data: exNames },
      yAxis: { type: 'value', name: text.count, minInterval: 1 },
      series: [{ type: 'bar', name: text.count, data: [ex.needsAttention, ex.held, ex.voided], colorBy: 'data', label: { show: true, position: 'top' } }],
    },
    table: { columns: [text.exceptionsTitle, text.count], rows: [[exNames[0] ?? '', ex.needsAttention], [exNames[1] ?? '', ex.held], [exNames[2] ?? '', ex.voided]] },
  };

  // ECharts' ARIA: the summary, in the bench's language, is the chart's accessible name (the container's aria-label).
  return [hourly, contracts, packers, cost, exceptions].map((c) => ({ ...c, option: { ...c.option, aria: { enabled: true, label: { description: c.summary }, decal: { show: true } } } }));
}
