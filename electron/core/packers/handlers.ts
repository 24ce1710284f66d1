/** `packers.*` commands (issue 26): packers, sign-in by badge or PIN, the supervisor's unlock, the station's name. */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import type { StationContext } from '../common/context';
import { IdleMinutesSetting, StationNameSetting, type PackerSession } from './session';

/** Handlers of the `packers` domain, on the station context and the session. */
export function createPackersHandlers(ctx: StationContext, session: PackerSession) {
  const { store } = ctx;
  return {
    'packers.list': async () => store.packers.list(),
    'packers.save': async (input) => {
      const saved = store.packers.save(input);
      session.changed();
      return saved;
    },
    'packers.remove': async ({ id }) => {
      const removed = store.packers.remove(id);
      if (removed && session.current()?.id === id) session.signOut();
      else session.changed();
      return { removed };
    },
    'packers.session': async () => {
      session.current();
      return session.view();
    },
    'packers.signIn': async ({ badge, pin }) => {
      const p = badge !== undefined ? store.packers.byBadge(badge) : pin !== undefined ? store.packers.byPin(pin) : undefined;
      if (!p) {
        const field = badge !== undefined ? 'badge' : 'pin';
        throw new StationError('unknown_packer', `${field}: no packer has this ${field === 'badge' ? 'badge' : 'PIN'}`, { [field]: [`no packer has this ${field}`] });
      }
      return session.signIn(p);
    },
    'packers.signOut': async () => session.signOut(),
    'packers.unlock': async ({ pin }) => session.unlock(pin),
    'packers.setStation': async ({ stationName, idleMinutes }) => {
      store.tx(() => {
        store.settings.set(StationNameSetting, stationName);
        store.settings.set(IdleMinutesSetting, idleMinutes);
      });
      return session.changed();
    },
  } satisfies Pick<Handlers, 'packers.list' | 'packers.save' | 'packers.remove' | 'packers.session' | 'packers.signIn' | 'packers.signOut' | 'packers.unlock' | 'packers.setStation'>;
}
