/**
 * The sandbox's state kept in SQLite (better-sqlite3), written incrementally,
 * so a training sandbox used for years stays small and fast (issue 27). The
 * JSON state file (persist.ts) rewrites the whole state, about 8.5 KB a
 * shipment, after every call; here:
 *
 * - each shipment is one row of `shipments` (`id`, `body`): the shipment
 *   record with its carrier journey (lifecycle.ts), encoded by the generic
 *   codec (state-codec.ts) with identity kept inside the row; its label
 *   documents (base64 PDF and ZPL, most of its bytes) are a row of `labels`,
 *   written when the shipment gets a new label object;
 * - the event history and the credit movements are append-only lists: one
 *   row of `log` per item, appended, and deleted as the history drops its oldest;
 * - everything else (accounts, manifests, pickups, webhooks, books, ...) is the
 *   one row of `root`, walked generically as in persist.ts, with shipments and
 *   journeys referenced as `{"$ext": "s:<id>"}` / `{"$ext": "j:<id>"}` and the
 *   indexes that follow from the rows (`shipments`, `byTracking`,
 *   `lifecycle.journeys`, `lifecycle.active`) left out and rebuilt at load;
 * - a save writes only the rows whose text changed (compared by a SHA-1 of the
 *   text). The rows looked at are the shipments new since the last save, those
 *   noted as changed (`SandboxState.touch`: the carrier's steps, cancellation,
 *   manifest, label, COD status), those with a new label object, and a rolling
 *   window of {@link SqliteStateOptions.verifyBatch} others, so a change made
 *   without a note is still written within a few saves; `close` looks at every row.
 * - retention ({@link SqliteStateOptions.retentionDays}): a shipment delivered,
 *   returned or cancelled more than that many simulated days ago is removed
 *   from the state and its row deleted (at load, then at most once a minute).
 *
 * An existing JSON state file can be taken over once
 * ({@link SqliteStateOptions.legacyJsonFile}): loaded, written here, then
 * renamed `<file>.migrated-<timestamp>`.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { Journey } from './carrier/journey';
import type { ShipmentRecord } from './model';
import { SandboxStateError, StatePersistence, type PersistenceOptions } from './persist';
import type { SandboxState } from './state';
import { decodeFields, encodeState, restoreInto, type Json } from './state-codec';
import { DAY_MS, DERIVED, PRUNE_EVERY_MS, SETTLED_STATUS, fileStamp, logLists, openStateDb, sha1, withLabelStandIn } from './state-db-file';

/** Options of {@link SqliteStatePersistence}. */
export interface SqliteStateOptions extends PersistenceOptions {
  /** JSON state file (persist.ts) to take over when the database holds no state yet; renamed aside after. */
  legacyJsonFile?: string;
  /** Simulated days a delivered, returned or cancelled shipment is kept; whole days ≥ 1; default: for ever. */
  retentionDays?: number;
  /** Shipment rows re-checked at each save (rolling), in case one changed without `SandboxState.touch`; default 64. */
  verifyBatch?: number;
  /** Shipment rows decoded between two pauses of `loadGradually` (each slice ≈ 10–20 ms at the default 250). */
  loadSliceRows?: number;
}

/** What one save wrote (tests and the bench). */
export interface SaveStats {
  /** Shipment rows written (new or changed). */
  rowsWritten: number;
  /** Shipment rows deleted (retention, reset). */
  rowsDeleted: number;
  /** Whether the `root` row was written. */
  rootWritten: boolean;
  /** Shipments removed by retention in this save. */
  pruned: number;
  /** Rows appended to the append-only lists (event history, credit movements). */
  logRows: number;
}

/**
 * Keeps a sandbox's state in an SQLite file (see the module comment), with the
 * debounce, hooks and final save of {@link StatePersistence}.
 */
