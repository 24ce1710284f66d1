/** Who is at the bench (issue 26): the session (`packers.session`, event `packers.changed`), sign-in by PIN, sign-out. */
import { create } from 'zustand';
import type { PackerSessionView } from '../../../shared/contract';
import { invoke } from '../api';
import { t } from '../lib/i18n';
import { useApp } from './app';

interface PackersState {
  session: PackerSessionView | null;
  /** Asks the station again (at start, and now and then so an idle sign-out shows). */
  load(): Promise<void>;
  /** The session the station sent with `packers.changed`. */
  setSession(s: PackerSessionView): void;
  signOut(): Promise<void>;
  /** Signs in by PIN; the error (naming `pin`) is shown by the caller's field. */
  signInPin(pin: string): Promise<void>;
}

/** Packers store (see file comment). */
export const usePackers = create<PackersState>()((set) => ({
  session: null,
  async load() {
    try {
      set({ session: await invoke('packers.session', {}) });
    } catch {
      // The header keeps the last known session; the next event or poll brings it back.
    }
  },
  setSession(s) {
    set({ session: s });
  },
  async signOut() {
    try {
      set({ session: await invoke('packers.signOut', {}) });
    } catch (e) {
      useApp.getState().fail(t('packers.signInFailed'), e);
    }
  },
  async signInPin(pin) {
    const s = await invoke('packers.signIn', { pin });
    set({ session: s });
    if (s.packer) useApp.getState().flash('ok', t('packers.signedIn', { name: s.packer.name }), t('packers.signedInDetail'));
  },
}));
