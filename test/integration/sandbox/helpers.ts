/**
 * Helpers of the sandbox integration tests: start a sandbox on port 0, get
 * tokens over the real token endpoint, and call the API over HTTP.
 */
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../electron/sandbox/index';

/** A JSON answer of the sandbox. */
export interface Res<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Error envelope as answered. */
export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, string[]> };
}

/** Form POST to the token endpoint. */
export async function requestToken(sb: Sandbox, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Res> {
  const r = await fetch(`${sb.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: r.status, body: (await r.json()) as unknown, headers: r.headers };
}

/**
 * Access token of a seeded client: `client` is its number (0 = Bottega Verdi,
 * 1 = Ceramiche Rossi) or its client id; `scope` defaults to client-api.
 * Throws when the client is unknown or the token endpoint does not answer 200.
 */
export async function tokenFor(sb: Sandbox, client: number | string = 0, scope = 'client-api'): Promise<string> {
  const c = typeof client === 'number' ? sb.clients[client] : sb.clients.find((x) => x.clientId === client);
  if (!c) throw new Error(`No client ${client}`);
  const r = await requestToken(sb, { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope });
  if (r.status !== 200) throw new Error(`token: ${r.status} ${JSON.stringify(r.body)}`);
  return (r.body as { access_token: string }).access_token;
}

/** An API caller bound to a token: `call(method, path, body?)` under baseUrl. */
export type Caller = <T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Res<T>>;

/** Makes a caller for `token` (undefined = no Authorization header). A string body is sent raw. */
export function caller(sb: Sandbox, token: string | undefined): Caller {
  return async <T,>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const h: Record<string, string> = { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    if (body !== undefined) h['content-type'] = 'application/json';
    const r = await fetch(sb.baseUrl + path, {
      method,
      headers: { ...h, ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await r.text();
    let parsed: unknown = undefined;
    if (text !== '') parsed = JSON.parse(text) as unknown;
    return { status: r.status, body: parsed as T, headers: r.headers };
  };
}

/** Callers for both demo clients on fresh tokens (again after the simulated clock has expired the last ones). */
export async function callersFor(sb: Sandbox): Promise<{ a: Caller; b: Caller }> {
  const [ta, tb] = await Promise.all([tokenFor(sb, 0), tokenFor(sb, 1)]);
  return { a: caller(sb, ta), b: caller(sb, tb) };
}

/** Starts a sandbox and returns it with callers for both demo clients. */
export async function start(opts: SandboxOptions = {}): Promise<{ sb: Sandbox; a: Caller; b: Caller }> {
  const sb = await createSandbox({ port: 0, ...opts });
  return { sb, ...(await callersFor(sb)) };
}

/** A fixed-base clock: Monday 14 September 2026, 10:00 Europe/Rome (08:00Z). */
export const MONDAY_2026_09_14 = () => new Date('2026-09-14T08:00:00Z');

/** A package in kg/cm. */
export function pkg(weightKg: number, l = 30, w = 20, h = 10) {
  return { weight: { value: weightKg, units: 'KG' }, dimensions: { length: l, width: w, height: h, units: 'CM' } };
}

/** An Italian recipient Party (Milano unless overridden). */
export function recipient(address: Partial<{ street: string; city: string; province: string; postalCode: string; countryCode: string }> = {}, name = 'Giulia Bianchi') {
  return {
    name,
    phone: '+39 333 1234567',
    address: { street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT', ...address },
  };
}

/** A minimal valid customs declaration. */
export function customs() {
  return {
    customsValue: { amount: 120, currency: 'EUR' },
    commodities: [
      {
        description: 'Ceramic bowls',
        quantity: 4,
        unitValue: { amount: 30, currency: 'EUR' },
        weight: { value: 2, units: 'KG' },
        countryOfManufacture: 'IT',
        harmonizedCode: '691200',
      },
    ],
  };
}
