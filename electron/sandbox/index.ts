/**
 * The sandbox: a real local implementation of the platform's Client Shipping
 * API 2026-09 over HTTP — the station's embedded training mode and the peer
 * every test talks to. See electron/sandbox/README.md for what it implements
 * and the choices made where the spec says "not shown".
 *
 * Layout: `index.ts` builds the fastify app (parsers, error envelope, 404/405)
 * and mounts route modules from `routes/` on a shared {@link SandboxState};
 * `pricing.ts`/`zones.ts` compute rates; `seed.ts` holds the demo accounts;
 * `clock.ts` the simulated clock.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { SimClock, type ClockSource } from './clock';
import { ApiError, validationFailed } from './errors';
import type { LabelData } from './labels';
import { renderLabelsZpl } from './labels/zpl';
import { ApiRouter, RouteTable } from './http';
import type { SandboxSeed } from './model';
import { registerAccountRoutes } from './routes/account';
import { registerManifestRoutes } from './routes/manifests';
import { registerOAuth } from './routes/oauth';
import { registerPickupRoutes } from './routes/pickups';
import { registerWebhookRoutes } from './routes/webhooks';
import { registerRatesRoutes } from './routes/rates';
import { registerShipmentRoutes } from './routes/shipments';
import { registerStockRoutes } from './routes/stocks';
import { registerTrackingRoutes } from './routes/tracking';
import { registerDeliveryPointRoutes } from './routes/delivery-points';
import { registerFinanceRoutes } from './routes/finance';
import { registerOrderRoutes } from './routes/orders';
import { registerTaricRoutes } from './routes/taric';
import { demoSeed } from './seed';
import { installGateway } from './gateway';
import { StatePersistence } from './persist';
import { SqliteStatePersistence } from './state-db';
import { registerAdminRoutes } from './routes/admin';
import { registerLegacyRoutes } from './routes/legacy';
import { collectRoutes } from './openapi';
import { registerOpenApiRoute } from './routes/openapi';
import { installResponseObservers } from './observe';
import { SandboxState } from './state';
import type { AddressLookup } from './webhooks/dispatcher';
import { isLoopbackHost } from '../../shared/platform/webhooks';
import { foreignRequestHeader } from '../../shared/domain/local-request';

export { SimClock } from './clock';
;
export { SandboxState } from './state';
export { SandboxStateError } from './persist';
export {  demoSeed } from './seed';
export type * from './model';
export { observeResponses, type ObservedResponse } from './observe';

/** Version prefix of the API (spec: Versioning 1). */
export const API_PREFIX = '/api/2026-09';

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default `127.0.0.1` (never exposed beyond the machine unless asked). */
  host?: string;
  /** Source of "real" time under the simulated clock; default `() => new Date()`. */
  clock?: ClockSource;
  /** Accounts and tracking-number seed; default {@link demoSeed} (two demo accounts). */
  seed?: SandboxSeed;
  /** Request logging (pino, to stderr); default false. */
  logger?: boolean;
  /**
   * Accept plain `http://` webhook receivers on loopback (localhost, 127.x,
   * ::1) at registration; all other URLs must still be HTTPS (spec). Default
   * false. For tests and local integrations (CLI `--webhook-loopback-http`).
   */
  webhookLoopbackHttp?: boolean;
  /**
   * Accept webhook receivers on loopback, private, link-local and
   * unique-local addresses and `localhost` names (refused by default: a
   * client must not make the platform call into its network, SSRF). Only for
   * a local training or test sandbox: createSandbox refuses the option (and
   * `webhookLoopbackHttp`, which implies it for loopback receivers) when the
   * sandbox listens on anything but loopback. CLI `--webhook-local-targets`.
   */
  webhookLocalTargets?: boolean;
  /**
   * Token the admin prefix (`/__sandbox/`) requires in `x-station-token`:
   * the embedding station's per-launch token, so a web page cannot drive the
   * training sandbox (routes/admin.ts). Default: none asked (standalone CLI, tests).
   */
  adminToken?: string;
  /**
   * OAuth client secrets by `clientId`, replacing the seed's (fixed, public
   * demo values) for this sandbox: the embedded training sandbox passes its
   * data folder's own random secret (electron/training/secret.ts). They win
   * over the secrets of a loaded state file and survive `POST /__sandbox/reset`.
   * A `clientId` the seed does not have is an error. Default: the seed's.
   */
  clientSecrets?: Readonly<Record<string, string>>;
  /** Resolver of webhook receiver names at delivery (tests); default the system's (`dns.lookup`). */
  webhookLookup?: AddressLookup;
  /** Per-attempt webhook timeout in real ms; default 10 000 (spec: Limits). */
  webhookTimeoutMs?: number;
  /**
   * JSON file keeping the state across restarts (persist.ts): loaded at
   * start when it exists, saved (debounced, atomically) after calls and on
   * close. CLI `--state-file`. Default: memory only. A name ending in
   * `.sqlite` keeps it in SQLite instead, written incrementally (state-db.ts).
   */
  stateFile?: string;
  /**
   * With a `.sqlite` {@link stateFile}: a JSON state file to take over when
   * the database holds no state yet (then renamed `<file>.migrated-<timestamp>`).
   */
  legacyStateFile?: string;
  /**
   * With a `.sqlite` {@link stateFile}: simulated days a delivered, returned
   * or cancelled shipment is kept; whole days ≥ 1. Default: for ever.
   */
  stateRetentionDays?: number;
  /**
   * With a `.sqlite` {@link stateFile}: listen at once and read the shipments in slices
   * (state-db.ts `loadGradually`), requests waiting until the state is loaded, so a process that
   * also runs the station starts in constant time (the training platform; issue 27). The file's
   * format and root row are still checked before this resolves (SandboxStateError). A later
   * failure answers every request 500 and moves the file aside (the next start begins afresh).
   * `clients` are the seed's accounts (with their secrets). Default false: loaded before listening.
   */
  loadStateGradually?: boolean;
  /**
   * Enforce the spec's rate limits (429 `rate_limited`, ratelimit.ts).
   * Default false, because suites pin the simulated clock and create more
   * than a minute's worth of shipments; the CLI and training mode turn them
   * on. Switchable at run time: `POST /__sandbox/rate-limits {enabled}`.
   */
  rateLimits?: boolean;
  /**
   * Seed the demo accounts' past (history.ts: shipments of the last months,
   * top-ups, invoices, COD and return lists) relative to the clock at start
   * and at every reset. Default false, like `rateLimits`, because suites
   * count what they create; the CLI and training mode turn it on.
   * `seed.history` wins when set.
   */
  history?: boolean;
}

