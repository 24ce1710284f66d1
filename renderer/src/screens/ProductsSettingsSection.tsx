/**
 * Part of the Settings screen (issue 24 item 3): product data per SKU —
 * CSV import (all rows or none; a bad row is named with its row and column)
 * and export, the shared product file the station follows and the version it
 * runs, and the values learnt from shipments that differ from the product
 * data, which the packer accepts or rejects (nothing changes by itself).
 */
import { useCallback, useEffect, useState } from 'react';
import type { ProductSuggestionView } from '../../../shared/contract/products';
import type { FollowedFileView } from '../../../shared/contract/rules';
import { invoke, on } from '../api';
import { asStationError } from '../lib/errors';
import { dateTime } from '../lib/format';
import { t } from '../lib/i18n';
import { saveText } from '../lib/saveText';
import { useApp } from '../stores/app';
import { FollowedFileForm } from './FollowedFileForm';
import { FileButton } from '../components/FileButton';
import { ProposalList } from '../components/ProposalList';

/** The Product data card of the Settings screen (see file comment). */
export function ProductsSettingsSection() {
  const [count, setCount] = useState<number | null>(null);
  const [source, setSource] = useState<FollowedFileView | null>(null);
  const [suggestions, setSuggestions] = useState<ProductSuggestionView[]>([]);

  const load = useCallback(() => {
    Promise.all([invoke('products.list', {}), invoke('products.source', {}), invoke('products.suggestions', {})])
      .then(([list, src, sug]) => {
        setCount(list.length);
        setSource(src);
        setSuggestions(sug);
      })
      .catch((e: unknown) => useApp.getState().fail(t('products.notImported'), e));
  }, []);
  useEffect(() => {
    load();
    return on('products.changed', load);
  }, [load]);

  const importFile = async (file: File) => {
    try {
      const r = await invoke('products.importCsv', { content: await file.text() });
      useApp.getState().flash('ok', t('products.imported', { imported: r.imported, updated: r.updated, unchanged: r.unchanged }));
      load();
    } catch (e) {
      useApp.getState().fail(t('products.notImported'), asStationError(e));
    }
  };
  const resolve = (id: number, accept: boolean) =>
    void invoke('products.resolveSuggestion', { id, accept })
      .then(load)
      .catch((e: unknown) => useApp.getState().fail(t('products.notImported'), e));

  return (
    <section className="card" aria-labelledby="products-settings-title">
      <h2 id="products-settings-title">{t('products.title')}</h2>
      <p className="muted">{t('products.hint')}</p>
      <p data-testid="products-version">
        {count !== null ? `${t('products.count', { count })} · ` : ''}
        {source?.version ? t('rules.settings.version', { label: source.version.label, when: source.loadedAt ? dateTime(source.loadedAt) : '—' }) : t('rules.settings.local')}
        {source?.error ? <span className="field-error"> {source.error}</span> : null}
      </p>
      <div className="actions">
        <FileButton text={t('products.import')} accept="text/csv,.csv" onFile={(f) => void importFile(f)} />
        <button type="button" className="btn" onClick={() => void invoke('products.exportCsv', {}).then((r) => saveText(r.content, 'products.csv', 'text/csv'))}>
          {t('products.export')}
        </button>
      </div>
      <FollowedFileForm key={source?.path ?? ''} id="products-follow" label={t('products.follow')} path={source?.path ?? null} onFollow={(path) => invoke('products.follow', { path }).then(load)} />
      <ProposalList
        title={t('products.suggestions')}
        proposals={suggestions.map((s) => ({ key: s.id, text: t('products.suggestion', { sku: s.sku, field: t(`products.field.${s.field}`), current: s.current ?? '—', proposed: s.proposed, source: s.source }) }))}
        onResolve={resolve}
      />
    </section>
  );
}
