/**
 * Packers (table `packers`, migration 10, issue 26). A PIN is kept only as a
 * salted scrypt hash (`scrypt$<salt hex>$<hash hex>`); signing in by PIN
 * compares against every packer's hash (a bench has a handful of packers).
 * Removing a packer marks the row (`removed_at`) so their history keeps them.
 * Returns records; the packers domain maps them to views (packers/views.ts).
 */
import { randomBytes, randomUUID, scryptSync, timingSafeEqual } from 'node:crypto';
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

/**
 * A packer as the warehouse shares it (issue 35 item 2): `uid` the same at every bench, the PIN only as its
 * salted hash (`scrypt$salt$hash`, null: none). Never shown to a screen.
 */
export interface SharedPacker {
  uid: string;
  name: string;
  badge: string | null;
  pinHash: string | null;
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
  /** The packer `id` as the warehouse shares it (with its uid and PIN hash), or undefined. */
  shared(id: number): SharedPacker | undefined;
  /** Every packer not removed, as the warehouse shares them. */
  allShared(): SharedPacker[];
  /**
   * Takes a packer from the warehouse: adds or changes the packer `uid` as given (a local packer holding the
   * same badge gives it up: the warehouse's word is the last), or removes it when `packer` is null. The
   * supervisor rules of {@link PackersRepo.save} were checked where the change was made.
   */
  applyShared(uid: string, packer: SharedPacker | null): void;
}

interface Row {
  id: number;
  uid: string;
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

/** True when `pin` matches the stored `scrypt$salt$hash` (the supervisor's page checks PINs with it too). */
export function pinMatches(stored: string, pin: string): boolean {
  const [kind, saltHex, hashHex] = stored.split('$');
  if (kind !== 'scrypt' || !saltHex || !hashHex) return false;
  const want = Buffer.from(hashHex, 'hex');
  const got = scryptSync(pin, Buffer.from(saltHex, 'hex'), want.length);
  return timingSafeEqual(want, got);
}

/** Builds the packers repository on an open database. */
export function createPackersRepo(db: Database.Database, clock: Clock): PackersRepo {
  const selectAll = db.prepare<[], Row>('SELECT id, uid, name, badge, pin_hash, role FROM packers WHERE removed_at IS NULL ORDER BY name COLLATE NOCASE, id');
  const selectOne = db.prepare<[number], Row>('SELECT id, uid, name, badge, pin_hash, role FROM packers WHERE id = ? AND removed_at IS NULL');
  const selectBadge = db.prepare<[string], Row>('SELECT id, uid, name, badge, pin_hash, role FROM packers WHERE badge = ? AND removed_at IS NULL');
  const anyRow = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM packers WHERE removed_at IS NULL');
  const supervisors = db.prepare<[number], { n: number }>("SELECT count(*) AS n FROM packers WHERE removed_at IS NULL AND role = 'supervisor' AND id <> ?");
  const insert = db.prepare<[string, string | null, string | null, string, string, string, string], never>(
    'INSERT INTO packers (name, badge, pin_hash, role, created_at, updated_at, uid) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const selectUid = db.prepare<[string], Row>('SELECT id, uid, name, badge, pin_hash, role FROM packers WHERE uid = ?');
  const giveUpBadge = db.prepare<[string, string], never>('UPDATE packers SET badge = NULL WHERE badge = ? AND uid <> ?');
  const reviveUpdate = db.prepare<[string, string | null, string | null, string, string, string], never>(
    'UPDATE packers SET name = ?, badge = ?, pin_hash = ?, role = ?, updated_at = ?, removed_at = NULL WHERE uid = ?',
  );
  const removeUid = db.prepare<[string, string, string], never>('UPDATE packers SET removed_at = ?, badge = NULL, pin_hash = NULL, updated_at = ? WHERE uid = ? AND removed_at IS NULL');
  const sharedOf = (r: Row): SharedPacker => ({ uid: r.uid, name: r.name, badge: r.badge, pinHash: r.pin_hash, role: r.role });
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
        if (id === undefined) id = Number(insert.run(draft.name, badge, pinHash, draft.role, now, now, randomUUID()).lastInsertRowid);
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
    shared(id) {
      const r = selectOne.get(id);
      return r ? sharedOf(r) : undefined;
    },
    allShared: () => selectAll.all().map(sharedOf),
    applyShared(uid, packer) {
      db.transaction(() => {
        const now = isoNow(clock);
        if (packer === null) {
          removeUid.run(now, now, uid);
          return;
        }
        if (packer.badge !== null) giveUpBadge.run(packer.badge, uid);
        if (selectUid.get(uid)) reviveUpdate.run(packer.name, packer.badge, packer.pinHash, packer.role, now, uid);
        else insert.run(packer.name, packer.badge, packer.pinHash, packer.role, now, now, uid);
      })();
    },
  };
}