/** A running sandbox. */
export interface Sandbox {
  /** `http://127.0.0.1:<port>/api/2026-09` — the spec's `{base_url}`. */
  baseUrl: string;
  /** `http://127.0.0.1:<port>` — the spec's `{auth_url}` (token endpoint at `/oauth/token`). */
  authUrl: string;
  /** OAuth2 App credentials of the seeded accounts. */
  clients: Array<{ clientId: string; clientSecret: string; name: string }>;
  /** Live state (accounts, records, tokens); tests may inspect or adjust it. */
  state: SandboxState;
  /** Simulated clock; `advance(ms)` moves time (token expiry, default periods). */
  clock: SimClock;
  /** Stops listening and closes open connections (and writes the state file, when there is one). */
  close(): Promise<void>;
  /** Writes pending state changes to the state file now; resolves at once without a state file. */
  flushState(): Promise<void>;
}

/**
 * Builds the fastify app on a state, without listening (used by {@link createSandbox}).
 * `opts.loopbackOnly` (default true): refuse, 403 `forbidden` in the API's
 * envelope (spec: Errors > Envelope), every request whose `Host` is not the
 * sandbox's own loopback address and port or whose `Origin` is foreign
 * (shared/domain/local-request.ts).
 */
export function buildSandboxApp(
  state: SandboxState,
  logger = false,
  seed: SandboxSeed = demoSeed(),
  opts: {
    rateLimits?: boolean;
    adminToken?: string;
    loopbackOnly?: boolean;
    /** Settles when the state is loaded (with the error when it could not be): requests wait for it first. */
    ready?: Promise<Error | undefined>;
  } = {},
): FastifyInstance {
  const app = Fastify({
    logger: logger ? { level: 'info', stream: process.stderr } : false,
    // 50 packages with customs lines fit easily; anything bigger is a client bug (413).
    bodyLimit: 2 * 1024 * 1024,
    // HEAD on every GET route, so the 405 `Allow` lists (GET implies HEAD) stay true.
    exposeHeadRoutes: true,
  });
  const table = new RouteTable();

  // Parsers: JSON (malformed -> 422 `_body`), form bodies for the token endpoint;
  // any other media type with a body -> 422 `_body`.
  app.removeAllContentTypeParsers();
  const parseJson = (raw: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(validationFailed({ _body: ['Malformed JSON'] }, 'The request body is not valid JSON.'), undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, raw, done) => parseJson(raw, done));
  app.addContentTypeParser(/^application\/[a-z0-9.+-]*\+json$/, { parseAs: 'string' }, (_req, raw, done) => parseJson(raw, done));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, raw, done) => {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    done(null, Object.fromEntries(new URLSearchParams(text)));
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, raw, done) => {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    done(
      validationFailed({ _body: [`Unsupported Content-Type "${req.headers['content-type'] ?? ''}": send application/json`] }, 'The request body could not be read.'),
      undefined,
    );
  });

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    if (err instanceof ApiError) {
      if (err.headers) void reply.headers(err.headers);
      return reply.code(err.status).send(err.toBody());
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 500) {
      req.log.error({ err }, 'sandbox internal error');
      return reply.code(500).send({ error: { code: 'internal_error', message: 'Unexpected error in the sandbox' } });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
      return reply.code(422).send(validationFailed({ _body: [err.message] }).toBody());
    }
    return reply.code(status).send({ error: { code: 'http_error', message: err.message } });
  });

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? req.url;
    const allowed = table.allowed(pathname);
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header('Allow', allowed.join(', '))
        .send({ error: { code: 'method_not_allowed', message: `${req.method} is not provided for ${pathname}; allowed: ${allowed.join(', ')}` } });
    }
    return reply.code(404).send({ error: { code: 'not_found', message: `No endpoint ${req.method} ${pathname}` } });
  });

  // First of all (issue 21 item 3): on loopback, only requests naming the sandbox itself
  // (`Host` 127.0.0.1/localhost/[::1] with its port, no foreign `Origin`) are answered;
  // a DNS-rebound web page gets 403 `forbidden` before the token endpoint or any route
  // (shared/domain/local-request.ts, the rule of every station listener).
  if (opts.loopbackOnly ?? true) {
    app.addHook('onRequest', (req, _reply, done) => {
      const a = app.server.address();
      const port = a !== null && typeof a === 'object' ? a.port : undefined;
      const foreign = foreignRequestHeader({ host: req.headers.host, origin: req.headers.origin }, port);
      if (foreign === 'host') return done(new ApiError(403, 'forbidden', 'Host not allowed: the sandbox answers only to its own loopback address (127.0.0.1, localhost or [::1] with its port)'));
      if (foreign === 'origin') return done(new ApiError(403, 'forbidden', 'Origin not allowed: the sandbox takes no cross-site requests'));
      done();
    });
  }
  // Before anything reads the state: a state still loading (createSandbox `loadStateGradually`) is waited for.
  const ready = opts.ready;
  if (ready) {
    app.addHook('onRequest', async () => {
      const failed = await ready;
      if (failed) throw new ApiError(500, 'internal_error', `The sandbox state could not be loaded: ${failed.message}`);
    });
  }
  // The simulated carrier catches up with the clock before any request is
  // handled (statuses, stocks and their events are current for every answer),
  // and once a second while idle so events due on real time reach webhooks.
  app.addHook('onRequest', (_req, _reply, done) => {
    state.lifecycle.advance();
    // Then the books (COD lists, returns, invoices) follow the carrier (finance.ts).
    state.finance.sync();
    done();
  });
  let carrierTicker: ReturnType<typeof setInterval> | undefined;
  app.addHook('onReady', (done) => {
    carrierTicker = setInterval(() => state.lifecycle.advance(), 1000);
    carrierTicker.unref();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    if (carrierTicker) clearInterval(carrierTicker);
    done();
  });
  // Faults, 401/403/429/402 in one hook before every API handler (gateway.ts).
  const gateway = installGateway(app, state, API_PREFIX, opts);
  // Every route from here on, for the OpenAPI document (openapi.ts).
  const routes = collectRoutes(app);
  registerOAuth(app, table, state);
  const api = new ApiRouter(app, table, state, API_PREFIX);
  registerAccountRoutes(api);
  registerRatesRoutes(api);
  registerShipmentRoutes(api);
  registerManifestRoutes(api);
  registerPickupRoutes(api);
  registerWebhookRoutes(api);
  registerTrackingRoutes(api);
  registerStockRoutes(api);
  registerOrderRoutes(api);
  registerTaricRoutes(api);
  registerDeliveryPointRoutes(api);
  registerFinanceRoutes(api);
  // Webhook engine: every bus event fans out to subscribed endpoints; retries run when the clock moves.
  state.webhooks.start(state.events, (l) => state.clock.onChange(l));
  app.addHook('onClose', async () => {
    await state.webhooks.close();
  });
  registerAdminRoutes(app, table, state, gateway, seed, undefined, opts.adminToken !== undefined ? { token: opts.adminToken } : {});
  registerLegacyRoutes(app, table, state, gateway, API_PREFIX);
  const documentFor = registerOpenApiRoute(app, table, gateway, routes, API_PREFIX);
  // Every answer to the observers (test/integration checks each against the served document).
  installResponseObservers(app, documentFor);
  return app;
}

