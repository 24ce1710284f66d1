/**
 * Access to the deprecated interfaces (spec: Versioning 4-5): their paths,
 * the deprecation headers every answer carries (RFC 9745 `Deprecation`,
 * RFC 8594 `Sunset`, `Link` to the successor and the deprecation page), and
 * authentication by the static legacy API key (bearer on v2/v2.1 and
 * tracking, HTTP Basic on v1).
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import type { Account } from '../model';
import type { SandboxState } from '../state';

/** Deprecated version prefixes answered by the sandbox. */
export const LEGACY_PREFIXES: ReadonlyArray<string> = ['/api/v2', '/api/v2.1', '/api/v1'];
/** Legacy public tracking path. */
export const LEGACY_TRACKING_PATH = '/api/tracking/:ldv';
/** JSON page about the deprecation, target of `rel="deprecation"`. */
export const DEPRECATION_DOC_PATH = '/api/deprecation';
/** `Deprecation` header value: 3 September 2026 00:00 UTC (RFC 9745 `@<unix seconds>`). */
const DEPRECATION_HEADER = '@1788393600';
/** `Sunset` header value (RFC 8594). */
const SUNSET_HEADER = 'Sun, 28 Feb 2027 23:59:59 GMT';
/** Legacy lookup window of tracking: shipments older than this answer 404 (spec: Legacy interface errors). */
export const LEGACY_TRACKING_WINDOW_DAYS = 90;
/** Length of a shipment number on legacy tracking (400 otherwise). */
export const LEGACY_LDV_LENGTH = 12;

/** true for a path of a deprecated interface (driver-app endpoints excluded). */
export function isDeprecatedPath(pathname: string): boolean {
  if (/^\/api\/v2\/driver(\/|$)/.test(pathname)) return false;
  return /^\/api\/(v1|v2|v2\.1)(\/|$)/.test(pathname) || /^\/api\/tracking(\/|$)/.test(pathname);
}

/** The three deprecation headers for a sandbox at `authUrl` whose current base is `baseUrl`. */
export function deprecationHeaders(authUrl: string, baseUrl: string): Record<string, string> {
  return {
    Deprecation: DEPRECATION_HEADER,
    Sunset: SUNSET_HEADER,
    Link: `<${baseUrl}>; rel="successor-version", <${authUrl}${DEPRECATION_DOC_PATH}>; rel="deprecation"`,
  };
}

// ---- legacy authentication ----

function accountByLegacyKey(state: SandboxState, key: string): Account | undefined {
  return key === '' ? undefined : state.accounts.find((a) => a.legacyApiKey !== undefined && a.legacyApiKey === key);
}

/**
 * Static API key: bearer on v2/v2.1 and tracking, Basic `<clientId>:<key>` on v1.
 * @throws ApiError 401 (legacy envelope) when missing or unknown.
 */
export function legacyAuthenticate(state: SandboxState, req: FastifyRequest, basic: boolean): Account {
  const header = (req.headers.authorization ?? '').trim();
  if (basic) {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
    const decoded = m?.[1] ? Buffer.from(m[1], 'base64').toString('utf8') : '';
    const i = decoded.indexOf(':');
    const account = i > 0 ? accountByLegacyKey(state, decoded.slice(i + 1)) : undefined;
    if (!account || account.clientId !== decoded.slice(0, i)) {
      throw new ApiError(401, 'unauthenticated', 'Unauthenticated.', undefined, { 'WWW-Authenticate': 'Basic realm="api-v1"' });
    }
    return account;
  }
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  const account = m?.[1] ? accountByLegacyKey(state, m[1]) : undefined;
  if (!account) throw new ApiError(401, 'unauthenticated', 'Unauthenticated.', undefined, { 'WWW-Authenticate': 'Bearer realm="api-v2"' });
  return account;
}
