/** Station commands over the headless host, as the renderer sends them (e2e set-up and platform-side checks). */
import { TOKEN_HEADER, type CommandOutput } from '../../shared/contract';
import type { Invoke } from '../support/commands';
import type { StationProcess } from './station-process';

/**
 * An `invoke` bound to a running station: POST /rpc/<command> with the token of its URL.
 * @throws Error naming the command and the HTTP status when the host refuses the call
 */
export function rpcFor(station: () => StationProcess): Invoke {
  return async (command, ...args) => {
    const input = args[0] ?? {};
    const u = new URL(station().url);
    const token = new URLSearchParams(u.hash.slice(1)).get('token') ?? '';
    const res = await fetch(`${u.origin}/rpc/${command}`, { method: 'POST', headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token }, body: JSON.stringify(input) });
    if (!res.ok) throw new Error(`${command}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as CommandOutput<typeof command>;
  };
}
