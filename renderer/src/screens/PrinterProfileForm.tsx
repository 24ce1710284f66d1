/**
 * Part of the Print screen (issue 9 "Printer profiles"): the profile of the
 * label printer in use — resolution (203/300/600 dpi), label width and height
 * (mm), darkness (`~SD` 0–30), speed (`^PR` 2–14 ips), media (`^MT`) and top
 * offset (`^LT`, dots), and the dpi the carrier makes its ZPL for when a label
 * does not say (issue 23; empty: 203 dpi) — read with `printers.profile.get` and saved with
 * `printers.profile.set`; a refused value names its field and nothing saved
 * is lost. Keyboard: Tab through the fields, Enter saves.
 */
import { useEffect, useState } from 'react';
import type { PrinterProfile } from '../../../shared/contract/printer-profile';
import { invoke } from '../api';
import { SelectField, TextField } from '../components/Field';
import { useEditableForm } from '../lib/editableForm';
import { asStationError } from '../lib/errors';
import { decimalText, parseDecimal } from '../lib/format';
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { SettingsCard } from '../components/Forms';

type Form = Record<'dpi' | 'widthMm' | 'heightMm' | 'darkness' | 'speedIps' | 'topOffsetDots' | 'zplMadeForDpi', string> & { media: PrinterProfile['media'] };

/** A 4 x 6 in direct-thermal label at 203 dpi: what most benches start from. */
const startingPoint = (): Form => ({ dpi: '203', widthMm: decimalText(101.6), heightMm: decimalText(152.4), darkness: '15', speedIps: '4', media: 'direct_thermal', topOffsetDots: '0', zplMadeForDpi: '' });

const toForm = (p: PrinterProfile): Form => ({
  dpi: String(p.dpi),
  widthMm: decimalText(p.widthMm),
  heightMm: decimalText(p.heightMm),
  darkness: String(p.darkness),
  speedIps: decimalText(p.speedIps),
  media: p.media,
  topOffsetDots: String(p.topOffsetDots),
  zplMadeForDpi: p.zplMadeForDpi ? String(p.zplMadeForDpi) : '',
});

/** A number as typed (comma or point), or NaN so the core names the field. */
const num = (s: string): number => parseDecimal(s) ?? Number.NaN;

/** The profile card of the Print screen for the printer at `uri` (see file comment). */
export function PrinterProfileForm({ uri }: { uri: string }) {
  const { form, edit, load, saved: savedForm } = useEditableForm<Form>(startingPoint());
  const [saved, setSaved] = useState<boolean | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    // Another printer: nothing typed for this one yet.
    savedForm(startingPoint());
    invoke('printers.profile.get', { uri })
      .then((v) => {
        if (!live) return;
        setSaved(v.profile !== null);
        load(v.profile ? toForm(v.profile) : startingPoint());
      })
      .catch((e: unknown) => live && useApp.getState().fail(t('printerProfile.notSaved'), e));
    return () => {
      live = false;
    };
  }, [uri, load, savedForm]);

  const save = async () => {
    if (busy) return;
    setBusy(true);
    setErrors({});
    try {
      const profile = {
        dpi: num(form.dpi) as PrinterProfile['dpi'],
        widthMm: num(form.widthMm),
        heightMm: num(form.heightMm),
        darkness: num(form.darkness),
        speedIps: num(form.speedIps),
        media: form.media,
        topOffsetDots: num(form.topOffsetDots),
        // Empty: not set (the label's ^PW/^LL, else 203 dpi).
        ...(form.zplMadeForDpi ? { zplMadeForDpi: num(form.zplMadeForDpi) as NonNullable<PrinterProfile['zplMadeForDpi']> } : {}),
      };
      const v = await invoke('printers.profile.set', { uri, profile });
      if (v.profile) savedForm(toForm(v.profile));
      setSaved(true);
      useApp.getState().flash('ok', t('printerProfile.saved'), uri);
    } catch (e) {
      const err = asStationError(e);
      setErrors(Object.fromEntries(Object.entries(err.details ?? {}).map(([k, v]) => [k.replace(/^profile\./, ''), v])));
      useApp.getState().fail(t('printerProfile.notSaved'), err);
    } finally {
      setBusy(false);
    }
  };
  const err = (k: keyof Form): string | undefined => errors[k]?.[0];
  const text = (k: Exclude<keyof Form, 'dpi' | 'media' | 'zplMadeForDpi'>) => (
    <TextField id={`profile-${k}`} label={t(`printerProfile.${k}`)} value={form[k]} onValue={(v) => edit({ [k]: v })} error={err(k)} inputMode="decimal" />
  );

  return (
    <SettingsCard titleId="profile-title" title={t('printerProfile.title')} hint={saved === false ? t('printerProfile.none') : t('printerProfile.hint')} onSubmit={save} data-testid="printer-profile">
      <div className="grid-3">
        <SelectField id="profile-dpi" label={t('printerProfile.dpi')} value={form.dpi} onValue={(v) => edit({ dpi: v })} error={err('dpi')}>
          <option value="203">203</option>
          <option value="300">300</option>
          <option value="600">600</option>
        </SelectField>
        {text('widthMm')}
        {text('heightMm')}
        {text('darkness')}
        {text('speedIps')}
        <SelectField id="profile-media" label={t('printerProfile.media')} value={form.media} onValue={(v) => edit({ media: v as PrinterProfile['media'] })} error={err('media')}>
          <option value="direct_thermal">{t('printerProfile.direct_thermal')}</option>
          <option value="thermal_transfer">{t('printerProfile.thermal_transfer')}</option>
        </SelectField>
        {text('topOffsetDots')}
        <SelectField id="profile-zplMadeForDpi" label={t('printerProfile.zplMadeForDpi')} value={form.zplMadeForDpi} onValue={(v) => edit({ zplMadeForDpi: v })} error={err('zplMadeForDpi')}>
          <option value="">{t('printerProfile.zplMadeForDpiUnset')}</option>
          <option value="203">203</option>
          <option value="300">300</option>
          <option value="600">600</option>
        </SelectField>
      </div>
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('printerProfile.save')}
        </button>
      </div>
    </SettingsCard>
  );
}
