/**
 * Packers (table `packers`, migration 10, issue 26). A PIN is kept only as a
 * salted scrypt hash (`scrypt$<salt hex>$<hash hex>`); signing in by PIN
 * compares against every packer's hash (a bench has a handful of packers).
 * Removing a packer marks the row (`removed_at`) so their history keeps them.
 * Returns records; the packers domain maps them to views (packers/views.ts).
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { PackerRole } from '../../../shared/contract/packers';
import { StoreError } from './errors';
import { isoNow, type Clock } from './sql';

/**
 * One packer not removed: row id, name, badge barcode (null when none),
 * whether a PIN is set (the PIN itself and its hash never leave the
 * repository), and the role.
 */
export interface PackerRecord {
  id: number;
  name: string;
  badge: string | null;
  hasPin: boolean;
  role: PackerRole;
}

/** What `save` takes: `pin` undefined keeps the stored PIN, null removes it. */
interface PackerDraft {
  id?: number;
  name: string;
  badge?: string | null;
  pin?: string | null;
  role: PackerRole;
}

/** Repository of packers. */
export interface PackersRepo {
  /** Packers not removed, by name. */
  list(): PackerRecord[];
  /** True when at least one packer is set (the station then asks who packs). */
  any(): boolean;
  get(id: number): PackerRecord | undefined;
  /** The packer whose badge is `badge` (exact), or undefined. */
  byBadge(badge: string): PackerRecord | undefined;
  /** The packer whose PIN is `pin`, or undefined. */
  byPin(pin: string): PackerRecord | undefined;
  /**
   * Adds or changes a packer.
   * @throws StoreError `invalid_input` naming `badge` or `pin` when another packer has it,
   *   `role` when the first packer is not a supervisor or the last supervisor would stop being one;
   *   `not_found` for an unknown id.
   */
  save(draft: PackerDraft): PackerRecord;
  /** Removes a packer (kept for history). @throws StoreError `invalid_input` naming `id` for the last supervisor while others remain. */
  remove(id: number): boolean;
}

interface Row {
  id: number;
  name: string;
  badge: string | null;
  pin_hash: string | null;
  role: PackerRole;
}

const record = (r: Row): PackerRecord => ({ id: r.id, name: r.name, badge: r.badge, hasPin: r.pin_hash !== null, role: r.role });

/** `scrypt$salt$hash` of a PIN. */
function hashPin(pin: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(pin, salt, 32).toString('hex')}`;
}

/** True when `pin` matches the stored `scrypt$salt$hash`. */
function pinMatches(stored: string, pin: string): boolean {
  const [kind, saltHex, hashHex] = stored.split('$');
  if (kind !== 'scrypt' || !saltHex || !hashHex) return false;
  const want = Buffer.from(hashHex, 'hex');
  const got = scryptSync(pin, Buffer.from(saltHex, 'hex'), want.length);
  return timingSafeEqual(want, got);
}

/** Builds the packers repository on an open database. */
export function createPackersRepo(db: Database.Database, clock: Clock): PackersRepo {
  const selectAll = db.prepare<[], Row>('SELECT id, name, badge, pin_hash, role FROM packers WHERE removed_at IS NULL ORDER BY name COLLATE NOCASE, id');
  const selectOne = db.prepare<[number], Row>('SELECT id, name, badge, pin_hash, role FROM packers WHERE id = ? AND removed_at IS NULL');
  const selectBadge = db.prepare<[string], Row>('SELECT id, name, badge, pin_hash, role FROM packers WHERE badge = ? AND removed_at IS NULL');
  const anyRow = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM packers WHERE removed_at IS NULL');
  const supervisors = db.prepare<[number], { n: number }>("SELECT count(*) AS n FROM packers WHERE removed_at IS NULL AND role = 'supervisor' AND id <> ?");
  const insert = db.prepare<[string, string | null, string | null, string, string, string], never>(
    'INSERT INTO packers (name, badge, pin_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const update = db.prepare<[string, string | null, string | null, string, string, number], never>(
    'UPDATE packers SET name = ?, badge = ?, pin_hash = ?, role = ?, updated_at = ? WHERE id = ?',
  );
  // A removed packer's badge is given back so it can be handed to someone else.
  const markRemoved = db.prepare<[string, string, number], never>('UPDATE packers SET removed_at = ?, badge = NULL, pin_hash = NULL, updated_at = ? WHERE id = ? AND removed_at IS NULL');

  const byPinRow = (pin: string): Row | undefined => selectAll.all().find((r) => r.pin_hash !== null && pinMatches(r.pin_hash, pin));

  return {
    list: () => selectAll.all().map(record),
    any: () => (anyRow.get()?.n ?? 0) > 0,
    get(id) {
      const r = selectOne.get(id);
      return r ? record(r) : undefined;
    },
    byBadge(badge) {
      const r = selectBadge.get(badge);
      return r ? record(r) : undefined;
    },
    byPin(pin) {
      const r = byPinRow(pin);
      return r ? record(r) : undefined;
    },
    save(draft) {
      return db.transaction((): PackerRecord => {
        const before = draft.id !== undefined ? selectOne.get(draft.id) : undefined;
        if (draft.id !== undefined && !before) throw new StoreError('not_found', `Packer ${draft.id} not found`);
        const badge = draft.badge === undefined ? (before?.badge ?? null) : draft.badge;
        if (badge !== null) {
          const other = selectBadge.get(badge);
          if (other && other.id !== draft.id) throw new StoreError('invalid_input', `badge: ${other.name} already has this badge`, { badge: [`${other.name} already has this badge`] });
        }
        if (draft.pin) {
          const other = byPinRow(draft.pin);
          if (other && other.id !== draft.id) throw new StoreError('invalid_input', 'pin: another packer has this PIN; choose another', { pin: ['another packer has this PIN'] });
        }
        if (draft.role !== 'supervisor' && (supervisors.get(draft.id ?? 0)?.n ?? 0) === 0) {
          throw new StoreError('invalid_input', 'role: the station needs a supervisor: make this packer a supervisor, or another one first', { role: ['the station needs a supervisor'] });
        }
        const pinHash = draft.pin === undefined ? (before?.pin_hash ?? null) : draft.pin === null ? null : hashPin(draft.pin);
        if (draft.role === 'supervisor' && pinHash === null) {
          throw new StoreError('invalid_input', 'pin: a supervisor needs a PIN', { pin: ['a supervisor needs a PIN'] });
        }
        const now = isoNow(clock);
        let id = draft.id;
        if (id === undefined) id = Number(insert.run(draft.name, badge, pinHash, draft.role, now, now).lastInsertRowid);
        else update.run(draft.name, badge, pinHash, draft.role, now, id);
        const saved = selectOne.get(id);
        if (!saved) throw new StoreError('not_found', `Packer ${id} not found`);
        return record(saved);
      })();
    },
    remove(id) {
      return db.transaction((): boolean => {
        const r = selectOne.get(id);
        if (!r) return false;
        if (r.role === 'supervisor' && (supervisors.get(id)?.n ?? 0) === 0 && (anyRow.get()?.n ?? 0) > 1) {
          throw new StoreError('invalid_input', 'id: the last supervisor cannot be removed while other packers remain', { id: ['last supervisor'] });
        }
        const now = isoNow(clock);
        return markRemoved.run(now, now, id).changes > 0;
      })();
    },
  };
}
