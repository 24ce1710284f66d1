/**
 * Part of the Settings screen (issue 11 "Box presets"): the station's named
 * boxes (name, inner dimensions cm, tare kg, barcode), the box a new
 * parcel starts with, and the margin (cm, 0 to 10, decimal comma accepted)
 * between the items and the walls when the station chooses a box (issue 37);
 * and the boxes learnt from the bench waiting for the packer (accept or reject, issue 37 item 3). Saved as a whole with `boxes.settings.set`; a refused value
 * names its row and field (`presets.1.lengthCm`) and nothing saved is lost.
 * Keyboard: Tab through the rows, Enter in a field or Ctrl+Enter saves.
 */
import { useCallback, useEffect, useState } from 'react';
import type { BoxSettings, LearntBoxView } from '../../../shared/contract';
import { invoke } from '../api';
import { TextField } from '../components/Field';
import { useEditableForm } from '../lib/editableForm';
import { asStationError } from '../lib/errors';
import { decimalText, parseDecimal } from '../lib/format';
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { useSharedSettingsReload } from '../lib/sharedSettings';
import { useBoxes } from '../stores/boxes';
import { SettingsCard } from '../components/Forms';
import { ProposalList } from '../components/ProposalList';

interface Row {
  name: string;
  lengthCm: string;
  widthCm: string;
  heightCm: string;
  tareKg: string;
  barcode: string;
}

const FIELDS: Array<[Exclude<keyof Row, 'name'>, string]> = [
  ['lengthCm', 'boxes.length'],
  ['widthCm', 'boxes.width'],
  ['heightCm', 'boxes.height'],
  ['tareKg', 'boxes.tare'],
  ['barcode', 'boxes.barcode'],
];

const toRows = (s: BoxSettings): Row[] =>
  s.presets.map((p) => ({ name: p.name, lengthCm: decimalText(p.lengthCm), widthCm: decimalText(p.widthCm), heightCm: decimalText(p.heightCm), tareKg: decimalText(p.tareKg), barcode: p.barcode ?? '' }));

/** The card's form from the station's settings: the rows, the default box ('' for none) and the margin as typed (cm). */
const formOf = (s: BoxSettings) => ({ rows: toRows(s), defaultBox: s.defaultBox ?? '', margin: decimalText(s.marginCm) });

/** A typed number, or the text itself so the station's check names the field (a blank tare is 0 kg). */
const num = (text: string, blank?: number): number => {
  const v = parseDecimal(text);
  return v === undefined ? (blank ?? Number.NaN) : v;
};

