/**
 * The header's packer pill (issue 26): the station's name and who is signed
 * in, with a sign-out button; nothing when the station has no packers and no name.
 */
import { t } from '../lib/i18n';
import { usePackers } from '../stores/packers';

/** The packer pill (see file comment). */
export function PackerPill() {
  const session = usePackers((s) => s.session);
  const signOut = usePackers((s) => s.signOut);
  if (!session || (!session.packersSet && !session.stationName)) return null;
  const who = session.packer?.name ?? t('packers.nobody');
  return (
    <div className={`pill ${session.packer || !session.packersSet ? 'pill-ok' : 'pill-warn'}`}>
      <dt>{session.stationName ? `${session.stationName} · ${t('packers.headerTitle')}` : t('packers.headerTitle')}</dt>
      <dd data-testid="packer">
        {session.packersSet ? who : '—'}
        {session.packer ? (
          <button type="button" className="pill-button" onClick={() => void signOut()}>
            {t('packers.signOut')}
          </button>
        ) : null}
      </dd>
    </div>
  );
}
