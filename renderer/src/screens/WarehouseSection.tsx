/**
 * Part of the Settings screen (issue 35 item 1): the warehouse this bench
 * joins. The URL (`postgres://user@host:5432/db`, never with the password) is
 * kept in the bench's database and the password, when typed, in the OS
 * secret store; both take effect at the next start (a supervisor's change).
 * A URL given with `--warehouse` or `STATION_WAREHOUSE_URL` wins, and the card
 * says so. A refused value names its field.
 */
import { useCallback, useEffect, useState } from 'react';
import type { WarehouseConnectionView } from '../../../shared/contract';
import { invoke } from '../api';
import { TextField } from '../components/Field';
import { SettingsCard } from '../components/Forms';
import { asStationError } from '../lib/errors';
import { t } from '../lib/i18n';
import { useSharedSettingsReload } from '../lib/sharedSettings';
import { useApp } from '../stores/app';

/** The Warehouse card of the Settings screen (see file comment). */
export function WarehouseSection() {
  const [view, setView] = useState<WarehouseConnectionView | null>(null);
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [timeout, setTimeoutText] = useState('');
  const [timeoutErrors, setTimeoutErrors] = useState<Record<string, string[]>>({});

  // The claim timeout is the warehouse's (every bench's); it reloads when another bench changes it.
  const loadTimeout = useCallback(() => {
    invoke('warehouse.settings.get', {}).then(
      (s) => setTimeoutText(String(s.claimTimeoutS)),
      (e: unknown) => useApp.getState().fail(t('warehouseSettings.notSaved'), e),
    );
  }, []);
  useEffect(loadTimeout, [loadTimeout]);
  useSharedSettingsReload(['warehouse.claimTimeoutS'], loadTimeout);
  const saveTimeout = async () => {
    setTimeoutErrors({});
    try {
      const s = await invoke('warehouse.settings.set', { claimTimeoutS: Number(timeout) });
      setTimeoutText(String(s.claimTimeoutS));
      useApp.getState().flash('ok', t('warehouseSettings.timeoutSaved'));
    } catch (e) {
      const err = asStationError(e);
      setTimeoutErrors(err.details ?? {});
      useApp.getState().fail(t('warehouseSettings.notSaved'), err);
    }
  };

  useEffect(() => {
    invoke('warehouse.connection.get', {}).then(
      (v) => {
        setView(v);
        setUrl(v.savedUrl ?? '');
      },
      (e: unknown) => useApp.getState().fail(t('warehouseSettings.notSaved'), e),
    );
  }, []);

  const save = async () => {
    setErrors({});
    try {
      const trimmed = url.trim();
      await invoke('warehouse.connection.set', { url: trimmed === '' ? null : trimmed, ...(password !== '' ? { password } : {}) });
      setPassword('');
      setView(await invoke('warehouse.connection.get', {}));
      useApp.getState().flash('ok', t('warehouseSettings.saved'));
    } catch (e) {
      const err = asStationError(e);
      setErrors(err.details ?? {});
      useApp.getState().fail(t('warehouseSettings.notSaved'), err);
    }
  };

  return (
    <SettingsCard titleId="warehouse-settings-title" title={t('warehouseSettings.title')} hint={t('warehouseSettings.hint')} onSubmit={save}>
      {view?.source === 'command_line' ? <p data-testid="warehouse-from-command-line">{t('warehouseSettings.fromCommandLine', { url: view.url ?? '' })}</p> : null}
      <div className="grid-3">
        <TextField id="warehouse-url" label={t('warehouseSettings.url')} value={url} onValue={setUrl} error={errors['url']?.[0]} placeholder="postgres://bench1@db.example:5432/warehouse" />
        <TextField id="warehouse-password" label={t('warehouseSettings.password')} value={password} onValue={setPassword} error={errors['password']?.[0]} type="password" />
        <div className="actions">
          <button type="submit" className="btn">
            {t('warehouseSettings.save')}
          </button>
        </div>
      </div>
      <p className="muted" data-testid="warehouse-password-state">
        {view?.passwordSaved ? t('warehouseSettings.passwordSaved') : t('warehouseSettings.passwordNotSaved')}
      </p>
      {view?.url ? (
        <div className="grid-3">
          <TextField
            id="warehouse-claim-timeout"
            label={t('warehouseSettings.claimTimeout')}
            value={timeout}
            onValue={setTimeoutText}
            error={timeoutErrors['claimTimeoutS']?.[0]}
            inputMode="numeric"
            className="field-num"
          />
          <div className="actions">
            <button type="button" className="btn" onClick={() => void saveTimeout()}>
              {t('warehouseSettings.saveTimeout')}
            </button>
          </div>
        </div>
      ) : null}
    </SettingsCard>
  );
}
