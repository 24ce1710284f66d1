/**
 * Settings (F8, Alt+A): the platform account, entered once (issue 15
 * "Private data"). Platform URL, auth URL and client id are saved in the
 * data folder; the client secret goes to the OS secret store in the main
 * process (Electron safeStorage, or the OS keyring for the headless host) and
 * never comes back to this screen. The station uses the saved account from
 * its next start; a platform given at launch (command line or environment)
 * still wins. Below: the language and the customs identifiers (PreferencesSection, issue 10),
 * how orders are treated (OrderSettingsSection, issue 12) and the scale (ScaleSettingsSection) the box presets (BoxSettingsSection) the packing slips (SlipSettingsSection, issue 11) and scan to verify (VerifySettingsSection, issue 14).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AccountView } from '../../../shared/contract';
import { invoke } from '../api';
import { TextField } from '../components/Field';
import { useEditableForm } from '../lib/editableForm';
import { asStationError } from '../lib/errors';
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { clockTime } from '../lib/format';
import { BoxSettingsSection } from './BoxSettingsSection';
import { OrderSettingsSection } from './OrderSettingsSection';
import { PreferencesSection } from './PreferencesSection';
import { ScaleSettingsSection } from './ScaleSettingsSection';
import { SlipSettingsSection } from './SlipSettingsSection';
import { VerifySettingsSection } from './VerifySettingsSection';
import { StorageSection } from './StorageSection';
import { RulesSettingsSection } from './RulesSettingsSection';
import { AutoShipSettingsSection } from './AutoShipSettingsSection';
import { ProductsSettingsSection } from './ProductsSettingsSection';
import { PackersSection } from './PackersSection';
import { WarehouseSection } from './WarehouseSection';

/** Settings screen (see file comment). */
export function SettingsScreen() {
  const focusTick = useApp((s) => s.focusTick);
  // A bench of a warehouse that cannot reach it keeps its shared settings read-only (issue 35).
  const warehouse = useApp((s) => s.info?.warehouse);
  const flash = useApp((s) => s.flash);
  const fail = useApp((s) => s.fail);
  const [view, setView] = useState<AccountView | null>(null);
  // The saved account fills the fields when it arrives, except those the packer has typed in meanwhile.
  const account = useEditableForm({ platformUrl: '', authUrl: '', clientId: '' });
  const { platformUrl, authUrl, clientId } = account.form;
  const [clientSecret, setClientSecret] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);

  const loadFields = account.load;
  const savedFields = account.saved;
  const apply = useCallback(
    (v: AccountView, after: 'load' | 'save' = 'load') => {
      setView(v);
      const fields = { platformUrl: v.saved?.platformUrl ?? '', authUrl: v.saved?.authUrl ?? '', clientId: v.saved?.clientId ?? '' };
      if (after === 'save') savedFields(fields);
      else loadFields(fields);
    },
    [loadFields, savedFields],
  );
  const load = useCallback(
    (after: 'load' | 'save' = 'load') =>
      invoke('account.settings.get', {}).then((v) => apply(v, after), (e: unknown) => {
        fail(t('settings.readFailed'), e);
      }),
    [apply, fail],
  );
  useEffect(() => {
    let live = true;
    invoke('account.settings.get', {}).then(
      (v) => live && apply(v),
      (e: unknown) => live && fail(t('settings.readFailed'), e),
    );
    return () => {
      live = false;
    };
  }, [apply, fail]);
  useEffect(() => first.current?.focus(), [focusTick]);

  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      await invoke('account.settings.set', { platformUrl, ...(authUrl.trim() ? { authUrl } : {}), clientId, clientSecret });
      setClientSecret('');
      flash('ok', t('settings.saved'), t('settings.savedDetail'));
      await load('save');
    } catch (e) {
      const err = asStationError(e);
      const fields: Record<string, string> = {};
      for (const [k, msgs] of Object.entries(err.details ?? {})) if (msgs[0]) fields[k] = msgs[0];
      setErrors(fields);
      fail(t('settings.saveFailed'), e);
    } finally {
      setBusy(false);
    }
  };

  const forget = async () => {
    setBusy(true);
    try {
      await invoke('account.settings.forget', {});
      setClientSecret('');
      flash('info', t('settings.forgotten'), t('settings.forgottenDetail'));
      await load('save');
    } catch (e) {
      fail(t('settings.forgetFailed'), e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="screen" aria-labelledby="settings-title">
      <h1 id="settings-title" className="screen-title">
        {t('settings.title')}
      </h1>
      <p className="subtitle">{t('settings.subtitle')}</p>
      {warehouse && !warehouse.connected ? (
        <p className="card card-warn" role="status" data-testid="shared-read-only">
          {t('warehouseSettings.readOnly', { time: warehouse.since ? clockTime(warehouse.since) : '—' })}
        </p>
      ) : null}

      <section className="card" aria-labelledby="account-title">
        <h2 id="account-title">{t('settings.account')}</h2>
        <dl className="facts" data-testid="account-facts">
          <div>
            <dt>{t('settings.savedAccount')}</dt>
            <dd>{view ? (view.saved ? t('settings.accountAt', { clientId: view.saved.clientId, url: view.saved.platformUrl }) : t('settings.noAccount')) : t('settings.loading')}</dd>
          </div>
          <div>
            <dt>{t('settings.clientSecret')}</dt>
            <dd data-testid="secret-state">{view ? (view.secretSaved ? t('settings.secretSaved') : t('settings.secretNotSaved')) : ''}</dd>
          </div>
          <div>
            <dt>{t('settings.secretStore')}</dt>
            <dd data-testid="secret-store">{secretStoreText(view?.secretStore ?? '')}</dd>
          </div>
          {view?.secretFromEnvironment ? (
            <div>
              <dt>{t('settings.environment')}</dt>
              <dd>{t('settings.secretFromEnv')}</dd>
            </div>
          ) : null}
        </dl>
        <form
          className="settings-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <TextField id="settings-platform-url" ref={first} label={t('settings.platformUrl')} value={platformUrl} onValue={(v) => account.edit({ platformUrl: v })} error={errors.platformUrl} hint={t('settings.platformUrlHint')} wide />
          <TextField id="settings-auth-url" label={t('settings.authUrl')} value={authUrl} onValue={(v) => account.edit({ authUrl: v })} error={errors.authUrl} hint={t('settings.authUrlHint')} wide />
          <TextField id="settings-client-id" label={t('settings.clientId')} value={clientId} onValue={(v) => account.edit({ clientId: v })} error={errors.clientId} />
          <TextField id="settings-client-secret" label={t('settings.clientSecret')} type="password" value={clientSecret} onValue={setClientSecret} error={errors.clientSecret} hint={t('settings.clientSecretHint')} />
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? t('settings.saving') : t('settings.saveAccount')}
            </button>
            {view?.saved ? (
              <button type="button" className="btn" disabled={busy} onClick={() => void forget()}>
                {t('settings.forget')}
              </button>
            ) : null}
          </div>
        </form>
      </section>
      <PreferencesSection />
      <OrderSettingsSection />
      <ScaleSettingsSection />
      <BoxSettingsSection />
      <SlipSettingsSection />
      <VerifySettingsSection />
      <RulesSettingsSection />
      <AutoShipSettingsSection />
      <ProductsSettingsSection />
      <StorageSection />
      <PackersSection />
      <WarehouseSection />
    </section>
  );
}

/**
 * Where the client secret is kept, in the bench's language: the shells name it in English
 * (electron/host/keyring.ts `OS keyring (@napi-rs/keyring)`, electron/main/secret-store.ts
 * `Electron safeStorage (gnome_libsecret)`, electron/core/account/saved-account.ts `none (…); …`);
 * a name of another form is shown as it is.
 */
function secretStoreText(label: string): string {
  const keyring = /^OS keyring \((.+)\)$/.exec(label);
  if (keyring) return t('secretStore.keyring', { lib: keyring[1]! });
  const safe = /^Electron safeStorage(?: \((.+)\))?$/.exec(label);
  if (safe) return safe[1] ? t('secretStore.safeStorageOf', { backend: safe[1] }) : t('secretStore.safeStorage');
  const none = /^none \((.+)\); STATION_CLIENT_SECRET from the environment$/.exec(label);
  return none ? t('secretStore.none', { why: none[1]! }) : label;
}
