/**
 * Part of the Settings screen (issue 14 item 5): scan to verify on or off
 * for this station, the weight tolerance (percent of the expected weight,
 * and at least so many kg), and the items: a SKU's own barcodes (EAN/UPC
 * printed on the product, one per line) and its unit weight in kg. A refused
 * value names its field; nothing saved is lost.
 */
import { useEffect, useState } from 'react';
import type { ItemView, VerifySettings } from '../../../shared/contract';
import { invoke } from '../api';
import { TextField } from '../components/Field';
import { useEditableForm } from '../lib/editableForm';
import { asStationError } from '../lib/errors';
import { decimalText, parseDecimal } from '../lib/format';
import { t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { useVerify } from '../stores/verify';
import { ActionForm } from '../components/Forms';

/** A typed number, NaN when it is not one (the station's check names the field). */
const num = (text: string): number => parseDecimal(text) ?? Number.NaN;

/** The form's fields from the station's verify settings (defaults before they are known). */
const toForm = (s: VerifySettings | null) => ({ enabled: s?.enabled ?? false, pct: decimalText(s?.tolerancePct ?? 10), minKg: decimalText(s?.toleranceKg ?? 0.05) });

/** The Scan to verify card of the Settings screen (see file comment). */
export function VerifySettingsSection() {
  // The settings the station reported at start; when they arrive later they fill what the packer has not typed.
  const settings = useVerify((s) => s.settings);
  const { form, edit, load, saved: savedForm } = useEditableForm(toForm(settings));
  const { enabled, pct, minKg } = form;
  useEffect(() => {
    if (settings) load(toForm(settings));
  }, [settings, load]);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [items, setItems] = useState<ItemView[]>([]);
  const [q, setQ] = useState('');
  const [item, setItem] = useState({ sku: '', barcodes: '', weight: '' });
  const [itemErrors, setItemErrors] = useState<Record<string, string[]>>({});

  useEffect(() => {
    const handle = setTimeout(() => {
      invoke('items.list', { q })
        .then(setItems)
        .catch((e: unknown) => useApp.getState().fail(t('verify.itemsNotLoaded'), e));
    }, 150);
    return () => clearTimeout(handle);
  }, [q]);

  const saveSettings = async () => {
    setErrors({});
    try {
      const saved = await invoke('verify.settings.set', { enabled, tolerancePct: num(pct), toleranceKg: num(minKg) });
      savedForm(toForm(saved));
      useVerify.setState({ settings: saved });
      useApp.getState().flash('ok', t('verify.settingsSaved'));
    } catch (e) {
      const err = asStationError(e);
      setErrors(err.details ?? {});
      useApp.getState().fail(t('verify.settingsNotSaved'), err);
    }
  };
  const saveItem = async () => {
    setItemErrors({});
    try {
      const weight = item.weight.trim() === '' ? null : num(item.weight);
      const barcodes = item.barcodes.split(/[\s,;]+/).filter((b) => b !== '');
      const saved = await invoke('items.save', { sku: item.sku, barcodes, unitWeightKg: weight });
      setItems([saved, ...items.filter((i) => i.sku !== saved.sku)].sort((a, b) => a.sku.localeCompare(b.sku)));
      setItem({ sku: '', barcodes: '', weight: '' });
      useApp.getState().flash('ok', t('verify.itemSaved', { sku: saved.sku }));
    } catch (e) {
      const err = asStationError(e);
      setItemErrors(err.details ?? {});
      useApp.getState().fail(t('verify.itemNotSaved'), err);
    }
  };

  return (
    <section className="card" aria-labelledby="verify-settings-title">
      <h2 id="verify-settings-title">{t('verify.settingsTitle')}</h2>
      <p className="muted">{t('verify.settingsHint')}</p>
      <ActionForm onSubmit={() => saveSettings()}>
        <label className="check">
          <input type="checkbox" id="verify-enabled" checked={enabled} onChange={(e) => edit({ enabled: e.target.checked })} /> {t('verify.enabled')}
        </label>
        <div className="grid-3">
          <TextField id="verify-pct" label={t('verify.tolerancePct')} value={pct} onValue={(v) => edit({ pct: v })} error={errors['tolerancePct']?.[0]} inputMode="decimal" className="field-num" />
          <TextField id="verify-kg" label={t('verify.toleranceKg')} value={minKg} onValue={(v) => edit({ minKg: v })} error={errors['toleranceKg']?.[0]} inputMode="decimal" className="field-num" />
        </div>
        <div className="actions">
          <button type="submit" className="btn btn-primary">
            {t('verify.saveSettings')}
          </button>
        </div>
      </ActionForm>
      <h3>{t('verify.itemsTitle')}</h3>
      <form
        noValidate
        className="grid-3"
        aria-label={t('verify.itemForm')}
        onSubmit={(e) => {
          e.preventDefault();
          void saveItem();
        }}
      >
        <TextField id="item-sku" label={t('verify.sku')} value={item.sku} onValue={(v) => setItem({ ...item, sku: v })} error={itemErrors['sku']?.[0]} />
        <TextField id="item-barcodes" label={t('verify.barcodes')} value={item.barcodes} onValue={(v) => setItem({ ...item, barcodes: v })} error={itemErrors['barcodes']?.[0] ?? Object.entries(itemErrors).find(([k]) => k.startsWith('barcodes.'))?.[1][0]} />
        <TextField id="item-weight" label={t('verify.unitWeight')} value={item.weight} onValue={(v) => setItem({ ...item, weight: v })} error={itemErrors['unitWeightKg']?.[0]} inputMode="decimal" className="field-num" />
        <div className="actions">
          <button type="submit" className="btn">
            {t('verify.saveItem')}
          </button>
        </div>
      </form>
      <TextField id="item-search" label={t('verify.search')} value={q} onValue={setQ} />
      <table className="data" aria-label={t('verify.itemsTitle')}>
        <thead>
          <tr>
            <th>{t('verify.sku')}</th>
            <th>{t('verify.barcodes')}</th>
            <th className="num">{t('verify.unitWeight')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {items.map((i) => (
            <tr key={i.sku}>
              <td>{i.sku}</td>
              <td>{i.barcodes.join(', ')}</td>
              <td className="num">{i.unitWeightKg ?? '—'}</td>
              <td>
                <button type="button" className="btn btn-small" onClick={() => setItem({ sku: i.sku, barcodes: i.barcodes.join(' '), weight: i.unitWeightKg === null ? '' : decimalText(i.unitWeightKg) })}>
                  {t('verify.edit', { sku: i.sku })}
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() =>
                    void invoke('items.delete', { sku: i.sku })
                      .then(() => setItems(items.filter((x) => x.sku !== i.sku)))
                      .catch((e: unknown) => useApp.getState().fail(t('verify.itemNotSaved'), e))
                  }
                >
                  {t('verify.delete', { sku: i.sku })}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
