/**
 * State persistence and reset of the sandbox, generic over {@link SandboxState}
 * so fields added later (by any module) are picked up without edits here
 * (the walk and the encoding: state-codec.ts).
 *
 * The state is walked from the root. Each own field is, by its value:
 * - data: primitives, `Date`, arrays, `Map`, `Set`, plain objects, byte
 *   arrays, nested to any depth, containing only data ("pure") — saved to the
 *   state file and replaced on reset (collections refilled in place, so a
 *   module holding the old array or map sees the new content);
 * - an instance of one of the sandbox's classes (the lifecycle, the webhook
 *   service, the clock, ...) — the object itself is kept and its own fields
 *   are walked the same way (so their collections are saved too);
 * - a function, a Node built-in (timers, promises, abort controllers,
 *   emitters) or data holding one (e.g. a listener set) — left as it is:
 *   subscribers, settings with callbacks and timers survive a reset and are
 *   rebuilt by the code after a restart. `kept` lists them.
 * `tokens` is never saved nor reset: access tokens die with the process
 * (clients renew on 401) and survive a reset (same clients). Top-level
 * functions (the tracking-number PRNG) are replaced on reset only.
 *
 * The encoding keeps object identity across the whole state (a shipment in
 * `shipments`, in the tracking index and in a lifecycle journey is one object
 * again after loading) and tags what JSON cannot hold with `{"$t": ...}`:
 * `Date`, `Map`, `Set`, `undefined`, non-finite numbers, bytes; `Instance`
 * marks a walked class instance.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SimClock } from './clock';
import type { SandboxSeed } from './model';
import { SandboxState } from './state';
import { encodeState, restoreInto, type Json } from './state-codec';

/** Format marker of a state file. */
const STATE_FILE_FORMAT = 'shipping-station-sandbox-state';
/** Version of the state file layout. */
const STATE_FILE_VERSION = 1;

// ---- snapshot of a state ----

/** A state file's content. */
export interface StateSnapshot {
  format: typeof STATE_FILE_FORMAT;
  version: number;
  /** Real time of the save. */
  savedAt: string;
  /** Simulated time of the save (information; the clock's offset is among the fields). */
  simulatedAt: string;
  fields: Json;
  /** Paths of fields left live (not saved): functions' holders, listener sets, data holding timers. */
  kept: string[];
}

/** Snapshot of every saveable field of `state`. */
export function snapshotState(state: SandboxState): StateSnapshot {
  const { json, kept } = encodeState(state);
  return {
    format: STATE_FILE_FORMAT,
    version: STATE_FILE_VERSION,
    savedAt: new Date().toISOString(),
    simulatedAt: state.clock.now().toISOString(),
    fields: json,
    kept,
  };
}

/**
 * Loads a snapshot into `state` (see the module comment). Fields the
 * snapshot lacks (added since) keep their fresh value.
 * @returns paths of snapshot fields that were not applied (removed, or of another kind/shape now).
 * @throws Error when the format or version is not this one, or the content is damaged.
 */
export function applySnapshot(state: SandboxState, snap: StateSnapshot): string[] {
  if (snap.format !== STATE_FILE_FORMAT) throw new Error(`not a sandbox state file (format "${String(snap.format)}")`);
  if (snap.version !== STATE_FILE_VERSION) throw new Error(`state file version ${snap.version} is not supported (expected ${STATE_FILE_VERSION})`);
  return restoreInto(state, snap.fields);
}

/**
 * Resets `state` to a fresh one built from `seed`: saveable fields are
 * replaced (collections refilled in place), top-level functions (the PRNG)
 * replaced; live fields, `tokens` and the simulated time are kept.
 */
