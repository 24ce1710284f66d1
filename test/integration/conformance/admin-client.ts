/**
 * Calls to the sandbox's admin prefix `/__sandbox/` (no OAuth) for the
 * conformance suites of limits, access, legacy and admin: move the simulated
 * clock, set faults, reset, read the state summary.
 */
import type { Sandbox } from '../../../electron/sandbox/index';
import { caller, tokenFor, type Caller, type Res } from '../sandbox/helpers';

/** One admin call; the body is sent as JSON when given. */
export async function admin<T = unknown>(sb: Sandbox, method: string, path: string, body?: unknown): Promise<Res<T>> {
  const r = await fetch(`${sb.authUrl}/__sandbox${path}`, {
    method,
    headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  return { status: r.status, body: (text === '' ? undefined : JSON.parse(text)) as T, headers: r.headers };
}

/** Moves the simulated clock forward over HTTP; throws on a non-200 answer. */
export async function advance(sb: Sandbox, by: { ms?: number; seconds?: number; minutes?: number; hours?: number; days?: number }): Promise<void> {
  const r = await admin(sb, 'POST', '/clock/advance', by);
  if (r.status !== 200) throw new Error(`clock/advance: ${r.status} ${JSON.stringify(r.body)}`);
}

/** A caller for seeded client `i` that takes a new token when the last one was refused with 401 (the simulated clock moved). */
export function renewingCaller(sb: Sandbox, i = 0): Caller {
  let current: Caller | undefined;
  return async <T,>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    current ??= caller(sb, await tokenFor(sb, i));
    let r = await current<T>(method, path, body, headers);
    if (r.status === 401) {
      current = caller(sb, await tokenFor(sb, i));
      r = await current<T>(method, path, body, headers);
    }
    return r;
  };
}
