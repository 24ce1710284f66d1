/**
 * Who may open the supervisor's page (issue 35 item 5): a packer of the warehouse (the shared `packer:<uid>`
 * keys) whose role is supervisor, by PIN (checked against its salted hash with the benches' own
 * `pinMatches`) or by badge. Five wrong tries in a row refuse every try for a minute, as at the bench
 * (electron/core/packers/handlers.ts). A signed-in supervisor gets a session: a random token (32 bytes,
 * base64url) kept in memory only, for 12 hours; the page carries it in an HttpOnly cookie.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { pinMatches } from '../core/store';

/** Wrong tries in a row before every try is refused for {@link LOCKOUT_MS}. */
const TRIES = 5;
const LOCKOUT_MS = 60_000;
/** How long a session lasts, ms. */
const SESSION_MS = 12 * 60 * 60 * 1000;

/** The signed-in supervisor, as the page may show it (no PIN, no hash, no badge). */
interface Supervisor {
  uid: string;
  name: string;
}

/** The outcome of a try: signed in (with the session token), refused, or locked out (seconds left). */
type SignInOutcome = { ok: true; token: string; supervisor: Supervisor } | { ok: false; reason: 'refused' } | { ok: false; reason: 'locked'; seconds: number };

/** Sign-in and sessions of one running page. */
export interface Sessions {
  /** Tries a PIN or a badge (exactly one is given) against the warehouse's supervisors. */
  signIn(by: { pin?: string; badge?: string }): Promise<SignInOutcome>;
  /** The supervisor of a session token, or null (unknown, expired, signed out). */
  supervisorOf(token: string | undefined): Supervisor | null;
  /** Ends the session of `token` (nothing when unknown). */
  signOut(token: string | undefined): void;
}

/**
 * The sign-in of the page on the warehouse `db`.
 * @param now the clock, epoch ms (tests move it)
 */
export function createSessions(db: Pool, now: () => number = Date.now): Sessions {
  const sessions = new Map<string, Supervisor & { until: number }>();
  let wrong = 0;
  let refusedUntil = 0;

  /** The warehouse's supervisors, with what a try is checked against. */
  const supervisors = async () =>
    (
      await db.query<{ value: { uid?: unknown; name?: unknown; badge?: unknown; pinHash?: unknown } }>(
        `SELECT value FROM shared WHERE key LIKE 'packer:%' AND value IS NOT NULL AND value->>'role' = 'supervisor'`,
      )
    ).rows.flatMap(({ value: v }) =>
      typeof v.uid === 'string' && typeof v.name === 'string'
        ? [{ uid: v.uid, name: v.name, badge: typeof v.badge === 'string' ? v.badge : null, pinHash: typeof v.pinHash === 'string' ? v.pinHash : null }]
        : [],
    );

  return {
    async signIn({ pin, badge }) {
      const t = now();
      if (t < refusedUntil) return { ok: false, reason: 'locked', seconds: Math.ceil((refusedUntil - t) / 1000) };
      const all = await supervisors();
      const found =
        typeof pin === 'string' && pin !== ''
          ? all.find((s) => s.pinHash !== null && pinMatches(s.pinHash, pin))
          : typeof badge === 'string' && badge !== ''
            ? all.find((s) => s.badge === badge)
            : undefined;
      if (!found) {
        if (++wrong >= TRIES) {
          wrong = 0;
          refusedUntil = t + LOCKOUT_MS;
        }
        return { ok: false, reason: 'refused' };
      }
      wrong = 0;
      for (const [k, s] of sessions) if (s.until <= t) sessions.delete(k);
      const token = randomBytes(32).toString('base64url');
      const supervisor = { uid: found.uid, name: found.name };
      sessions.set(token, { ...supervisor, until: t + SESSION_MS });
      return { ok: true, token, supervisor };
    },
    supervisorOf(token) {
      if (!token) return null;
      const s = sessions.get(token);
      if (!s) return null;
      if (s.until <= now()) {
        sessions.delete(token);
        return null;
      }
      return { uid: s.uid, name: s.name };
    },
    signOut(token) {
      if (token) sessions.delete(token);
    },
  };
}
