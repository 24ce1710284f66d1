/**
 * Part of the Settings screen (issue 27): the data folder at a glance — where
 * it is, how big it is, how many label bytes are kept and since when, how
 * long labels and done queue rows are kept (editable, 7 to 3650 days; a
 * refused value names the field), and the result of the background check of
 * the database file. Read with `storage.get`, saved with `storage.setRetention`.
 */
import { useEffect, useState } from 'react';
import type { StorageView } from '../../../shared/contract';
import { invoke } from '../api';
import { TextField } from '../components/Field';
import { useEditableForm } from '../lib/editableForm';
import { asStationError } from '../lib/errors';
import { dateTime, parseDecimal } from '../lib/format';
import { language, t } from '../lib/i18n';
import { useApp } from '../stores/app';
import { SettingsCard } from '../components/Forms';

/** Bytes as MB with one decimal in the bench's language (1,5 MB in Italian). */
function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toLocaleString(language() === 'it' ? 'it-IT' : 'en-GB', { maximumFractionDigits: 1, minimumFractionDigits: 1, useGrouping: false })} MB`;
}

/** The Data folder card of the Settings screen (see file comment). */
export function StorageSection() {
  const [view, setView] = useState<StorageView | null>(null);
  const { form, edit, load, saved } = useEditableForm({ days: '' });
  const [errors, setErrors] = useState<Record<string, string[]>>({});

  useEffect(() => {
    invoke('storage.get', {})
      .then((v) => {
        setView(v);
        load({ days: String(v.retentionDays) });
      })
      .catch((e: unknown) => useApp.getState().fail(t('storage.notLoaded'), e));
  }, [load]);

  const save = async () => {
    setErrors({});
    const days = parseDecimal(form.days);
    try {
      const v = await invoke('storage.setRetention', { days: days ?? Number.NaN });
      setView(v);
      saved({ days: String(v.retentionDays) });
      useApp.getState().flash('ok', t('storage.saved'), t('storage.keptFor', { count: v.retentionDays }));
    } catch (e) {
      const err = asStationError(e);
      setErrors(err.details ?? {});
      useApp.getState().fail(t('storage.notSaved'), err);
    }
  };

  const check = view?.integrity;
  return (
    <SettingsCard titleId="storage-title" title={t('storage.title')} hint={t('storage.hint')} onSubmit={save}>
      {view ? (
        <dl className="facts" data-testid="storage-facts">
          <div>
            <dt>{t('storage.folder')}</dt>
            <dd className="wrap-anywhere" title={view.dataDir}>
              {view.dataDir}
            </dd>
          </div>
          <div>
            <dt>{t('storage.size')}</dt>
            <dd data-testid="storage-size">{t('storage.sizeValue', { folder: megabytes(view.folderBytes), database: megabytes(view.databaseBytes) })}</dd>
          </div>
          <div>
            <dt>{t('storage.labels')}</dt>
            <dd>{view.labelsKept === 0 || !view.oldestLabelKept ? t('storage.noLabels') : t('storage.labelsValue', { count: view.labelsKept, size: megabytes(view.labelBytes), since: dateTime(view.oldestLabelKept) })}</dd>
          </div>
          <div>
            <dt>{t('storage.check')}</dt>
            <dd data-testid="storage-check">{check ? t(`storage.checkState.${check.state}`, { when: check.checkedAt ? dateTime(check.checkedAt) : '' }) : ''}</dd>
          </div>
        </dl>
      ) : null}
      <div className="grid-3">
        <TextField id="storage-days" label={t('storage.retention')} value={form.days} onValue={(v) => edit({ days: v })} error={errors['days']?.[0]} inputMode="numeric" className="field-num" hint={t('storage.retentionHint')} />
      </div>
      <div className="actions">
        <button type="submit" className="btn btn-primary">
          {t('storage.save')}
        </button>
      </div>
    </SettingsCard>
  );
}
