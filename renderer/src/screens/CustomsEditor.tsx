/**
 * Customs declaration of the Ship screen (spec: Customs > CustomsDetail,
 * Commodity), shown whenever the destination is outside the EU customs
 * territory (shared/domain/customs.ts). Lines come prefilled from the order
 * and from what was declared last time for the same SKU; the HS code field
 * searches customs codes as the packer types (`customs.hsCodes.search`: the
 * station's products, then GET /taric; ArrowDown/ArrowUp move in the
 * suggestions, Enter takes one, Escape closes). Errors are looked up by the
 * spec's `details` paths (`commodityPath(0, 'hsCode')` is
 * `customsDetail.commodities.0.harmonizedCode`).
 */
import { DateField } from '../components/DateField';
import { useEffect, useRef, useState } from 'react';
import type { HsSuggestion } from '../../../shared/contract/customs';
import type { CustomsStatus } from '../../../shared/domain/customs';
import { invoke } from '../api';
import { SelectField, TextField } from '../components/Field';
import { asStationError } from '../lib/errors';
import { firstError } from '../lib/shipForm';
import { CUSTOMS_ENUMS } from '../lib/shipFormCustoms';
import { CUSTOMS_PATHS, commodityPath, partyIdPath, type CommodityDraft, type PartyIdsDraft } from '../../../shared/contract/ship-form';
import { language, t } from '../lib/i18n';
import { useJob } from '../stores/job';

interface Props {
  errors: Record<string, string[]>;
  show(path: string): boolean;
  status: CustomsStatus;
}

/** A suggestion in the bench's language: the Italian text on an Italian bench, the English one (when the platform has it) on an English bench; a product's own code names its SKU. */
function suggestionText(c: HsSuggestion): string {
  const text = language() === 'it' ? c.description : (c.descriptionEn ?? c.description);
  return c.sku === undefined ? text : t('customs.fromProduct', { sku: c.sku, description: text });
}

