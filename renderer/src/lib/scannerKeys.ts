/**
 * Which keys pressed outside the scan field belong to the scanner (issue 37
 * item 5). A scanner "types" into whatever has the focus, so the Scan screen
 * moves a printable key to its scan field; but Space on a focused button
 * (the import's file button, a checkbox, a link) is the packer pressing it,
 * and moving the focus on its keydown would lose the press (Chromium clicks
 * a button on Space's keyup, on the element that has the focus then).
 */

/**
 * What has the focus: `none` (the page itself), `field` (an element that
 * takes keys: any <input>, a <textarea>, a <select>, anything inside a
 * dialog), `control` (an element that Space activates: a button, a link, a
 * <summary>, a role that acts like one) or `other` (a heading, a list, a table...).
 */
export type FocusKind = 'none' | 'field' | 'control' | 'other';

/** The parts of a keydown this decision reads (a DOM `KeyboardEvent` has them). */
export interface KeyPress {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

const FIELD = 'input, textarea, select, [contenteditable="true"], dialog *';
const CONTROL = 'button, a[href], summary, [role="button"], [role="link"], [role="checkbox"], [role="radio"], [role="switch"], [role="menuitem"], [role="tab"], [role="option"]';

/** The kind of the focused element `el` (`document.activeElement`; null or `<body>`: `none`). */
export function focusKind(el: Element | null): FocusKind {
  if (el === null || el === el.ownerDocument.body) return 'none';
  if (el.matches(FIELD)) return 'field';
  if (el.matches(CONTROL)) return 'control';
  return 'other';
}

/**
 * True when the key `e`, pressed while `focus` has the focus, is the
 * scanner's and goes to the scan field: one printable character without
 * Ctrl, Alt or Meta, outside any field; never Space on a control (the
 * packer presses it). Enter is never taken (not one character).
 */
export function scannerTakesKey(e: KeyPress, focus: FocusKind): boolean {
  if (e.ctrlKey || e.altKey || e.metaKey || e.key.length !== 1) return false;
  if (focus === 'field') return false;
  return !(focus === 'control' && e.key === ' ');
}
