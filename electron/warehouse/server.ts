/**
 * The supervisor's page (issue 35 item 5), served by `npm run warehouse`: a static page
 * (electron/warehouse/page/: index.html, page.css, page.ts bundled once at start by esbuild) with
 * ECharts' prebuilt browser file from node_modules, and a JSON API read from the warehouse database with
 * the supervisor's connection:
 *
 * - `POST /api/sign-in` `{pin}` or `{badge}`: a supervisor of the warehouse signs in; 200 `{supervisor:
 *   {name}}` and an HttpOnly SameSite=Strict session cookie; 401 `refused`; 429 `locked` (5 wrong tries: a minute).
 * - `POST /api/sign-out`, `GET /api/session` (who is signed in).
 * - `GET /api/floor`: the floor now ({@link Floor}): benches, shipments per hour per bench and packer, attention.
 * - `POST /api/claims/release` `{orderKey}`: releases a claim; 200 `{released: {orderKey, bench, packer, since}}`, 404 when none.
 * - `GET /api/report.csv?day=YYYY-MM-DD&lang=it|en`, `GET /api/report.pdf?…`: the warehouse's day report.
 * - `GET /api/platform`: the platform's events as the page shows them (issue 44): the endpoint (never its secret)
 *   with the platform's word on it and its recent deliveries, the last catch-up, the held parcels open, the
 *   delivery exceptions open, counts per carrier and day (Europe/Rome) of the last 7 days (./platform-view.ts).
 *   The endpoint's state is asked of the platform at most every 15 s.
 * - `GET /api/budget`: the platform account's budget (issue 43 item 6): labels and quotes used this minute of 30
 *   and 60, the queue per route, the packers' label wait (last 10 minutes), 429s today.
 * - Labels ahead, batch prints and the day's close (issue 43 items 3–5): `GET /api/ahead`, `PUT
 *   /api/ahead/settings`, `POST /api/batches`, `GET /api/batches/:id/pick-list.pdf`, `POST /api/day/close`
 *   (./ahead-routes.ts).
 * - `POST /api/platform/test`: the platform's test send (5 a minute: a 429 says when to try again).
 * - `POST /platform/events`: the platform's signed events (./events-receiver.ts), the one path meant to be
 *   reached from outside: no session, no Host/Origin rule, its own checks.
 *
 * Every `/api/` route but sign-in answers 401 without a session. Before anything, every request meets the
 * rule of the station's loopback listeners (shared/domain/local-request.ts): origin-form target, `Host`
 * naming this listener, `Origin` (when sent) its own; 403 otherwise. Errors answer `{error: {code, message}}`.
 * No answer, page or log carries a PIN, a PIN hash or the database password.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import { foreignRequestHeader } from '../../shared/domain/local-request';
import { isDay, romeDay } from '../../shared/domain/rome-day';
import { dayShipments, readFloor, releaseClaim, type Floor } from './floor';
import { warehouseDayCsv, warehouseDayPdf, type ReportLanguage } from './report';
import { createSessions } from './sign-in';
import { RENDERER_CSP } from '../../shared/domain/page-csp';
import { EVENTS_PATH, registerEventsRoute } from './events-receiver';
import { createEventApplier } from './events-apply';
import type { WarehousePlatform } from './platform';
import { startCatchUp } from './catch-up';
import { readEndpoint, testEndpoint, type EndpointView } from './endpoint';
import { PlatformCallError } from './platform';
import { registerAheadRoutes } from './ahead-routes';
import { dayExceptions, readBudget, readPlatformView, type BudgetView, type PlatformAnswer } from './platform-view';

/** How long the endpoint's state read from the platform is shown before asking again, ms. */
const ENDPOINT_CACHE_MS = 15_000;

