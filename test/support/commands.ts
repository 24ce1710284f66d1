/**
 * Typed command calls for tests: the name must be a command of the contract
 * (shared/contract/commands/), the input its input type and the result its
 * output type, so a renamed command or field fails to compile in the tests as
 * it does in the renderer. Tests of malformed input (what a transport must
 * refuse) call `invokeCommand` itself, on purpose untyped.
 */
import type { CommandInput, CommandName, CommandOutput, Handlers } from '../../shared/contract';
import { invokeCommand } from '../../electron/core/station';

/** Arguments after the name: the input, optional when the command's input may be empty (`{}`). */
export type CommandArgs<K extends CommandName> = Record<string, never> extends CommandInput<K> ? [input?: CommandInput<K>] : [input: CommandInput<K>];

/** A typed command caller: `invoke('shipping.quote', {...})` resolves to that command's output. */
export type Invoke = <K extends CommandName>(name: K, ...args: CommandArgs<K>) => Promise<CommandOutput<K>>;

/**
 * Calls the station's commands as a transport does (through invokeCommand,
 * input validated by the contract's schema). `get` is read at each call, so a
 * test may (re)create its station after making the invoker.
 */
export function invokerOf(get: () => { handlers: Handlers }): Invoke {
  return (name, ...args) => invokeCommand(get().handlers, name, args[0] ?? {}) as Promise<CommandOutput<typeof name>>;
}