export function resetState(state: SandboxState, seed: SandboxSeed): void {
  const now = state.clock.now();
  // A throwaway clock at the same instant: the fresh state must not subscribe to the live clock.
  const fresh = new SandboxState(seed, new SimClock(() => now));
  restoreInto(state, encodeState(fresh).json);
  const rec = state as unknown as Record<string, unknown>;
  const freshRec = fresh as unknown as Record<string, unknown>;
  for (const key of Object.keys(fresh)) if (typeof freshRec[key] === 'function') rec[key] = freshRec[key];
  state.clock.set(now);
}

// ---- the state file ----

/** Options of {@link StatePersistence}. */
export interface PersistenceOptions {
  /** Quiet time after the last change before saving, ms (real time); default 250. */
  debounceMs?: number;
  /** Where save failures go; default stderr. */
  onError?: (err: unknown) => void;
}


/**
 * A state file that exists but cannot be used (unreadable, not JSON, another
 * format or version). `file` is its path; the file is left as it is. Callers
 * that own the file (training mode) test for this class, never the message.
 */
export class SandboxStateError extends Error {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SandboxStateError';
  }
}

/**
 * Keeps a sandbox's state in a JSON file: {@link load} at start, a debounced
 * atomic save (temp file in the same folder, then rename) after each change
 * ({@link markDirty}; {@link install} marks every answered call), and a final
 * save on {@link close}.
 */
export class StatePersistence {
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private dirty = false;
  private closed = false;
  private seq = 0;
  private readonly debounceMs: number;
  private readonly onError: (err: unknown) => void;

  /** @param file path of the state file (its folder is created when missing). */
  constructor(
    protected readonly state: SandboxState,
    readonly file: string,
    opts: PersistenceOptions = {},
  ) {
    this.debounceMs = opts.debounceMs ?? 250;
    this.onError = opts.onError ?? ((err) => process.stderr.write(`sandbox: cannot save state to ${file}: ${err instanceof Error ? err.message : String(err)}\n`));
  }

  /**
   * Loads the file into the state when it exists.
   * @returns false when there is no file (fresh start), true when loaded.
   * @throws SandboxStateError naming the file when it exists but cannot be read or is not a state file (never overwritten then).
   */
  load(): boolean {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      // The cause keeps the errno (EACCES): a file this user may not read is not a broken one.
      throw new SandboxStateError(this.file, `Sandbox state file ${this.file} cannot be read: ${(e as Error).message}`, { cause: e });
    }
    let snap: StateSnapshot;
    try {
      snap = JSON.parse(text) as StateSnapshot;
      applySnapshot(this.state, snap);
    } catch (e) {
      throw new SandboxStateError(this.file, `Sandbox state file ${this.file} is not usable: ${(e as Error).message}`);
    }
    return true;
  }

  /** Schedules a save after the debounce delay (restarted by each call). */
  markDirty(): void {
    if (this.closed) return;
    this.dirty = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.debounceMs);
    this.timer.unref();
  }

  /** Saves now if anything changed since the last save; resolves when written. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty) return this.chain;
    this.dirty = false;
    this.chain = this.chain.then(() => this.write()).catch((err: unknown) => this.onError(err));
    return this.chain;
  }

  /** Saves unconditionally (e.g. right after loading or a reset). */
  save(): Promise<void> {
    this.dirty = true;
    return this.flush();
  }

  /** Writes the whole state (the JSON file here; state-db.ts writes what changed). */
  protected async write(): Promise<void> {
    const text = JSON.stringify(snapshotState(this.state));
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.${++this.seq}.tmp`;
    try {
      // Owner only: the state holds the clients' secrets and the recipients' addresses.
      await writeFile(tmp, text, { encoding: 'utf8', mode: 0o600 });
      await rename(tmp, this.file);
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Marks the state dirty on every answered call (also reads: reading a
   * shipment may move its simulated carrier progress), from `onSend` so a
   * call whose connection is then dropped (faults) is saved too.
   */
  install(app: FastifyInstance): void {
    app.addHook('onSend', async (_req, _reply, payload) => {
      this.markDirty();
      return payload;
    });
  }

  /** Final save; later changes are not saved. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }
}