/** Options of {@link startSupervisorPage}. */
export interface PageOptions {
  /** The warehouse database, connected as the supervisor (the schema's owner). */
  db: Pool;
  /** Address to listen on; default 127.0.0.1 (loopback). */
  host?: string;
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /**
   * The platform's events (issue 44): `POST /platform/events` answers only with these (503 otherwise).
   * `secret`: the registered endpoint's signing secret now, null while none; `now`: the clock the signatures'
   * freshness is judged by (default Date.now); `settleS`: how long a shipment.created for an order a bench
   * claimed waits for that bench (default 120 s); `log`: refusals and failures (default stderr).
   */
  /** The platform account's caller (the endpoint panel, its test button, the catch-up); null or absent: none given. */
  platform?: WarehousePlatform | null;
  /** Waits out a 429's Retry-After at the day's close (tests); default setTimeout. */
  closeSleep?: (ms: number) => Promise<void>;
  /** `endpointCacheMs`: how long the endpoint's state read from the platform is shown (default 15 s). */
  events?: { secret: () => string | null; now?: () => number; settleS?: number; log?: (line: string) => void; catchUpEveryMs?: number; endpointCacheMs?: number };
}

/** A running page. */
export interface RunningPage {
  /** `http://<host>:<port>/` (an IPv6 host in brackets; a wildcard host as 127.0.0.1). */
  url: string;
  port: number;
  /** Stops listening. Does not end the database pool. */
  close(): Promise<void>;
}

/** The name of the session cookie. */
const COOKIE = 'warehouse_session';
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // Nothing but the page's own origin: the bench page's policy.
  'content-security-policy': RENDERER_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
/** Routes anyone on the allowed Host/Origin may call: the page's files and the sign-in. */
const PUBLIC_ROUTES: ReadonlySet<string> = new Set(['/', '/page.js', '/page.css', '/echarts.min.js', '/favicon.ico', '/api/sign-in']);

const PAGE_DIR = path.join(import.meta.dirname, 'page');

/** The page's language from an `Accept-Language` header: the first of it / en by preference; en when neither. */
function pageLanguage(acceptLanguage: string | undefined): ReportLanguage {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((x) => x !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    if (tag === 'it' || tag.startsWith('it-')) return 'it';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}

/** The value of cookie `name` in a `Cookie` header, or undefined. */
function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The names besides loopback's this listener answers to in `Host`: the address it was told, or every address of the machine for a wildcard. */
function listenerNames(host: string): string[] {
  const bracket = (a: string) => (a.includes(':') ? `[${a}]` : a);
  if (host === '0.0.0.0' || host === '::') {
    const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => bracket(a.address)));
    return [...addresses, os.hostname().toLowerCase()];
  }
  return [bracket(host)];
}

/**
 * The page's script: page/page.ts and what it imports (its words, its day field, shared/domain/rome-day.ts)
 * bundled into one file by esbuild, without types, ready for the browser. Types from elsewhere (floor.ts,
 * ECharts') are erased: nothing of the server's goes to the browser.
 * @throws esbuild's error when the page's source does not build
 */
async function pageScript(): Promise<string> {
  const out = await build({ entryPoints: [path.join(PAGE_DIR, 'page.ts')], bundle: true, write: false, format: 'esm', target: 'chrome120', platform: 'browser', logLevel: 'silent' });
  return out.outputFiles[0]!.text;
}

/** ECharts' prebuilt browser file (the library of End of day's charts), from node_modules. */
function echartsScript(): Buffer {
  const main = createRequire(import.meta.url).resolve('echarts');
  return readFileSync(path.join(path.dirname(main), 'echarts.min.js'));
}

/**
 * Starts the page. Resolves once listening.
 * @throws when the address is taken or cannot be bound (from `listen`)
 */
