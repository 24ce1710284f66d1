/** Screen switcher: one button per screen with its keys (F1..F6, Alt+letter). */
import { t } from '../lib/i18n';
import { SCREENS, useApp } from '../stores/app';

/** Screen buttons, current one marked with aria-current. */
export function Nav() {
  const screen = useApp((s) => s.screen);
  const go = useApp((s) => s.go);
  return (
    <nav className="nav" aria-label={t('nav.label')}>
      {SCREENS.map((s) => (
        <button
          key={s.id}
          type="button"
          className={`nav-btn${screen === s.id ? ' nav-current' : ''}`}
          aria-current={screen === s.id ? 'page' : undefined}
          aria-keyshortcuts={`${s.fkey} Alt+${s.alt.toUpperCase()}`}
          onClick={() => go(s.id)}
        >
          <kbd>{s.fkey}</kbd> {t(`nav.${s.id}`)}
        </button>
      ))}
    </nav>
  );
}
