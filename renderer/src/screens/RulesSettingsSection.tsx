/**
 * Part of the Settings screen (issue 24 items 1-2): the shipping rules in
 * order — turn one on or off, rename it, move it up or down, choose the
 * label printer its labels go to (from the printers the station knows; the
 * printer's profile then applies), test the list
 * on an order (which rule acts and why each one before it did not) — their
 * JSON import and export, and the shared rules file the station follows with
 * the version it runs. A refused file names the rule's number and field, and
 * the rules in use stay.
 */
import { useCallback, useEffect, useState } from 'react';
import { rulePrinterUri, type RulesTestView, type RulesView } from '../../../shared/contract/rules';
import type { DiscoveredPrinterView } from '../../../shared/contract/views';
import { invoke, on } from '../api';
import { TextField } from '../components/Field';
import { asStationError } from '../lib/errors';
import { dateTime } from '../lib/format';
import { printerNameText, t } from '../lib/i18n';
import { withLongLabelPrinter, withPrinter } from '../lib/rulePrinter';
import { decisionText, ruleReasonText } from '../lib/ruleText';
import { saveText } from '../lib/saveText';
import { useApp } from '../stores/app';
import { FollowedFileForm } from './FollowedFileForm';
import { FileButton } from '../components/FileButton';
import { ActionForm } from '../components/Forms';

/**
 * A printer choice of a rule (its label printer, or its printer for labels longer than the stock): the known
 * printers, and the rule's own when the station does not know it (yet); `''` is `none` (in words); `named` words
 * a printer's choice (its name or URI) when the select alone would not say what it is for.
 */
function PrinterChoice({
  uri,
  label,
  none,
  named = (name) => name,
  printers,
  disabled,
  onChoose,
}: {
  uri: string;
  label: string;
  none: string;
  named?: (name: string) => string;
  printers: readonly DiscoveredPrinterView[];
  disabled: boolean;
  onChoose: (uri: string) => void;
}) {
  return (
    <select aria-label={label} value={uri} disabled={disabled} onChange={(e) => onChoose(e.target.value)}>
      <option value="">{none}</option>
      {printers.map((p) => (
        <option key={p.uri} value={p.uri}>
          {named(printerNameText(p))}
        </option>
      ))}
      {uri && !printers.some((p) => p.uri === uri) ? <option value={uri}>{named(uri)}</option> : null}
    </select>
  );
}

