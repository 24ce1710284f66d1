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
import { asStationError } from '../lib/errors';
import { useApp } from '../stores/app';
import { BoxSettingsSection } from './BoxSettingsSection';
import { OrderSettingsSection } from './OrderSettingsSection';
import { PreferencesSection } from './PreferencesSection';
import { ScaleSettingsSection } from './ScaleSettingsSection';
import { SlipSettingsSection } from './SlipSettingsSection';
import { VerifySettingsSection } from './VerifySettingsSection';

/** Settings screen (see file comment). */
export function SettingsScreen() {
  const focusTick = useApp((s) => s.focusTick);
  const flash = useApp((s) => s.flash);
  const fail = useApp((s) => s.fail);
  const [view, setView] = useState<AccountView | null>(null);
  const [platformUrl, setPlatformUrl] = useState('');
  const [authUrl, setAuthUrl] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);

  const apply = useCallback((v: AccountView) => {
    setView(v);
    setPlatformUrl(v.saved?.platformUrl ?? '');
    setAuthUrl(v.saved?.authUrl ?? '');
    setClientId(v.saved?.clientId ?? '');
  }, []);
  const load = useCallback(
    () =>
      invoke('settings.account.get', {}).then(apply, (e: unknown) => {
        fail('Reading the settings', e);
      }),
    [apply, fail],
  );
  useEffect(() => {
    let live = true;
    invoke('settings.account.get', {}).then(
      (v) => live && apply(v),
      (e: unknown) => live && fail('Reading the settings', e),
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
      await invoke('settings.account.save', { platformUrl, ...(authUrl.trim() ? { authUrl } : {}), clientId, clientSecret });
      setClientSecret('');
      flash('ok', 'Account saved', 'The station uses it from its next start (close and open it again).');
      await load();
    } catch (e) {
      const err = asStationError(e);
      const fields: Record<string, string> = {};
      for (const [k, msgs] of Object.entries(err.details ?? {})) if (msgs[0]) fields[k] = msgs[0];
      setErrors(fields);
      fail('Saving the account', e);
    } finally {
      setBusy(false);
    }
  };

  const forget = async () => {
    setBusy(true);
    try {
      await invoke('settings.account.forget', {});
      setClientSecret('');
      flash('info', 'Account forgotten', 'From the next start the station runs in training mode, unless a platform is given at launch.');
      await load();
    } catch (e) {
      fail('Forgetting the account', e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="screen" aria-labelledby="settings-title">
      <h1 id="settings-title" className="screen-title">
        Settings
      </h1>
      <p className="subtitle">The platform account this station ships with. Saved once here; used from the next start.</p>

      <section className="card" aria-labelledby="account-title">
        <h2 id="account-title">Platform account</h2>
        <dl className="facts" data-testid="account-facts">
          <div>
            <dt>Saved account</dt>
            <dd>{view ? (view.saved ? `${view.saved.clientId} at ${view.saved.platformUrl}` : 'none (training mode unless given at launch)') : 'Loading…'}</dd>
          </div>
          <div>
            <dt>Client secret</dt>
            <dd data-testid="secret-state">{view ? (view.secretSaved ? 'saved in the secret store' : 'not saved') : ''}</dd>
          </div>
          <div>
            <dt>Secret store</dt>
            <dd data-testid="secret-store">{view?.secretStore ?? ''}</dd>
          </div>
          {view?.secretFromEnvironment ? (
            <div>
              <dt>Environment</dt>
              <dd>STATION_CLIENT_SECRET is set and wins over a saved secret</dd>
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
          <TextField id="settings-platform-url" ref={first} label="Platform URL" value={platformUrl} onValue={setPlatformUrl} error={errors.platformUrl} hint="e.g. https://acme.example/api/2026-09" wide />
          <TextField id="settings-auth-url" label="Auth URL (optional)" value={authUrl} onValue={setAuthUrl} error={errors.authUrl} hint="Empty: the platform URL without /api/2026-09" wide />
          <TextField id="settings-client-id" label="Client id" value={clientId} onValue={setClientId} error={errors.clientId} />
          <TextField id="settings-client-secret" label="Client secret" type="password" value={clientSecret} onValue={setClientSecret} error={errors.clientSecret} hint="Kept by the OS secret store, never shown again" />
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? 'Saving…' : 'Save account'}
            </button>
            {view?.saved ? (
              <button type="button" className="btn" disabled={busy} onClick={() => void forget()}>
                Forget account
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
    </section>
  );
}
