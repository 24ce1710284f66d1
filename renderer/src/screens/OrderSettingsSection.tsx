/**
 * Part of the Settings screen (issue 12): how this station treats orders —
 * whether unpaid orders may ship (after the packer confirms; off forbids it
 * in the core too, `shipping.shipOrder`), and per shop the Shopify shipping
 * method names that mean store or local pickup (those orders stay off the
 * to-ship list). Saved with `orders.settings.set`; a refused value names its
 * field and nothing saved is lost. Keyboard: Tab through the fields, Enter in
 * a single-line field or Ctrl+Enter in a list saves.
 */
import { useCallback, useEffect, useState } from 'react';
import type { OrderSettings } from '../../../shared/domain/order';
import { invoke } from '../api';
import { TextField } from '../components/Field';
import { useEditableForm } from '../lib/editableForm';
import { asStationError } from '../lib/errors';
import { t } from '../lib/i18n';
import { useSharedSettingsReload } from '../lib/sharedSettings';
import { useApp } from '../stores/app';
import { useOrders } from '../stores/orders';
import { SettingsCard } from '../components/Forms';

/** One name a line, blanks dropped. */
/** Pickup method names per shop as the text areas show them, one name a line. */
const methodTexts = (pickupMethods: OrderSettings['pickupMethods']): Record<string, string> =>
  Object.fromEntries(Object.entries(pickupMethods).map(([shop, names]) => [shop, names.join('\n')]));

const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** The Orders card of the Settings screen (see file comment). */
export function OrderSettingsSection() {
  const shops = useOrders((s) => s.facets.shops);
  const loadFacets = useOrders((s) => s.loadFacets);
  // Filled by the load below without losing what the packer typed first (a late answer on a busy bench).
  const unpaid = useEditableForm({ allowUnpaid: true });
  const perShop = useEditableForm<Record<string, string>>({});
  const { allowUnpaid } = unpaid.form;
  const methods = perShop.form;
  const [newShop, setNewShop] = useState('');
  const [newMethods, setNewMethods] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  const loadUnpaid = unpaid.load;
  const loadPerShop = perShop.load;
  const reload = useCallback(() => {
    invoke('orders.settings.get', {})
      .then((s: OrderSettings) => {
        loadUnpaid({ allowUnpaid: s.allowUnpaid });
        loadPerShop(methodTexts(s.pickupMethods));
      })
      .catch((e: unknown) => useApp.getState().fail(t('orderSettings.notSaved'), e));
  }, [loadUnpaid, loadPerShop]);
  useEffect(() => {
    void loadFacets();
    reload();
  }, [loadFacets, reload]);
  useSharedSettingsReload(['orders.allowUnpaid', 'orders.pickupMethods'], reload);

  // Shops with orders here, and shops that only have settings so far.
  const known = [...new Set([...shops, ...Object.keys(methods)])].sort((a, b) => a.localeCompare(b));

  const save = async () => {
    if (busy) return;
    setBusy(true);
    setErrors({});
    const pickupMethods: Record<string, string[]> = {};
    for (const shop of known) {
      const names = lines(methods[shop] ?? '');
      if (names.length) pickupMethods[shop] = names;
    }
    if (newShop.trim() !== '') pickupMethods[newShop.trim()] = [...(pickupMethods[newShop.trim()] ?? []), ...lines(newMethods)];
    try {
      const after = await invoke('orders.settings.set', { allowUnpaid, pickupMethods });
      unpaid.saved({ allowUnpaid: after.allowUnpaid });
      perShop.saved(methodTexts(after.pickupMethods));
      setNewShop('');
      setNewMethods('');
      await useOrders.getState().loadSettings();
      useApp.getState().flash('ok', t('orderSettings.saved'));
    } catch (e) {
      const err = asStationError(e);
      setErrors(err.details ?? {});
      useApp.getState().fail(t('orderSettings.notSaved'), err);
    } finally {
      setBusy(false);
    }
  };
  // A message for a field: `pickupMethods.<shop>` (or one of its lines) or `allowUnpaid`.
  const errorOf = (prefix: string): string | undefined => Object.entries(errors).find(([k]) => k === prefix || k.startsWith(`${prefix}.`))?.[1][0];

  return (
    <SettingsCard titleId="order-settings-title" title={t('orderSettings.title')} hint={t('orderSettings.hint')} onSubmit={save} ctrlEnter>
      <label className="check">
        <input type="checkbox" id="set-allow-unpaid" checked={allowUnpaid} onChange={(e) => unpaid.edit({ allowUnpaid: e.target.checked })} /> {t('orderSettings.allowUnpaid')}
      </label>
      {!allowUnpaid ? <p className="note-warn">{t('orderSettings.allowUnpaidOff')}</p> : null}
      {errorOf('allowUnpaid') ? <p className="field-error">{errorOf('allowUnpaid')}</p> : null}
      <h3>{t('orderSettings.pickupTitle')}</h3>
      <p className="muted">{t('orderSettings.pickupHint')}</p>
      {known.length === 0 ? <p className="muted">{t('orderSettings.noShops')}</p> : null}
      <div className="grid-3">
        {known.map((shop) => {
          const id = `set-pickup-${shop.replace(/[^A-Za-z0-9_-]/g, '_')}`;
          const err = errorOf(`pickupMethods.${shop}`);
          return (
            <div key={shop} className={`field${err ? ' field-bad' : ''}`}>
              <label htmlFor={id}>{t('orderSettings.pickupMethods', { shop })}</label>
              <textarea id={id} rows={3} value={methods[shop] ?? ''} onChange={(e) => perShop.edit({ [shop]: e.target.value })} aria-invalid={err ? true : undefined} />
              {err ? <p className="field-error">{err}</p> : null}
            </div>
          );
        })}
      </div>
      <div className="grid-3">
        <TextField id="set-pickup-new-shop" label={t('orderSettings.newShop')} value={newShop} onValue={setNewShop} error={newShop.trim() ? errorOf(`pickupMethods.${newShop.trim()}`) : undefined} />
        <div className="field">
          <label htmlFor="set-pickup-new-methods">{t('orderSettings.newShopMethods')}</label>
          <textarea id="set-pickup-new-methods" rows={3} value={newMethods} onChange={(e) => setNewMethods(e.target.value)} />
        </div>
      </div>
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy} aria-keyshortcuts="Control+Enter">
          {t('orderSettings.save')}
        </button>
      </div>
    </SettingsCard>
  );
}
