/**
 * The Shopify CSV import of the Orders panel: the shop and the file, a
 * progress bar while the file is sent and read, and the report (order,
 * spreadsheet row and column of every problem, what was left as it was and
 * why).
 */
import { useId, useState } from 'react';
import { TextField } from '../../components/Field';
import { locale, t } from '../../lib/i18n';
import { useOrders } from '../../stores/orders';
import { FileButton } from '../../components/FileButton';

/** The Shopify CSV import for a shop: the shop, the file, the progress bar while it runs, then the report. */
export function ImportCard() {
  const { report, importing, importCsv, lastShop, facets } = useOrders();
  const [shop, setShop] = useState(lastShop);
  const inputId = useId();
  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">{t('orders.import.title')}</h2>
      <TextField id="import-shop" label={t('orders.import.shop')} value={shop} onValue={setShop} placeholder="main" list="import-shops" maxLength={40} />
      <datalist id="import-shops">
        {facets.shops.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <div className="field">
        <label htmlFor={inputId}>{t('orders.import.file')}</label>
        <div>
          <FileButton id={inputId} text={t('orders.import.choose')} accept=".csv,.txt,text/csv,text/plain" disabled={importing} onFile={(f) => void importCsv(f, shop)} />
        </div>
      </div>
      {importing ? <ImportProgressBar /> : null}
      {report ? <ImportReportView report={report} /> : null}
    </section>
  );
}

/** The import under way: a bar over the file's bytes (sent, then read) and the rows and orders found so far. */
function ImportProgressBar() {
  const progress = useOrders((s) => s.progress);
  const total = Math.max(1, progress?.total ?? 1);
  const done = Math.min(total, progress?.done ?? 0);
  const percent = Math.floor((done / total) * 100);
  const label =
    progress?.phase === 'reading'
      ? t('orders.import.reading', { percent, rows: progress.rows.toLocaleString(locale()), orders: progress.orders.toLocaleString(locale()) })
      : t('orders.import.sending', { percent });
  return (
    <div className="import-progress" data-testid="import-progress">
      <progress max={total} value={done} aria-label={t('orders.import.importing')} data-testid="import-progress-bar" />
      <p aria-live="polite" data-testid="import-progress-text">
        {progress ? label : t('orders.import.importing')}
      </p>
    </div>
  );
}

function ImportReportView({ report }: { report: NonNullable<ReturnType<typeof useOrders.getState>['report']> }) {
  const sep = report.delimiter === '\t' ? t('orders.import.tab') : report.delimiter;
  return (
    <div className="import-report" data-testid="import-report">
      <h3>
        {t('orders.import.reportFor', { file: report.fileName })} <span className="muted">{t('orders.import.reportOf', { shop: report.shop, encoding: report.encoding, sep })}</span>
      </h3>
      <dl className="counts">
        <div>
          <dt>{t('orders.import.new')}</dt>
          <dd data-testid="import-imported">{report.imported}</dd>
        </div>
        <div>
          <dt>{t('orders.import.updated')}</dt>
          <dd>{report.updated}</dd>
        </div>
        <div>
          <dt>{t('orders.import.unchanged')}</dt>
          <dd>{report.unchanged}</dd>
        </div>
        <div>
          <dt>{t('orders.import.left')}</dt>
          <dd>{report.skipped.length}</dd>
        </div>
        <div>
          <dt>{t('orders.import.cancelled')}</dt>
          <dd>{report.cancelled}</dd>
        </div>
        <div>
          <dt>{t('orders.import.notShippable')}</dt>
          <dd>{report.skippedNotShippable}</dd>
        </div>
        <div className={report.warnings.length ? 'count-warn' : ''}>
          <dt>{t('orders.import.toFix')}</dt>
          <dd>{report.warnings.length}</dd>
        </div>
        <div className={report.errors.length ? 'count-bad' : ''}>
          <dt>{t('orders.import.problems')}</dt>
          <dd data-testid="import-errors">{report.errors.length}</dd>
        </div>
      </dl>
      <IssueTable name={t('orders.import.problemsName')} title={t('orders.import.problemsTitle')} issues={report.errors} />
      <IssueTable name={t('orders.import.toFixName')} title={t('orders.import.toFixTitle')} issues={report.warnings} />
      {report.skipped.length ? (
        <table className="table table-compact" aria-label={t('orders.import.left')}>
          <caption>{t('orders.import.left')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('orders.import.col.order')}</th>
              <th scope="col">{t('orders.import.col.row')}</th>
              <th scope="col">{t('orders.import.col.why')}</th>
            </tr>
          </thead>
          <tbody>
            {report.skipped.slice(0, 200).map((k, i) => (
              <tr key={i}>
                <td>{k.order}</td>
                <td>{k.row}</td>
                <td>{k.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

function IssueTable({ name, title, issues }: { name: string; title: string; issues: ReadonlyArray<{ order?: string; row?: number; line: number; column: string; message: string }> }) {
  if (issues.length === 0) return null;
  return (
    <table className="table table-compact" aria-label={name}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{t('orders.import.col.order')}</th>
          <th scope="col">{t('orders.import.col.row')}</th>
          <th scope="col">{t('orders.import.col.column')}</th>
          <th scope="col">{t('orders.import.col.problem')}</th>
        </tr>
      </thead>
      <tbody>
        {issues.map((e, i) => (
          <tr key={i}>
            <td>{e.order ?? '—'}</td>
            <td title={t('orders.import.lineOf', { line: e.line })}>{e.row ?? e.line}</td>
            <td>{e.column}</td>
            <td>{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
