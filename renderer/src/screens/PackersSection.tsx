/**
 * Part of the Settings screen (issue 26): the station's name and idle
 * sign-out, the supervisor's unlock, the packers (name, badge, PIN, role),
 * signing in by PIN, and where the day report is saved at day close. A
 * refused value names its field; a change that needs a supervisor says so.
 */
import { useEffect, useState } from 'react';
import type { PackerRole, PackerSessionView, PackerView, ReportLanguage } from '../../../shared/contract';
import { invoke } from '../api';
import { SelectField, TextField } from '../components/Field';
import { useEditableForm } from '../lib/editableForm';
import { asStationError } from '../lib/errors';
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { usePackers } from '../stores/packers';
import { ActionForm } from '../components/Forms';

/** The station form's fields from the session (defaults before it is known). */
const toStation = (s: PackerSessionView | null) => ({ name: s?.stationName ?? '', idle: String(s?.idleMinutes ?? 15) });

const emptyPacker = { id: undefined as number | undefined, name: '', badge: '', pin: '', role: 'packer' as PackerRole };

/** The Packers and station card (see file comment). */
export function PackersSection() {
  const session = usePackers((s) => s.session);
  const setSession = usePackers((s) => s.setSession);
  const { form: station, edit: editStation, load: loadStation, saved: savedStation } = useEditableForm(toStation(session));
  const [packers, setPackers] = useState<PackerView[]>([]);
  const [draft, setDraft] = useState(emptyPacker);
  const [pin, setPin] = useState('');
  const [report, setReport] = useState({ folder: '', language: 'it' as ReportLanguage });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const app = useApp.getState;

  useEffect(() => {
    if (session) loadStation(toStation(session));
  }, [session, loadStation]);
  useEffect(() => {
    invoke('packers.list', {}).then(setPackers, (e: unknown) => app().fail(t('packers.notSaved'), e));
    invoke('reports.settings.get', {}).then((r) => setReport({ folder: r.folder ?? '', language: r.language }), (e: unknown) => app().fail(t('packers.reportNotSaved'), e));
  }, [app]);

  /** Runs a change; a refusal fills the fields' errors and the banner. */
  const attempt = async (fn: () => Promise<void>, ok: string, failed: string) => {
    setErrors({});
    try {
      await fn();
      app().flash('ok', ok);
    } catch (e) {
      const err = asStationError(e);
      setErrors(err.details ?? {});
      app().fail(failed, err);
    }
  };

  const savePacker = () =>
    attempt(
      async () => {
        const saved = await invoke('packers.save', {
          ...(draft.id !== undefined ? { id: draft.id } : {}),
          name: draft.name,
          badge: draft.badge.trim() === '' ? null : draft.badge,
          ...(draft.pin !== '' ? { pin: draft.pin } : {}),
          role: draft.role,
        });
        setPackers(await invoke('packers.list', {}));
        setDraft(emptyPacker);
        return void saved;
      },
      t('packers.saved', { name: draft.name }),
      t('packers.notSaved'),
    );

  return (
    <section className="card" aria-labelledby="packers-title">
      <h2 id="packers-title">{t('packers.settingsTitle')}</h2>
      <p className="muted">{t('packers.settingsHint')}</p>
      {session?.packersSet ? (
        <p data-testid="supervisor-state" className={session.supervisorUnlocked ? 'ok' : 'warn'}>
          {session.supervisorUnlocked ? t('packers.unlocked') : t('packers.locked')}
        </p>
      ) : null}
      {session?.packersSet ? (
        <ActionForm className="grid-3" onSubmit={() => attempt(async () => setSession(await invoke('packers.unlock', { pin })), t('packers.unlocked'), t('packers.unlockFailed')).then(() => setPin(''))}>
          <TextField id="packers-pin" label={t('packers.pin')} value={pin} onValue={setPin} error={errors['pin']?.[0]} inputMode="numeric" type="password" />
          <div className="actions">
            <button type="submit" className="btn">
              {t('packers.unlock')}
            </button>
            <button type="button" className="btn" onClick={() => void attempt(() => usePackers.getState().signInPin(pin), t('packers.signInPin'), t('packers.signInFailed')).then(() => setPin(''))}>
              {t('packers.signInPin')}
            </button>
          </div>
        </ActionForm>
      ) : null}
      <ActionForm
        className="grid-3"
        onSubmit={() => {
          void attempt(
            async () => {
              const s = await invoke('packers.setStation', { stationName: station.name, idleMinutes: Number(station.idle) });
              savedStation(toStation(s));
              setSession(s);
            },
            t('packers.stationSaved'),
            t('packers.stationNotSaved'),
          );
        }}
      >
        <TextField id="station-name" label={t('packers.stationName')} value={station.name} onValue={(v) => editStation({ name: v })} error={errors['stationName']?.[0]} />
        <TextField id="station-idle" label={t('packers.idleMinutes')} value={station.idle} onValue={(v) => editStation({ idle: v })} error={errors['idleMinutes']?.[0]} inputMode="numeric" className="field-num" />
        <div className="actions">
          <button type="submit" className="btn">
            {t('packers.saveStation')}
          </button>
        </div>
      </ActionForm>
      <form
        noValidate
        className="grid-3"
        aria-label={t('packers.add')}
        onSubmit={(e) => {
          e.preventDefault();
          void savePacker();
        }}
      >
        <TextField id="packer-name" label={t('packers.name')} value={draft.name} onValue={(v) => setDraft({ ...draft, name: v })} error={errors['name']?.[0]} />
        <TextField id="packer-badge" label={t('packers.badge')} value={draft.badge} onValue={(v) => setDraft({ ...draft, badge: v })} error={errors['badge']?.[0]} />
        <TextField id="packer-pin" label={t('packers.pin')} value={draft.pin} onValue={(v) => setDraft({ ...draft, pin: v })} error={errors['pin']?.[0]} inputMode="numeric" type="password" />
        <SelectField id="packer-role" label={t('packers.role')} value={draft.role} onValue={(v) => setDraft({ ...draft, role: v === 'supervisor' ? 'supervisor' : 'packer' })} error={errors['role']?.[0]}>
          <option value="packer">{t('packers.rolePacker')}</option>
          <option value="supervisor">{t('packers.roleSupervisor')}</option>
        </SelectField>
        <div className="actions">
          <button type="submit" className="btn btn-primary">
            {t('packers.add')}
          </button>
        </div>
      </form>
      {packers.length === 0 ? (
        <p className="empty">{t('packers.none')}</p>
      ) : (
        <table className="data" aria-label={t('packers.listLabel')} data-testid="packers">
          <thead>
            <tr>
              <th>{t('packers.name')}</th>
              <th>{t('packers.badge')}</th>
              <th>{t('packers.role')}</th>
              <th>{t('packers.hasPin')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {packers.map((p) => (
              <tr key={p.id}>
                <td>{p.name}</td>
                <td>{p.badge ?? '—'}</td>
                <td>{p.role === 'supervisor' ? t('packers.roleSupervisor') : t('packers.rolePacker')}</td>
                <td>{p.hasPin ? '✓' : '—'}</td>
                <td className="cell-actions">
                  <button type="button" className="btn btn-small" onClick={() => setDraft({ id: p.id, name: p.name, badge: p.badge ?? '', pin: '', role: p.role })}>
                    {t('packers.edit', { name: p.name })}
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() =>
                      void attempt(
                        async () => {
                          await invoke('packers.remove', { id: p.id });
                          setPackers(await invoke('packers.list', {}));
                        },
                        t('packers.removed'),
                        t('packers.notRemoved'),
                      )
                    }
                  >
                    {t('packers.remove', { name: p.name })}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ActionForm
        className="grid-3"
        onSubmit={() => {
          void attempt(
            async () => {
              const r = await invoke('reports.settings.set', { folder: report.folder.trim() === '' ? null : report.folder, language: report.language });
              setReport({ folder: r.folder ?? '', language: r.language });
            },
            t('packers.reportSaved'),
            t('packers.reportNotSaved'),
          );
        }}
      >
        <TextField id="report-folder" label={t('packers.reportFolder')} value={report.folder} onValue={(v) => setReport({ ...report, folder: v })} error={errors['folder']?.[0]} wide />
        <SelectField id="report-language" label={t('packers.reportLanguage')} value={report.language} onValue={(v) => setReport({ ...report, language: v === 'en' ? 'en' : 'it' })} error={errors['language']?.[0]}>
          <option value="it" translate="no">Italiano</option>
          <option value="en" translate="no">English</option>
        </SelectField>
        <div className="actions">
          <button type="submit" className="btn">
            {t('packers.saveReport')}
          </button>
        </div>
      </ActionForm>
    </section>
  );
}
