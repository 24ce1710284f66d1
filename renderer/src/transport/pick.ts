/**
 * Picks the transport once at start (DESIGN.md "One contract"): the preload
 * bridge `window.station` inside Electron, else HTTP to the headless host
 * that served this page, with the launch token taken from the address.
 */
import type { StationApi } from '../../../shared/contract';
import { t } from '../lib/i18n';
import { createHttpStation, tokenFromLocation, type LinkState } from './http';

const TOKEN_KEY = 'station.token';

declare global {
  interface Window {
    /** Set by electron/preload when running inside the Electron shell. */
    station?: StationApi;
  }
}

/** The chosen transport, or why none could be set up. */
export type PickedTransport =
  | { kind: 'electron' | 'http'; api: StationApi }
  | { kind: 'none'; reason: string };

/**
 * Chooses the transport. For HTTP, the token is read from `#token=` / `?token=`,
 * kept in sessionStorage (a reload keeps working) and removed from the address
 * bar so it is not on screen.
 */
export function pickTransport(win: Window, onLink: (s: LinkState) => void): PickedTransport {
  if (win.station && typeof win.station.invoke === 'function') {
    onLink('up');
    return { kind: 'electron', api: win.station };
  }
  let token = tokenFromLocation(win.location);
  if (token) {
    try {
      win.sessionStorage.setItem(TOKEN_KEY, token);
    } catch {
      // storage disabled: the token lives for this page only
    }
    win.history.replaceState(null, '', win.location.pathname);
  } else {
    try {
      token = win.sessionStorage.getItem(TOKEN_KEY);
    } catch {
      token = null;
    }
  }
  if (!token) return { kind: 'none', reason: t('transport.noToken') };
  return { kind: 'http', api: createHttpStation({ origin: win.location.origin, token, onLink }) };
}
