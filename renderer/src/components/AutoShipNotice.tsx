/**
 * The countdown before an order ships by itself (issue 24 item 4), with the
 * rule's name, the box the core chose and why (issue 37), and "Esc stops", announced at once (role=timer with
 * aria-live=assertive); or, when a rule would ship the open order by itself
 * but the core says it needs the packer, the reasons (role=status). Esc
 * stops the countdown wherever the focus is.
 */
import { useEffect } from 'react';
import { locale, t } from '../lib/i18n';
import { attentionText, ruleNameText } from '../lib/ruleText';
import { useAutoShip } from '../stores/autoship';
import { useJob } from '../stores/job';

/** The countdown bar (its fill runs for the countdown's length), or the reasons it does not run. */
export function AutoShipNotice() {
  const countdown = useAutoShip((s) => s.countdown);
  const blocked = useAutoShip((s) => s.blocked);
  const box = useAutoShip((s) => s.box);
  const orderId = useJob((s) => s.order?.id);
  const running = countdown !== null;
  useEffect(() => {
    if (!running) return;
    // Esc stops it wherever the focus is (capture: before a field's own Esc); it does nothing else this time.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !useAutoShip.getState().stop()) return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [running]);
  if (countdown) {
    const seconds = new Intl.NumberFormat(locale(), { maximumFractionDigits: 1 }).format(countdown.ms / 1000);
    return (
      <div className="autoship autoship-run" role="timer" aria-live="assertive" aria-atomic="true" data-testid="autoship-countdown">
        <strong>{t('autoShip.countdown', { rule: ruleNameText(countdown.rule), seconds })}</strong> — <span className="autoship-esc">{t('autoShip.escStops')}</span>
        {box && box.orderId === countdown.orderId ? (
          <div className="autoship-box" data-testid="autoship-box">
            {attentionText(box.reason)}
          </div>
        ) : null}
        <div className="autoship-bar" aria-hidden="true">
          <div className="autoship-fill" style={{ animationDuration: `${countdown.ms}ms` }} />
        </div>
      </div>
    );
  }
  if (blocked && blocked.orderId === orderId && blocked.reasons.length) {
    return (
      <div className="autoship autoship-blocked" role="status" data-testid="autoship-blocked">
        {t('autoShip.blocked', { why: blocked.reasons.map(attentionText).join('; ') })}
      </div>
    );
  }
  return null;
}
