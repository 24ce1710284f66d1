/** Which keys the Scan screen moves to its scan field (issue 37 item 5): never Space on a focused button. */
import { describe, expect, it } from 'vitest';
import { focusKind, scannerTakesKey, type FocusKind } from '../../../renderer/src/lib/scannerKeys';

const k = (key: string, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) => ({ key, altKey: false, ctrlKey: false, metaKey: false, ...mods });

describe('scannerTakesKey', () => {
  it('leaves Space on a focused control to the control (the file button opens the chooser at the first press)', () => {
    expect(scannerTakesKey(k(' '), 'control')).toBe(false);
    // Enter is never one character: the button takes it too.
    expect(scannerTakesKey(k('Enter'), 'control')).toBe(false);
  });

  it('takes a scanner’s printable characters outside any field, a control included', () => {
    for (const focus of ['none', 'control', 'other'] as FocusKind[]) {
      expect(scannerTakesKey(k('#'), focus)).toBe(true);
      expect(scannerTakesKey(k('7'), focus)).toBe(true);
    }
    // Space with nothing (or a heading) focused: a scanned code's character.
    expect(scannerTakesKey(k(' '), 'none')).toBe(true);
    expect(scannerTakesKey(k(' '), 'other')).toBe(true);
  });

  it('never takes a key from a field, nor a shortcut or a named key', () => {
    expect(scannerTakesKey(k('a'), 'field')).toBe(false);
    expect(scannerTakesKey(k(' '), 'field')).toBe(false);
    expect(scannerTakesKey(k('y', { altKey: true }), 'none')).toBe(false);
    expect(scannerTakesKey(k('c', { ctrlKey: true }), 'none')).toBe(false);
    expect(scannerTakesKey(k('v', { metaKey: true }), 'none')).toBe(false);
    expect(scannerTakesKey(k('Tab'), 'none')).toBe(false);
    expect(scannerTakesKey(k('F1'), 'none')).toBe(false);
  });
});

describe('focusKind', () => {
  /** An element of a page whose `matches` answers true for the selector parts listed (what the DOM would answer). */
  const doc = { body: null as unknown as Element };
  const el = (...parts: string[]) => ({ ownerDocument: doc, matches: (selector: string) => selector.split(', ').some((p) => parts.includes(p)) }) as unknown as Element;
  doc.body = el();

  it('tells the page, a field, a control and anything else apart', () => {
    expect(focusKind(null)).toBe('none');
    expect(focusKind(doc.body)).toBe('none');
    expect(focusKind(el('input', 'button'))).toBe('field');
    expect(focusKind(el('dialog *'))).toBe('field');
    expect(focusKind(el('button'))).toBe('control');
    expect(focusKind(el('[role="button"]'))).toBe('control');
    expect(focusKind(el())).toBe('other');
  });
});
