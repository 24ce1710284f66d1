/**
 * The one entry point both transports (Electron IPC in electron/main, the
 * headless host's `POST /rpc/<command>`) call: checks the command name,
 * parses the raw input with the contract schema, runs the handler and turns
 * any failure into a {@link StationError}.
 */
import { commands, isCommandName, type Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { issuesToDetails } from '../../../shared/platform/common';
import { toStationError } from './errors';

/**
 * Runs command `name` with `rawInput` (untrusted JSON from a transport;
 * `undefined`/`null` count as `{}`). Resolves to the handler's output.
 *
 * @throws StationError `unknown_command` for a name not in the contract;
 *   `invalid_input` when the input fails the command's zod schema, with
 *   `details` keyed by field path (`request.packages.0.weight.value`);
 *   otherwise the handler's error mapped by {@link toStationError}.
 */
export async function invokeCommand(handlers: Handlers, name: string, rawInput: unknown): Promise<unknown> {
  if (typeof name !== 'string' || !isCommandName(name)) {
    throw new StationError('unknown_command', `Unknown command "${String(name)}"`);
  }
  const parsed = commands[name].input.safeParse(rawInput ?? {});
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
    throw toStationError(e);
  }
}
