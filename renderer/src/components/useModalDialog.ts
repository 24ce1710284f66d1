/**
 * Opening and closing a native modal <dialog> from React state, shared by the
 * confirm and dismiss dialogs: `showModal()` traps focus and makes Esc fire
 * the dialog's `cancel` event (the dialogs turn it into their own cancel).
 */
import { useEffect, useRef, type RefObject } from 'react';

/**
 * Shows the dialog modally when `open` turns true, moving focus to
 * `initialFocus` (the safe choice or the first field), and closes it when
 * `open` turns false.
 * @param onOpen called at each opening, before the dialog shows (e.g. to clear a field); keep it stable (useCallback).
 * @returns the ref to put on the `<dialog>` element.
 */
export function useModalDialog(open: boolean, initialFocus: RefObject<HTMLElement | null>, onOpen?: () => void): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      onOpen?.();
      d.showModal();
      initialFocus.current?.focus();
    } else if (!open && d.open) d.close();
  }, [open, initialFocus, onOpen]);
  return ref;
}
