/**
 * Part of the Settings screen (issue 24 item 4): the countdown the bench
 * shows before an order ships by itself, in seconds (0.1-10, decimal comma
 * or point), stored in the core (`shipping.settings.get`/`shipping.settings.set`,
 * ms). A refused value names the field and nothing saved is lost. Enter saves.
 */
import { useEffect, useRef, useState } from 'react';
import { invoke } from '../api';
import { TextField } from '../components/Field';
import { asStationError } from '../lib/errors';
import { parseDecimal } from '../lib/format';
import { locale, t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { SettingsCard } from '../components/Forms';

const secondsText = (ms: number) => new Intl.NumberFormat(locale(), { maximumFractionDigits: 3, useGrouping: false }).format(ms / 1000);

/** The "Shipping by itself" card of the Settings screen (see file comment). */
export function AutoShipSettingsSection() {
  const [seconds, setSeconds] = useState('');
  const typed = useRef(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    invoke('shipping.settings.get', {})
      // A late answer never replaces what the packer typed meanwhile.
      .then((s) => live && setSeconds((now) => (typed.current ? now : secondsText(s.countdownMs))))
      .catch((e: unknown) => useApp.getState().fail(t('autoShip.saveFailed'), e));
    return () => {
      live = false;
    };
  }, []);

  const save = async () => {
    if (busy) return;
    const value = parseDecimal(seconds);
    if (value === undefined || Number.isNaN(value)) {
      setError(t('autoShip.countdownHint'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const after = await invoke('shipping.settings.set', { countdownMs: Math.round(value * 1000) });
      setSeconds(secondsText(after.countdownMs));
      typed.current = false;
      useApp.getState().flash('ok', t('autoShip.saved'));
    } catch (e) {
      const err = asStationError(e);
      setError(err.details?.countdownMs?.[0] ?? err.message);
      useApp.getState().fail(t('autoShip.saveFailed'), err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsCard titleId="autoship-settings-title" title={t('autoShip.settingsTitle')} onSubmit={save}>
      <TextField
        id="set-autoship-countdown"
        label={t('autoShip.countdownLabel')}
        hint={t('autoShip.countdownHint')}
        inputMode="decimal"
        value={seconds}
        onValue={(v) => {
          typed.current = true;
          setSeconds(v);
        }}
        error={error}
      />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy} aria-keyshortcuts="Enter">
          {t('orderSettings.save')}
        </button>
      </div>
    </SettingsCard>
  );
}
