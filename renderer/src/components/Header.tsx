/**
 * Header: which platform (TRAINING MODE on the sandbox, impossible to miss, or
 * the live platform), connection, credit, printer, scale reading and outbox backlog (a
 * button to the Queue screen). Refreshed by `app.changed` events.
 */
import { useApp } from '../stores/app';
import { readingText, useScale } from '../stores/scale';
import { clockTime, money } from '../lib/format';
import { hasText, printerNameText, printerStateText, t } from '../lib/i18n';
import { newStockCount, useStocks } from '../stores/stocks';
import { PackerPill } from './PackerPill';

/** A connection state in words (`header.connection.online` -> "online"); an unknown state as it is. */
function connectionWords(state: string): string {
  const key = `header.connection.${state}`;
  return hasText(key) ? t(key) : state;
}

/** The header band (see file comment). */
export function Header() {
  const info = useApp((s) => s.info);
  const link = useApp((s) => s.link);
  const go = useApp((s) => s.go);
  const newStocks = useStocks((s) => newStockCount(s.open, s.seenMaxId));
  const scale = useScale((s) => s.scale);
  const reading = scale?.reading;
  const scalePill = !scale || scale.config.kind === 'none' || !scale.connected ? 'pill-idle' : reading?.status === 'stable' || reading?.status === 'zero' ? 'pill-ok' : reading?.status === 'motion' || !reading ? 'pill-warn' : 'pill-bad';
  const sandbox = info?.platform.mode === 'sandbox';
  const connection = link === 'down' ? 'down' : (info?.connection ?? 'unknown');
  const printerOk = info?.printer.state === 'ready';
  const printerUnknown = info?.printer.state === 'unknown';
  let host = '';
  if (info) {
    try {
      host = new URL(info.platform.baseUrl).host;
    } catch {
      host = info.platform.baseUrl;
    }
  }
  return (
    <header className="header">
      <div className="brand" translate="no">
        Shipping Station
      </div>
      {info ? (
        <div className={`mode ${sandbox ? 'mode-training' : 'mode-live'}`} role="status" aria-label={sandbox ? t('header.trainingLabel') : t('header.liveLabel', { host })}>
          {sandbox ? t('header.training') : t('header.live', { host })}
          <span className="mode-account" translate="no">
            {info.platform.accountName}
          </span>
        </div>
      ) : (
        <div className="mode mode-unknown">{t('header.connecting')}</div>
      )}
      <dl className="status-strip">
        <PackerPill />
        <div className={`pill pill-${connection === 'online' ? 'ok' : connection === 'unknown' ? 'idle' : 'bad'}`}>
          <dt>{t('header.platform')}</dt>
          <dd data-testid="connection">{link === 'down' ? t('header.linkLost') : connectionWords(connection)}</dd>
        </div>
        <div className="pill pill-idle">
          <dt>{t('header.credit')}</dt>
          <dd data-testid="credit">{info?.credit ? money(info.credit.balance, info.credit.currency) : '—'}</dd>
        </div>
        <div className={`pill ${info ? (printerOk ? 'pill-ok' : printerUnknown ? 'pill-idle' : 'pill-bad') : 'pill-idle'}`}>
          <dt>{t('header.printerTitle')}</dt>
          <dd data-testid="printer-state" className="shorten" title={info ? `${printerNameText(info.printer)} (${info.printer.uri})` : undefined}>
            {info ? `${printerNameText(info.printer)} — ${printerStateText(info.printer.state)}` : '—'}
          </dd>
        </div>
        {newStocks > 0 ? (
          <div className="pill pill-bad pill-link">
            <dt>{t('header.held')}</dt>
            <dd>
              <button type="button" className="pill-button" data-testid="new-stocks" aria-label={t('header.newHeldLabel', { count: newStocks })} aria-keyshortcuts="F9 Alt+G" onClick={() => go('stocks')}>
                {t('header.newHeld', { count: newStocks })}
              </button>
            </dd>
          </div>
        ) : null}
        {info?.warehouse ? (
          <div className={`pill ${info.warehouse.connected ? 'pill-ok' : 'pill-bad'}`}>
            <dt>{t('header.warehouse')}</dt>
            <dd data-testid="warehouse-state" title={info.warehouse.bench.name}>
              {info.warehouse.connected ? t('header.warehouseOnline') : info.warehouse.since ? t('header.warehouseOfflineSince', { time: clockTime(info.warehouse.since) }) : t('header.warehouseOffline')}
            </dd>
          </div>
        ) : null}
        <div className={`pill ${scalePill}`}>
          <dt>{t('header.scale')}</dt>
          <dd data-testid="scale-reading" data-status={reading?.status ?? 'none'} title={scale?.problem ?? scale?.name ?? t('header.noScale')}>
            {scale?.connected && scale.name ? `${scale.name} — ` : ''}
            {readingText(scale)}
          </dd>
        </div>
        {info && (info.integrity.state === 'damaged' || info.integrity.state === 'failed') ? (
          <div className="pill pill-bad pill-link">
            <dt>{t('header.database')}</dt>
            <dd>
              <button type="button" className="pill-button" data-testid="database-check" title={info.integrity.problems[0] ?? ''} onClick={() => go('settings')}>
                {t(`header.databaseState.${info.integrity.state}`)}
              </button>
            </dd>
          </div>
        ) : null}
        {info && info.pendingOutbox > 0 ? (
          <div className="pill pill-warn pill-link">
            <dt>{t('header.waiting')}</dt>
            <dd>
              <button
                type="button"
                className="pill-button"
                data-testid="pending-outbox"
                aria-label={t('header.waitingLabel', { count: info.pendingOutbox })}
                aria-keyshortcuts="F7 Alt+O"
                onClick={() => go('queue')}
              >
                {info.pendingOutbox}
              </button>
            </dd>
          </div>
        ) : null}
      </dl>
    </header>
  );
}
