/**
 * The one entry point both transports (Electron IPC in electron/main, the
 * headless host's `POST /rpc/<command>`) call: checks the command name,
 * bounds and parses the raw input with the contract, runs the handler and
 * turns any failure into a {@link StationError}.
 */
import { randomBytes } from 'node:crypto';
import { commands, inputShapeProblem, isCommandName, type Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { issuesToDetails } from '../../../shared/platform/common';
import { toStationError } from './errors';

/** Options of {@link invokeCommand}. */
export interface InvokeOptions {
  /**
   * Where an unexpected failure (one that maps to `internal_error` or `store_error`) is
   * written, with the command name, a short reference and the stack.
   * Default: `console.error` (the host's and Electron main's stderr).
   */
  log?: (line: string) => void;
}

/**
 * Runs command `name` with `rawInput` (untrusted JSON from a transport;
 * `undefined`/`null` count as `{}`). Resolves to the handler's output.
 *
 * @throws StationError `unknown_command` for a name not in the contract;
 *   `invalid_input` when the input breaks the contract's bounds
 *   (shared/contract/commands/define.ts `INPUT_LIMITS`: depth, sizes, lengths,
 *   well-formed text) or its zod schema, with `details` keyed by field path
 *   (`request.packages.0.weight.value`); otherwise the handler's error
 *   mapped by {@link toStationError}. An unexpected error is logged with the
 *   command name and a reference, and answered as `internal_error` with one
 *   sentence naming the command and that reference (never the raw message or
 *   stack, which may hold SQL, paths or platform bodies).
 */
export async function invokeCommand(handlers: Handlers, name: string, rawInput: unknown, opts: InvokeOptions = {}): Promise<unknown> {
  if (typeof name !== 'string' || !isCommandName(name)) {
    throw new StationError('unknown_command', `Unknown command "${String(name).slice(0, 100)}"`);
  }
  const def = commands[name];
  const input = rawInput ?? {};
  const shape = inputShapeProblem(input, 'longText' in def ? def.longText : []);
  if (shape) {
    throw new StationError('invalid_input', `Invalid input for ${name}: ${shape.path ? `${shape.path}: ` : ''}${shape.message}`, { [shape.path || '_input']: [shape.message] });
  }
  const parsed = def.input.safeParse(input);
  if (!parsed.success) {
    const details = issuesToDetails(parsed.error.issues);
    const first = Object.entries(details)[0];
    const summary = first ? `${first[0]}: ${first[1][0] ?? 'invalid'}` : 'invalid input';
    throw new StationError('invalid_input', `Invalid input for ${name}: ${summary}`, details);
  }
  // The map is typed per command; here the name is only known at run time.
  const handler = handlers[name] as (input: unknown) => Promise<unknown>;
  try {
    return await handler(parsed.data);
  } catch (e) {
    const mapped = toStationError(e);
    if (mapped.code !== 'internal_error' && mapped.code !== 'store_error') throw mapped;
    const ref = randomBytes(3).toString('hex');
    const detail = e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
    (opts.log ?? ((line: string) => console.error(line)))(`station: command ${name} failed (${mapped.code}, ref ${ref}): ${detail}`);
    // The store's own messages are sentences written for the packer; anything else is not.
    if (mapped.code === 'store_error') throw mapped;
    throw new StationError('internal_error', `The station could not complete ${name} because of an unexpected error; it was logged with reference ${ref}.`);
  }
}
