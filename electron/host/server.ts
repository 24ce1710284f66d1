/**
 * Headless host (DESIGN.md "The pieces"): serves the built renderer and the
 * station contract over loopback HTTP, for machines without the Electron
 * binary and for Playwright.
 *
 * - `POST /rpc/<command>`: JSON body = command input; 200 JSON output, or
 *   `{error: {code, message, details?}}` with the status of {@link httpStatusFor}.
 * - `GET /events`: Server-Sent Events, one `event: <name>` per StationEvent,
 *   `data:` its JSON payload.
 * - Everything else: the renderer's static files (`dist/renderer`).
 *
 * Security: binds 127.0.0.1 only; every request must use an origin-form
 * target (`/path`; absolute-form and `//` are refused, 400), carry `Host`
 * `127.0.0.1:<port>`, `localhost:<port>` or `[::1]:<port>` (defeats DNS
 * rebinding) and, when present, an `Origin` of that same origin (defeats
 * cross-site requests): the rule all the station's listeners share,
 * `shared/domain/local-request.ts`.
 * Every route except the renderer's files needs the per-launch token (header
 * `x-station-token`, or for EventSource, which cannot set headers, the
 * `token` query parameter). The token rule is decided on the route the
 * router matched, not on the raw URL, so any spelling that reaches `/rpc`
 * or `/events` (`/%72pc/..`, `/%65vents`) meets it too (issue 7 item 6).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { StationError, TOKEN_HEADER, isStationErrorShape, type EventName, type Handlers, type StationErrorCode, type StationErrorShape, type StationEvents } from '../../shared/contract';
import { foreignRequestHeader } from '../../shared/domain/local-request';
import { invokeCommand } from '../core/station';
import { RENDERER_CSP } from '../../shared/domain/page-csp';
import { STATION_EVENT_NAMES } from '../shell/events';

;


/** What the host needs of the station core (a subset of `createStation()`'s result). */
export interface HostStation {
  handlers: Handlers;
  events: { on<E extends EventName>(name: E, listener: (payload: StationEvents[E]) => void): () => void };
}

/** Options of {@link startHost}. */
export interface HostOptions {
  station: HostStation;
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Folder of the built renderer (`vite build` output); default `<repo>/dist/renderer`. */
  rendererDir?: string;
  /** Token to require; default 32 random bytes, base64url. Tests pass their own. */
  token?: string;
  /** SSE keep-alive comment interval, ms (default 15000). */
  heartbeatMs?: number;
}

/** A running host. */
export interface RunningHost {
  /** URL to open: `http://127.0.0.1:<port>/#token=<token>` (the fragment never reaches a server log). */
  url: string;
  /** Origin without token, `http://127.0.0.1:<port>`. */
  origin: string;
  port: number;
  token: string;
  /** Ends open event streams and stops listening. Does not close the station. */
  close(): Promise<void>;
}

/**
 * HTTP status of every station error code: the renderer matches on `code`,
 * the status only has to be sensible for logs and tools (curl, proxies).
 * Typed over the whole code union, so a new code must be given its status
 * here; only `internal_error` (a bug) answers 500.
 */
const HTTP_STATUS: Readonly<Record<StationErrorCode, number>> = {
  invalid_input: 400,
  unknown_command: 404,
  not_found: 404,
  not_found_locally: 404,
  method_not_allowed: 405,
  invalid_state: 409,
  // The request waits in the Queue panel for the packer, or for the packer's confirmation.
  needs_attention: 409,
  outcome_unknown: 409,
  validation_failed: 422,
  shipment_rejected: 422,
  import_failed: 422,
  invalid_printer_uri: 422,
  printer_unsupported: 422,
  printer_permission: 422,
  subscription_required: 402,
  subscription_payment_failed: 402,
  plan_limit_reached: 402,
  rate_limited: 429,
  // This machine has no OS secret store: a feature the host cannot offer here.
  secret_store_unavailable: 501,
  // A setting that changes money or devices, asked without a supervisor (issue 26).
  supervisor_required: 403,
  unknown_packer: 404,
  claimed: 409,
  // Not sent and not queued (no quote): the message says when to press again.
  not_sent: 503,
  warehouse_offline: 503,
  changed_elsewhere: 409,
  offline: 503,
  printer_unreachable: 503,
  unavailable: 503,
  // Accepted and kept: the outbox sends it by itself later.
  queued: 503,
  // The station's database refused the write (locked, read-only, full): its message says what to do.
  store_error: 503,
  timeout: 504,
  printer_timeout: 504,
  // The platform refused the station itself (its credentials, scope, account), or a carrier failed: an upstream problem.
  unauthenticated: 502,
  insufficient_scope: 502,
  account_disabled: 502,
  client_role_required: 502,
  forbidden: 502,
  carrier_error: 502,
  http_error: 502,
  printer_error: 502,
  internal_error: 500,
};

/** HTTP status for a station error code ({@link HTTP_STATUS}); 500 for a code the contract does not know. */
function httpStatusFor(code: string): number {
  return (Object.hasOwn(HTTP_STATUS, code) ? HTTP_STATUS[code as StationErrorCode] : undefined) ?? 500;
}

/** Default renderer folder: `<repo>/dist/renderer`, found from this file (electron/host). */
function defaultRendererDir(): string {
  return path.resolve(import.meta.dirname, '..', '..', 'dist', 'renderer');
}

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': RENDERER_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Route patterns anyone on the allowed Host/Origin may call: the renderer's static files (or the "not built" page). */
const PUBLIC_ROUTES: ReadonlySet<string> = new Set(['/*', '/']);
/** The SSE route; EventSource cannot set headers, so its token may come as the `token` query parameter. */
const EVENTS_ROUTE = '/events';

