/**
 * HTTP plumbing of the sandbox shared by the route modules: a small router
 * that records every route (to answer 405 `method_not_allowed` with `Allow`
 * for a known path and a wrong method), bearer authentication, query helpers,
 * list periods and the paginated envelope (spec: Paginated list envelope).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IsoDate, PageQuery, type PaginatedOf } from '../../shared/platform/common';
import { ApiError, fieldError, parseOrThrow, unauthenticated, validationFailed } from './errors';
import type { Account } from './model';
import type { SandboxState } from './state';
import { addDays, isCalendarDate, localDate } from './time';

/** HTTP methods the sandbox routes. */
export type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

/** Every registered path pattern with its methods, to tell 405 from 404. */
export class RouteTable {
  private readonly routes: Array<{ pattern: RegExp; methods: Set<Method> }> = [];

  /** Records `method` on a fastify-style path (`/shipments/:ldv`). */
  add(method: Method, path: string): void {
    const source = '^' + path.split('/').map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/') + '$';
    const existing = this.routes.find((r) => r.pattern.source === source);
    if (existing) existing.methods.add(method);
    else this.routes.push({ pattern: new RegExp(source), methods: new Set([method]) });
  }

  /** Methods allowed on a concrete path (no query); empty when the path is unknown. GET implies HEAD. */
  allowed(pathname: string): string[] {
    const out = new Set<string>();
    for (const r of this.routes) {
      if (r.pattern.test(pathname)) for (const m of r.methods) out.add(m);
    }
    if (out.has('GET')) out.add('HEAD');
    return [...out];
  }
}

/** What a handler gets: the state, the authenticated account and the request pieces. */
export interface ApiContext {
  state: SandboxState;
  account: Account;
  /** Simulated "now" at the start of the request. */
  now: Date;
  req: FastifyRequest;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/** A handler's answer: status (default 200) and JSON body. */
interface ApiResponse {
  status?: number;
  body: unknown;
}

/** A route handler of the authenticated API. */
export type ApiHandler = (ctx: ApiContext) => ApiResponse | Promise<ApiResponse>;

/**
 * Authenticates `Authorization: Bearer <token>` against the state's tokens
 * and the simulated clock (spec: Authentication 4-5).
 * @throws ApiError 401 `unauthenticated` when missing, malformed, expired or unknown.
 */
export function authenticate(state: SandboxState, req: FastifyRequest): Account {
  const header = req.headers.authorization;
  if (!header) throw withBearerChallenge(unauthenticated('Missing bearer token: send Authorization: Bearer <access_token>'));
  const m = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim());
  if (!m?.[1]) throw withBearerChallenge(unauthenticated('Malformed Authorization header: expected "Bearer <access_token>"'));
  const token = state.tokens.get(m[1]);
  if (!token) throw withBearerChallenge(unauthenticated('Unknown or revoked access token'));
  if (state.clock.nowMs() >= token.expiresAt) {
    state.tokens.delete(m[1]);
    throw withBearerChallenge(unauthenticated('Access token expired'));
  }
  const account = state.accountById(token.accountId);
  if (!account) throw withBearerChallenge(unauthenticated('Unknown or revoked access token'));
  return account;
}

function withBearerChallenge(e: ApiError): ApiError {
  return new ApiError(e.status, e.code, e.message, e.details, { 'WWW-Authenticate': 'Bearer realm="client-api"' });
}

/** Router of the authenticated API under a prefix (e.g. `/api/2026-09`). */
export class ApiRouter {
  constructor(
    private readonly app: FastifyInstance,
    private readonly table: RouteTable,
    private readonly state: SandboxState,
    readonly prefix: string,
  ) {}

  /** GET route. */
  get(path: string, handler: ApiHandler): void {
    this.route('GET', path, handler);
  }

  /** POST route. */
  post(path: string, handler: ApiHandler): void {
    this.route('POST', path, handler);
  }

  /** DELETE route. */
  delete(path: string, handler: ApiHandler): void {
    this.route('DELETE', path, handler);
  }

