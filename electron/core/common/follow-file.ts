/**
 * Following a shared file (issue 24 item 2): a warehouse keeps one rules
 * file and one product file on a network share for all its benches. The
 * station checks the file every few seconds (its mtime and size, then a
 * SHA-256 of its content), applies a new version through the domain's own
 * import (all or nothing), and keeps the last good copy running when the
 * share is away or the file is refused; the version running, when it was
 * read and the last problem are kept in a setting, so a restart shows them.
 * Polling rather than a file watcher: change events do not cross SMB/NFS
 * shares reliably, and a share that comes back must be read again.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { FollowedFileView } from '../../../shared/contract/rules';
import { defineSetting, type SettingDef, type Store } from '../store';
import { errorSummary } from './errors';

/** How often a followed file is looked at, ms. */
const FOLLOW_INTERVAL_MS = 5_000;

const Version = z.object({ mtime: z.string().nullable(), hash: z.string(), label: z.string() });
const FollowState = z.object({ path: z.string().nullable(), version: Version.nullable(), loadedAt: z.string().nullable(), error: z.string().nullable() });

const NONE: FollowedFileView = { path: null, version: null, loadedAt: null, error: null };

/** Declares the setting that keeps a followed file's state (`<domain>.follow`). */
export function followSetting(key: string): SettingDef<FollowedFileView> {
  return defineSetting(key, FollowState, NONE);
}

/** A followed file: its state, a new path, a check now, the timer. */
export interface FileFollower {
  /** Where the data comes from and the version running. */
  status(): FollowedFileView;
  /** Follows `path` (read at once; the same path is read again), or stops following (null: the data stays as last read). */
  setPath(path: string | null): Promise<FollowedFileView>;
  /** Looks at the file now: reads and applies it when it changed. Never throws: a problem is kept in `error`. */
  check(): Promise<FollowedFileView>;
  /** Starts checking every {@link FOLLOW_INTERVAL_MS} (the timer does not keep the process alive). */
  start(): void;
  /** Stops the timer; a check under way finishes. */
  stop(): Promise<void>;
}

/**
 * Builds a follower.
 * @param apply reads the file's text into the station (throws, with a message naming row/rule and
 *   field, to refuse it: nothing is changed); returns the version's own label (a file's `revision`), if any
 * @param onChange called after the state changed (a new version or a new problem)
 */
export function createFileFollower(opts: {
  store: Store;
  setting: SettingDef<FollowedFileView>;
  now: () => number;
  apply: (content: string) => { label?: string };
  onChange: (view: FollowedFileView) => void;
  intervalMs?: number;
}): FileFollower {
  const { store, setting } = opts;
  let seen: { path: string; mtimeMs: number; size: number } | null = null;
  let running: Promise<FollowedFileView> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;

  const save = (next: FollowedFileView): FollowedFileView => {
    const before = store.settings.get(setting);
    if (JSON.stringify(before) !== JSON.stringify(next)) {
      store.settings.set(setting, next);
      opts.onChange(next);
    }
    return next;
  };

  const look = async (): Promise<FollowedFileView> => {
    const state = store.settings.get(setting);
    const path = state.path;
    if (path === null) return state;
    const keeping = state.version ? ` Still running ${state.version.label}.` : '';
    let info: { mtimeMs: number; size: number };
    try {
      info = await stat(path);
    } catch (e) {
      seen = null;
      return save({ ...state, error: `Shared file not reachable: ${errorSummary(e).message}.${keeping}` });
    }
    if (seen && seen.path === path && seen.mtimeMs === info.mtimeMs && seen.size === info.size && state.version) return state;
    let content: string;
    try {
      content = await readFile(path, 'utf8');
    } catch (e) {
      return save({ ...state, error: `Shared file not readable: ${errorSummary(e).message}.${keeping}` });
    }
    const hash = createHash('sha256').update(content).digest('hex');
    const mtime = new Date(info.mtimeMs).toISOString();
    seen = { path, mtimeMs: info.mtimeMs, size: info.size };
    if (state.version?.hash === hash) return save({ ...state, version: { ...state.version, mtime }, error: null });
    try {
      const { label } = opts.apply(content);
      const version = { mtime, hash, label: label ?? `${mtime.slice(0, 16).replace('T', ' ')} · ${hash.slice(0, 8)}` };
      return save({ path, version, loadedAt: new Date(opts.now()).toISOString(), error: null });
    } catch (e) {
      return save({ ...state, error: `Shared file refused: ${errorSummary(e).message}${keeping}` });
    }
  };

  const check = (): Promise<FollowedFileView> => {
    running ??= look().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    status: () => store.settings.get(setting),
    async setPath(path) {
      if (running) await running.catch(() => undefined);
      const state = store.settings.get(setting);
      seen = null;
      if (path === null) return save({ ...state, path: null, error: null });
      return path === state.path ? check() : (save({ path, version: null, loadedAt: null, error: null }), check());
    },
    check,
    start() {
      if (timer) return;
      timer = setInterval(() => void check().catch(() => undefined), opts.intervalMs ?? FOLLOW_INTERVAL_MS);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (running) await running.catch(() => undefined);
    },
  };
}