/** The Boxes card of the Settings screen (see file comment). */
export function BoxSettingsSection() {
  const settings = useBoxes((s) => s.settings);
  // The station's boxes fill the rows when they arrive, unless the packer has already edited them.
  const { form, edit: editForm, load, saved: savedForm } = useEditableForm(formOf(settings));
  const { rows, defaultBox, margin } = form;
  const setRows = (next: Row[]) => editForm({ rows: next });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  const [learnt, setLearnt] = useState<LearntBoxView[]>([]);
  const loadLearnt = useCallback(() => {
    void invoke('shipping.learntBoxes.list', {}).then(setLearnt, (e: unknown) => useApp.getState().fail(t('boxes.notLoaded'), e));
  }, []);
  useEffect(loadLearnt, [loadLearnt]);
  const resolve = (key: string, accept: boolean) => {
    void invoke('shipping.learntBoxes.resolve', { key, accept }).then(loadLearnt, (e: unknown) => useApp.getState().fail(t('boxes.notSaved'), e));
  };
  const waiting = learnt.filter((l) => l.proposed !== null);

  const reload = useCallback(() => {
    void useBoxes
      .getState()
      .load()
      .then(() => {
        const s = useBoxes.getState().settings;
        load(formOf(s));
      });
  }, [load]);
  useEffect(reload, [reload]);
  useSharedSettingsReload(['boxes.presets', 'boxes.marginCm'], reload);

  const edit = (i: number, field: keyof Row, value: string) => setRows(rows.map((r, n) => (n === i ? { ...r, [field]: value } : r)));

  const save = async () => {
    if (busy) return;
    setBusy(true);
    setErrors({});
    try {
      const saved = await useBoxes.getState().save({
        presets: rows.map((r) => ({ name: r.name, lengthCm: num(r.lengthCm), widthCm: num(r.widthCm), heightCm: num(r.heightCm), tareKg: num(r.tareKg, 0), barcode: r.barcode })),
        defaultBox: defaultBox === '' ? null : defaultBox,
        marginCm: num(margin, 0),
      });
      savedForm(formOf(saved));
      useApp.getState().flash('ok', t('boxes.saved'));
    } catch (e) {
      const err = asStationError(e);
      setErrors(err.details ?? {});
      useApp.getState().fail(t('boxes.notSaved'), err);
    } finally {
      setBusy(false);
    }
  };
  const errorOf = (path: string): string | undefined => errors[path]?.[0];
  const names = rows.map((r) => r.name.trim()).filter((n) => n !== '');

  return (
    <SettingsCard titleId="box-settings-title" title={t('boxes.title')} hint={t('boxes.hint')} onSubmit={save} ctrlEnter>
      {errorOf('presets') ? <p className="field-error">{errorOf('presets')}</p> : null}
      {rows.map((r, i) => (
        <div key={i} className="package-row box-row" role="group" aria-label={t('boxes.row', { n: i + 1 })}>
          <span className="package-no" aria-hidden="true">
            {i + 1}
          </span>
          <TextField id={`box-${i}-name`} label={`${t('boxes.name')} #${i + 1}`} value={r.name} onValue={(v) => edit(i, 'name', v)} error={errorOf(`presets.${i}.name`)} />
          {FIELDS.map(([f, label]) => (
            <TextField
              key={f}
              id={`box-${i}-${f}`}
              label={`${t(label)} #${i + 1}`}
              value={r[f]}
              onValue={(v) => edit(i, f, v)}
              error={errorOf(`presets.${i}.${f}`)}
              inputMode={f === 'barcode' ? undefined : 'decimal'}
              className={f === 'barcode' ? undefined : 'field-num'}
            />
          ))}
          <button type="button" className="btn btn-small" onClick={() => setRows(rows.filter((_, n) => n !== i))} aria-label={t('boxes.remove', { n: i + 1 })}>
            {t('action.remove')}
          </button>
        </div>
      ))}
      <button type="button" className="btn btn-small" onClick={() => setRows([...rows, { name: '', lengthCm: '', widthCm: '', heightCm: '', tareKg: '', barcode: '' }])}>
        {t('boxes.add')}
      </button>
      <div className={`field${errorOf('defaultBox') ? ' field-bad' : ''}`}>
        <label htmlFor="box-default">{t('boxes.defaultBox')}</label>
        <select id="box-default" value={defaultBox} onChange={(e) => editForm({ defaultBox: e.target.value })}>
          <option value="">{t('boxes.noDefault')}</option>
          {names.map((n) => (
            <option key={n} value={n} translate="no">
              {n}
            </option>
          ))}
        </select>
        {errorOf('defaultBox') ? <p className="field-error">{errorOf('defaultBox')}</p> : null}
      </div>
      <TextField id="box-margin" label={t('boxes.margin')} hint={t('boxes.marginHint')} value={margin} onValue={(v) => editForm({ margin: v })} error={errorOf('marginCm')} inputMode="decimal" className="field-num" />
      <ProposalList
        title={t('boxes.learnt')}
        proposals={waiting.map((l) => ({ key: l.key, text: t('boxes.learntOne', { items: l.key, box: l.proposed ?? '', current: l.box ?? '—', source: l.source }) }))}
        onResolve={resolve}
      />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy} aria-keyshortcuts="Control+Enter">
          {t('boxes.save')}
        </button>
      </div>
    </SettingsCard>
  );
}
