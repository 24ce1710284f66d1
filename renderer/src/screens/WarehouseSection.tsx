/**
 * Part of the Settings screen (issue 35 item 1): the warehouse this bench
 * joins. The URL (`postgres://user@host:5432/db`, never with the password) is
 * kept in the bench's database and the password, when typed, in the OS
 * secret store; both take effect at the next start (a supervisor's change).
 * A URL given with `--warehouse` or `STATION_WAREHOUSE_URL` wins, and the card
 * says so. A refused value names its field.
 */
import { useEffect, useState } from 'react';
import type { WarehouseConnectionView } from '../../../shared/contract';
import { invoke } from '../api';
import { TextField } from '../components/Field';
import { SettingsCard } from '../components/Forms';
import { asStationError } from '../lib/errors';
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';

/** The Warehouse card of the Settings screen (see file comment). */
export function WarehouseSection() {
  const [view, setView] = useState<WarehouseConnectionView | null>(null);
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});

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
    </SettingsCard>
  );
}
