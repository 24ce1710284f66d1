/**
 * The warehouse database's schema (issue 35): numbered, append-only SQL steps,
 * the version kept in `warehouse_schema`. The supervisor's `npm run warehouse`
 * migrates ({@link migrateWarehouse}); a bench only checks the version
 * ({@link checkWarehouseSchema}) and says what to run, so a bench never
 * changes the schema other benches work on.
 */
import type { ClientBase } from 'pg';
import { AHEAD_SCHEMA_SQL } from './schema-ahead';
import { AHEAD_LATE_SCHEMA_SQL } from './schema-ahead-late';
import { BUDGET_SCHEMA_SQL } from './schema-budget';
import { EVENTS_SCHEMA_SQL } from './schema-events';
import { SHIPPING_SCHEMA_SQL } from './schema-shipping';

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
  {
    version: 3,
    name: 'shared settings, orders, bench status, the benches role',
    sql: `
      -- What a bench shows the supervisor's page (packer, packing, printer, queue, last label), sent with its heartbeat.
      ALTER TABLE benches ADD COLUMN status jsonb NOT NULL DEFAULT '{}';

      -- The shared settings (issue 35 item 2), one row per key: a setting ('setting:rules.document'), a
      -- product ('product:<sku>'), a packer ('packer:<uid>'); value null: removed. Every change takes the next
      -- revision of one sequence, so a bench asks for what is newer than the last revision it applied.
      CREATE SEQUENCE shared_revision;
      CREATE TABLE shared (
        key text PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 300),
        value jsonb,
        revision bigint NOT NULL UNIQUE,
        changed_at timestamptz NOT NULL DEFAULT now(),
        bench_id text REFERENCES benches (id),
        packer text
      );
      -- Every version of every key, with who, when and which bench; written by the trigger, never by a bench.
      CREATE TABLE shared_versions (
        key text NOT NULL,
        revision bigint NOT NULL,
        value jsonb,
        changed_at timestamptz NOT NULL,
        bench_id text,
        packer text,
        PRIMARY KEY (key, revision)
      );
      CREATE FUNCTION shared_changed() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        INSERT INTO shared_versions (key, revision, value, changed_at, bench_id, packer)
          VALUES (NEW.key, NEW.revision, NEW.value, NEW.changed_at, NEW.bench_id, NEW.packer);
        -- Delivered at commit to every bench that LISTENs: it then reads what is newer than its revision.
        PERFORM pg_notify('warehouse_shared', NEW.revision::text);
        RETURN NEW;
      END $f$;
      CREATE TRIGGER shared_changed AFTER INSERT OR UPDATE ON shared FOR EACH ROW EXECUTE FUNCTION shared_changed();

      -- Changes keys of 'shared' for a bench, all or none. p_mode 'check': a key changed by another bench
      -- after revision p_known (the last the bench applied) refuses the whole call, SQLSTATE 'WH409' with the
      -- key, when, bench and packer as JSON in DETAIL; 'force': the last word wins (an import); 'seed': only
      -- keys the warehouse lacks are written (a bench joining brings what it has). A value equal to the
      -- stored one changes nothing. Returns the last revision written (0: none). SECURITY DEFINER: a bench
      -- changes settings only through here, so each change is a version with its bench and packer.
      CREATE FUNCTION share_changes(p_keys text[], p_values jsonb[], p_known bigint, p_bench text, p_packer text, p_mode text)
      RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
      DECLARE
        i int;
        cur shared%ROWTYPE;
        last bigint := 0;
        holder text;
      BEGIN
        IF p_mode NOT IN ('check', 'force', 'seed') THEN RAISE EXCEPTION 'share_changes: mode %', p_mode; END IF;
        IF coalesce(array_length(p_keys, 1), 0) <> coalesce(array_length(p_values, 1), 0) THEN
          RAISE EXCEPTION 'share_changes: % keys, % values', array_length(p_keys, 1), array_length(p_values, 1);
        END IF;
        FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
          SELECT * INTO cur FROM shared WHERE key = p_keys[i] FOR UPDATE;
          IF FOUND THEN
            CONTINUE WHEN p_mode = 'seed' OR cur.value IS NOT DISTINCT FROM p_values[i];
            IF p_mode = 'check' AND cur.revision > p_known AND cur.bench_id IS DISTINCT FROM p_bench THEN
              SELECT name INTO holder FROM benches WHERE id = cur.bench_id;
              RAISE EXCEPTION USING ERRCODE = 'WH409', MESSAGE = 'changed elsewhere',
                DETAIL = json_build_object('key', cur.key, 'at', cur.changed_at, 'bench', holder, 'packer', cur.packer)::text;
            END IF;
            UPDATE shared SET value = p_values[i], revision = nextval('shared_revision'), changed_at = now(), bench_id = p_bench, packer = p_packer
              WHERE key = p_keys[i] RETURNING revision INTO last;
          ELSIF p_values[i] IS NOT NULL THEN
            INSERT INTO shared (key, value, revision, bench_id, packer) VALUES (p_keys[i], p_values[i], nextval('shared_revision'), p_bench, p_packer)
              ON CONFLICT (key) DO NOTHING RETURNING revision INTO last;
          END IF;
        END LOOP;
        RETURN last;
      END $f$;

      -- The warehouse's orders (item 3): an import at any bench lands here and every bench reads the same
      -- to-ship list. key: shop and number (the claims' order_key); value: the station's order; shipped_at set
      -- when a bench ships it. Revisions as for 'shared'.
      CREATE SEQUENCE orders_revision;
      CREATE TABLE orders (
        order_key text PRIMARY KEY CHECK (length(order_key) BETWEEN 1 AND 300),
        value jsonb NOT NULL,
        revision bigint NOT NULL UNIQUE DEFAULT nextval('orders_revision'),
        imported_at timestamptz NOT NULL DEFAULT now(),
        bench_id text REFERENCES benches (id),
        shipped_at timestamptz,
        tracking_number text
      );
      CREATE FUNCTION orders_changed() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        PERFORM pg_notify('warehouse_orders', NEW.revision::text);
        RETURN NEW;
      END $f$;
      CREATE TRIGGER orders_changed AFTER INSERT OR UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION orders_changed();

      -- The benches' rights (item 8): a bench's login role is a member of warehouse_bench (README). It reads
      -- the settings and the orders, and writes only its heartbeat, claims, activity and imported orders;
      -- settings only through share_changes. The schema, the versions and a release of another bench's claim
      -- stay with the supervisor (the owner).
      DO $r$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'warehouse_bench') THEN CREATE ROLE warehouse_bench NOLOGIN; END IF;
      END $r$;
      GRANT SELECT, INSERT, UPDATE ON benches TO warehouse_bench;
      GRANT SELECT, INSERT, UPDATE, DELETE ON claims TO warehouse_bench;
      GRANT SELECT, INSERT ON activity TO warehouse_bench;
      GRANT SELECT ON shared, warehouse_schema TO warehouse_bench;
      GRANT SELECT, INSERT, UPDATE ON orders TO warehouse_bench;
      GRANT USAGE ON SEQUENCE orders_revision TO warehouse_bench;
      REVOKE ALL ON FUNCTION share_changes(text[], jsonb[], bigint, text, text, text) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION share_changes(text[], jsonb[], bigint, text, text, text) TO warehouse_bench;
    `,
  },
  {
    version: 4,
    name: 'each bench login acts only as its own benches',
    sql: `
      -- Who registered a bench (its login, session_user). Row-level security lets the warehouse_bench role
      -- write only as its own benches: its heartbeat, its claims (and a silent bench's, the takeover), its
      -- activity, its imports, an order not yet shipped; it reads everything. The owner (the supervisor)
      -- is not bound by these policies: the page releases any claim.
      ALTER TABLE benches ADD COLUMN login name DEFAULT session_user;
      ALTER TABLE benches ENABLE ROW LEVEL SECURITY;
      CREATE POLICY benches_read ON benches FOR SELECT TO warehouse_bench USING (true);
      CREATE POLICY benches_register ON benches FOR INSERT TO warehouse_bench WITH CHECK (login = session_user);
      CREATE POLICY benches_own ON benches FOR UPDATE TO warehouse_bench USING (login = session_user OR login IS NULL) WITH CHECK (login = session_user);

      ALTER TABLE claims ENABLE ROW LEVEL SECURITY;
      CREATE POLICY claims_read ON claims FOR SELECT TO warehouse_bench USING (true);
      CREATE POLICY claims_claim ON claims FOR INSERT TO warehouse_bench
        WITH CHECK (EXISTS (SELECT 1 FROM benches b WHERE b.id = bench_id AND b.login = session_user));
      -- Its own claim, or one whose bench has been silent for at least the shortest claim timeout (30 s).
      CREATE POLICY claims_take ON claims FOR UPDATE TO warehouse_bench
        USING (EXISTS (SELECT 1 FROM benches b WHERE b.id = claims.bench_id AND (b.login = session_user OR b.heartbeat_at < now() - interval '30 seconds')))
        WITH CHECK (EXISTS (SELECT 1 FROM benches b WHERE b.id = bench_id AND b.login = session_user));
      CREATE POLICY claims_release ON claims FOR DELETE TO warehouse_bench
        USING (EXISTS (SELECT 1 FROM benches b WHERE b.id = claims.bench_id AND b.login = session_user));

      ALTER TABLE activity ENABLE ROW LEVEL SECURITY;
      CREATE POLICY activity_read ON activity FOR SELECT TO warehouse_bench USING (true);
      CREATE POLICY activity_send ON activity FOR INSERT TO warehouse_bench
        WITH CHECK (EXISTS (SELECT 1 FROM benches b WHERE b.id = bench_id AND b.login = session_user));

      ALTER TABLE orders ENABLE ROW LEVEL SECURITY;
      CREATE POLICY orders_read ON orders FOR SELECT TO warehouse_bench USING (true);
      CREATE POLICY orders_import ON orders FOR INSERT TO warehouse_bench
        WITH CHECK (bench_id IS NULL OR EXISTS (SELECT 1 FROM benches b WHERE b.id = bench_id AND b.login = session_user));
      -- An order not shipped yet may be imported again or marked shipped; a shipped one stays shipped.
      CREATE POLICY orders_open ON orders FOR UPDATE TO warehouse_bench USING (shipped_at IS NULL)
        WITH CHECK (bench_id IS NULL OR EXISTS (SELECT 1 FROM benches b WHERE b.id = bench_id AND b.login = session_user));

      -- share_changes names the bench: only one of the caller's own. Schema 3's function keeps its body under
      -- another name, for the owner only; the checked one in front of it is what benches may call.
      ALTER FUNCTION share_changes(text[], jsonb[], bigint, text, text, text) RENAME TO share_changes_unchecked;
      REVOKE ALL ON FUNCTION share_changes_unchecked(text[], jsonb[], bigint, text, text, text) FROM PUBLIC, warehouse_bench;
      CREATE FUNCTION share_changes(p_keys text[], p_values jsonb[], p_known bigint, p_bench text, p_packer text, p_mode text)
      RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM benches WHERE id = p_bench AND login = session_user) THEN
          RAISE EXCEPTION 'share_changes: bench % is not one of login %', p_bench, session_user USING ERRCODE = '42501';
        END IF;
        RETURN share_changes_unchecked(p_keys, p_values, p_known, p_bench, p_packer, p_mode);
      END $f$;
      REVOKE ALL ON FUNCTION share_changes(text[], jsonb[], bigint, text, text, text) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION share_changes(text[], jsonb[], bigint, text, text, text) TO warehouse_bench;
    `,
  },
  { version: 5, name: 'any bench ships any order; a claim checks the order is not shipped', sql: SHIPPING_SCHEMA_SQL },
  { version: 6, name: 'one budget of the platform account for every bench', sql: BUDGET_SCHEMA_SQL },
  { version: 7, name: 'platform events stored once and told to every bench (issue 44)', sql: EVENTS_SCHEMA_SQL },
  { version: 8, name: 'labels bought ahead, batch prints, one close of the day for the warehouse (issue 43)', sql: AHEAD_SCHEMA_SQL },
  { version: 9, name: 'a label ahead that came too late is cancelled, never a second live label (issue 43)', sql: AHEAD_LATE_SCHEMA_SQL },
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
 * @param target the version to stop at (tests build an older warehouse with it); default the newest
 * @returns the versions before and after
 * @throws WarehouseSchemaError `schema_newer` when the database is newer than this station (nothing is
 *   changed); the database's error when a step fails
 */
export async function migrateWarehouse(db: ClientBase, target: number = WAREHOUSE_SCHEMA_VERSION): Promise<{ from: number; to: number }> {
  await db.query('BEGIN');
  try {
    await db.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await db.query('CREATE TABLE IF NOT EXISTS warehouse_schema (version integer NOT NULL, migrated_at timestamptz NOT NULL DEFAULT now())');
    const from = await schemaVersion(db);
    if (from > WAREHOUSE_SCHEMA_VERSION) {
      throw new WarehouseSchemaError('schema_newer', `The warehouse database is at schema ${from}; this program knows schema ${WAREHOUSE_SCHEMA_VERSION}: update it first`);
    }
    const to = Math.max(from, target);
    for (const m of MIGRATIONS.filter((x) => x.version > from && x.version <= to)) await db.query(m.sql);
    await db.query('DELETE FROM warehouse_schema');
    await db.query('INSERT INTO warehouse_schema (version) VALUES ($1)', [to]);
    await db.query('COMMIT');
    return { from, to };
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
