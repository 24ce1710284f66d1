/**
 * Part of the Settings screen (issue 11 "Scales"): which scale this station
 * reads — none, the first USB HID scale (HID Point of Sale usage page 0x8D),
 * or a serial scale (port, baud rate, MT-SICS or continuous output) — and
 * whether a stable weight re-quotes at once. Saved with `scales.set`; the
 * header shows the scale and its reading. A refused value names its field.
 */
import { useEffect, useState } from 'react';
import type { ScaleConfigView } from '../../../shared/contract';
import { TextField } from '../components/Field';
import { useEditableForm } from '../lib/editableForm';
import { asStationError } from '../lib/errors';
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { readingText, useScale } from '../stores/scale';
import { SettingsCard } from '../components/Forms';

type Kind = ScaleConfigView['kind'];

/** The form's fields from a scale configuration (a serial scale's port, baud rate and protocol; defaults otherwise). */
function toForm(config: ScaleConfigView | undefined, requote: boolean) {
  const serial = config?.kind === 'serial' ? config : null;
  return {
    kind: config?.kind ?? ('hid' as Kind),
    port: serial?.path ?? '',
    baud: String(serial?.baudRate ?? 9600),
    protocol: serial?.protocol ?? ('mt-sics' as 'mt-sics' | 'continuous'),
    requote,
  };
}

/** The Scale card of the Settings screen (see file comment). */
export function ScaleSettingsSection() {
  const scale = useScale((s) => s.scale);
  // The form starts from the scale the station reports (loaded at start); a later load fills what was not typed (effect below).
  const initial = useScale.getState().scale;
  const { form, edit, load, saved } = useEditableForm(toForm(initial?.config, initial?.requoteOnStable ?? true));
  const { kind, port, baud, protocol, requote } = form;
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (useScale.getState().scale) return;
    void useScale
      .getState()
      .load()
      .then(() => {
        const loaded = useScale.getState().scale;
        if (loaded) load(toForm(loaded.config, loaded.requoteOnStable));
      });
  }, [load]);

  const save = async () => {
    if (busy) return;
    setBusy(true);
    setErrors({});
    const baudRate = Number(baud.trim());
    const config: ScaleConfigView = kind === 'serial' ? { kind, path: port, baudRate: Number.isInteger(baudRate) ? baudRate : Number.NaN, protocol } : { kind };
    try {
      const view = await useScale.getState().save(config, requote);
      saved(toForm(view.config, view.requoteOnStable));
      useApp.getState().flash('ok', t('scaleSettings.saved'), readingLine(view.name, view.connected));
    } catch (e) {
      const err = asStationError(e);
      setErrors(err.details ?? {});
      useApp.getState().fail(t('scaleSettings.notSaved'), err);
    } finally {
      setBusy(false);
    }
  };
  const errorOf = (path: string): string | undefined => errors[path]?.[0];
  const readingLine = (name: string | null, connected: boolean) => (connected ? t('scaleSettings.connected', { name: name ?? '' }) : t('scaleSettings.notConnected'));

  return (
    <SettingsCard titleId="scale-settings-title" title={t('scaleSettings.title')} hint={t('scaleSettings.hint')} onSubmit={save}>
      <p data-testid="scale-now">
        {scale ? `${readingLine(scale.name, scale.connected)} — ${readingText(scale)}` : ''}
        {scale?.problem ? <span className="field-error"> {scale.problem}</span> : null}
      </p>
      <div className="grid-3">
        <div className="field">
          <label htmlFor="scale-kind">{t('scaleSettings.kind')}</label>
          <select id="scale-kind" value={kind} onChange={(e) => edit({ kind: e.target.value as Kind })}>
            <option value="none">{t('scaleSettings.none')}</option>
            <option value="hid">{t('scaleSettings.hid')}</option>
            <option value="serial">{t('scaleSettings.serial')}</option>
          </select>
        </div>
        {kind === 'serial' ? (
          <>
            <TextField id="scale-port" label={t('scaleSettings.port')} value={port} onValue={(v) => edit({ port: v })} error={errorOf('config.path')} placeholder="/dev/ttyUSB0, COM3" />
            <TextField id="scale-baud" label={t('scaleSettings.baud')} value={baud} onValue={(v) => edit({ baud: v })} error={errorOf('config.baudRate')} inputMode="numeric" className="field-num" />
            <div className="field">
              <label htmlFor="scale-protocol">{t('scaleSettings.protocol')}</label>
              <select id="scale-protocol" value={protocol} onChange={(e) => edit({ protocol: e.target.value === 'continuous' ? 'continuous' : 'mt-sics' })}>
                <option value="mt-sics">{t('scaleSettings.mtSics')}</option>
                <option value="continuous">{t('scaleSettings.continuous')}</option>
              </select>
            </div>
          </>
        ) : null}
      </div>
      <label className="check">
        <input type="checkbox" id="scale-requote" checked={requote} onChange={(e) => edit({ requote: e.target.checked })} /> {t('scaleSettings.requote')}
      </label>
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('scaleSettings.save')}
        </button>
      </div>
    </SettingsCard>
  );
}
