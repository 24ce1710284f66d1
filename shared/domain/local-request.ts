/**
 * The one rule every loopback listener of the station applies to a request
 * before anything else (the headless host `electron/host/server.ts`, the
 * embedded sandbox `electron/sandbox/index.ts` and its admin prefix
 * `electron/sandbox/routes/admin.ts`, the supervisor's page
 * `electron/warehouse/server.ts`):
 *
 * - `Host` must name the listener itself on loopback: `127.0.0.1:<port>`,
 *   `localhost:<port>` or `[::1]:<port>` (case-insensitive). A web page whose
 *   name resolves to 127.0.0.1 (DNS rebinding) sends its own name and is
 *   refused; so is another port.
 * - `Origin`, when present, must be `http://` + one of those same authorities:
 *   a page of another origin (cross-site request, `null` from a sandboxed
 *   frame or a file) is refused.
 *
 * A listener that is not listening (fastify `inject` in tests) passes no
 * port; then the bare names and port 80 are accepted (what `inject` sends).
 * Pure: no `node:*`, so the sandbox (which may import only `shared`) and the
 * shells use the same code.
 */

/** Loopback names a listener answers to, as they appear in `Host` (IPv6 in brackets). */
const LOOPBACK_NAMES: ReadonlyArray<string> = ['127.0.0.1', 'localhost', '[::1]'];

/** Which header broke the rule: `host` (DNS rebinding, wrong port) or `origin` (cross-site). */
export type ForeignRequestHeader = 'host' | 'origin';

/**
 * The `Host` values (authority, lower case) a loopback listener on `port`
 * accepts: `127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>`; with no
 * port (not listening), the bare names and `:80`.
 */
function loopbackAuthorities(port: number | undefined, names: readonly string[]): ReadonlySet<string> {
  const all = [...LOOPBACK_NAMES, ...names.map((n) => n.toLowerCase())];
  if (port === undefined) return new Set([...all, ...all.map((n) => `${n}:80`)]);
  return new Set(all.map((n) => `${n}:${port}`));
}

/**
 * Judges one request's `Host` and `Origin` headers against the rule of the
 * module doc.
 *
 * @param headers the request's `host` and `origin` header values (undefined when absent)
 * @param port the TCP port the listener is bound to; undefined when it does not listen
 * @param names further names the listener answers to besides loopback's, as they appear in `Host`
 *   (an IPv6 address in brackets); default none
 * @returns undefined when the request may be answered; else the header that
 *   broke the rule (`host` is checked first: a missing `Host` is foreign).
 *   Callers answer 403 `forbidden` in their own error envelope.
 */
export function foreignRequestHeader(
  headers: { host?: string | undefined; origin?: string | undefined },
  port: number | undefined,
  names: readonly string[] = [],
): ForeignRequestHeader | undefined {
  const allowed = loopbackAuthorities(port, names);
  const host = (headers.host ?? '').toLowerCase();
  if (!allowed.has(host)) return 'host';
  if (headers.origin === undefined) return undefined;
  const origin = headers.origin.toLowerCase();
  if (!origin.startsWith('http://') || !allowed.has(origin.slice('http://'.length))) return 'origin';
  return undefined;
}