  private route(method: Method, path: string, handler: ApiHandler): void {
    const url = this.prefix + path;
    this.table.add(method, url);
    this.app.route({
      method,
      url,
      handler: async (req, reply) => {
        const account = authenticate(this.state, req);
        const res = await handler({
          state: this.state,
          account,
          now: this.state.clock.now(),
          req,
          params: (req.params ?? {}) as Record<string, string>,
          query: (req.query ?? {}) as Record<string, unknown>,
          body: req.body,
        });
        return reply.code(res.status ?? 200).send(res.body);
      },
    });
  }
}

/**
 * One string query parameter, or undefined when absent.
 * @throws ApiError 422 (key `name`) when given more than once.
 */
export function queryString(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw fieldError(name, `${name} must be given once`);
  return v;
}

/** Boolean query parameter: `true`/`false`/`1`/`0`; undefined when absent. @throws ApiError 422 otherwise. */
export function queryBool(query: Record<string, unknown>, name: string): boolean | undefined {
  const v = queryString(query, name);
  if (v === undefined || v === '') return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw fieldError(name, `${name} must be true or false`);
}

/** A list period: calendar dates (Europe/Rome), `to` undefined = open ended. */
export interface Period {
  from: string;
  to?: string;
}

/**
 * Reads `from`/`to` (YYYY-MM-DD). Default `from` is `defaultDays` days before
 * today (spec: "shipment and pickup list default period: last 30 days").
 * @throws ApiError 422 `from`/`to` for a bad date or `from` after `to`.
 */
export function readPeriod(query: Record<string, unknown>, now: Date, defaultDays = 30): Period {
  const details: Record<string, string[]> = {};
  const read = (name: 'from' | 'to'): string | undefined => {
    const v = queryString(query, name);
    if (v === undefined || v === '') return undefined;
    if (!IsoDate.safeParse(v).success || !isCalendarDate(v)) {
      details[name] = [`${name} must be a date YYYY-MM-DD`];
      return undefined;
    }
    return v;
  };
  const from = read('from');
  const to = read('to');
  if (Object.keys(details).length) throw validationFailed(details);
  if (from && to && from > to) throw fieldError('to', 'to must not be before from');
  return { from: from ?? addDays(localDate(now), -defaultDays), ...(to ? { to } : {}) };
}

/** true when instant `d` falls in the period (calendar dates in Europe/Rome, inclusive). */
export function inPeriod(d: Date, period: Period): boolean {
  const day = localDate(d);
  return day >= period.from && (period.to === undefined || day <= period.to);
}

/** Absolute URL of the current request with `page` replaced. */
function pageUrl(req: FastifyRequest, page: number): string {
  const url = new URL(req.url, `${req.protocol}://${req.host}`);
  url.searchParams.set('page', String(page));
  return url.toString();
}

/**
 * Slices `items` into the spec's paginated envelope using the request's
 * `per_page` (1..200, default 50) and `page` (>= 1, default 1). Links are
 * absolute URLs of the same request with `page` changed; `prev`/`next` null
 * at the ends; `from`/`to` are 1-based positions, null on an empty page.
 * @throws ApiError 422 `per_page`/`page` when out of bounds.
 */
export function paginate<T>(req: FastifyRequest, query: Record<string, unknown>, items: ReadonlyArray<T>): PaginatedOf<T> {
  const pq = parseOrThrow(PageQuery, {
    ...(query.per_page !== undefined ? { per_page: queryString(query, 'per_page') } : {}),
    ...(query.page !== undefined ? { page: queryString(query, 'page') } : {}),
  });
  const perPage = pq.per_page;
  const page = pq.page;
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const start = (page - 1) * perPage;
  const data = items.slice(start, start + perPage);
  return {
    data,
    links: {
      first: pageUrl(req, 1),
      last: pageUrl(req, lastPage),
      prev: page > 1 ? pageUrl(req, Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? pageUrl(req, page + 1) : null,
    },
    meta: {
      current_page: page,
      last_page: lastPage,
      per_page: perPage,
      total,
      from: data.length ? start + 1 : null,
      to: data.length ? start + data.length : null,
    },
  };
}

/**
 * Parses a positive integer path id (manifests, pickups).
 * @throws ApiError 404 `not_found` when it is not one (an id that cannot exist is a missing resource).
 */
export function pathId(raw: string | undefined, what: string): number {
  if (!raw || !/^\d{1,15}$/.test(raw)) throw new ApiError(404, 'not_found', `${what} not found`);
  return Number(raw);
}
