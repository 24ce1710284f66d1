/** The embedded training sandbox's admin prefix, as e2e specs drive it (its clock, its faults). */
import type { Invoke } from '../support/commands';
import type { Station } from './fixture';

/**
 * Calls the embedded sandbox's admin prefix (`/__sandbox<route>`: loopback only, the station's token; clock and faults).
 * @throws Error naming the method, route and HTTP status when the sandbox refuses the call
 */
export async function sandboxAdmin(bench: { station: Station; rpc: Invoke }, method: 'POST' | 'DELETE', route: string, body?: unknown): Promise<void> {
  const info = await bench.rpc('app.info');
  const origin = new URL(info.platform.baseUrl).origin;
  const token = new URLSearchParams(new URL(bench.station.url).hash.slice(1)).get('token') ?? '';
  const headers: Record<string, string> = { 'x-station-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const res = await fetch(`${origin}/__sandbox${route}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!res.ok) throw new Error(`sandbox ${method} ${route}: HTTP ${res.status} ${await res.text()}`);
}
