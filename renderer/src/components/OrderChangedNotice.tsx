/**
 * Issue 21 item 7: the order on the Quote/Ship screen changed since the form
 * was filled from it (a re-import, a fix, another station). Nothing the
 * packer typed is overwritten: this notice says so, and the packer chooses to
 * fill the form again from the new order (Alt+L) or to go on as shown.
 */
import { useEffect } from 'react';
import { t } from '../lib/i18n';
import { useJob } from '../stores/job';

/** The notice, or nothing while the order is unchanged. */
export function OrderChangedNotice() {
  const changed = useJob((s) => s.orderChanged);
  const reload = useJob((s) => s.reloadChangedOrder);
  useEffect(() => {
    if (!changed) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && e.key.toLowerCase() === 'l') {
        e.preventDefault();
        reload();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [changed, reload]);
  if (!changed) return null;
  const done = changed.status !== 'open';
  return (
    <div className="note-warn" role="alert" data-testid="order-changed">
      <p>{done ? t('orderChanged.closed', { order: changed.orderNumber, status: t(`orderChanged.status.${changed.status}`) }) : t('orderChanged.body', { order: changed.orderNumber })}</p>
      {done ? null : (
        <button type="button" className="btn btn-small" onClick={reload} aria-keyshortcuts="Alt+L">
          {t('orderChanged.reload')} <kbd>Alt+L</kbd>
        </button>
      )}
    </div>
  );
}