export async function startSupervisorPage(options: PageOptions): Promise<RunningPage> {
  const { db } = options;
  const host = options.host ?? '127.0.0.1';
  const names = listenerNames(host);
  const sessions = createSessions(db);
  const html = readFileSync(path.join(PAGE_DIR, 'index.html'), 'utf8');
  const css = readFileSync(path.join(PAGE_DIR, 'page.css'), 'utf8');
  const script = await pageScript();
  const echarts = echartsScript();

  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  // Only JSON bodies: text/plain is a CORS "simple" type a foreign page could POST without preflight.
  app.removeContentTypeParser('text/plain');
  let port = 0;

  const fail = (reply: FastifyReply, status: number, code: string, message: string) => reply.code(status).header('cache-control', 'no-store').send({ error: { code, message } });
  const tokenOf = (req: FastifyRequest) => cookieOf(req.headers.cookie, COOKIE);

  app.addHook('onRequest', async (req, reply) => {
    if (!req.raw.url?.startsWith('/') || req.raw.url.startsWith('//')) return fail(reply, 400, 'invalid_input', 'Request target must be a path');
    // The platform calls through the warehouse's reverse proxy, under the public name: its signature is its check.
    if (req.routeOptions.url === EVENTS_PATH && req.method === 'POST') return;
    const foreign = foreignRequestHeader({ host: req.headers.host, origin: req.headers.origin }, port, names);
    if (foreign === 'host') return fail(reply, 403, 'forbidden', 'Host not allowed');
    if (foreign === 'origin') return fail(reply, 403, 'forbidden', 'Origin not allowed');
    // Decided on the matched route, never the raw URL (a percent-encoded spelling routes the same); default deny.
    const route = req.routeOptions.url;
    if (route === undefined || PUBLIC_ROUTES.has(route)) return;
    if (sessions.supervisorOf(tokenOf(req)) === null) return fail(reply, 401, 'unauthenticated', 'Sign in with a supervisor PIN or badge');
  });
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) process.stderr.write(`warehouse: page request failed: ${err.message}\n`);
    return fail(reply, status, status < 500 ? 'invalid_input' : 'internal_error', status < 500 ? err.message : 'The warehouse database could not answer; see the warehouse program output');
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!reply.hasHeader(k)) reply.header(k, v);
    return payload;
  });

  app.get('/', (req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(html.replace('<html lang="en">', `<html lang="${pageLanguage(req.headers['accept-language'])}">`)),
  );
  app.get('/page.js', (_req, reply) => reply.type('text/javascript; charset=utf-8').send(script));
  app.get('/page.css', (_req, reply) => reply.type('text/css; charset=utf-8').send(css));
  // No icon: an empty answer rather than a 404 in the browser's console.
  app.get('/favicon.ico', (_req, reply) => reply.code(204).send());
  app.get('/echarts.min.js', (_req, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'max-age=3600').send(echarts));

  app.post<{ Body: { pin?: unknown; badge?: unknown } | null }>('/api/sign-in', async (req, reply) => {
    const body = req.body ?? {};
    const pin = typeof body.pin === 'string' ? body.pin : undefined;
    const badge = typeof body.badge === 'string' ? body.badge : undefined;
    if ((pin === undefined) === (badge === undefined)) return fail(reply, 400, 'invalid_input', 'Give a PIN or a badge');
    const out = await sessions.signIn(pin !== undefined ? { pin } : { badge: badge! });
    if (!out.ok) {
      return out.reason === 'locked'
        ? fail(reply, 429, 'locked', `Too many wrong tries: try again in ${out.seconds} s`)
        : fail(reply, 401, 'refused', 'Not a supervisor of this warehouse');
    }
    reply.header('set-cookie', `${COOKIE}=${out.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200`);
    return reply.header('cache-control', 'no-store').send({ supervisor: { name: out.supervisor.name } });
  });
  app.post('/api/sign-out', async (req, reply) => {
    sessions.signOut(tokenOf(req));
    reply.header('set-cookie', `${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
    return reply.header('cache-control', 'no-store').send({ signedOut: true });
  });
  app.get('/api/session', async (req, reply) => reply.header('cache-control', 'no-store').send({ supervisor: { name: sessions.supervisorOf(tokenOf(req))?.name } }));

  app.get('/api/floor', async (_req, reply): Promise<Floor> => {
    reply.header('cache-control', 'no-store');
    return readFloor(db, romeDay(Date.now()));
  });
  app.post<{ Body: { orderKey?: unknown } | null }>('/api/claims/release', async (req, reply) => {
    const orderKey = req.body?.orderKey;
    if (typeof orderKey !== 'string' || orderKey === '') return fail(reply, 400, 'invalid_input', 'Give the claimed order: {"orderKey": "…"}');
    const released = await releaseClaim(db, orderKey);
    if (released === null) return fail(reply, 404, 'not_found', 'No claim on that order');
    return reply.header('cache-control', 'no-store').send({ released });
  });

  // The endpoint's state costs two platform calls: asked at most every ENDPOINT_CACHE_MS (the page polls every 2 s).
  let endpointCache: { at: number; view: EndpointView | null } | null = null;
  const endpointNow = async (): Promise<EndpointView | null> => {
    if (endpointCache && Date.now() - endpointCache.at < (options.events?.endpointCacheMs ?? ENDPOINT_CACHE_MS)) return endpointCache.view;
    const view = await readEndpoint(options.platform ?? null, db);
    endpointCache = { at: Date.now(), view };
    return view;
  };
  app.get('/api/platform', async (_req, reply): Promise<PlatformAnswer> => {
    reply.header('cache-control', 'no-store');
    const endpoint = await endpointNow();
    return { endpoint, catchUp: catching?.last() ?? null, platformGiven: Boolean(options.platform), ...(await readPlatformView(db)) };
  });
  app.get('/api/budget', async (_req, reply): Promise<BudgetView> => {
    reply.header('cache-control', 'no-store');
    return readBudget(db, romeDay(Date.now()));
  });
  app.post('/api/platform/test', async (_req, reply) => {
    if (!options.platform) return fail(reply, 409, 'no_platform', 'The warehouse program was started without the platform account');
    try {
      const out = await testEndpoint(options.platform, db);
      // Its delivery is among the recent ones: the next read asks the platform again.
      endpointCache = null;
      return reply.header('cache-control', 'no-store').send(out);
    } catch (e) {
      if (e instanceof PlatformCallError && e.status >= 400 && e.status < 500) {
        if (e.retryAfterS !== undefined) reply.header('retry-after', String(e.retryAfterS));
        return fail(reply, e.status, e.code, e.message);
      }
      throw e;
    }
  });

  registerAheadRoutes(app, {
    db,
    platform: options.platform ?? null,
    supervisorOf: (req) => sessions.supervisorOf(tokenOf(req))?.name ?? null,
    languageOf: (req) => pageLanguage(req.headers['accept-language']),
    ...(options.closeSleep ? { sleep: options.closeSleep } : {}),
  });

  /** The day and language of a report request; null (answered 400) when the day is not `YYYY-MM-DD`. */
  const reportOf = (req: FastifyRequest<{ Querystring: { day?: string; lang?: string } }>) => {
    const day = req.query.day ?? romeDay(Date.now());
    const language: ReportLanguage = req.query.lang === 'it' || req.query.lang === 'en' ? req.query.lang : pageLanguage(req.headers['accept-language']);
    return isDay(day) ? { day, language } : null;
  };
  app.get<{ Querystring: { day?: string; lang?: string } }>('/api/report.csv', async (req, reply) => {
    const r = reportOf(req);
    if (!r) return fail(reply, 400, 'invalid_input', 'day must be YYYY-MM-DD');
    const csv = warehouseDayCsv(await dayShipments(db, r.day), r.language, await dayExceptions(db, r.day));
    return reply
      .type('text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="warehouse-${r.day}.csv"`)
      .send(csv);
  });
  app.get<{ Querystring: { day?: string; lang?: string } }>('/api/report.pdf', async (req, reply) => {
    const r = reportOf(req);
    if (!r) return fail(reply, 400, 'invalid_input', 'day must be YYYY-MM-DD');
    const pdf = await warehouseDayPdf(await dayShipments(db, r.day), r.day, r.language, await dayExceptions(db, r.day));
    return reply
      .type('application/pdf')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="warehouse-${r.day}.pdf"`)
      .send(Buffer.from(pdf));
  });

  const log = options.events?.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const applier = createEventApplier({ db, log, ...(options.events?.settleS !== undefined ? { settleS: options.events.settleS } : {}) });
  await registerEventsRoute(app, {
    db,
    secret: options.events?.secret ?? (() => null),
    now: options.events?.now ?? Date.now,
    log,
    onStored: () => void applier.kick(),
  });

  // With the platform account, the warehouse also asks what it may have missed (at start, every few minutes).
  const catching = options.platform
    ? startCatchUp({
        platform: options.platform,
        db,
        ...(options.events?.now ? { now: options.events.now } : {}),
        ...(options.events?.catchUpEveryMs !== undefined ? { everyMs: options.events.catchUpEveryMs } : {}),
        onStored: () => void applier.kick(),
        log,
      })
    : null;

  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The page did not bind a TCP port');
  port = address.port;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/`,
    port,
    close: async () => {
      catching?.close();
      await app.close();
      await applier.close();
    },
  };
}
