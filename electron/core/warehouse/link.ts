/**
 * The bench's link to its warehouse (issue 35): a small pool of connections
 * to the warehouse database, a heartbeat that says the bench is alive (and
 * notices when the warehouse goes or comes back), and the order claims the
 * scan and ship handlers ask for. The bench never waits on the warehouse to
 * start: when it cannot be reached the link says since when, keeps trying at
 * each heartbeat, and ships only the orders it holds claims for.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { z } from 'zod';
import type { WarehouseStatusView } from '../../../shared/contract/warehouse';
import { coreText } from '../../../shared/contract/core-text';
import { StationError } from '../../../shared/contract/errors';
import { romeClock } from '../../../shared/domain/rome-day';
import type { BenchStatus, ClaimResult, SharedChange, WarehouseBenchHooks, WarehouseLink, WarehouseRefusal } from '../common/services';
import { defineSetting, type Store } from '../store';
import { claimOrder, heartbeat, releaseOrder, type WarehouseBench } from './claims';
import { warehouseClientConfig, warehouseProblem } from './connection';
import { checkWarehouseSchema } from './schema';
import { sendActivity } from './activity';
import { hasJoined, localShared, pullShared, pushShared, SharedConflictError } from './shared';
import { coalesced } from './coalesced';
import { createOrderSync, isRefusal } from './orders';
import { createWarehouseBudget } from './budget';
import { createLabelsAheadStore } from './ahead';
import { ClaimTimeoutSetting } from './settings';
import { createBenchEvents } from './events';
import { lastWarehouseClose, requestWarehouseClose } from './closes';

/** This bench's id for the warehouse, made once and kept in its database (a copied data folder is the same bench). */
const BenchIdSetting = defineSetting('warehouse.benchId', z.string().max(100), '');
/**
 * The orders this bench holds claims on (their keys), kept across a restart: a bench that starts while the
 * warehouse is away still ships what it was packing, and only that.
 */
const HeldClaimsSetting = defineSetting('warehouse.heldClaims', z.array(z.string().max(300)).max(10_000), []);

/** Options of {@link createWarehouseLink}. */
export interface WarehouseLinkOptions {
  /** The warehouse URL (`--warehouse`, `STATION_WAREHOUSE_URL`, or Settings); undefined: the bench works alone. */
  url: string | undefined;
  /** Where `url` came from (default: the command line when there is one). */
  source?: 'command_line' | 'settings';
  /** The password from the OS secret store; undefined: `PGPASSWORD` or `~/.pgpass`. */
  password?: string | undefined;
  store: Store;
  /** The bench's name now (Settings › Station); '' gives "Bench <first characters of its id>". */
  benchName: () => string;
  /**
   * How often the bench says it is alive and retries a lost warehouse, ms (default 10000: the page calls a
   * bench offline 30 s after its last heartbeat, issue 42 item 2, so two may be lost before it does).
   */
  heartbeatMs?: number;
  /** How often the bench's new activity rows go up while the warehouse answers, ms (default 1000). */
  activityMs?: number;
  /** How long a silent bench keeps its claims, s; default the warehouse's setting `warehouse.claimTimeoutS` (tests shorten it below its 30 s minimum). */
  claimTimeoutS?: number;
  /** Clock, ms. */
  now?: () => number;
  /** One line per change of state (never a password). */
  log?: (line: string) => void;
  /** Called when the warehouse comes or goes (the header shows it). */
  onChange?: () => void;
}

/** The refusals kept for the supervisor's page, newest last. */
const REFUSALS_KEPT = 10;

/** How often a claim may try a lost warehouse again before the next heartbeat does, ms. */
const RETRY_ON_CLAIM_MS = 2000;

/** HH:MM (Europe/Rome) of an ISO time, for messages. */
const clock = (iso: string | null): string => (iso === null ? '?' : romeClock(Date.parse(iso)));

/**
 * Starts the link: registers the bench and checks the schema in the background (the station does not wait).
 * @throws WarehouseConfigError when the URL is not usable (the caller says so and starts alone)
 */
