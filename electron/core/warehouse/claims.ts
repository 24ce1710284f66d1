/**
 * Each order packed once for the whole warehouse (issue 35 item 3): opening an
 * order claims it for the bench in one atomic statement; another bench that
 * opens it learns who has it. A claim ends when the order ships or the bench
 * lets it go ({@link releaseOrder}), or when its bench has been silent past the
 * heartbeat timeout: then the next bench's claim takes it over, in the same
 * statement. Benches say they are alive with {@link heartbeat}.
 */
import type { ClientBase, Pool } from 'pg';

/** A bench of the warehouse: a stable id (kept in its data folder) and its name (Settings › Station). */
export interface WarehouseBench {
  id: string;
  name: string;
}

/** Who holds a claim. */
interface ClaimHolder {
  benchId: string;
  benchName: string;
  /** The packer signed in at that bench when it claimed; null when none was. */
  packer: string | null;
  /** When the claim began, ISO 8601. */
  since: string;
}

/** An order already shipped in the warehouse (by any bench, or adopted from the platform): its tracking number, when and where. */
interface ShippedInWarehouse {
  trackingNumber: string | null;
  /** The bench that shipped it (or imported it, for a row shipped before schema 5), '' when unknown. */
  benchName: string;
  /** When it was marked shipped, ISO 8601. */
  at: string;
  /** Shipped outside the benches: the platform's web panel or another program (schema 7, issue 44). */
  fromPlatform: boolean;
}

/** The outcome of a claim: this bench has the order, another one does, or the order is shipped already (issue 42 item 7). */
export type ClaimOutcome = { won: true } | { won: false; holder: ClaimHolder } | { won: false; shipped: ShippedInWarehouse };

/** How long a bench may be silent before its claims can be taken, s (the default: 2 minutes). */
const DEFAULT_HEARTBEAT_TIMEOUT_S = 120;

type Db = Pool | ClientBase;

/**
 * Registers the bench (or renames it), marks it alive now and keeps what it shows the supervisor (`status`, JSON);
 * the bench belongs to the login that sends it (schema 4: another bench login is refused, SQLSTATE 42501).
 */
export async function heartbeat(db: Db, bench: WarehouseBench, status: object = {}): Promise<void> {
  await db.query(
    `INSERT INTO benches (id, name, heartbeat_at, status, login) VALUES ($1, $2, now(), $3::jsonb, session_user)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, heartbeat_at = now(), status = EXCLUDED.status, login = session_user`,
    [bench.id, bench.name, JSON.stringify(status)],
  );
}

/**
 * Claims `orderKey` for `bench`, in one call of the warehouse's `claim_order` (schema 5): the order's row is
 * locked first, so an order shipped at another bench a moment before is refused as `shipped`, never claimed
 * again; otherwise the order is free, already this bench's, or held by a bench silent for more than `timeoutS`
 * seconds (then it is taken over), or the live holder is returned. The bench must have sent a {@link heartbeat}.
 * @param orderKey the order's key for the whole warehouse (its shop and number)
 * @param packer the packer signed in at the bench, or null
 * @param timeoutS heartbeat timeout, s (> 0)
 * @throws the database's error (the bench is not registered or not the login's: SQLSTATE 42501; unreachable)
 */
export async function claimOrder(db: Db, orderKey: string, bench: WarehouseBench, packer: string | null, timeoutS = DEFAULT_HEARTBEAT_TIMEOUT_S): Promise<ClaimOutcome> {
  const res = await db.query<{ state: 'won' | 'held' | 'shipped'; holder_bench: string | null; bench_name: string | null; packer: string | null; since: Date | null; tracking_number: string | null; shipped_from: string | null }>(
    'SELECT state, holder_bench, bench_name, packer, since, tracking_number, shipped_from FROM claim_order($1, $2, $3, $4)',
    [orderKey, bench.id, packer, timeoutS],
  );
  const row = res.rows[0];
  if (!row || row.state === 'won') return { won: true };
  const since = (row.since ?? new Date()).toISOString();
  if (row.state === 'shipped') return { won: false, shipped: { trackingNumber: row.tracking_number, benchName: row.bench_name ?? '', at: since, fromPlatform: row.shipped_from === 'platform' } };
  return { won: false, holder: { benchId: row.holder_bench ?? '', benchName: row.bench_name ?? '', packer: row.packer, since } };
}

/** Lets `orderKey` go if `bench` holds it (shipped, Esc, another order opened). Returns whether it held it. */
export async function releaseOrder(db: Db, orderKey: string, bench: WarehouseBench): Promise<boolean> {
  const res = await db.query('DELETE FROM claims WHERE order_key = $1 AND bench_id = $2', [orderKey, bench.id]);
  return res.rowCount === 1;
}