export class SqliteStatePersistence extends StatePersistence {
  private db: Database.Database | undefined;
  /** Shipment id → SHA-1 of its row as last written. */
  private readonly hashes = new Map<number, string>();
  /** The label object last written to `labels` per shipment (labels are replaced, never changed in place). */
  private labelsWritten = new WeakMap<ShipmentRecord, object>();
  /** Shipment records already seen by a save (a reset brings new objects under old ids). */
  private known = new WeakSet<ShipmentRecord>();
  private rootHash: string | undefined;
  private cursor = 0;
  /** Objects kept in rows of their own, with their keys: shipments, journeys, append-only lists. */
  private external = new WeakMap<object, string>();
  /** How many shipments the list had at the last save, and its last one (to find the new ones). */
  private seenCount = 0;
  private seenLast: ShipmentRecord | undefined;
  private lastPrune = 0;
  private full = false;
  /** Per append-only list (see {@link logLists}): the last item written, its `seq`, and how many rows the list has. */
  private readonly logs = new Map<string, { list: unknown[]; last: unknown; seq: number; rows: number }>();
  /** A {@link loadGradually} is under way. */
  private loading = false;
  /** The database was {@link setAside}: saves write nothing. */
  private abandoned = false;
  /** Shipments whose label row has not been read since start (see {@link deferLabel}). */
  private readonly unreadLabels = new WeakSet<ShipmentRecord>();
  private readonly retentionDays: number | undefined;
  private readonly verifyBatch: number;
  private readonly loadSliceRows: number;
  private readonly legacyJsonFile: string | undefined;
  /** What the last save wrote. */
  lastSave: SaveStats = { rowsWritten: 0, rowsDeleted: 0, rootWritten: false, pruned: 0, logRows: 0 };

  /**
   * @param file the SQLite file (its folder is created when missing)
   * @throws RangeError when `retentionDays` is not a whole number ≥ 1 or `verifyBatch` not ≥ 1.
   */
  constructor(state: SandboxState, file: string, opts: SqliteStateOptions = {}) {
    super(state, file, opts);
    if (opts.retentionDays !== undefined && !(Number.isInteger(opts.retentionDays) && opts.retentionDays >= 1)) {
      throw new RangeError(`retentionDays must be a whole number of days ≥ 1, got ${opts.retentionDays}`);
    }
    if (opts.verifyBatch !== undefined && !(Number.isInteger(opts.verifyBatch) && opts.verifyBatch >= 1)) {
      throw new RangeError(`verifyBatch must be a whole number ≥ 1, got ${opts.verifyBatch}`);
    }
    this.retentionDays = opts.retentionDays;
    this.verifyBatch = opts.verifyBatch ?? 64;
    this.loadSliceRows = opts.loadSliceRows ?? 250;
    this.legacyJsonFile = opts.legacyJsonFile;
  }

  private open(): Database.Database {
    this.db ??= openStateDb(this.file);
    return this.db;
  }

  /**
   * Loads the database into the state; when it holds no state yet and
   * `legacyJsonFile` exists, takes that file over (loaded, saved here,
   * renamed `<file>.migrated-<timestamp>`). Applies retention.
   * @returns false on a fresh start (nothing to load), true when loaded.
   * @throws SandboxStateError naming the file when the database or the JSON file cannot be used (left as they are).
   */
  override load(): boolean {
    try {
      const steps = this.loadSteps(this.open());
      for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
    } catch (e) {
      this.closeDb();
      throw e;
    }
  }

  /**
   * Opens the database and reads its root row, as {@link load} starts: what a quick look can find
   * wrong is found before {@link loadGradually} runs in the background.
   * @throws SandboxStateError naming the file (the database is then closed).
   */
  check(): void {
    try {
      const root = this.open().prepare<[], { body: string }>('SELECT body FROM root WHERE id = 1').get();
      if (root !== undefined) JSON.parse(root.body);
    } catch (e) {
      this.closeDb();
      throw e instanceof SandboxStateError ? e : new SandboxStateError(this.file, `Sandbox state database ${this.file} is not usable: ${(e as Error).message}`, { cause: e });
    }
  }

