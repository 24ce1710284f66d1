/**
 * The warehouse program's own calls to the platform (issue 44 items 1 and 4): registering its webhook endpoint,
 * reading its deliveries, the test send, and the catch-up's reads (stocks, shipments, tracking). OAuth 2.0
 * client credentials (spec: Authentication), the token kept for its hour and renewed on a 401; JSON in and out;
 * errors as {@link PlatformCallError} with the spec's status and code (spec: Errors > Envelope). The client
 * secret comes from `STATION_CLIENT_SECRET` (never the command line), and no secret reaches a message.
 */
import type { z } from 'zod';

/** Where and who (the bench's own options: `--platform-url`, `--auth-url`, `--client-id`, `STATION_CLIENT_SECRET`). */
export interface WarehousePlatformConfig {
  /** `{base_url}`, e.g. `https://acme.example.com/api/2026-09`. */
  baseUrl: string;
  /** `{auth_url}`; the token is at `{auth_url}/oauth/token`. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

/** A call the platform answered with an error, or did not answer. */
export class PlatformCallError extends Error {
  constructor(
    /** HTTP status; 0 when there was no answer. */
    readonly status: number,
    /** The envelope's `error.code` (`not_found`, `rate_limited`, …), `network` without an answer. */
    readonly code: string,
    message: string,
    /** Seconds the platform asked to wait (429 `Retry-After`), when it said. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'PlatformCallError';
  }
}

/** The warehouse's caller. */
export interface WarehousePlatform {
  /**
   * One call: `method` on `{base_url}<path>` with `body` as JSON; the answer parsed with `schema` (undefined for
   * 204). 10 s timeout.
   * @throws PlatformCallError for an error answer or none; a zod error when the answer is not of the schema
   */
  call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, schema: z.ZodType<T> | null, body?: unknown): Promise<T | undefined>;
}

const TIMEOUT_MS = 10_000;

/** The envelope's code and message of an error answer (spec: Errors > Envelope), or the status alone. */
async function errorOf(res: Response, what: string): Promise<PlatformCallError> {
  let code = 'http_error';
  let message = `${what}: HTTP ${res.status}`;
  try {
    const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string') code = body.error.code;
    if (typeof body.error?.message === 'string') message = `${what}: ${body.error.message}`;
  } catch {
    // Not the envelope: the status says it.
  }
  const retry = Number(res.headers.get('retry-after'));
  return new PlatformCallError(res.status, code, message, Number.isFinite(retry) && retry > 0 ? retry : undefined);
}

/** Builds the caller (nothing is asked before the first call). */
export function createWarehousePlatform(config: WarehousePlatformConfig, fetchFn: typeof fetch = fetch): WarehousePlatform {
  let token: { value: string; until: number } | null = null;
  const base = config.baseUrl.replace(/\/+$/, '');
  const send = async (url: string, init: RequestInit, what: string): Promise<Response> => {
    try {
      return await fetchFn(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (e) {
      throw new PlatformCallError(0, 'network', `${what}: the platform did not answer (${(e as Error).message})`);
    }
  };
  const tokenNow = async (): Promise<string> => {
    if (token && token.until > Date.now()) return token.value;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: config.clientId, client_secret: config.clientSecret, scope: 'client-api' });
    const res = await send(`${config.authUrl.replace(/\/+$/, '')}/oauth/token`, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, body: form }, 'sign-in');
    if (!res.ok) throw await errorOf(res, 'sign-in to the platform');
    const body = (await res.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string') throw new PlatformCallError(res.status, 'http_error', 'sign-in to the platform: no access_token in the answer');
    // The spec: an hour; renewed a minute early, and on a 401.
    const life = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 3_600_000;
    token = { value: body.access_token, until: Date.now() + life - 60_000 };
    return token.value;
  };
  return {
    async call(method, path, schema, body) {
      const what = `${method} ${path.split('?')[0]}`;
      for (let attempt = 0; ; attempt++) {
        const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${await tokenNow()}` };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const res = await send(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }, what);
        if (res.status === 401 && attempt === 0) {
          token = null;
          continue;
        }
        if (!res.ok) throw await errorOf(res, what);
        if (res.status === 204 || schema === null) return undefined;
        return schema.parse(await res.json());
      }
    },
  };
}
