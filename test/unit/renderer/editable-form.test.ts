/**
 * Issue 21 item 7: a settings form filled by a late load keeps what the packer
 * typed (`mergeLoaded`, the rule behind `useEditableForm`).
 */
import { describe, expect, it } from 'vitest';
import { mergeLoaded } from '../../../renderer/src/lib/editableForm';

describe('a late load never overwrites what the packer typed', () => {
  it('keeps typed fields and fills the others', () => {
    const shown = { kind: 'serial', port: '/dev/ttyUSB0', baud: '9600' };
    const loaded = { kind: 'hid', port: '', baud: '19200' };
    expect(mergeLoaded(shown, loaded, new Set(['kind', 'port']))).toEqual({ kind: 'serial', port: '/dev/ttyUSB0', baud: '19200' });
  });

  it('takes everything loaded when nothing was typed, new keys included', () => {
    const shown: Record<string, string> = { Bottega: 'Ritiro' };
    const loaded: Record<string, string> = { Bottega: 'Ritiro in negozio', Rossi: 'Click & collect' };
    expect(mergeLoaded(shown, loaded, new Set())).toEqual(loaded);
  });

  it('keeps a typed key the load does not know', () => {
    const shown: Record<string, string> = { 'New shop': 'Pickup' };
    expect(mergeLoaded(shown, { Bottega: 'Ritiro' }, new Set(['New shop']))).toEqual({ Bottega: 'Ritiro', 'New shop': 'Pickup' });
  });
});
