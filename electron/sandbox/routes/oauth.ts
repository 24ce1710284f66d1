/**
 * POST {auth_url}/oauth/token — OAuth 2.0 client credentials (spec:
 * Authentication 1-5). Form fields `grant_type=client_credentials`,
 * `client_id`, `client_secret`, `scope=client-api` (scope optional, default
 * `client-api`); the client may also authenticate with HTTP Basic (RFC 6749
 * §2.3.1). The response fields are "not shown" by the spec; the sandbox uses
 * RFC 6749 §5.1: `{access_token, token_type: "Bearer", expires_in: 3600, scope}`.
 * Wrong id, secret or grant type: 401 `unauthenticated`; another scope: 403 `insufficient_scope`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError, unauthenticated } from '../errors';
import type { RouteTable } from '../http';
import type { SandboxState } from '../state';

/** Token lifetime, seconds of the simulated clock (spec: Limits, access token lifetime 1 hour). */
const TOKEN_TTL_SECONDS = 3600;

/** The only scope of the API. */
export const API_SCOPE = 'client-api';

/**
 * Scopes an App may be granted: the API's and the panel's read-only
 * `panel-read`. A token without `client-api` is refused by every API call
 * with 403 `insufficient_scope` (access.ts); any other scope is refused here.
 */
const GRANTABLE_SCOPES: ReadonlyArray<string> = [API_SCOPE, 'panel-read'];

function sameSecret(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time whatever the lengths.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

function field(body: Record<string, unknown>, name: string): string | undefined {
  const v = body[name];
  return typeof v === 'string' ? v : undefined;
}

/** Client id and secret from an `Authorization: Basic` header, if any. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const m = header ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim()) : null;
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  return { id: decodeURIComponent(decoded.slice(0, i)), secret: decodeURIComponent(decoded.slice(i + 1)) };
}

/** Registers the token endpoint on the app root (outside the API prefix). */
export function registerOAuth(app: FastifyInstance, table: RouteTable, state: SandboxState): void {
  table.add('POST', '/oauth/token');
  app.post('/oauth/token', async (req, reply) => {
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    const grant = field(body, 'grant_type');
    if (grant !== 'client_credentials') {
      throw unauthenticated(grant ? `Unsupported grant_type "${grant}": use client_credentials` : 'grant_type is required (client_credentials)');
    }
    const basic = basicCredentials(req.headers.authorization);
    const clientId = field(body, 'client_id') ?? basic?.id;
    const clientSecret = field(body, 'client_secret') ?? basic?.secret;
    const account = clientId ? state.accountByClientId(clientId) : undefined;
    // Same answer for unknown id and wrong secret: do not reveal which client ids exist.
    if (!account || clientSecret === undefined || !sameSecret(clientSecret, account.clientSecret)) {
      throw unauthenticated('Invalid client credentials');
    }
    const scope = field(body, 'scope')?.trim() || API_SCOPE;
    const scopes = [...new Set(scope.split(/\s+/))];
    if (scopes.some((s) => !GRANTABLE_SCOPES.includes(s))) {
      throw new ApiError(403, 'insufficient_scope', `Scope "${scope}" is not available: request ${API_SCOPE}`);
    }
    const granted = scopes.join(' ');
    const now = state.clock.nowMs();
    for (const [t, rec] of state.tokens) if (rec.expiresAt <= now) state.tokens.delete(t);
    const token = randomBytes(32).toString('base64url');
    state.tokens.set(token, { accountId: account.accountId, scope: granted, issuedAt: now, expiresAt: now + TOKEN_TTL_SECONDS * 1000 });
    return reply
      .header('Cache-Control', 'no-store')
      .header('Pragma', 'no-cache')
      .send({ access_token: token, token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, scope: granted });
  });
}
