/**
 * The Electron shell's only IPC names and the app's own origin, defined once
 * (DESIGN.md "No channel name is written as a string anywhere else").
 * Imported by main and by the preload bundle; no electron or node imports here.
 */
import type { StationErrorShape } from '../../shared/contract';

/** renderer -> main: `invoke(IPC_INVOKE, commandName, input)` answered with an {@link IpcResult}. */
export const IPC_INVOKE = 'station:invoke';
/** main -> renderer: `send(IPC_EVENT, eventName, payload)` for every StationEvent. */
export const IPC_EVENT = 'station:event';

/** Privileged scheme serving `dist/renderer` (no file:// pages). */
export const APP_SCHEME = 'station';
/** Host of the app scheme; the page is `station://app/index.html`. */
export const APP_HOST = 'app';
/** The renderer's page, `station://app/index.html`: the only URL the window may show. */
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * What main answers on IPC_INVOKE. Errors travel as data because Electron
 * keeps only the message of an Error thrown across `ipcMain.handle`.
 */
export type IpcResult = { ok: true; value: unknown } | { ok: false; error: StationErrorShape };
