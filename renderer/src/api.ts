/**
 * The one StationApi the stores call, set once at start by main.tsx from the
 * picked transport (tests set a fake). Stores never know which transport it is.
 */
import type { CommandInput, CommandName, CommandOutput, EventName, StationApi, StationEvents } from '../../shared/contract';

let current: StationApi | null = null;
let electron = false;

/** Installs the transport (once at start; again in tests). `inElectron`: the preload bridge is in use. */
export function setStation(api: StationApi, inElectron = false): void {
  current = api;
  electron = inElectron;
}

/** True inside the Electron shell (no new windows there: PDFs are saved, not opened in a tab). */
export function isElectron(): boolean {
  return electron;
}

/** Runs a station command through the installed transport. Rejects with StationError. */
export function invoke<K extends CommandName>(name: K, input: CommandInput<K>): Promise<CommandOutput<K>> {
  if (!current) return Promise.reject(new Error('Station transport not set'));
  return current.invoke(name, input);
}

/** Subscribes to a station event; returns the unsubscribe function (no-op before start). */
export function on<E extends EventName>(event: E, listener: (payload: StationEvents[E]) => void): () => void {
  return current ? current.on(event, listener) : () => {};
}
