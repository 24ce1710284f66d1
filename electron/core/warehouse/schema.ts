/**
 * The warehouse database's schema (issue 35): numbered, append-only SQL steps,
 * the version kept in `warehouse_schema`. The supervisor's `npm run warehouse`
 * migrates ({@link migrateWarehouse}); a bench only checks the version
 * ({@link checkWarehouseSchema}) and says what to run, so a bench never
 * changes the schema other benches work on.
 */
import type { ClientBase } from 'pg';

/** A schema step: its number (1, 2, …, no gaps) and its SQL (any number of statements). */
interface WarehouseMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The steps, oldest first. Append only: a step that ran somewhere is never changed. */
const MIGRATIONS: readonly WarehouseMigration[] = [
  {
    version: 1,
    name: 'benches and claims',
    sql: `
      CREATE TABLE benches (
        id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- An order is packed at one bench: one row per claimed order (its shop and number), ended by shipping,
      -- letting go, or its bench's heartbeat going silent.
      CREATE TABLE claims (
        order_key text PRIMARY KEY CHECK (length(order_key) BETWEEN 1 AND 300),
        bench_id text NOT NULL REFERENCES benches (id),
        packer text CHECK (packer IS NULL OR length(packer) BETWEEN 1 AND 100),
        claimed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX claims_bench ON claims (bench_id);
    `,
  },
  {
    version: 2,
    name: 'activity',
    sql: `
      -- What each bench did, sent from its own activity rows: (bench, seq) is the key, so a row sent twice
      -- (a bench killed between sending and noting it) is kept once.
      CREATE TABLE activity (
        bench_id text NOT NULL REFERENCES benches (id),
        seq bigint NOT NULL CHECK (seq > 0),
        at timestamptz NOT NULL,
        action text NOT NULL CHECK (action IN ('scan', 'ship', 'print', 'reprint', 'verify', 'void', 'pickup', 'manifest', 'sign_in', 'sign_out')),
        packer text,
        tracking_number text,
        subject text,
        -- A shipment's facts: contract code, cost (EUR), weight (kg), parcels; null for other actions.
        shipment jsonb,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (bench_id, seq)
      );
      CREATE INDEX activity_at ON activity (at);
    `,
  },
];

/** The newest schema this station knows. */
export const WAREHOUSE_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The warehouse's schema does not fit this station; `code` says which way, `message` what to run. */
export class WarehouseSchemaError extends Error {
  constructor(
    public readonly code: 'schema_older' | 'schema_newer',
    message: string,
  ) {
    super(message);
    this.name = 'WarehouseSchemaError';
  }
}

/** Key of the advisory lock two `npm run warehouse` started at once take in turn. */
const MIGRATION_LOCK = 35_0001;

/** The schema version of the database `db` is connected to; 0 when it holds no warehouse yet. */
async function schemaVersion(db: ClientBase): Promise<number> {
  const table = await db.query<{ t: string | null }>(`SELECT to_regclass('warehouse_schema')::text AS t`);
  if (table.rows[0]?.t == null) return 0;
  const row = await db.query<{ version: number }>('SELECT version FROM warehouse_schema');
  return row.rows[0]?.version ?? 0;
}

/**
 * Brings the warehouse database to {@link WAREHOUSE_SCHEMA_VERSION}: every step after the database's
 * version, in one transaction (PostgreSQL's DDL is transactional: a failed step leaves the old schema),
 * under an advisory lock.
 * @returns the versions before and after
 * @throws WarehouseSchemaError `schema_newer` when the database is newer than this station (nothing is
 *   changed); the database's error when a step fails
 */
export async function migrateWarehouse(db: ClientBase): Promise<{ from: number; to: number }> {
  await db.query('BEGIN');
  try {
    await db.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await db.query('CREATE TABLE IF NOT EXISTS warehouse_schema (version integer NOT NULL, migrated_at timestamptz NOT NULL DEFAULT now())');
    const from = await schemaVersion(db);
    if (from > WAREHOUSE_SCHEMA_VERSION) {
      throw new WarehouseSchemaError('schema_newer', `The warehouse database is at schema ${from}; this program knows schema ${WAREHOUSE_SCHEMA_VERSION}: update it first`);
    }
    for (const m of MIGRATIONS.filter((x) => x.version > from)) await db.query(m.sql);
    await db.query('DELETE FROM warehouse_schema');
    await db.query('INSERT INTO warehouse_schema (version) VALUES ($1)', [WAREHOUSE_SCHEMA_VERSION]);
    await db.query('COMMIT');
    return { from, to: WAREHOUSE_SCHEMA_VERSION };
  } catch (e) {
    await db.query('ROLLBACK');
    throw e;
  }
}

/**
 * Checks that the warehouse database is at this station's schema; a bench calls it on connecting.
 * @throws WarehouseSchemaError `schema_older` ("run npm run warehouse …") or `schema_newer` ("update this station")
 */
export async function checkWarehouseSchema(db: ClientBase): Promise<void> {
  const version = await schemaVersion(db);
  if (version < WAREHOUSE_SCHEMA_VERSION) {
    throw new WarehouseSchemaError(
      'schema_older',
      `The warehouse database is at schema ${version} and this station needs ${WAREHOUSE_SCHEMA_VERSION}: run "npm run warehouse" with this warehouse once (it migrates), then restart the station`,
    );
  }
  if (version > WAREHOUSE_SCHEMA_VERSION) {
    throw new WarehouseSchemaError('schema_newer', `The warehouse database is at schema ${version}, newer than this station knows (${WAREHOUSE_SCHEMA_VERSION}): update this station`);
  }
}
