/**
 * Confirmation of dismissing a queue row, on the native <dialog> (focus
 * trapped, Esc keeps the row). Focus starts in the note field; Enter there
 * dismisses, so the packer types why and confirms without the mouse.
 */
import { useCallback, useRef, useState } from 'react';
import type { OutboxRowView } from '../../../shared/contract';
import { t } from '../lib/i18n';
import { errorText, rowTitle } from '../lib/queue';
import { useModalDialog } from './useModalDialog';

interface Props {
  /** The row to dismiss; null closes the dialog. */
  row: OutboxRowView | null;
  onConfirm(row: OutboxRowView, note: string): void;
  onCancel(): void;
}

/** Dismiss dialog (see file comment). */
export function DismissDialog({ row, onConfirm, onCancel }: Props) {
  const noteRef = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState('');
  // Each opening starts with an empty note.
  const clearNote = useCallback(() => setNote(''), []);
  const ref = useModalDialog(row !== null, noteRef, clearNote);
  return (
    <dialog
      ref={ref}
      className="confirm"
      aria-labelledby="dismiss-title"
      aria-describedby="dismiss-body"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (row) onConfirm(row, note);
        }}
      >
        <h2 id="dismiss-title">{t('dismiss.title', { title: row ? rowTitle(row) : '' })}</h2>
        <p id="dismiss-body">
          {row?.lastError ? t('dismiss.refusedBecause', { error: errorText(row) }) : t('dismiss.refused')} {t('dismiss.body')}
        </p>
        <div className="field">
          <label htmlFor="dismiss-note">{t('dismiss.note')}</label>
          <input id="dismiss-note" ref={noteRef} value={note} maxLength={200} onChange={(e) => setNote(e.target.value)} autoComplete="off" />
        </div>
        <div className="actions">
          <button type="submit" className="btn btn-danger" aria-keyshortcuts="Enter">
            {t('dismiss.confirm')} <kbd>Enter</kbd>
          </button>
          <button type="button" className="btn" onClick={onCancel} aria-keyshortcuts="Escape">
            {t('dismiss.keep')} <kbd>Esc</kbd>
          </button>
        </div>
      </form>
    </dialog>
  );
}
