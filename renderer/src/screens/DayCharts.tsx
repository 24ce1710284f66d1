/**
 * End of day in pictures (issue 26): parcels per hour against the usual day,
 * per carrier and contract, per packer, cost per day and exceptions, for the
 * day, the week or the month. Each chart is an `img` whose name says what it
 * shows, with its table on demand; the options come from
 * shared/reports/charts.ts, the same the day report prints. The figures
 * reload on `shipments.changed` (App.tsx), so the charts follow the parcels.
 */
import { useEffect, useRef, useState } from 'react';
import type { EChartsOption } from 'echarts';
import type { ReportRange } from '../../../shared/contract';
import { dayCharts, type DayChart } from '../../../shared/reports/charts';
import { chartFormats } from '../../../shared/reports/formats';
import { reportText } from '../../../shared/reports/text';
import { echarts } from '../lib/echarts';
import { language, localeTexts, t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { base64ToBytes, useDay } from '../stores/day';

/** Saves bytes under `fileName` through a temporary `<a download>`. */
function download(bytes: BlobPart, type: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** One ECharts chart in a `div`, kept across renders, resized with its box, disposed on unmount. */
function EChart({ option, label, testId }: { option: EChartsOption; label: string; testId: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof echarts.init> | null>(null);
  useEffect(() => {
    if (!box.current) return;
    const c = echarts.init(box.current, null, { renderer: 'svg' });
    chart.current = c;
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => c.resize());
    ro?.observe(box.current);
    return () => {
      ro?.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);
  return <div ref={box} className="day-chart" role="img" aria-label={label} data-testid={testId} style={{ width: '100%', height: 300 }} />;
}

function ChartCard({ chart }: { chart: DayChart }) {
  const [table, setTable] = useState(false);
  return (
    <figure className="card day-chart-card" data-chart={chart.id}>
      <EChart option={chart.option} label={chart.summary} testId={`chart-${chart.id}`} />
      <figcaption>
        <button type="button" className="btn btn-small" aria-expanded={table} onClick={() => setTable(!table)}>
          {table ? t('dayCharts.hideTable', { title: chart.title }) : t('dayCharts.showTable', { title: chart.title })}
        </button>
      </figcaption>
      {table ? (
        <table className="table" aria-label={chart.title} data-testid={`table-${chart.id}`}>
          <thead>
            <tr>
              {chart.table.columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {chart.table.rows.map((r, i) => (
              <tr key={i}>
                {r.map((cell, j) => (j === 0 ? <th key={j} scope="row">{cell}</th> : <td key={j}>{cell}</td>))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </figure>
  );
}

/** The charts card of End of day (see file comment). */
export function DayCharts() {
  const stats = useDay((s) => s.stats);
  const range = useDay((s) => s.range);
  const reporting = useDay((s) => s.reporting);
  const setRange = useDay((s) => s.setRange);
  const report = useDay((s) => s.report);
  const lang = language();
  const charts = stats ? dayCharts(stats, localeTexts(reportText(lang)), chartFormats(lang, stats.totals.currency)) : [];
  const makeReport = async () => {
    const r = await report();
    if (!r) return;
    download(base64ToBytes(r.pdfBase64), 'application/pdf', r.pdfFileName);
    download(r.csv, 'text/csv;charset=utf-8', r.csvFileName);
    useApp.getState().flash('ok', t('dayCharts.reportDone'), r.savedTo ? t('dayCharts.reportSavedTo', { folder: r.savedTo }) : undefined);
  };
  return (
    <section className="card" aria-labelledby="day-charts-title">
      <header className="card-head">
        <h2 id="day-charts-title">{t('dayCharts.title')}</h2>
        <div role="radiogroup" aria-label={t('dayCharts.range')} className="segmented">
          {(['day', 'week', 'month'] as const satisfies readonly ReportRange[]).map((r) => (
            <button key={r} type="button" role="radio" aria-checked={range === r} className={`btn btn-small${range === r ? ' btn-primary' : ''}`} onClick={() => void setRange(r)}>
              {t(`dayCharts.range${r[0]!.toUpperCase()}${r.slice(1)}`)}
            </button>
          ))}
        </div>
        <button type="button" className="btn" disabled={reporting} onClick={() => void makeReport()}>
          {reporting ? t('dayCharts.reportMaking') : t('dayCharts.report')}
        </button>
      </header>
      <div className="day-charts">
        {charts.map((c) => (
          <ChartCard key={c.id} chart={c} />
        ))}
      </div>
    </section>
  );
}