let labelsWarm: Promise<void> | undefined;

/** How long after listening the label code paths are warmed up, ms. */
const WARM_UP_DELAY_MS = 1000;

/**
 * Renders one throw-away label once per process, in the background, so the
 * first real POST /shipments does not pay the one-off cost of loading the PDF
 * and barcode code paths (hundreds of ms) on the packer's first scan.
 */
function warmUpLabels(): void {
  const a = { name: 'Warm up', street: 'Via Roma 1', city: 'Milano', postalCode: '20121', countryCode: 'IT' };
  const label: LabelData = {
    trackingNumber: 'XX0000000000',
    shipmentTrackingNumber: 'XX0000000000',
    carrierCode: 'xx',
    carrierName: 'Warm up',
    serviceName: 'Warm up',
    sender: a,
    recipient: a,
    parcelNumber: 1,
    parcelCount: 1,
    weightKg: 1,
    createdAt: new Date(0).toISOString(),
  };
  labelsWarm ??= (async () => {
    renderLabelsZpl([label]);
    const { renderLabelsPdf } = await import('./labels/pdf');
    await renderLabelsPdf([label]);
  })().catch(() => undefined);
}

/**
 * The persistence for `file`: SQLite (state-db.ts) for a `.sqlite` name, the JSON state file (persist.ts) otherwise.
 * @throws RangeError when `stateRetentionDays` is given without a `.sqlite` file, or is not whole days ≥ 1.
 */
