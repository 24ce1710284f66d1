/**
 * The station's forms: every one is `noValidate` (the core checks and names the field) and runs
 * its action on submit (Enter in a field, its submit button) without the browser's page load.
 */
import type { KeyboardEvent, ReactNode } from 'react';

interface ActionFormProps {
  /** Runs on submit; a promise it returns is not awaited here (the action reports its own outcome). */
  onSubmit(): unknown;
  className?: string;
  /** Also submits on Ctrl+Enter from anywhere inside (a form of rows or a textarea, where Enter does not submit). */
  ctrlEnter?: boolean;
  'aria-labelledby'?: string;
  'data-testid'?: string;
  children: ReactNode;
}

/** A form that runs `onSubmit` instead of loading a page (see the file comment). */
export function ActionForm({ onSubmit, className, ctrlEnter, children, ...aria }: ActionFormProps) {
  const onKeyDown = ctrlEnter
    ? (e: KeyboardEvent<HTMLFormElement>) => {
        if (e.key === 'Enter' && e.ctrlKey) {
          e.preventDefault();
          void onSubmit();
        }
      }
    : undefined;
  return (
    <form
      className={className}
      noValidate
      {...aria}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
      onKeyDown={onKeyDown}
    >
      {children}
    </form>
  );
}

interface SettingsCardProps extends Omit<ActionFormProps, 'className' | 'aria-labelledby'> {
  /** Id of the card's heading (the form is labelled by it). */
  titleId: string;
  title: string;
  /** One line under the title saying what the settings do. */
  hint?: string;
}

/** A settings card of the Settings screen (F8): a titled form that saves on submit. */
export function SettingsCard({ titleId, title, hint, children, ...form }: SettingsCardProps) {
  return (
    <ActionForm className="card" aria-labelledby={titleId} {...form}>
      <h2 id={titleId}>{title}</h2>
      {hint !== undefined ? <p className="muted">{hint}</p> : null}
      {children}
    </ActionForm>
  );
}
