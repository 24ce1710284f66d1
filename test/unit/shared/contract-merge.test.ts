/**
 * Issue 22 item 2: the contract is declared per domain and merged; a name two
 * domains declare is an error at load, never a silent overwrite.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commands, mergeCommands } from '../../../shared/contract/commands';
import { mergeHandlers } from '../../../electron/core/commands';

const def = { input: z.object({}), output: undefined };

describe('the contract, merged from its domains', () => {
  it('keeps every command of every domain', () => {
    const merged = mergeCommands({ 'a.one': def }, { 'b.two': def, 'b.three': def });
    expect(Object.keys(merged)).toEqual(['a.one', 'b.two', 'b.three']);
  });

  it('refuses a command two domains declare, naming it', () => {
    expect(() => mergeCommands({ 'scan.resolve': def }, { 'orders.page': def }, { 'scan.resolve': def })).toThrow('Command scan.resolve is declared twice in the contract');
  });

  it("holds the station's 73 commands, each once", () => {
    expect(Object.keys(commands)).toHaveLength(73);
  });
});

describe('the handlers, merged from their domains', () => {
  it('refuses a command two domains implement, naming it', () => {
    const h = async () => undefined;
    expect(Object.keys(mergeHandlers({ 'a.one': h }, { 'b.two': h }))).toEqual(['a.one', 'b.two']);
    expect(() => mergeHandlers({ 'a.one': h }, { 'a.one': h })).toThrow('Command a.one has two handlers');
  });
});
