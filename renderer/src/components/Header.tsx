/**
 * Header: which platform (TRAINING MODE on the sandbox, impossible to miss, or
 * the live platform), connection, credit, printer, scale reading and outbox backlog (a
 * button to the Queue screen). Refreshed by `app.changed` events.
 */
import { useApp } from '../stores/app';
import { readingText, useScale } from '../stores/scale';
import { money } from '../lib/format';

const PRINTER_TEXT: Record<string, string> = {
  ready: 'ready',
  paper_out: 'PAPER OUT',
  head_open: 'HEAD OPEN',
  paused: 'PAUSED',
  error: 'ERROR',
  unreachable: 'UNREACHABLE',
  unknown: 'status unknown',
};

/** The header band (see file comment). */
export function Header() {
  const info = useApp((s) => s.info);
  const link = useApp((s) => s.link);
  const go = useApp((s) => s.go);
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
      <div className="brand">Shipping Station</div>
      {info ? (
        <div className={`mode ${sandbox ? 'mode-training' : 'mode-live'}`} role="status" aria-label={sandbox ? 'Training mode: embedded sandbox, nothing is really shipped or charged' : `Live platform ${host}`}>
          {sandbox ? 'TRAINING MODE — sandbox' : `LIVE — ${host}`}
          <span className="mode-account">{info.platform.accountName}</span>
        </div>
      ) : (
        <div className="mode mode-unknown">Connecting…</div>
      )}
      <dl className="status-strip">
        <div className={`pill pill-${connection === 'online' ? 'ok' : connection === 'unknown' ? 'idle' : 'bad'}`}>
          <dt>Platform</dt>
          <dd data-testid="connection">{link === 'down' ? 'station link lost' : connection}</dd>
        </div>
        <div className="pill pill-idle">
          <dt>Credit</dt>
          <dd data-testid="credit">{info?.credit ? money(info.credit.balance, info.credit.currency) : '—'}</dd>
        </div>
        <div className={`pill ${info ? (printerOk ? 'pill-ok' : printerUnknown ? 'pill-idle' : 'pill-bad') : 'pill-idle'}`}>
          <dt>Printer</dt>
          <dd data-testid="printer-state" title={info?.printer.uri}>
            {info ? `${info.printer.name} — ${PRINTER_TEXT[info.printer.state] ?? info.printer.state}` : '—'}
          </dd>
        </div>
        <div className={`pill ${scalePill}`}>
          <dt>Scale</dt>
          <dd data-testid="scale-reading" data-status={reading?.status ?? 'none'} title={scale?.problem ?? scale?.name ?? 'no scale: type the weight'}>
            {scale?.connected && scale.name ? `${scale.name} — ` : ''}
            {readingText(scale)}
          </dd>
        </div>
        {info && info.pendingOutbox > 0 ? (
          <div className="pill pill-warn pill-link">
            <dt>Waiting to send</dt>
            <dd>
              <button
                type="button"
                className="pill-button"
                data-testid="pending-outbox"
                aria-label={`${info.pendingOutbox} request${info.pendingOutbox === 1 ? '' : 's'} waiting to send: open the Queue`}
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