export function createWarehouseLink(opts: WarehouseLinkOptions): WarehouseLink {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  let id = opts.store.settings.get(BenchIdSetting);
  if (id === '') {
    id = randomUUID();
    opts.store.settings.set(BenchIdSetting, id);
  }
  const bench = (): WarehouseBench => ({ id, name: opts.benchName().trim() || `Bench ${id.slice(0, 8)}` });
  let connected = false;
  let since: string | null = null;
  const held = new Set<string>(opts.store.settings.get(HeldClaimsSetting));
  const hold = (orderKey: string, on: boolean): void => {
    if (held.has(orderKey) === on) return;
    if (on) held.add(orderKey);
    else held.delete(orderKey);
    opts.store.settings.set(HeldClaimsSetting, [...held]);
  };
  const status = (): WarehouseStatusView => ({ connected, since, bench: bench() });
  let hooks: WarehouseBenchHooks = {
    packerName: () => null,
    onShared: () => undefined,
    benchStatus: () => ({ packer: null, printer: { state: 'unknown', name: '' }, queue: 0, refused: 0, labelsHeld: 0, lastLabel: null }),
  };
  // The warehouse's latest refusals of this bench's writes (issue 42 item 1), for the page.
  const refusals: WarehouseRefusal[] = [];
  /** A write the warehouse refused: an answer, not a lost connection. Logged with what was refused, kept for the page. */
  const refused = (what: string, e: Error & { code: string }): void => {
    refusals.push({ at: new Date(now()).toISOString(), what, message: e.message, code: e.code });
    if (refusals.length > REFUSALS_KEPT) refusals.splice(0, refusals.length - REFUSALS_KEPT);
    log(`warehouse refused ${what}: ${e.message} (SQLSTATE ${e.code})`);
  };
  /** What the supervisor's page shows of this bench: the hooks' state, the order it holds last claimed, the refusals. */
  const benchStatus = (): BenchStatus => ({ ...hooks.benchStatus(), order: [...held].pop() ?? null, ...(refusals.length ? { warehouseRefusals: [...refusals] } : {}) });
  const bind = (h: WarehouseBenchHooks): void => {
    hooks = h;
  };
  if (opts.url === undefined) {
    return {
      configured: false,
      source: 'none',
      url: null,
      status,
      claim: async () => ({ won: true }),
      release: async () => undefined,
      share: async () => undefined,
      shareOrders: () => undefined,
      budget: () => null,
      labelsAhead: () => null,
      bind,
      log,
      lastClose: async () => null,
      requestClose: async () => {
        const said = coreText('warehouseCloseAlone');
        throw new StationError('invalid_state', said.message, undefined, said.text);
      },
      close: async () => undefined,
    };
  }

  const { config, address } = warehouseClientConfig(opts.url, opts.password);
  const pool = new pg.Pool({ ...config, max: 4, idleTimeoutMillis: 30_000 });
  // A dropped connection is reported on the pool; the next query says it too.
  pool.on('error', () => undefined);
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let activityTimer: NodeJS.Timeout | undefined;
  let schemaChecked = false;
  let sending: Promise<void> | null = null;
  // The connection that LISTENs for the warehouse's changes; null while there is none.
  let listener: pg.Client | null = null;
  // The warehouse's shared settings into the bench's copy, one pull at a time (a burst of NOTIFYs: two at most).
  const pull = coalesced(async () => {
    if (closed) return;
    try {
      const got = await pullShared(pool, opts.store, log);
      if (got.settings.length || got.products || got.packers) hooks.onShared(got);
    } catch (e) {
      went(e);
    }
  });
  const orders = createOrderSync({
    db: pool,
    store: opts.store,
    bench,
    now,
    log,
    onPulled: (got) => hooks.onOrders?.(got),
    onError: (e) => went(e),
    onRefused: (list) => {
      for (const r of list) refused(`${r.what === 'ship' ? 'marking shipped' : 'importing'} ${r.orderKey}`, r.error);
    },
    // A shipped order's claim ended at the warehouse with its shipment (ship_orders): the bench lets it go too.
    onShipped: (keys) => {
      for (const k of keys) hold(k, false);
    },
  });
  // The platform's events the warehouse applied (issue 44): the bench's shipments' status, its Stocks screen.
  const events = createBenchEvents({ db: pool, store: opts.store, onChanged: (c) => hooks.onPlatformEvents?.(c), onError: (e) => went(e) });
  const listen = async (): Promise<void> => {
    if (listener || closed) return;
    const client = new pg.Client(config);
    const drop = (): void => {
      if (listener === client) listener = null;
      void client.end().catch(() => undefined);
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (n) => {
      if (n.channel === 'warehouse_shared') void pull();
      if (n.channel === 'warehouse_orders') void orders.pull();
      if (n.channel === 'warehouse_events') void events.pull();
      if (n.channel === 'warehouse_batches' && n.payload === id) hooks.onBatches?.();
    });
    await client.connect();
    await client.query('LISTEN warehouse_shared');
    await client.query('LISTEN warehouse_orders');
    await client.query('LISTEN warehouse_events');
    await client.query('LISTEN warehouse_batches');
    listener = client;
    // A bench that never heard the warehouse brings what it has (only what the warehouse lacks), then
    // takes the warehouse's word for all of it; every (re)connection catches up on what it missed.
    if (!hasJoined(opts.store)) await pushShared(pool, opts.store, localShared(opts.store), bench(), null, 'seed');
    await pull();
    // Orders: what the bench imported or shipped meanwhile goes up, then it reads what it missed.
    await orders.push();
    await orders.pull();
    await events.pull();
  };

  /**
   * The warehouse did not do what was asked. `what` names a write whose refusal is an answer (a claim, a
   * release): then the bench stays connected and says what was refused; anything else (no answer, or a
   * refused heartbeat: this bench cannot work with the warehouse) marks it offline until the next heartbeat.
   */
  const went = (e: unknown, what?: string): void => {
    if (what !== undefined && isRefusal(e)) {
      refused(what, e);
      return;
    }
    if (connected || since === null) {
      since = new Date(now()).toISOString();
      log(`warehouse ${address.host}:${address.port}/${address.database}: ${warehouseProblem(e, address)}`);
      connected = false;
      opts.onChange?.();
    }
    connected = false;
  };
  // The status the warehouse last got with a heartbeat (JSON).
  let lastStatus = '';
  // When a claim last tried to reach a lost warehouse, ms.
  let lastRetry = 0;
  // Benches alive at the last heartbeat (this one included): while the warehouse is away, each keeps to its share.
  let benchesAlive = 1;
  // Label purchases a minute labels ahead leave to the packers (the supervisor's ahead_settings), read at each heartbeat.
  let headroom = 5;
  const beatNow = async (): Promise<void> => {
    const status = benchStatus();
    await heartbeat(pool, bench(), status);
    lastStatus = JSON.stringify(status);
    const alive = await pool.query<{ n: number; headroom: number | null }>(
      `SELECT (SELECT count(*)::int FROM benches WHERE heartbeat_at > now() - interval '30 seconds') AS n, (SELECT headroom FROM ahead_settings) AS headroom`,
    );
    benchesAlive = Math.max(1, alive.rows[0]?.n ?? 1);
    headroom = alive.rows[0]?.headroom ?? headroom;
  };
  const labelsAhead = createLabelsAheadStore(pool, bench);
  const budget = createWarehouseBudget({ pool, bench, connected: () => connected, benchesAlive: () => benchesAlive, headroom: () => headroom, onError: (e) => went(e) });
  const beat = async (): Promise<void> => {
    try {
      if (!schemaChecked) {
        const client = await pool.connect();
        try {
          await checkWarehouseSchema(client);
        } finally {
          client.release();
        }
        schemaChecked = true;
      }
      await beatNow();
      await listen();
      void orders.push();
      // A batch of labels ahead sent while the bench was away or its NOTIFY lost: looked for at each heartbeat.
      hooks.onBatches?.();
      if (!connected) {
        connected = true;
        since = new Date(now()).toISOString();
        log(`warehouse ${address.host}:${address.port}/${address.database} connected as ${bench().name}`);
        opts.onChange?.();
      }
    } catch (e) {
      went(e);
    }
  };
  const schedule = (): void => {
    if (closed) return;
    timer = setTimeout(() => void beat().finally(schedule), opts.heartbeatMs ?? 10_000);
    timer.unref();
  };
  // The activity rows not sent yet go up; one send at a time.
  const send = (): Promise<void> => {
    if (sending) return sending;
    const run = async (): Promise<void> => {
      try {
        if (!connected) return;
        await sendActivity(pool, opts.store, bench(), (seq, e) => refused(`activity row ${seq}`, e));
        // What the supervisor's page shows of the bench goes up within a second of changing, not at the next heartbeat.
        if (JSON.stringify(benchStatus()) !== lastStatus) await beatNow();
      } catch (e) {
        went(e);
      }
    };
    // `.finally` runs after the assignment, even when `run` ends at once (not connected).
    sending = run().finally(() => {
      sending = null;
    });
    return sending;
  };
  const scheduleActivity = (): void => {
    if (closed) return;
    activityTimer = setTimeout(() => void send().finally(scheduleActivity), opts.activityMs ?? 1000);
    activityTimer.unref();
  };
  const first = beat().finally(schedule);
  void first.finally(scheduleActivity);

  return {
    configured: true,
    source: opts.source ?? 'command_line',
    url: opts.url,
    status,
    async claim(orderKey, given): Promise<ClaimResult> {
      await first;
      // A claim taken by shipping (not by a scan) names the packer signed in too (issue 42 item 3).
      const packer = given ?? hooks.packerName();
      // A packer scanning while the warehouse is away asks again now (at most every 2 s), not at the next heartbeat:
      // a warehouse back since a moment is used at once.
      if (!connected && now() - lastRetry >= RETRY_ON_CLAIM_MS) {
        lastRetry = now();
        await beat();
      }
      if (!connected) return held.has(orderKey) ? { won: true } : { won: false, benchName: '', packer: null, since, offline: true };
      try {
        const out = await claimOrder(pool, orderKey, bench(), packer, opts.claimTimeoutS ?? opts.store.settings.get(ClaimTimeoutSetting));
        if (out.won) {
          hold(orderKey, true);
          return { won: true };
        }
        hold(orderKey, false);
        if ('shipped' in out) {
          // Shipped at another bench (or before a restart here): the bench's copy learns it now.
          void orders.pull();
          return { won: false, shipped: out.shipped, offline: false };
        }
        return { won: false, benchName: out.holder.benchName, packer: out.holder.packer, since: out.holder.since, offline: false };
      } catch (e) {
        went(e, `claim ${orderKey}`);
        if (isRefusal(e)) return { won: false, benchName: '', packer: null, since: null, offline: false };
        return held.has(orderKey) ? { won: true } : { won: false, benchName: '', packer: null, since, offline: true };
      }
    },
    async release(orderKey) {
      hold(orderKey, false);
      if (!connected) return;
      // A release often follows a shipment: the order's shipped state goes up.
      void orders.push();
      try {
        await releaseOrder(pool, orderKey, bench());
      } catch (e) {
        went(e, `release ${orderKey}`);
      }
    },
    async share(changes: readonly SharedChange[], mode: 'check' | 'force' = 'check') {
      await first;
      if (!connected) {
        const said = coreText('warehouseReadOnly', { time: clock(since) });
        throw new StationError('warehouse_offline', said.message, undefined, said.text);
      }
      try {
        // The version names the bench as it is called now (a rename reaches the warehouse with the next heartbeat).
        if (changes.length) await beatNow();
        await pushShared(pool, opts.store, changes, bench(), hooks.packerName(), mode);
      } catch (e) {
        if (e instanceof SharedConflictError) {
          await pull();
          const values = { bench: e.benchName, time: clock(e.at) };
          const said = e.packer ? coreText('sharedChangedElsewhereBy', { ...values, packer: e.packer }) : coreText('sharedChangedElsewhere', values);
          throw new StationError('changed_elsewhere', said.message, { [e.key]: [`changed at ${e.benchName} at ${clock(e.at)}`] }, said.text);
        }
        went(e);
        const said = coreText('warehouseNoAnswer', { reason: (e as Error).message });
        throw new StationError('warehouse_offline', said.message, undefined, said.text);
      }
      // The bench's copy takes the change from the warehouse (with anything newer), as every bench does.
      await pull();
    },
    shareOrders: () => {
      if (connected) void orders.push();
    },
    budget: () => budget,
    labelsAhead: () => (connected ? labelsAhead : null),
    bind,
    log,
    async requestClose(packer, timeoutMs = 120_000) {
      let answer: Awaited<ReturnType<typeof requestWarehouseClose>>;
      try {
        answer = await requestWarehouseClose(pool, bench().id, packer, timeoutMs);
      } catch (e) {
        went(e);
        const said = coreText('warehouseNoAnswer', { reason: (e as Error).message });
        throw new StationError('warehouse_offline', said.message, undefined, said.text);
      }
      if ('done' in answer) return answer.done;
      const said =
        'refused' in answer
          ? answer.refused === 'no_platform'
            ? coreText('warehouseCloseNoPlatform')
            : answer.refused === 'closing'
              ? coreText('warehouseCloseBusy')
              : coreText('warehouseCloseRefused', { reason: answer.refused })
          : coreText('warehouseCloseNoAnswer', { seconds: Math.round(timeoutMs / 1000) });
      throw new StationError('refused' in answer ? 'invalid_state' : 'timeout', said.message, undefined, said.text);
    },
    async lastClose() {
      if (!connected) return null;
      try {
        return await lastWarehouseClose(pool);
      } catch (e) {
        went(e);
        return null;
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (activityTimer) clearTimeout(activityTimer);
      await first.catch(() => undefined);
      // What was done up to the close goes up now when the warehouse answers (otherwise at the next start).
      await send();
      if (connected) await orders.push();
      await pull();
      const l = listener;
      listener = null;
      await l?.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