function statePersistence(state: SandboxState, file: string, opts: SandboxOptions): StatePersistence {
  if (file.endsWith('.sqlite')) {
    return new SqliteStatePersistence(state, file, {
      ...(opts.legacyStateFile !== undefined ? { legacyJsonFile: opts.legacyStateFile } : {}),
      ...(opts.stateRetentionDays !== undefined ? { retentionDays: opts.stateRetentionDays } : {}),
    });
  }
  if (opts.stateRetentionDays !== undefined || opts.legacyStateFile !== undefined) {
    throw new RangeError(`stateRetentionDays and legacyStateFile need a .sqlite stateFile, got ${file}`);
  }
  return new StatePersistence(state, file);
}

/**
 * Starts a sandbox on `host:port` (default 127.0.0.1, port 0 = any free port)
 * and resolves once it is listening.
 * @throws the listen error (e.g. EADDRINUSE) when the port cannot be bound.
 */
export async function createSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const clock = new SimClock(opts.clock);
  const base = opts.seed ?? demoSeed();
  const secrets = opts.clientSecrets ?? {};
  for (const [clientId, secret] of Object.entries(secrets)) {
    if (!base.accounts.some((a) => a.clientId === clientId)) throw new Error(`Sandbox: clientSecrets names ${clientId}, which the seed has no account for`);
    if (secret.length < 16) throw new Error(`Sandbox: clientSecrets.${clientId} must be at least 16 characters`);
  }
  const withSecret = <A extends { clientId: string; clientSecret: string }>(a: A): A => ({ ...a, clientSecret: secrets[a.clientId] ?? a.clientSecret });
  const seed: SandboxSeed = { ...base, accounts: base.accounts.map(withSecret), history: base.history ?? opts.history ?? false };
  const host = opts.host ?? '127.0.0.1';
  const localTargets = (opts.webhookLocalTargets ?? false) || (opts.webhookLoopbackHttp ?? false);
  if (localTargets && !isLoopbackHost(host)) {
    throw new Error(`Sandbox: webhookLocalTargets / webhookLoopbackHttp are for a local sandbox only; it listens on ${host}, not loopback`);
  }
  const state = new SandboxState(seed, clock);
  state.webhooks.configure({
    allowLoopbackHttp: opts.webhookLoopbackHttp ?? false,
    allowLocalTargets: localTargets,
    ...(opts.webhookLookup ? { lookup: opts.webhookLookup } : {}),
    ...(opts.webhookTimeoutMs !== undefined ? { timeoutMs: opts.webhookTimeoutMs } : {}),
    ...(opts.logger ? { log: (m: string) => process.stderr.write(`sandbox: webhooks: ${m}\n`) } : {}),
  });
  const persistence = opts.stateFile !== undefined ? statePersistence(state, opts.stateFile, opts) : undefined;
  // A state file keeps the accounts as they were saved; the secrets asked for now win.
  const applySecrets = () => {
    for (const a of state.accounts) a.clientSecret = secrets[a.clientId] ?? a.clientSecret;
  };
  let loading: Promise<void> | undefined;
  let loadError: Error | undefined;
  if (opts.loadStateGradually && persistence instanceof SqliteStatePersistence) {
    persistence.check();
    loading = persistence.loadGradually(() => new Promise((resolve) => setImmediate(resolve))).then(applySecrets, (e: unknown) => {
      loadError = e instanceof Error ? e : new Error(String(e));
      const aside = persistence.setAside();
      process.stderr.write(`sandbox: ${loadError.message}; moved aside to ${aside}, a fresh state begins at the next start\n`);
    });
  } else persistence?.load();
  applySecrets();
  const app = buildSandboxApp(state, opts.logger ?? false, seed, {
    ...(loading ? { ready: loading.then(() => loadError) } : {}),
    rateLimits: opts.rateLimits ?? false,
    // Bound to another interface on purpose (`--host 0.0.0.0`): its names are the integrator's, not checked.
    loopbackOnly: isLoopbackHost(host),
    ...(opts.adminToken !== undefined ? { adminToken: opts.adminToken } : {}),
  });
  persistence?.install(app);
  await app.listen({ port: opts.port ?? 0, host });
  // After start-up has settled: rendering now would hold up the station's ready line by ≈50 ms,
  // and nobody ships within the first second of a launch.
  const warmUp = setTimeout(warmUpLabels, WARM_UP_DELAY_MS);
  warmUp.unref();
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('Sandbox: server has no TCP address');
  const hostForUrl = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const authUrl = `http://${hostForUrl}:${addr.port}`;
  return {
    baseUrl: authUrl + API_PREFIX,
    authUrl,
    clients: state.accounts.map((a) => ({ clientId: a.clientId, clientSecret: a.clientSecret, name: a.name })),
    state,
    clock,
    close: async () => {
      clearTimeout(warmUp);
      await app.close();
      // A state still being read is not saved over half-read.
      await loading;
      await persistence?.close();
    },
    flushState: async () => {
      await persistence?.flush();
    },
  };
}
