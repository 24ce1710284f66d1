/**
 * Labelled form controls with their error line (in the bench's language:
 * lib/messages.ts). Every control has a visible
 * <label>; the error is tied with aria-describedby and aria-invalid so a
 * screen reader reads it with the field.
 */
import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { fieldName } from '../lib/i18n';
import { fieldMessage } from '../lib/messages';
import { tidyDecimalText } from '../lib/format';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  id: string;
  label: string;
  value: string;
  onValue(value: string): void;
  error?: string | undefined;
  hint?: string;
  wide?: boolean;
  /** React 19: refs are plain props on function components. */
  ref?: Ref<HTMLInputElement> | undefined;
}

/**
 * Text input with label, optional hint and error. A numeric field
 * (`inputMode="decimal"`) takes `1,5` and `1.5` alike and, when the packer
 * leaves it, shows the number the bench's way (lib/format.ts `tidyDecimalText`).
 */
export function TextField({ id, label, value, onValue, error, hint, wide, className, ref, onBlur, ...rest }: FieldProps) {
  const describedBy = [error ? `${id}-err` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${wide ? ' field-wide' : ''}${error ? ' field-bad' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={ref}
        value={value}
        onChange={(e) => onValue(e.target.value)}
        onBlur={(e) => {
          if (rest.inputMode === 'decimal') {
            const tidy = tidyDecimalText(e.target.value);
            if (tidy !== e.target.value) onValue(tidy);
          }
          onBlur?.(e);
        }}
        aria-invalid={error ? true : undefined} aria-describedby={describedBy} autoComplete="off" spellCheck={false} {...rest} />
      {hint && !error ? <p id={`${id}-hint`} className="field-hint">{hint}</p> : null}
      {error ? <p id={`${id}-err`} className="field-error">{fieldMessage(error)}</p> : null}
    </div>
  );
}

interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> {
  id: string;
  label: string;
  value: string;
  onValue(value: string): void;
  error?: string | undefined;
  children: ReactNode;
  ref?: Ref<HTMLSelectElement> | undefined;
}

/** Select with label and error. */
export function SelectField({ id, label, value, onValue, error, children, ref, ...rest }: SelectProps) {
  return (
    <div className={`field${error ? ' field-bad' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select id={id} ref={ref} value={value} onChange={(e) => onValue(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-err` : undefined} {...rest}>
        {children}
      </select>
      {error ? <p id={`${id}-err`} className="field-error">{fieldMessage(error)}</p> : null}
    </div>
  );
}

/** Checkbox with its label on the right. */
export function CheckField({ id, label, checked, onChecked }: { id: string; label: string; checked: boolean; onChecked(v: boolean): void }) {
  return (
    <div className="check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChecked(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** Errors no field shows (e.g. a platform path the form has no input for). */
export function ErrorList({ title, errors }: { title: string; errors: Array<[string, string[]]> }) {
  if (errors.length === 0) return null;
  return (
    <div className="error-list" role="alert">
      <strong>{title}</strong>
      <ul>
        {errors.map(([k, msgs]) => (
          <li key={k} title={k}>
            <strong>{fieldName(k)}</strong>: {msgs.map(fieldMessage).join('; ')}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * `onMouseDown` for submit buttons of forms that validate on blur: keeps focus
 * in the field, so the error appearing on blur cannot move the button away
 * between mouse down and up (which would swallow the click).
 */
export function keepFocusOnMouseDown(e: { preventDefault(): void }): void {
  e.preventDefault();
}
