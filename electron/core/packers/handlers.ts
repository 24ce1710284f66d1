/** `packers.*` commands (issue 26): packers, sign-in by badge or PIN, the supervisor's unlock, the station's name. */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import type { StationContext } from '../common/context';
import { sharedKey } from '../common/services';
import { IdleMinutesSetting, StationNameSetting, type PackerSession } from './session';
import { packerView } from './views';

/** Wrong PINs in a row before PINs are refused for {@link PIN_LOCKOUT_MS} (a 4-digit PIN must not be guessed at the bench). */
const PIN_TRIES = 5;
const PIN_LOCKOUT_MS = 60_000;

/** Handlers of the `packers` domain, on the station context and the session. */
export function createPackersHandlers(ctx: StationContext, session: PackerSession) {
  const { store } = ctx;
  let wrongPins = 0;
  let pinsRefusedUntil = 0;
  /**
   * Runs a PIN check: refused while locked out; a wrong PIN (StationError `unknown_packer`) counts, a right one resets.
   * @throws StationError `unknown_packer` naming `pin`, also while locked out (with the seconds left).
   */
  const withPin = <T>(check: () => T): T => {
    const now = ctx.now();
    if (now < pinsRefusedUntil) {
      const s = Math.ceil((pinsRefusedUntil - now) / 1000);
      throw new StationError('unknown_packer', `pin: ${PIN_TRIES} wrong PINs in a row: PINs are refused for ${s} s more`, { pin: [`try again in ${s} s`] });
    }
    try {
      const out = check();
      wrongPins = 0;
      return out;
    } catch (e) {
      if (e instanceof StationError && e.code === 'unknown_packer' && ++wrongPins >= PIN_TRIES) {
        wrongPins = 0;
        pinsRefusedUntil = now + PIN_LOCKOUT_MS;
      }
      throw e;
    }
  };
  /**
   * Gives the warehouse the packer `id` as this bench saved it (with its PIN hash).
   * @throws StationError `changed_elsewhere` when another bench changed that packer first (this bench then has the other's)
   */
  const sharePacker = async (id: number): Promise<void> => {
    const p = store.packers.shared(id);
    if (p) await ctx.warehouse.share([{ key: sharedKey.packer(p.uid), value: p }]);
  };
  return {
    'packers.list': async () => store.packers.list().map(packerView),
    'packers.save': async (input) => {
      // Packers are the warehouse's: refused while it is away; checked and hashed here, then shared.
      await ctx.warehouse.share([]);
      const saved = store.packers.save(input);
      await sharePacker(saved.id);
      session.changed();
      return packerView(saved);
    },
    'packers.remove': async ({ id }) => {
      await ctx.warehouse.share([]);
      const uid = store.packers.shared(id)?.uid;
      const removed = store.packers.remove(id);
      if (removed && uid !== undefined) await ctx.warehouse.share([{ key: sharedKey.packer(uid), value: null }]);
      if (removed && session.current()?.id === id) session.signOut();
      else session.changed();
      return { removed };
    },
    'packers.session': async () => {
      session.current();
      return session.view();
    },
    'packers.signIn': async ({ badge, pin }) => {
      if (badge === undefined && pin !== undefined) {
        return withPin(() => {
          const p = store.packers.byPin(pin);
          if (!p) throw new StationError('unknown_packer', 'pin: no packer has this PIN', { pin: ['no packer has this pin'] });
          return session.signIn(p);
        });
      }
      const p = badge !== undefined ? store.packers.byBadge(badge) : undefined;
      if (!p) throw new StationError('unknown_packer', 'badge: no packer has this badge', { badge: ['no packer has this badge'] });
      return session.signIn(p);
    },
    'packers.signOut': async () => session.signOut(),
    'packers.unlock': async ({ pin }) => withPin(() => session.unlock(pin)),
    'packers.setStation': async ({ stationName, idleMinutes }) => {
      store.tx(() => {
        store.settings.set(StationNameSetting, stationName);
        store.settings.set(IdleMinutesSetting, idleMinutes);
      });
      return session.changed();
    },
  } satisfies Pick<Handlers, 'packers.list' | 'packers.save' | 'packers.remove' | 'packers.session' | 'packers.signIn' | 'packers.signOut' | 'packers.unlock' | 'packers.setStation'>;
}