/** Constant-time token comparison (length leak only). */
function tokenMatches(given: unknown, expected: Buffer): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const b = Buffer.from(given, 'utf8');
  return b.length === expected.length && timingSafeEqual(b, expected);
}

/** The answer of a failed command: `{error: {code, message, details?, text?}}` (`text`: the core's wording, for the screens' language). */
function errorBody(e: StationErrorShape): { error: StationErrorShape } {
  return { error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}), ...(e.text ? { text: e.text } : {}) } };
}

/**
 * Starts the host on 127.0.0.1. Resolves once listening.
 * @throws when the port is taken (EADDRINUSE from `listen`).
 */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const { station } = options;
  const token = options.token ?? randomBytes(32).toString('base64url');
  const expected = Buffer.from(token, 'utf8');
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const heartbeatMs = options.heartbeatMs ?? 15_000;

  // Shopify exports of a busy shop run to several MB.
  const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 });
  // Only JSON bodies: text/plain is a CORS "simple" type a foreign page could POST without preflight.
  app.removeContentTypeParser('text/plain');

  let port = 0;

  const deny = (reply: FastifyReply, status: number, code: StationErrorShape['code'], message: string) =>
    reply.code(status).header('cache-control', 'no-store').send(errorBody({ code, message }));

  app.addHook('onRequest', async (req, reply) => {
    // Origin-form only (`/path?query`): an absolute-form target (`POST http://host/rpc/..`) or a
    // `//` start is what proxies get, never a browser talking to its own origin.
    if (!req.raw.url?.startsWith('/') || req.raw.url.startsWith('//')) return deny(reply, 400, 'invalid_input', 'Request target must be a path');
    // The listeners' one Host/Origin rule (shared/domain/local-request.ts).
    const foreign = foreignRequestHeader({ host: req.headers.host, origin: req.headers.origin }, port);
    if (foreign === 'host') return deny(reply, 403, 'forbidden', 'Host not allowed');
    if (foreign === 'origin') return deny(reply, 403, 'forbidden', 'Origin not allowed');
    // Decided on the route the router matched (after its percent-decoding), never on the raw URL:
    // `/%72pc/x` routes to `/rpc/:command` and must meet the same check. Default deny: every route
    // but the renderer's files needs the token; an unmatched path (404) runs nothing.
    const route = req.routeOptions.url;
    if (route === undefined || PUBLIC_ROUTES.has(route)) return;
    const given = route === EVENTS_ROUTE ? (req.headers[TOKEN_HEADER] ?? (req.query as { token?: unknown }).token) : req.headers[TOKEN_HEADER];
    if (!tokenMatches(given, expected)) return deny(reply, 401, 'unauthenticated', 'Missing or wrong station token: open the URL the station printed');
  });
  // Framework-level failures (bad JSON, wrong content type, body too large) in the same envelope.
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    const message = status === 415 ? 'Send the command input as application/json' : status < 500 ? err.message : 'Host error';
    return reply.code(status).send(errorBody({ code: status < 500 ? 'invalid_input' : 'internal_error', message }));
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!reply.hasHeader(k)) reply.header(k, v);
    return payload;
  });

  app.post<{ Params: { command: string } }>('/rpc/:command', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      const output = await invokeCommand(station.handlers, req.params.command, req.body ?? {});
      // JSON has no `undefined`: a command that resolves to nothing answers null.
      return reply.code(200).send(output === undefined ? null : output);
    } catch (err) {
      if (err instanceof StationError || isStationErrorShape(err)) {
        return reply.code(httpStatusFor(err.code)).send(errorBody(err));
      }
      // invokeCommand maps and logs every failure; this is only a guard for a value it did not map.
      console.error(`[host] ${req.params.command} failed:`, err);
      return reply.code(500).send(errorBody({ code: 'internal_error', message: `The station could not complete ${req.params.command.slice(0, 100)} because of an unexpected error.` }));
    }
  });

  const streams = new Set<ServerResponse>();
  // No HEAD twin: a HEAD must not open a stream that subscribes to every event.
  app.get(EVENTS_ROUTE, { exposeHeadRoute: false }, (req: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    // Ask EventSource to come back quickly after a blip.
    res.write('retry: 1000\n\n');
    streams.add(res);
    const unsubscribe = STATION_EVENT_NAMES.map((name) =>
      station.events.on(name, (payload) => {
        res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
      }),
    );
    const beat = setInterval(() => res.write(': keep-alive\n\n'), heartbeatMs);
    const done = () => {
      clearInterval(beat);
      for (const off of unsubscribe) off();
      streams.delete(res);
    };
    req.raw.on('close', done);
    res.on('close', done);
  });

  if (existsSync(path.join(rendererDir, 'index.html'))) {
    await app.register(fastifyStatic, { root: rendererDir, prefix: '/', index: ['index.html'], cacheControl: false });
  } else {
    app.get('/', (_req, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send(`The bench screens are not built (no ${path.join(rendererDir, 'index.html')}). Run: npm run build:renderer`),
    );
  }

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('Host did not bind a TCP port');
  port = address.port;
  const origin = `http://127.0.0.1:${port}`;

  let closed: Promise<void> | null = null;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    port,
    token,
    close() {
      closed ??= (async () => {
        for (const res of streams) res.end();
        streams.clear();
        await app.close();
      })();
      return closed;
    },
  };
}
