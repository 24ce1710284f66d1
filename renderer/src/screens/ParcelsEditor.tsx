/**
 * Parcel rows (weight kg, box, length/width/height cm) with add/remove,
 * shared by Quote and Ship. Errors are looked up by the spec's paths
 * (`packages.0.weight.value`, `packages.0.dimensions.length`).
 *
 * Box (issue 11): type the box's number or name, or scan its barcode, in the
 * Box field (Tab from the weight); with up to 9 boxes a single digit chooses
 * at once, otherwise Enter or leaving the field does. Alt+1..9 chooses from
 * anywhere on the screen (App.tsx). The chosen box's dimensions fill the row;
 * typing a dimension makes the row a box of its own.
 *
 * A weight known from product data (issue 24) fills the one parcel's blank
 * weight, marked "from product data"; it is selected when focused, so a
 * typed weight replaces it, and the scale's reading does too.
 */
import { useEffect, useState, type RefObject } from 'react';
import { findBox, type BoxPreset } from '../../../shared/contract/boxes';
import type { FieldErrors } from '../../../shared/platform';
import { TextField } from '../components/Field';
import { t } from '../lib/i18n';
import { firstError } from '../lib/shipForm';
import { parcelPath, type ParcelDraft, type ParcelField } from '../../../shared/contract/ship-form';
import { useBoxes } from '../stores/boxes';
import { useJob } from '../stores/job';

const DIMS: Array<[ParcelField, string]> = [
  ['length', 'parcels.length'],
  ['width', 'parcels.width'],
  ['height', 'parcels.height'],
];

interface Props {
  errors: FieldErrors;
  show(path: string): boolean;
  firstRef?: RefObject<HTMLInputElement | null>;
  idPrefix?: string;
}

/** "Medium 30×20×15" for hints and messages. */
export function boxLabel(p: Pick<BoxPreset, 'name' | 'lengthCm' | 'widthCm' | 'heightCm'>): string {
  return `${p.name} ${p.lengthCm}×${p.widthCm}×${p.heightCm}`;
}

/** The Box field of one parcel row (see file comment). */
function BoxField({ index, pkg, id, label }: { index: number; pkg: ParcelDraft; id: string; label: string }) {
  const presets = useBoxes((s) => s.settings.presets);
  const chooseBox = useJob((s) => s.chooseBox);
  const [typed, setTyped] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();

  /** Applies the typed code; false (and an error on the field) when it names no box. */
  const apply = (code: string): boolean => {
    if (code.trim() === '') {
      setTyped(null);
      setError(undefined);
      return true;
    }
    const preset = findBox(presets, code);
    if (!preset) {
      setError(presets.length ? t('boxes.unknown', { code: code.trim() }) : t('boxes.none'));
      return false;
    }
    chooseBox(index, preset);
    setTyped(null);
    setError(undefined);
    return true;
  };

  return (
    <TextField
      id={id}
      label={label}
      value={typed ?? pkg.box}
      placeholder={pkg.box === '' && pkg.length !== '' ? t('boxes.custom') : ''}
      onValue={(v) => {
        setTyped(v);
        setError(undefined);
        // One digit is a whole box number when there are at most 9 boxes.
        if (presets.length <= 9 && /^[1-9]$/.test(v.trim()) && presets[Number(v.trim()) - 1]) apply(v);
      }}
      onKeyDown={(e) => {
        // Enter after a typed or scanned box: choose it; the form's Enter (quote) still runs with the new size.
        if (e.key === 'Enter' && typed !== null && !apply(typed)) e.preventDefault();
        if (e.key === 'Escape' && typed !== null) {
          setTyped(null);
          setError(undefined);
        }
      }}
      onBlur={() => {
        if (typed !== null) apply(typed);
      }}
      onFocus={(e) => e.currentTarget.select()}
      error={error}
      className="field-box"
    />
  );
}

/** Parcel rows of the job store's draft; `show(path)` says whether that path's error is shown yet. */
export function ParcelsEditor({ errors, show, firstRef, idPrefix = 'pkg' }: Props) {
  const { draft, setParcel, addParcel, removeParcel, touch } = useJob();
  const presets = useBoxes((s) => s.settings.presets);
  const listError = show('packages') ? firstError(errors, 'packages') : undefined;
  const many = draft.parcels.length > 1;
  const numbered = (label: string, i: number) => (many ? `${label} #${i + 1}` : label);
  const fromProducts = draft.parcels[0]?.fromProducts === true;
  useEffect(() => {
    // The weight arrived while the packer is in the field: typing replaces it.
    const el = document.getElementById(`${idPrefix}-0-weight`);
    if (fromProducts && el instanceof HTMLInputElement && document.activeElement === el) el.select();
  }, [fromProducts, idPrefix]);
  return (
    <fieldset className="packages">
      <legend>{t('parcels.title', { count: draft.parcels.length })}</legend>
      {listError ? <p className="field-error">{listError}</p> : null}
      {draft.parcels.map((p, i) => {
        const weightPath = parcelPath(i, 'weight');
        return (
          <div className="package-row" key={i} role="group" aria-label={t('parcels.parcel', { n: i + 1 })} data-parcel={i}>
            <span className="package-no" aria-hidden="true">
              {i + 1}
            </span>
            <TextField
              id={`${idPrefix}-${i}-weight`}
              label={numbered(t('parcels.weight'), i)}
              value={p.weight}
              onValue={(v) => setParcel(i, 'weight', v)}
              onBlur={() => touch(weightPath)}
              error={show(weightPath) ? firstError(errors, weightPath) : undefined}
              hint={p.fromProducts ? t('products.weightFromData') : undefined}
              data-weight-source={p.fromProducts ? 'products' : undefined}
              onFocus={p.fromProducts ? (e) => e.currentTarget.select() : undefined}
              inputMode="decimal"
              ref={i === 0 ? firstRef : undefined}
              className="field-num field-weight"
            />
            <BoxField index={i} pkg={p} id={`${idPrefix}-${i}-box`} label={numbered(t('boxes.field'), i)} />
            {DIMS.map(([f, label]) => {
              const path = parcelPath(i, f);
              return (
                <TextField
                  key={f}
                  id={`${idPrefix}-${i}-${f}`}
                  label={numbered(t(label), i)}
                  value={p[f]}
                  onValue={(v) => setParcel(i, f, v)}
                  onBlur={() => touch(path)}
                  error={show(path) ? firstError(errors, path) : undefined}
                  inputMode="decimal"
                  className="field-num"
                />
              );
            })}
            <button type="button" className="btn btn-small" onClick={() => removeParcel(i)} disabled={draft.parcels.length <= 1} aria-label={t('parcels.remove', { n: i + 1 })}>
              {t('action.remove')}
            </button>
          </div>
        );
      })}
      {/* Keys and the presets' names: the bench's data (a preset keeps the name it was given). */}
      <p className="field-hint box-keys" translate="no">
        {presets.length
          ? presets
              .slice(0, 9)
              .map((b, n) => `Alt+${n + 1} ${boxLabel(b)}`)
              .join(' · ')
          : t('boxes.noneHint')}
      </p>
      <button type="button" className="btn btn-small" onClick={addParcel}>
        {t('parcels.add')}
      </button>
    </fieldset>
  );
}