/** HS code input with suggestions: the station's products' codes for similar items, then GET /taric's (6 digits and more can be taken). */
function HsCodeField({ id, label, value, onValue, onBlur, error }: { id: string; label: string; value: string; onValue(v: string): void; onBlur(): void; error: string | undefined }) {
  const [results, setResults] = useState<HsSuggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [lookupError, setLookupError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<HsSuggestion | null>(null);
  const typed = useRef(false);
  useEffect(() => {
    const q = value.trim();
    if (!typed.current || q.length < 3) {
      setResults([]);
      return;
    }
    let stale = false;
    const timer = setTimeout(() => {
      invoke('customs.hsCodes.search', { q, limit: 25 })
        .then((codes) => {
          if (stale) return;
          const usable = codes.filter((c) => c.code.length >= 6);
          setResults(usable.slice(0, 8));
          setOpen(true);
          setActive(usable.length ? 0 : -1);
          setLookupError(null);
        })
        .catch((e: unknown) => {
          if (!stale) setLookupError(asStationError(e).message);
        });
    }, 250);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [value]);
  const take = (c: HsSuggestion) => {
    typed.current = false;
    setChosen(c);
    onValue(c.code);
    setOpen(false);
  };
  const listId = `${id}-list`;
  const hint = lookupError ? t('customs.hsCodeUnavailable', { message: lookupError }) : chosen && chosen.code === value ? `${chosen.code}: ${suggestionText(chosen)}` : undefined;
  return (
    <div className="hs-field">
      <TextField
        id={id}
        label={label}
        value={value}
        onValue={(v) => {
          typed.current = true;
          onValue(v);
        }}
        onBlur={() => {
          setOpen(false);
          onBlur();
        }}
        error={error}
        hint={hint}
        role="combobox"
        aria-expanded={open && results.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        onKeyDown={(e) => {
          if (!open || results.length === 0) {
            if (e.key === 'ArrowDown' && results.length) {
              setOpen(true);
              e.preventDefault();
            }
            return;
          }
          if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, results.length - 1));
          else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
          else if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey && active >= 0) take(results[active]!);
          else if (e.key === 'Escape') setOpen(false);
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
      />
      {open && results.length > 0 ? (
        <ul id={listId} role="listbox" className="suggestions" aria-label={t('customs.hsCodeResults')}>
          {results.map((c, i) => (
            <li
              key={c.code}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                take(c);
              }}
            >
              <code>{c.code}</code> {suggestionText(c)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const LINE_FIELDS: Array<[keyof CommodityDraft, string, { num?: boolean; wide?: boolean }]> = [
  ['description', 'customs.description', { wide: true }],
  ['sku', 'customs.sku', {}],
  ['quantity', 'customs.quantity', { num: true }],
  ['unitValue', 'customs.unitValue', { num: true }],
  ['weight', 'customs.weight', { num: true }],
  ['originCountry', 'customs.originCountry', {}],
];

/** The declaration fieldset (see file comment). */
export function CustomsEditor({ errors, show, status }: Props) {
  const job = useJob();
  const c = job.draft.customs;
  const err = (path: string) => (show(path) ? firstError(errors, path) : undefined);
  const sectionError = err('customsDetail') ?? err('customsDetail.commodities');
  const partyField = (party: 'exporter' | 'importer', f: keyof PartyIdsDraft) => (
    <TextField key={`${party}-${f}`} id={`customs-${party}-${f}`} label={t(`customs.${party}.${f}`)} value={c[party][f]} onValue={(v) => job.setPartyId(party, f, v)} onBlur={() => job.touch(partyIdPath(party, f))} error={err(partyIdPath(party, f))} />
  );
  return (
    <fieldset className="card customs" aria-describedby="customs-why">
      <legend>{t('customs.title')}</legend>
      <p id="customs-why" className="note-warn">
        {status.territory ? t('customs.whyTerritory', { territory: t(`territory.${status.territory}`) }) : t('customs.whyCountry', { country: job.draft.recipient.countryCode.trim().toUpperCase() })}
      </p>
      {sectionError ? <p className="field-error" role="alert">{sectionError}</p> : null}
      {c.commodities.map((l, i) => (
        <div className="commodity" key={i} role="group" aria-label={t('customs.line', { n: i + 1 })}>
          <div className="commodity-grid">
            {LINE_FIELDS.map(([f, key, o]) => {
              const path = commodityPath(i, f);
              return (
                <TextField
                  key={f}
                  id={`customs-${i}-${f}`}
                  label={t(key)}
                  value={l[f]}
                  onValue={(v) => job.setCommodity(i, f, v)}
                  onBlur={() => job.touch(path)}
                  error={err(path) ?? (f === 'unitValue' ? err(`customsDetail.commodities.${i}.unitValue.currency`) ?? err(`customsDetail.commodities.${i}.totalValue.amount`) : undefined)}
                  inputMode={o.num ? 'decimal' : undefined}
                  className={o.num ? 'field-num' : undefined}
                  wide={o.wide}
                  maxLength={f === 'originCountry' ? 2 : undefined}
                />
              );
            })}
            <HsCodeField id={`customs-${i}-hsCode`} label={t('customs.hsCode')} value={l.hsCode} onValue={(v) => job.setCommodity(i, 'hsCode', v)} onBlur={() => job.touch(commodityPath(i, 'hsCode'))} error={err(commodityPath(i, 'hsCode'))} />
            <SelectField id={`customs-${i}-quantityUnits`} label={t('customs.quantityUnits')} value={l.quantityUnits} onValue={(v) => job.setCommodity(i, 'quantityUnits', v)} error={err(commodityPath(i, 'quantityUnits'))}>
              {CUSTOMS_ENUMS.quantityUnits.map((u) => (
                <option key={u} value={u}>
                  {t(`enum.quantityUnits.${u}`)}
                </option>
              ))}
            </SelectField>
            <TextField id={`customs-${i}-midCode`} label={t('customs.midCode')} value={l.midCode} onValue={(v) => job.setCommodity(i, 'midCode', v)} error={err(commodityPath(i, 'midCode'))} />
          </div>
          <button type="button" className="btn btn-small" onClick={() => job.removeCommodity(i)} aria-label={t('customs.removeLine', { n: i + 1 })}>
            {t('action.remove')}
          </button>
        </div>
      ))}
      <button type="button" className="btn btn-small" onClick={() => job.addCommodity()}>
        {t('customs.addLine')}
      </button>
      <div className="grid-4">
        <TextField id="customs-value" label={t('customs.customsValue')} value={c.customsValue} onValue={(v) => job.setCustoms({ customsValue: v })} onBlur={() => job.touch(CUSTOMS_PATHS.customsValue)} error={err(CUSTOMS_PATHS.customsValue)} inputMode="decimal" className="field-num" />
        <TextField id="customs-currency" label={t('customs.currency')} value={c.currency} onValue={(v) => job.setCustoms({ currency: v })} onBlur={() => job.touch(CUSTOMS_PATHS.currency)} error={err(CUSTOMS_PATHS.currency)} maxLength={3} />
        {(['incoterm', 'dutiesPayment', 'contentType', 'exportReason'] as const).map((f) => (
          <SelectField key={f} id={`customs-${f}`} label={t(`customs.${f}`)} value={c[f]} onValue={(v) => job.setCustoms({ [f]: v })} error={err(CUSTOMS_PATHS[f])}>
            {CUSTOMS_ENUMS[f].map((v) => (
              <option key={v} value={v}>
                {t(`enum.${f}.${v}`)}
              </option>
            ))}
          </SelectField>
        ))}
        <TextField id="customs-invoiceNumber" label={t('customs.invoiceNumber')} value={c.invoiceNumber} onValue={(v) => job.setCustoms({ invoiceNumber: v })} error={err(CUSTOMS_PATHS.invoiceNumber)} />
        <DateField id="customs-invoiceDate" label={t('customs.invoiceDate')} value={c.invoiceDate} onValue={(v) => job.setCustoms({ invoiceDate: v })} onBlur={() => job.touch(CUSTOMS_PATHS.invoiceDate)} error={err(CUSTOMS_PATHS.invoiceDate)} />
      </div>
      <div className="grid-3">
        {(['eori', 'vatNumber', 'taxId'] as const).map((f) => partyField('exporter', f))}
        {(['eori', 'vatNumber', 'taxId'] as const).map((f) => partyField('importer', f))}
      </div>
    </fieldset>
  );
}
