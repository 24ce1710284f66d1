/**
 * Modal confirmation on the native <dialog> (focus trapped, Esc cancels).
 * Focus starts on the safe choice; `Y` confirms, `N`/Esc cancels, so the
 * packer decides without the mouse and a stray Enter from the scanner does
 * not destroy anything.
 */
import { useId, useRef } from 'react';
import { useModalDialog } from './useModalDialog';

interface Props {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Confirmation dialog; `onConfirm` on Y or the confirm button, `onCancel` on N, Esc or the safe button. */
export function ConfirmDialog({ open, title, body, confirmLabel, cancelLabel, danger, onConfirm, onCancel }: Props) {
  const safe = useRef<HTMLButtonElement>(null);
  const ref = useModalDialog(open, safe);
  // Several confirm dialogs live on one screen (cancel shipment, unpaid order): ids must be unique.
  const id = useId();
  return (
    <dialog
      ref={ref}
      className="confirm"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      onKeyDown={(e) => {
        if (e.key === 'y' || e.key === 'Y') {
          e.preventDefault();
          onConfirm();
        } else if (e.key === 'n' || e.key === 'N') {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-body`}>{body}</p>
      <div className="actions">
        <button type="button" className={danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={onConfirm} aria-keyshortcuts="Y">
          {confirmLabel} <kbd>Y</kbd>
        </button>
        <button type="button" ref={safe} className="btn" onClick={onCancel} aria-keyshortcuts="N Escape">
          {cancelLabel} <kbd>N</kbd>
        </button>
      </div>
    </dialog>
  );
}
