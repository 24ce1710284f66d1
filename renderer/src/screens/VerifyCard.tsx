/**
 * Scan to verify on the Scan screen (issue 14 item 5): the order's items with
 * how many of each are scanned, "3 of 4 items", and the skip with a reason
 * (Alt+Y opens the reason field, Enter logs it, Esc goes back to scanning).
 * Esc in the scan field stops verifying this order.
 */
import { useEffect, useRef, useState } from 'react';
import { TextField } from '../components/Field';
import { t } from '../lib/i18n';
import { progressOf, useVerify } from '../stores/verify';

/** The checklist of the order being verified; nothing when no order is. */
export function VerifyCard() {
  const { lines, active, asking, orderNumber, skip, cancelSkip } = useVerify();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const reasonRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (asking) reasonRef.current?.focus();
  }, [asking]);
  if (!active && !asking) return null;
  const p = progressOf(lines);
  return (
    <section className="card verify-card" aria-labelledby="verify-title" data-testid="verify">
      <h2 id="verify-title">
        {t('verify.title', { order: orderNumber })} <span className="verify-progress" data-testid="verify-progress">{t('verify.progress', { scanned: p.scanned, count: p.total })}</span>
      </h2>
      <ul className="plain verify-lines">
        {lines.map((l, i) => (
          <li key={i} className={l.scanned >= l.quantity ? 'verify-done' : ''} data-testid="verify-line">
            <strong>
              {l.scanned} / {l.quantity}
            </strong>{' '}
            {l.name} {l.sku ? <span className="muted">SKU {l.sku}</span> : <span className="note-warn">{t('verify.noSku')}</span>}
          </li>
        ))}
      </ul>
      {asking ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (reason.trim().length < 3) {
              setError(t('verify.reasonRequired'));
              return;
            }
            void skip(reason.trim()).then((ok) => ok && setReason(''));
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              setError(undefined);
              cancelSkip();
            }
          }}
        >
          <TextField id="verify-reason" ref={reasonRef} label={t('verify.reason')} value={reason} onValue={(v) => { setReason(v); setError(undefined); }} error={error} wide />
          <button type="submit" className="btn btn-primary">
            {t('verify.skip')} <kbd>Enter</kbd>
          </button>
        </form>
      ) : (
        <p className="muted">{t('verify.keys')}</p>
      )}
    </section>
  );
}