  /**
   * {@link load} in slices of `loadSliceRows` shipment rows, awaiting `pause()` between them,
   * so a process that also runs the station keeps answering while a large state loads (the training
   * platform: issue 27). The state is changed only at the end, at once. Saves wait for it.
   * @throws SandboxStateError as {@link load}; the database is then closed.
   */
  async loadGradually(pause: () => Promise<void>): Promise<boolean> {
    this.loading = true;
    try {
      const steps = this.loadSteps(this.open());
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) return step.value;
        await pause();
      }
    } catch (e) {
      this.closeDb();
      throw e;
    } finally {
      this.loading = false;
    }
  }

  /**
   * Moves the database (and its WAL) aside as `<file>.unusable-<timestamp>`, after a load failed
   * in the background: the next start then begins a fresh training day (electron/training). Later
   * saves write nothing. @returns the new name.
   */
  setAside(): string {
    this.closeDb();
    this.abandoned = true;
    const target = `${this.file}.unusable-${fileStamp(Date.now())}`;
    for (const ext of ['', '-wal', '-shm']) if (fs.existsSync(this.file + ext)) fs.renameSync(this.file + ext, target + ext);
    return target;
  }

  private closeDb(): void {
    this.db?.close();
    this.db = undefined;
  }

  private *loadSteps(db: Database.Database): Generator<void, boolean> {
    const root = db.prepare<[], { body: string }>('SELECT body FROM root WHERE id = 1').get();
    if (root === undefined) return this.migrate();
    try {
      // Labels (most of the file) are read when first asked for, not at start: only their ids here.
      const labelIds = new Set(db.prepare<[], number>('SELECT id FROM labels').pluck().all());
      const deferred = new Map<object, number>();
      const label = (key: string): object => {
        const id = key.startsWith('l:') ? Number(key.slice(2)) : NaN;
        if (!labelIds.has(id)) throw new Error(`reference to a missing label row "${key}"`);
        const stand = {};
        deferred.set(stand, id);
        return stand;
      };
      // Read as they are decoded (nothing else uses this connection until the load ends).
      const rows = db.prepare<[], { id: number; body: string }>('SELECT id, body FROM shipments ORDER BY id').iterate();
      const shipments = new Map<number, ShipmentRecord>();
      const journeys = new Map<number, Journey>();
      let n = 0;
      for (const row of rows) {
        if (++n % this.loadSliceRows === 0) yield;
        const f = decodeFields(JSON.parse(row.body) as Json, label);
        const s = f.shipment as ShipmentRecord;
        const labelId = deferred.get(s.label);
        if (labelId !== undefined) this.deferLabel(s, labelId);
        else this.labelsWritten.set(s, s.label);
        shipments.set(row.id, s);
        if (f.journey !== undefined) journeys.set(row.id, f.journey as Journey);
        this.hashes.set(row.id, sha1(row.body));
        this.known.add(s);
      }
      const logRows = db.prepare<[], { name: string; seq: number; body: string }>('SELECT name, seq, body FROM log ORDER BY name, seq').iterate();
      const lists = new Map<string, unknown[]>();
      for (const row of logRows) {
        if (++n % this.loadSliceRows === 0) yield;
        let list = lists.get(row.name);
        if (!list) lists.set(row.name, (list = []));
        list.push(decodeFields(JSON.parse(row.body) as Json).item);
        const log = this.logs.get(row.name) ?? { list, last: undefined, seq: 0, rows: 0 };
        log.seq = row.seq;
        log.rows++;
        this.logs.set(row.name, log);
      }
      const resolve = (key: string): object => {
        if (key.startsWith('log:')) {
          const list = lists.get(key.slice(4)) ?? [];
          lists.set(key.slice(4), list);
          return list;
        }
        const id = Number(key.slice(2));
        const o = key.startsWith('s:') ? shipments.get(id) : key.startsWith('j:') ? journeys.get(id) : undefined;
        if (o === undefined) throw new Error(`reference to a missing row "${key}"`);
        return o;
      };
      restoreInto(this.state, JSON.parse(root.body) as Json, resolve);
      this.state.shipments.length = 0;
      for (const s of shipments.values()) this.state.addShipment(s);
      this.state.lifecycle.adopt(journeys.values());
      // The lists were refilled in place: follow the live arrays, their last item as written.
      for (const [name, list] of logLists(this.state)) {
        const log = this.logs.get(name);
        if (log) Object.assign(log, { list, last: list.at(-1) });
      }
      this.rootHash = sha1(root.body);
    } catch (e) {
      throw new SandboxStateError(this.file, `Sandbox state database ${this.file} is not usable: ${(e as Error).message}`, { cause: e });
    }
    this.pruneNow();
    return true;
  }

  /**
   * Makes `s.label` read its row when first asked for (then kept). A label
   * set meanwhile replaces it as a plain property.
   * @throws SandboxStateError on that first read when the row is gone.
   */
  private deferLabel(s: ShipmentRecord, id: number): void {
    this.unreadLabels.add(s);
    Object.defineProperty(s, 'label', {
      configurable: true,
      enumerable: true,
      get: (): ShipmentRecord['label'] => {
        const row = this.open().prepare<[number], { body: string }>('SELECT body FROM labels WHERE id = ?').get(id);
        if (row === undefined) throw new SandboxStateError(this.file, `Sandbox state database ${this.file} is not usable: reference to a missing label row "l:${id}"`);
        const value = decodeFields(JSON.parse(row.body) as Json).label as ShipmentRecord['label'];
        this.settleLabel(s, value);
        this.labelsWritten.set(s, value);
        return value;
      },
      set: (value: ShipmentRecord['label']) => this.settleLabel(s, value),
    });
  }

  private settleLabel(s: ShipmentRecord, value: ShipmentRecord['label']): void {
    this.unreadLabels.delete(s);
    Object.defineProperty(s, 'label', { value, writable: true, enumerable: true, configurable: true });
  }

  private migrate(): boolean {
    const legacy = this.legacyJsonFile;
    if (legacy === undefined || !fs.existsSync(legacy)) return false;
    new StatePersistence(this.state, legacy).load();
    this.pruneNow();
    this.writeNow(true);
    let target = `${legacy}.migrated-${fileStamp(Date.now())}`;
    for (let n = 2; fs.existsSync(target); n++) target = `${legacy}.migrated-${fileStamp(Date.now())}-${n}`;
    fs.renameSync(legacy, target);
    return true;
  }

  /** Removes settled shipments older than the retention (see the module comment); returns how many. */
  private pruneNow(): number {
    this.lastPrune = Date.now();
    const days = this.retentionDays;
    if (days === undefined) return 0;
    const cutoff = this.state.clock.now().getTime() - days * DAY_MS;
    const gone = new Set<number>();
    for (const s of this.state.shipments) {
      const j = this.state.lifecycle.journeyOf(s);
      // Settled: cancelled, or delivered / returned with no carrier step left.
      if (s.cancelledAt === null && !(SETTLED_STATUS.has(s.statusCode) && j.steps !== null && j.steps.length === 0)) continue;
      const last = j.entries.at(-1)?.at;
      const at = s.deliveredAt ?? s.cancelledAt ?? last ?? s.createdAt;
      if (at.getTime() < cutoff) gone.add(s.id);
    }
    return this.state.forgetShipments(gone);
  }

  protected override write(): Promise<void> {
    // Nothing to write while the state is still being read, nor once it was set aside.
    if (this.loading || this.abandoned) return Promise.resolve();
    try {
      this.writeNow(this.full);
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /**
   * Writes the rows that changed (all shipment rows looked at when `all`).
   * @throws SandboxStateError when the database cannot be opened; SqliteError when a write fails.
   */
  private writeNow(all: boolean): void {
    const db = this.open();
    const state = this.state;
    const pruned = Date.now() - this.lastPrune >= PRUNE_EVERY_MS ? this.pruneNow() : 0;
    const list = state.shipments;
    // Shipments are appended: only those after the last one seen are new, unless
    // the list was cut (retention) or refilled (reset): then every one is looked at.
    const rescan = all || pruned > 0 || list.length < this.seenCount || (this.seenCount > 0 && list[this.seenCount - 1] !== this.seenLast);
    const look = new Set<ShipmentRecord>(state.takeChanged());
    for (let i = rescan ? 0 : this.seenCount; i < list.length; i++) {
      const s = list[i] as ShipmentRecord;
      if (all || !this.known.has(s)) look.add(s);
      this.external.set(s, `s:${s.id}`);
      this.external.set(state.lifecycle.journeyOf(s), `j:${s.id}`);
    }
    this.seenCount = list.length;
    this.seenLast = list.at(-1);
    if (this.cursor >= list.length) this.cursor = 0;
    for (let i = this.cursor; i < Math.min(list.length, this.cursor + this.verifyBatch); i++) look.add(list[i] as ShipmentRecord);
    this.cursor += this.verifyBatch;
    const live = rescan || this.hashes.size > list.length ? new Set(list.map((s) => s.id)) : undefined;
    if (rescan) {
      // A shipment noted before it was dropped (retention, reset) has no row any more.
      const current = new Set(list);
      for (const s of look) if (!current.has(s)) look.delete(s);
    }
    const external = this.external;
    const stats: SaveStats = { rowsWritten: 0, rowsDeleted: 0, rootWritten: false, pruned, logRows: 0 };
    const upsert = db.prepare('INSERT INTO shipments (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body');
    const upsertLabel = db.prepare('INSERT INTO labels (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body');
    const remove = db.prepare('DELETE FROM shipments WHERE id = ?');
    const removeLabel = db.prepare('DELETE FROM labels WHERE id = ?');
    const lists = logLists(state);
    for (const [name, l] of lists) external.set(l, `log:${name}`);
    const rootText = JSON.stringify(encodeState(state, external, DERIVED).json);
    const rootHash = sha1(rootText);
    db.transaction(() => {
      for (const s of look) {
        // The label (most of a shipment's bytes) has a row of its own, written when the shipment gets a new one.
        // A label not read since start is as written: its row stays, the shipment row names it.
        const unread = this.unreadLabels.has(s);
        if (!unread && (this.labelsWritten.get(s) !== s.label || all)) {
          upsertLabel.run(s.id, JSON.stringify(encodeState({ label: s.label }).json));
          this.labelsWritten.set(s, s.label);
        }
        const text = withLabelStandIn(s, unread, (label) => JSON.stringify(encodeState({ shipment: s, journey: state.lifecycle.journeyOf(s) }, new Map([[label, `l:${s.id}`]])).json));
        const h = sha1(text);
        this.known.add(s);
        if (this.hashes.get(s.id) === h) continue;
        upsert.run(s.id, text);
        this.hashes.set(s.id, h);
        stats.rowsWritten++;
      }
      if (live && this.hashes.size > live.size) {
        for (const id of [...this.hashes.keys()]) {
          if (live.has(id)) continue;
          remove.run(id);
          removeLabel.run(id);
          this.hashes.delete(id);
          stats.rowsDeleted++;
        }
      }
      for (const [name, list] of lists) stats.logRows += this.writeLog(db, name, list, all);
      if (rootHash !== this.rootHash) {
        db.prepare('INSERT INTO root (id, body) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body').run(rootText);
        this.rootHash = rootHash;
        stats.rootWritten = true;
      }
    })();
    this.lastSave = stats;
  }

  /**
   * Appends the items of `list` added since the last save as rows of `log`
   * (found after the last item written), deletes the rows of items dropped
   * from its head (the event history keeps the newest 10,000); rewrites the
   * list when the last item written is gone from it (a reset) or when `all`.
   * @returns rows written.
   */
  private writeLog(db: Database.Database, name: string, list: unknown[], all: boolean): number {
    let log = this.logs.get(name);
    if (!log) this.logs.set(name, (log = { list, last: undefined, seq: 0, rows: 0 }));
    let from = 0;
    if (!all && log.list === list && log.last !== undefined) {
      const at = list.lastIndexOf(log.last);
      from = at >= 0 ? at + 1 : 0;
      if (at < 0) all = true;
    } else if (log.last !== undefined || log.list !== list) all = true;
    if (all) {
      db.prepare('DELETE FROM log WHERE name = ?').run(name);
      log.rows = 0;
      from = 0;
    }
    const insert = db.prepare('INSERT INTO log (name, seq, body) VALUES (?, ?, ?)');
    for (let i = from; i < list.length; i++) {
      insert.run(name, ++log.seq, JSON.stringify(encodeState({ item: list[i] }).json));
      log.rows++;
    }
    if (log.rows > list.length) {
      db.prepare('DELETE FROM log WHERE name = ? AND seq <= ?').run(name, log.seq - list.length);
      log.rows = list.length;
    }
    Object.assign(log, { list, last: list.at(-1) });
    return list.length - from;
  }

  /** Final save looking at every row, then closes the database; later changes are not saved. */
  override async close(): Promise<void> {
    this.full = true;
    await this.save();
    await super.close();
    this.db?.close();
    this.db = undefined;
  }
}
