/**
 * Who is at the bench (issue 26): the packer signed in (by badge or PIN),
 * the idle sign-out, the supervisor's unlock of the settings that change
 * money or devices, and the station's name. Kept in memory: a restart
 * signs the packer out, the settings (station name, idle time) are in
 * SQLite. Every change is recorded in `activity` and sent as `packers.changed`.
 */
import { z } from 'zod';
import { StationError } from '../../../shared/contract/errors';
import type { PackerSessionView } from '../../../shared/contract/packers';
import { defineSetting, type PackerRecord, type Store } from '../store';
import type { StationEmitter } from '../common/events';
import { packerView } from './views';

/** Setting `station.name`: the bench's name ("Banco 3"), '' when unset. */
export const StationNameSetting = defineSetting('station.name', z.string().max(40), '');
/** Setting `packers.idleMinutes`: minutes without a command before the packer is signed out. */
export const IdleMinutesSetting = defineSetting('packers.idleMinutes', z.number().int().min(1).max(480), 15);

/** How long a supervisor's PIN unlocks the guarded settings, ms. */
const UNLOCK_MS = 5 * 60_000;

/** The session service (see file comment). */
export interface PackerSession {
  /** The session as the screens see it. */
  view(): PackerSessionView;
  /** The packer signed in (after the idle check), or null. */
  current(): PackerRecord | null;
  /** Notes a command now; signs the packer out first when idle longer than the setting. */
  touch(): void;
  /** Signs `packer` in (another one is signed out first). */
  signIn(packer: PackerRecord): PackerSessionView;
  signOut(): PackerSessionView;
  /** Unlocks the guarded settings for {@link UNLOCK_MS}. @throws StationError `unknown_packer` when the PIN is no supervisor's. */
  unlock(pin: string): PackerSessionView;
  /** @throws StationError `supervisor_required` unless packers are unset, a supervisor is signed in, or an unlock is running. */
  requireSupervisor(command: string): void;
  /** Who to record on an action now: packer id and name, and the station's name. */
  who(): { packerId: number | null; packerName: string | null; stationName: string | null };
  /** Sends the session as `packers.changed` (after the station settings changed). */
  changed(): PackerSessionView;
}

/** Builds the session on the store, the change emitter and the clock (ms). */
export function createPackerSession(store: Store, events: StationEmitter, now: () => number): PackerSession {
  let packer: PackerRecord | null = null;
  let lastSeen = now();
  let unlockedUntil = 0;

  const unlocked = (): boolean => !store.packers.any() || packer?.role === 'supervisor' || now() < unlockedUntil;
  const view = (): PackerSessionView => ({
    stationName: store.settings.get(StationNameSetting),
    packer: packer ? packerView(packer) : null,
    packersSet: store.packers.any(),
    idleMinutes: store.settings.get(IdleMinutesSetting),
    supervisorUnlocked: unlocked(),
  });
  const who = () => ({ packerId: packer?.id ?? null, packerName: packer?.name ?? null, stationName: store.settings.get(StationNameSetting) || null });
  const changed = (): PackerSessionView => {
    const v = view();
    events.emit('packers.changed', v);
    return v;
  };
  const out = (): void => {
    if (!packer) return;
    store.activity.record({ action: 'sign_out', ...who() });
    packer = null;
    unlockedUntil = 0;
  };
  const expireIdle = (): void => {
    if (packer && now() - lastSeen > store.settings.get(IdleMinutesSetting) * 60_000) {
      out();
      changed();
    }
  };

  return {
    view,
    current() {
      expireIdle();
      // A packer removed or changed meanwhile: follow the stored row.
      if (packer) packer = store.packers.get(packer.id) ?? null;
      return packer;
    },
    touch() {
      expireIdle();
      lastSeen = now();
    },
    signIn(p) {
      if (packer?.id !== p.id) {
        out();
        // An unlock is for the one who typed the PIN: a new packer starts locked.
        unlockedUntil = 0;
      }
      packer = p;
      lastSeen = now();
      store.activity.record({ action: 'sign_in', ...who() });
      return changed();
    },
    signOut() {
      out();
      return changed();
    },
    unlock(pin) {
      const p = store.packers.byPin(pin);
      if (!p || p.role !== 'supervisor') throw new StationError('unknown_packer', 'pin: no supervisor has this PIN', { pin: ['no supervisor has this PIN'] });
      unlockedUntil = now() + UNLOCK_MS;
      return changed();
    },
    requireSupervisor(command) {
      if (unlocked()) return;
      throw new StationError('supervisor_required', `${command} changes money or devices: a supervisor's PIN is needed (sign in as a supervisor or unlock with the PIN)`);
    },
    who,
    changed,
  };
}
