/**
 * "Am I the entry point?" for modules that can also run as a script
 * (`node --import tsx electron/host/cli.ts`), in a way that survives bundling.
 *
 * Run from sources, a module is the entry point when its own URL is the
 * script node was given. In a bundle every module shares the bundle's URL, so
 * that test would be true for all of them at once (a naive bundle of the
 * launcher starts two stations: launch.ts's and host/cli.ts's). The bundles
 * (build/bundle.mjs) define `__STATION_BUNDLE__`, and inside a bundle no
 * module runs itself: the bundle's caller starts it explicitly
 * (build/start.mjs calls the launcher's `main`).
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Replaced at build time by the bundle's name ("launcher", "main", "preload"); undeclared in sources. */
declare const __STATION_BUNDLE__: string | undefined;

/** Name of the bundle this code runs in, or null when it runs from the TypeScript sources. */
export function bundleName(): string | null {
  return typeof __STATION_BUNDLE__ === 'string' ? __STATION_BUNDLE__ : null;
}

/**
 * True when the module at `moduleUrl` (its `import.meta.url`) is the script
 * node was started with, and this code does not run inside a bundle.
 * `argv1` is `process.argv[1]` (symlinks resolved, as node does).
 */
export function isEntryPoint(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  if (bundleName() !== null || !argv1) return false;
  let script = argv1;
  try {
    script = realpathSync(argv1);
  } catch {
    // a script path that no longer resolves: compare as given
  }
  return moduleUrl === pathToFileURL(script).href;
}

/**
 * Calls `onOrphaned` once when this process's parent goes away (its parent
 * id changes, as it does on Linux and macOS when the parent dies). Checks every
 * `intervalMs` (default 250 ms) on an unref'd timer. Returns a function that stops watching.
 * Why: `npm start` runs us through `sh -c`; SIGTERM to npm kills that shell,
 * which does not pass the signal on, and the station would keep running.
 */
export function watchParent(onOrphaned: () => void, intervalMs = 250): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
