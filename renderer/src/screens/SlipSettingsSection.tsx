/**
 * Part of the Settings screen (issue 11 "Packing slips"): the slip printer
 * of this station (device URI: a receipt printer on `socket://` or `usb://`,
 * an OS print queue `printer:<queue>`, a folder `file:///…`), receipt (ESC/POS,
 * 80 or 58 mm) or A4, when slips print (with the label, on demand with Alt+K,
 * never) and the shop name at the top. Saved with `slips.settings.set`; a
 * refused value names its field and nothing saved is lost.
 */
import { useEffect, useState } from 'react';
import type { SlipSettings } from '../../../shared/contract';
import { invoke } from '../api';
import { TextField } from '../components/Field';
import { asStationError } from '../lib/errors';
import { useEditableForm } from '../lib/editableForm';
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { SettingsCard } from '../components/Forms';

/** The Packing slips card of the Settings screen (see file comment). */
export function SlipSettingsSection() {
  const { form, edit, load, saved } = useEditableForm({ printerUri: '', format: 'escpos' as SlipSettings['format'], paperWidthMm: '80', when: 'with_label' as SlipSettings['when'], shopName: '' });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  const toForm = (s: SlipSettings) => ({ printerUri: s.printerUri ?? '', format: s.format, paperWidthMm: String(s.paperWidthMm), when: s.when, shopName: s.shopName });
  useEffect(() => {
    invoke('slips.settings.get', {})
      .then((s) => load(toForm(s)))
      .catch((e: unknown) => useApp.getState().fail(t('slips.settingsNotLoaded'), e));
  }, [load]);

  const save = async () => {
    if (busy) return;
    setBusy(true);
    setErrors({});
    try {
      saved(toForm(await invoke('slips.settings.set', { printerUri: form.printerUri, format: form.format, paperWidthMm: form.paperWidthMm === '58' ? 58 : 80, when: form.when, shopName: form.shopName })));
      useApp.getState().flash('ok', t('slips.saved'));
    } catch (e) {
      const err = asStationError(e);
      setErrors(err.details ?? {});
      useApp.getState().fail(t('slips.notSaved'), err);
    } finally {
      setBusy(false);
    }
  };
  const errorOf = (path: string): string | undefined => errors[path]?.[0];

  return (
    <SettingsCard titleId="slip-settings-title" title={t('slips.settingsTitle')} hint={t('slips.settingsHint')} onSubmit={save}>
      <TextField id="slip-uri" label={t('slips.printerUri')} value={form.printerUri} onValue={(v) => edit({ printerUri: v })} error={errorOf('printerUri')} placeholder="socket://192.168.1.60:9100" wide />
      <div className="grid-3">
        <div className="field">
          <label htmlFor="slip-format">{t('slips.format')}</label>
          <select id="slip-format" value={form.format} onChange={(e) => edit({ format: e.target.value === 'a4' ? 'a4' : 'escpos' })}>
            <option value="escpos">{t('slips.escpos')}</option>
            <option value="a4">{t('slips.a4')}</option>
          </select>
        </div>
        {form.format === 'escpos' ? (
          <div className="field">
            <label htmlFor="slip-width">{t('slips.paperWidth')}</label>
            <select id="slip-width" value={form.paperWidthMm} onChange={(e) => edit({ paperWidthMm: e.target.value })}>
              <option value="80">80 mm</option>
              <option value="58">58 mm</option>
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="slip-when">{t('slips.when')}</label>
          <select id="slip-when" value={form.when} onChange={(e) => edit({ when: e.target.value === 'never' ? 'never' : e.target.value === 'on_demand' ? 'on_demand' : 'with_label' })}>
            <option value="with_label">{t('slips.withLabelOption')}</option>
            <option value="on_demand">{t('slips.onDemand')}</option>
            <option value="never">{t('slips.never')}</option>
          </select>
        </div>
      </div>
      <TextField id="slip-shop" label={t('slips.shopName')} value={form.shopName} onValue={(v) => edit({ shopName: v })} error={errorOf('shopName')} />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('slips.save')}
        </button>
      </div>
    </SettingsCard>
  );
}
