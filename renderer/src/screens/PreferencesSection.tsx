/**
 * Part of the Settings screen (issue 10): the screen language (Italian / English), the bench
 * sounds on or off (issue 14), and the
 * customs identifiers (EORI, VAT number, tax id of the exporter and default
 * importer) every customs declaration is prefilled with. A bad identifier is
 * refused naming its field; nothing already saved is lost.
 */
import { useCallback, useEffect, useState } from 'react';
import type { CustomsSettings } from '../../../shared/contract/customs';
import { TextField } from '../components/Field';
import { useEditableForm } from '../lib/editableForm';
import { asStationError } from '../lib/errors';
import { language, setLanguage, t, type Language } from '../lib/i18n';
import { invoke } from '../api';
import { setSoundsOn, soundsOn } from '../lib/sound';
import { useSharedSettingsReload } from '../lib/sharedSettings';
import { useApp } from '../stores/app';
import { ActionForm } from '../components/Forms';

type Ids = { eori: string; vatNumber: string; taxId: string };
/** One text field per party and identifier (`exporter.eori`), so a late load fills only the fields not typed in. */
type IdFields = Record<`${'exporter' | 'importer'}.${keyof Ids}`, string>;
const toFields = (s: Pick<CustomsSettings, 'exporter' | 'importer'>): IdFields => ({
  'exporter.eori': s.exporter.eori ?? '',
  'exporter.vatNumber': s.exporter.vatNumber ?? '',
  'exporter.taxId': s.exporter.taxId ?? '',
  'importer.eori': s.importer.eori ?? '',
  'importer.vatNumber': s.importer.vatNumber ?? '',
  'importer.taxId': s.importer.taxId ?? '',
});
const NO_IDS = { eori: null, vatNumber: null, taxId: null };
const party = (f: IdFields, p: 'exporter' | 'importer'): Ids => ({ eori: f[`${p}.eori`], vatNumber: f[`${p}.vatNumber`], taxId: f[`${p}.taxId`] });

/** Language and customs identifiers (see file comment), shown on the Settings screen. */
export function PreferencesSection() {
  const { form, edit, load, saved } = useEditableForm<IdFields>(toFields({ exporter: NO_IDS, importer: NO_IDS }));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [lang, setLang] = useState<Language>(language());
  const [sounds, setSounds] = useState(soundsOn());
  const reload = useCallback(() => {
    invoke('customs.settings.get', {})
      .then((s) => load(toFields(s)))
      .catch((e: unknown) => useApp.getState().fail(t('preferences.loadFailed'), e));
  }, [load]);
  useEffect(reload, [reload]);
  useSharedSettingsReload(['customs.identifiers'], reload);
  const field = (who: 'exporter' | 'importer', f: keyof Ids) => (
    <TextField
      key={`${who}-${f}`}
      id={`set-${who}-${f}`}
      label={t(`customs.${who}.${f}`)}
      value={form[`${who}.${f}`]}
      onValue={(v) => edit({ [`${who}.${f}`]: v })}
      error={errors[`${who}.${f}`]?.[0]}
    />
  );
  return (
    <>
      <div className="card">
        <div className="field">
          {/* Both languages on purpose, the same on every bench: a packer finds the switch whatever the screens speak. */}
          <label htmlFor="set-lang" translate="no">
            Language / Lingua
          </label>
          <select
            id="set-lang"
            value={lang}
            onChange={(e) => {
              const next = e.target.value as Language;
              void setLanguage(next).then(() => {
                setLang(next);
                // Every screen reads its texts at render: start again in the new language.
                window.location.reload();
              });
            }}
          >
            <option value="it" translate="no">Italiano</option>
            <option value="en" translate="no">English</option>
          </select>
        </div>
        <label className="check">
          <input
            type="checkbox"
            id="set-sounds"
            checked={sounds}
            onChange={(e) => {
              setSoundsOn(e.target.checked);
              setSounds(e.target.checked);
            }}
          />{' '}
          {t('preferences.sounds')}
        </label>
      </div>
      <ActionForm
        className="card"
        onSubmit={() => {
          setErrors({});
          invoke('customs.settings.set', { exporter: party(form, 'exporter'), importer: party(form, 'importer') })
            .then((after) => {
              saved(toFields(after));
              useApp.getState().flash('ok', t('customs.saved'));
            })
            .catch((err: unknown) => {
              const se = asStationError(err);
              setErrors(Object.fromEntries(Object.entries(se.details ?? {}).map(([k, v]) => [k.replace(/^customs\.identifiers\./, ''), v])));
              useApp.getState().fail(t('customs.notSaved'), se);
            });
        }}
      >
        <h2>{t('customs.settingsTitle')}</h2>
        <p className="muted">{t('customs.settingsHint')}</p>
        <div className="grid-3">
          {(['eori', 'vatNumber', 'taxId'] as const).map((f) => field('exporter', f))}
          {(['eori', 'vatNumber', 'taxId'] as const).map((f) => field('importer', f))}
        </div>
        <div className="actions">
          <button type="submit" className="btn btn-primary">
            {t('action.save')}
          </button>
        </div>
      </ActionForm>
    </>
  );
}
