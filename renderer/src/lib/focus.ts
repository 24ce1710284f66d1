/**
 * Focus after a failed submit (issue 14 item 2, focus map in renderer/README.md):
 * the first field the error names, once React has drawn the error states.
 */

/**
 * On the next frame, focuses (and selects the text of) the first field marked
 * `aria-invalid="true"` inside `root`. Nothing happens when no field is marked
 * (e.g. the request waits in the queue): the focus stays where it was.
 */
export function focusFirstInvalid(root: HTMLElement | null): void {
  requestAnimationFrame(() => {
    const field = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!field) return;
    field.focus();
    if (field instanceof HTMLInputElement) field.select();
  });
}
