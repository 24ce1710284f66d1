/**
 * `reports.*` commands (issue 26): End of day's figures, the day report
 * (A4 PDF and CSV, ./pdf.ts and ./csv.ts) made on demand or saved by itself
 * at day close into the folder set in Settings. The folder obeys the rule of
 * every folder setting (printing/transports/folder.ts: absolute, normalised so an extra
 * slash or `..` cannot reach `/proc`, `/sys`, `/dev`, symlinks resolved),
 * checked when saved and again before writing.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { ReportSettings, type DayReportView, type ReportLanguage } from '../../../shared/contract/reports';
import { romeDay } from '../../../shared/domain/rome-day';
import { dayCharts } from '../../../shared/reports/charts';
import { chartFormats } from '../../../shared/reports/formats';
import { reportText } from '../../../shared/reports/text';
import type { StationContext } from '../common/context';
import { deviceFolderProblem, makeFolder } from '../printing/transports/folder';
import { defineSetting } from '../store';
import { dayCsv } from './csv';
import { dayParcels, dayStats } from './day-stats';

/** Setting `reports.settings`: no folder (nothing saved by itself), Italian. */
const ReportSettingsSetting = defineSetting('reports.settings', ReportSettings, { folder: null, language: 'it' });

/** The folder as the folder rule leaves it. @throws StationError `invalid_input` naming `folder`. */
function checkedFolder(folder: string): string {
  const r = deviceFolderProblem(folder);
  if ('problem' in r) throw new StationError('invalid_input', `folder: ${r.problem}`, { folder: [r.problem] });
  return r.dir;
}

/** What the report needs besides the store: the station's name. */
export interface ReportsOptions {
  stationName(): string;
}

let reportPdfModule: Promise<typeof import('./pdf')> | undefined;

/**
 * The report's PDF code (ECharts, Skia, pdf-lib), loaded when first needed: tens of MB of RSS that a bench
 * never making a report should not carry. Loaded once; a failed load is tried again next time.
 */
function reportPdf(): Promise<typeof import('./pdf')> {
  reportPdfModule ??= import('./pdf').catch((e: unknown) => {
    reportPdfModule = undefined;
    throw e;
  });
  return reportPdfModule;
}

/** Builds the day report of `day` in `language` (no file written). */
async function buildDayReport(ctx: StationContext, day: string, language: ReportLanguage, opts: ReportsOptions): Promise<Omit<DayReportView, 'savedTo'> & { pdf: Uint8Array }> {
  const { store } = ctx;
  const text = reportText(language);
  const stats = dayStats(store, day, 'day');
  const fmt = chartFormats(language, stats.totals.currency);
  // The platform's `createdAt` carries its own offset (`2026-11-28T23:40:00+01:00`): its Rome day, read as an instant
  // (compared as text with the day's UTC bounds, a manifest closed after 23:00 in Rome fell after the day's end).
  const manifests = store.manifests.list({ limit: 1000 }).filter((m) => romeDay(Date.parse(m.createdAt)) === day);
  const pickups = store.pickups.list({ from: day, to: day, limit: 1000 });
  const station = opts.stationName();
  const { dayReportPdf } = await reportPdf();
  const pdf = await dayReportPdf(
    {
      title: `${text.reportTitle} ${fmt.day(day)}`,
      lines: [
        ...(station ? [`${text.station}: ${station}`] : []),
        `${text.shipments}: ${stats.totals.shipments} · ${text.parcels}: ${stats.totals.parcels} · ${text.cost}: ${fmt.money(stats.totals.cost)}`,
      ],
      charts: dayCharts(stats, text, fmt).filter((c) => c.id !== 'cost'),
      tables: [
        { heading: text.totalsPerCarrier, ...dayCharts(stats, text, fmt)[1]!.table },
        { heading: text.totalsPerPacker, ...dayCharts(stats, text, fmt)[2]!.table },
        {
          heading: text.manifests,
          columns: [text.manifestNumber, text.carrierContract, text.shipments, text.cost],
          rows: manifests.map((m) => [`#${m.platformId}`, m.carrierName ?? m.carrierCode, m.totalShipments, fmt.money(m.totalCost)]),
        },
        {
          heading: text.pickups,
          columns: [text.pickupNumber, text.pickupDate, text.carrierContract, text.cost],
          rows: pickups.map((p) => [p.pickupId ?? (p.platformId !== null ? `#${p.platformId}` : `(${p.state})`), `${p.pickupDate}${p.pickupTime ? ` ${p.pickupTime}` : ''}`, p.carrierCode ?? p.contractCode, p.costTotal !== null ? fmt.money(p.costTotal) : '—']),
        },
      ],
    },
    text,
  );
  const csv = dayCsv(dayParcels(store, day, day), store.activity.shippersOf(day, day), text);
  const base = language === 'it' ? `rapporto-${day}` : `day-report-${day}`;
  return { pdf, pdfBase64: Buffer.from(pdf).toString('base64'), pdfFileName: `${base}.pdf`, csv, csvFileName: `${base}.csv` };
}

/** Writes the report of `day` into the report folder; returns the folder, or null when none is set. */
async function saveDayReport(ctx: StationContext, day: string, opts: ReportsOptions, language?: ReportLanguage): Promise<{ report: Omit<DayReportView, 'savedTo'>; savedTo: string | null }> {
  const settings = ctx.store.settings.get(ReportSettingsSetting);
  const { pdf, ...report } = await buildDayReport(ctx, day, language ?? settings.language, opts);
  if (settings.folder === null) return { report, savedTo: null };
  const dir = checkedFolder(settings.folder);
  await makeFolder(dir);
  await writeFile(path.join(dir, report.pdfFileName), pdf);
  await writeFile(path.join(dir, report.csvFileName), report.csv, 'utf8');
  return { report, savedTo: dir };
}

/**
 * At day close: the day's report written into the report folder, when one is set; with none, nothing is
 * built (the report would be thrown away, and building it, charts and all, held the close for most of a
 * second: issue 45). Returns the folder written to, or null.
 */
export async function saveDayReportAtClose(ctx: StationContext, day: string, opts: ReportsOptions): Promise<string | null> {
  if (ctx.store.settings.get(ReportSettingsSetting).folder === null) return null;
  return (await saveDayReport(ctx, day, opts)).savedTo;
}

/** Handlers of the `reports` domain. */
export function createReportsHandlers(ctx: StationContext, opts: ReportsOptions) {
  const { store } = ctx;
  const today = () => romeDay(ctx.now());
  return {
    'reports.day': async ({ day, range }) => {
      // End of day is open: its report is likely next; the report's code loads meanwhile, not on the packer's click
      // (its first load, ECharts' modules, took most of a second: issue 45).
      void reportPdf().catch(() => undefined);
      return dayStats(store, day ?? today(), range);
    },
    'reports.dayReport': async ({ day, language, save }) => {
      if (save) {
        const { report, savedTo } = await saveDayReport(ctx, day ?? today(), opts, language);
        return { ...report, savedTo };
      }
      const { pdf: _pdf, ...report } = await buildDayReport(ctx, day ?? today(), language, opts);
      return { ...report, savedTo: null };
    },
    'reports.settings.get': async () => store.settings.get(ReportSettingsSetting),
    'reports.settings.set': async ({ folder, language }) => store.settings.set(ReportSettingsSetting, { folder: folder === null ? null : checkedFolder(folder), language }),
  } satisfies Pick<Handlers, 'reports.day' | 'reports.dayReport' | 'reports.settings.get' | 'reports.settings.set'>;
}
