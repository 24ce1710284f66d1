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

/** The outcome of a claim: this bench has the order, or another one does. */
export type ClaimOutcome = { won: true } | { won: false; holder: ClaimHolder };

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
 * Claims `orderKey` for `bench`. One statement decides: the order is free, already this bench's, or held by
 * a bench silent for more than `timeoutS` seconds (then it is taken over); otherwise the holder is read and
 * returned. The bench must have sent a {@link heartbeat} (its row is the claim's foreign key).
 * @param orderKey the order's key for the whole warehouse (its shop and number)
 * @param packer the packer signed in at the bench, or null
 * @param timeoutS heartbeat timeout, s (> 0)
 * @throws the database's error (the bench is not registered, the warehouse is unreachable)
 */
export async function claimOrder(db: Db, orderKey: string, bench: WarehouseBench, packer: string | null, timeoutS = DEFAULT_HEARTBEAT_TIMEOUT_S): Promise<ClaimOutcome> {
  const won = await db.query(
    `INSERT INTO claims (order_key, bench_id, packer, claimed_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (order_key) DO UPDATE
       SET bench_id = EXCLUDED.bench_id,
           packer = CASE WHEN claims.bench_id = EXCLUDED.bench_id THEN COALESCE(EXCLUDED.packer, claims.packer) ELSE EXCLUDED.packer END,
           claimed_at = CASE WHEN claims.bench_id = EXCLUDED.bench_id THEN claims.claimed_at ELSE now() END
       WHERE claims.bench_id = EXCLUDED.bench_id
          OR NOT EXISTS (SELECT 1 FROM benches b WHERE b.id = claims.bench_id AND b.heartbeat_at > now() - make_interval(secs => $4))
     RETURNING order_key`,
    [orderKey, bench.id, packer, timeoutS],
  );
  if (won.rowCount === 1) return { won: true };
  const holder = await db.query<{ bench_id: string; name: string; packer: string | null; claimed_at: Date }>(
    `SELECT c.bench_id, b.name, c.packer, c.claimed_at FROM claims c JOIN benches b ON b.id = c.bench_id WHERE c.order_key = $1`,
    [orderKey],
  );
  const h = holder.rows[0];
  // Released between the two statements: try once more (the order is free now).
  if (!h) return claimOrder(db, orderKey, bench, packer, timeoutS);
  return { won: false, holder: { benchId: h.bench_id, benchName: h.name, packer: h.packer, since: h.claimed_at.toISOString() } };
}

/** Lets `orderKey` go if `bench` holds it (shipped, Esc, another order opened). Returns whether it held it. */
export async function releaseOrder(db: Db, orderKey: string, bench: WarehouseBench): Promise<boolean> {
  const res = await db.query('DELETE FROM claims WHERE order_key = $1 AND bench_id = $2', [orderKey, bench.id]);
  return res.rowCount === 1;
}
