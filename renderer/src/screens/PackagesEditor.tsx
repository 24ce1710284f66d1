/**
 * Parcel rows (weight kg, length/width/height cm) with add/remove, shared by
 * Quote and Ship. Errors are looked up by the spec's paths
 * (`packages.0.weight.value`, `packages.0.dimensions.length`).
 */
import type { RefObject } from 'react';
import type { FieldErrors } from '../../../shared/platform';
import { TextField } from '../components/Field';
import { firstError, packagePath, type PackageDraft } from '../lib/shipForm';
import { useJob } from '../stores/job';

const COLS: Array<[keyof PackageDraft, string]> = [
  ['weight', 'Weight (kg)'],
  ['length', 'Length (cm)'],
  ['width', 'Width (cm)'],
  ['height', 'Height (cm)'],
];

interface Props {
  errors: FieldErrors;
  show(path: string): boolean;
  firstRef?: RefObject<HTMLInputElement | null>;
  idPrefix?: string;
}

/** Parcel rows of the job store's draft; `show(path)` says whether that path's error is shown yet. */
export function PackagesEditor({ errors, show, firstRef, idPrefix = 'pkg' }: Props) {
  const { draft, setPackage, addPackage, removePackage, touch } = useJob();
  const listError = show('packages') ? firstError(errors, 'packages') : undefined;
  return (
    <fieldset className="packages">
      <legend>Parcels ({draft.packages.length})</legend>
      {listError ? <p className="field-error">{listError}</p> : null}
      {draft.packages.map((p, i) => (
        <div className="package-row" key={i} role="group" aria-label={`Parcel ${i + 1}`}>
          <span className="package-no" aria-hidden="true">
            {i + 1}
          </span>
          {COLS.map(([f, label]) => {
            const path = packagePath(i, f);
            return (
              <TextField
                key={f}
                id={`${idPrefix}-${i}-${f}`}
                label={draft.packages.length > 1 ? `${label} #${i + 1}` : label}
                value={p[f]}
                onValue={(v) => setPackage(i, f, v)}
                onBlur={() => touch(path)}
                error={show(path) ? firstError(errors, path) : undefined}
                inputMode="decimal"
                ref={i === 0 && f === 'weight' ? firstRef : undefined}
                className={`field-num${f === 'weight' ? ' field-weight' : ''}`}
              />
            );
          })}
          <button type="button" className="btn btn-small" onClick={() => removePackage(i)} disabled={draft.packages.length <= 1} aria-label={`Remove parcel ${i + 1}`}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="btn btn-small" onClick={addPackage}>
        + Add parcel
      </button>
    </fieldset>
  );
}