/** The Shipping rules card of the Settings screen (see file comment). */
export function RulesSettingsSection() {
  const [view, setView] = useState<RulesView | null>(null);
  const [names, setNames] = useState<Record<number, string>>({});
  const [orderNumber, setOrderNumber] = useState('');
  const [test, setTest] = useState<RulesTestView | null>(null);
  const [printers, setPrinters] = useState<DiscoveredPrinterView[]>([]);
  useEffect(() => {
    let live = true;
    invoke('printers.discover', {})
      .then((list) => live && setPrinters(list))
      // Without the list a rule's printer still shows (by its URI) and "the printer in use" stays a choice.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const load = useCallback(() => {
    invoke('rules.list', {})
      .then((v) => {
        setView(v);
        setNames({});
      })
      .catch((e: unknown) => useApp.getState().fail(t('rules.settings.notLoaded'), e));
  }, []);
  useEffect(() => {
    load();
    return on('rules.changed', load);
  }, [load]);

  /** Runs a change; the new list replaces the shown one, a refusal is shown and nothing changes. */
  const change = async (run: () => Promise<RulesView>) => {
    try {
      const next = await run();
      setView(next);
      setNames({});
      useApp.getState().flash('ok', t('rules.settings.imported', { count: next.rules.length }));
    } catch (e) {
      useApp.getState().fail(t('rules.settings.notSaved'), asStationError(e));
    }
  };

  const importFile = async (file: File) => {
    const content = await file.text();
    await change(() => invoke('rules.import', { content }));
    setTest(null);
  };

  const runTest = async () => {
    try {
      const found = await invoke('scan.resolve', { code: orderNumber });
      const order = found.kind === 'order' ? found.order : found.kind === 'orders' ? found.orders[0] : undefined;
      if (!order) throw new Error(`${orderNumber}: no such order`);
      setTest(await invoke('rules.test', { orderId: order.id }));
    } catch (e) {
      setTest(null);
      useApp.getState().fail(t('rules.settings.test'), asStationError(e));
    }
  };

  const rules = view?.rules ?? [];
  const source = view?.source;
  const following = source?.path != null;
  return (
    <section className="card" aria-labelledby="rules-settings-title">
      <h2 id="rules-settings-title">{t('rules.settings.title')}</h2>
      <p className="muted">{t('rules.settings.hint')}</p>
      <p data-testid="rules-version">
        {source?.version ? t('rules.settings.version', { label: source.version.label, when: source.loadedAt ? dateTime(source.loadedAt) : '—' }) : t('rules.settings.local')}
        {source?.error ? <span className="field-error"> {source.error}</span> : null}
      </p>
      {rules.length === 0 ? <p className="muted">{t('rules.settings.empty')}</p> : null}
      <table className="data" aria-label={t('rules.settings.title')}>
        <tbody>
          {rules.map((r, i) => {
            const index = i + 1;
            const step = test?.trace[i];
            return (
              <tr key={`${index}-${r.name}`}>
                <td className="num">{index}</td>
                <td>
                  <label className="check">
                    <input type="checkbox" checked={r.enabled} disabled={following} onChange={(e) => void change(() => invoke('rules.setEnabled', { index, enabled: e.target.checked }))} /> {t('rules.settings.enabled')}
                  </label>
                </td>
                <td>
                  <input aria-label={`${t('rules.settings.name')} ${index}`} value={names[index] ?? r.name} disabled={following} onChange={(e) => setNames({ ...names, [index]: e.target.value })} />
                  {names[index] !== undefined && names[index] !== r.name ? (
                    <button type="button" className="btn btn-small" onClick={() => void change(() => invoke('rules.save', { index, rule: { ...r, name: names[index] ?? r.name } }))}>
                      {t('rules.settings.rename')}
                    </button>
                  ) : null}
                </td>
                <td>
                  <button type="button" className="btn btn-small" aria-label={t('rules.settings.up', { index })} disabled={following || index === 1} onClick={() => void change(() => invoke('rules.move', { index, to: index - 1 }))}>
                    ↑
                  </button>
                  <button type="button" className="btn btn-small" aria-label={t('rules.settings.down', { index })} disabled={following || index === rules.length} onClick={() => void change(() => invoke('rules.move', { index, to: index + 1 }))}>
                    ↓
                  </button>
                </td>
                <td>
                  <PrinterChoice uri={rulePrinterUri(r.then) ?? ''} label={t('rules.settings.printerOf', { index })} none={t('rules.settings.printerInUse')} printers={printers} disabled={following} onChoose={(uri) => void change(() => invoke('rules.save', { index, rule: withPrinter(r, uri) }))} />
                  <br />
                  <PrinterChoice
                    uri={r.then.longLabelPrinter ?? ''}
                    label={t('rules.settings.longLabelPrinterOf', { index })}
                    none={t('rules.settings.longLabelsHeld')}
                    named={(name) => t('rules.settings.longLabelsTo', { name })}
                    printers={printers}
                    disabled={following}
                    onChoose={(uri) => void change(() => invoke('rules.save', { index, rule: withLongLabelPrinter(r, uri) }))}
                  />
                </td>
                <td>{step ? `${t(`rules.settings.outcome.${step.outcome}`)}${step.why.length ? `: ${step.why.map(ruleReasonText).join(', ')}` : ''}` : ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ActionForm className="grid-3" onSubmit={() => runTest()}>
        <TextField id="rules-test-order" label={t('rules.settings.testOrder')} value={orderNumber} onValue={setOrderNumber} />
        <div className="actions">
          <button type="submit" className="btn">
            {t('rules.settings.test')}
          </button>
        </div>
      </ActionForm>
      {test ? <p data-testid="rules-test-result">{decisionText(test.decision)}</p> : null}
      <div className="actions">
        <FileButton text={t('rules.settings.import')} accept="application/json,.json" disabled={following} onFile={(f) => void importFile(f)} />
        <button type="button" className="btn" onClick={() => void invoke('rules.export', {}).then((r) => saveText(r.content, 'shipping-rules.json', 'application/json'))}>
          {t('rules.settings.export')}
        </button>
      </div>
      <FollowedFileForm key={source?.path ?? ''} id="rules-follow" label={t('rules.settings.follow')} path={source?.path ?? null} onFollow={(path) => invoke('rules.follow', { path }).then(load)} />
    </section>
  );
}
