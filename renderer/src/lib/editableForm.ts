/**
 * Form state that a load from the station never overwrites (issue 21 item 7,
 * "nothing the packer types is lost"): a settings card shows its fields at
 * once and asks the station for the saved values; on a busy bench the answer
 * can arrive after the packer has started typing. Fields the packer typed in
 * keep the packer's value; the others take the loaded one. A save's answer
 * replaces everything (what the station kept is now the truth) and clears
 * the typed marks.
 */
import { useCallback, useRef, useState } from 'react';

/** What {@link useEditableForm} gives a form component. */
export interface EditableForm<T extends object> {
  /** The values shown. */
  form: T;
  /** The packer's edit: these fields are now the packer's and a later load leaves them. */
  edit(patch: Partial<T>): void;
  /** Values loaded from the station: applied to every field the packer has not typed in. */
  load(values: T): void;
  /** Values the station saved (a save's answer): applied to every field; no field counts as typed any more. */
  saved(values: T): void;
}

/**
 * Merges `loaded` into `current`, keeping the fields named in `typed`.
 * Pure (exported for its unit test).
 */
export function mergeLoaded<T extends object>(current: T, loaded: T, typed: ReadonlySet<PropertyKey>): T {
  const out = { ...loaded };
  for (const key of Object.keys(current) as Array<keyof T>) {
    if (typed.has(key)) out[key] = current[key];
  }
  return out;
}

/** A form seeded with `initial`, filled by {@link EditableForm.load} without losing what the packer typed. */
export function useEditableForm<T extends object>(initial: T): EditableForm<T> {
  const [form, setForm] = useState(initial);
  const typed = useRef(new Set<PropertyKey>());
  const edit = useCallback((patch: Partial<T>) => {
    for (const key of Object.keys(patch)) typed.current.add(key);
    setForm((f) => ({ ...f, ...patch }));
  }, []);
  const load = useCallback((values: T) => setForm((f) => mergeLoaded(f, values, typed.current)), []);
  const saved = useCallback((values: T) => {
    typed.current.clear();
    setForm(values);
  }, []);
  return { form, edit, load, saved };
}
