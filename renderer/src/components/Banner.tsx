/**
 * The outcome banner: a full-width colour band readable from a metre away
 * (green done, red failed, amber needs attention, blue information). Errors
 * are announced assertively to screen readers.
 */
import { useEffect, useState } from 'react';
import { useApp, type LabelCountdown } from '../stores/app';
import { t } from '../lib/i18n';

const ICON = { ok: '✔', error: '✖', warn: '!', info: 'i' } as const;

/** The current outcome banner, or an empty strip. */
export function Banner() {
  const banner = useApp((s) => s.banner);
  if (!banner) return <div className="banner banner-empty" aria-hidden="true" />;
  return (
    <div
      key={banner.seq}
      className={`banner banner-${banner.kind}${banner.outcome ? ` banner-outcome banner-outcome-${banner.outcome}` : ''}`}
      role={banner.kind === 'error' ? 'alert' : 'status'}
      aria-live={banner.kind === 'error' ? 'assertive' : 'polite'}
      data-testid="banner"
      data-kind={banner.kind}
      data-outcome={banner.outcome ?? undefined}
    >
      <span className="banner-icon" aria-hidden="true">
        {ICON[banner.kind]}
      </span>
      <div>
        <div className="banner-title">{banner.title}</div>
        {banner.countdown ? <Countdown countdown={banner.countdown} /> : null}
        {banner.detail ? <div className="banner-detail">{banner.detail}</div> : null}
      </div>
    </div>
  );
}

/**
 * "Label in 40 s: the account’s 30 labels a minute are in use (12 before you)", one second less each second,
 * then that the label is due (issue 43 item 2). The seconds are the core's wait from the account's budget.
 */
function Countdown({ countdown }: { countdown: LabelCountdown }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.ceil((countdown.until - now) / 1000));
  const text =
    seconds === 0
      ? t('job.labelDue')
      : countdown.ahead === null
        ? t('job.labelInAlone', { seconds, perMinute: countdown.perMinute })
        : t('job.labelIn', { seconds, perMinute: countdown.perMinute, ahead: countdown.ahead });
  return (
    <div className="banner-countdown" data-testid="label-countdown" data-seconds={seconds}>
      {text}
    </div>
  );
}
