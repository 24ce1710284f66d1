/**
 * Issue 22 item 2: the contract and the core's handlers are declared per
 * domain and merged by `mergeDisjoint`; a name two domains hold is an error at
 * load, never a silent overwrite.
 */
import { describe, expect, it } from 'vitest';
import { commands } from '../../../shared/contract/commands';
import { mergeDisjoint } from '../../../shared/contract/commands/merge';

const twice = (name: string) => `Command ${name} is declared twice`;

describe('maps declared per domain, merged into one', () => {
  it('keeps every entry of every domain', () => {
    const merged = mergeDisjoint(twice, { 'a.one': 1 }, { 'b.two': 2, 'b.three': 3 });
    expect(merged).toEqual({ 'a.one': 1, 'b.two': 2, 'b.three': 3 });
  });

  it('refuses a name two domains hold, with the caller\'s message naming it', () => {
    expect(() => mergeDisjoint(twice, { 'scan.resolve': 1 }, { 'orders.page': 2 }, { 'scan.resolve': 3 })).toThrow('Command scan.resolve is declared twice');
  });

  it("holds the station's 119 commands, each once", () => {
    expect(Object.keys(commands)).toHaveLength(119);
  });

  it('speaks one dialect for settings: <domain>.settings.get / .set, no setSettings or getX verbs (issue 34)', () => {
    const names = Object.keys(commands);
    expect(names.filter((n) => /\.(settings|setSettings|getSettings)$|\.get[A-Z]|\.setProfile$|^settings\./.test(n))).toEqual([]);
    const settings = names.filter((n) => n.includes('.settings.'));
    expect(settings.filter((n) => !/^[a-z]+\.settings\.(get|set|forget)$/.test(n))).toEqual([]);
    for (const get of settings.filter((n) => n.endsWith('.get'))) expect(names).toContain(get.replace(/get$/, 'set'));
  });
});
