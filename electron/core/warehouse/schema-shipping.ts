/**
 * Schema 5 of the warehouse (issue 42): any bench ships any order of the warehouse, whichever bench imported
 * it (`ship_orders`: the caller's bench checked, the importing bench kept, the order's claims ended in the same
 * transaction), and a claim of an order shipped already is refused with where, when and its tracking number
 * (`claim_order` locks the order's row first, so a claim and a shipment at two benches cannot cross). Kept in a
 * module of its own so schema.ts stays a list of steps.
 */

/** Step 5's SQL (see the module doc). */
export const SHIPPING_SCHEMA_SQL = `
      -- Issue 42 item 1: schema 4's orders_open let a bench mark shipped only an order it had imported itself
      -- (its WITH CHECK reads the importing bench_id). Shipping is not importing: which bench shipped is its own
      -- column, and marking shipped goes through ship_orders, which checks the caller is that bench's login,
      -- never changes who imported it, and ends the order's claims in the same transaction (item 3).
      ALTER TABLE orders ADD COLUMN shipped_by text REFERENCES benches (id);

      -- The check every bench function of the schema makes first: p_bench is one of the caller's own benches (its
      -- login, session_user, registered it), else SQLSTATE 42501 naming the function. Called by the SECURITY
      -- DEFINER functions below and in later steps (they run as the owner; session_user stays the bench's login).
      CREATE FUNCTION check_own_bench(p_bench text, p_function text) RETURNS void
      LANGUAGE plpgsql STABLE SET search_path FROM CURRENT AS $f$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM benches WHERE id = p_bench AND login = session_user) THEN
          RAISE EXCEPTION '%: bench % is not one of login %', p_function, p_bench, session_user USING ERRCODE = '42501';
        END IF;
      END $f$;
      REVOKE ALL ON FUNCTION check_own_bench(text, text) FROM PUBLIC;

      -- Marks p_keys shipped by p_bench with their tracking numbers (an order already shipped keeps its first
      -- shipment), and deletes every claim on them: a shipped order is packed by no one. Returns the rows marked.
      -- SECURITY DEFINER: the owner's rights, so the caller's bench is checked here (SQLSTATE 42501 otherwise).
      CREATE FUNCTION ship_orders(p_bench text, p_keys text[], p_tracking text[])
      RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
      DECLARE
        marked integer;
      BEGIN
        PERFORM check_own_bench(p_bench, 'ship_orders');
        IF coalesce(array_length(p_keys, 1), 0) <> coalesce(array_length(p_tracking, 1), 0) THEN
          RAISE EXCEPTION 'ship_orders: % keys, % tracking numbers', array_length(p_keys, 1), array_length(p_tracking, 1) USING ERRCODE = '22023';
        END IF;
        UPDATE orders o SET shipped_at = now(), tracking_number = x.t, shipped_by = p_bench, revision = nextval('orders_revision')
          FROM unnest(p_keys, p_tracking) AS x(k, t) WHERE o.order_key = x.k AND o.shipped_at IS NULL;
        GET DIAGNOSTICS marked = ROW_COUNT;
        DELETE FROM claims WHERE order_key = ANY (p_keys);
        RETURN marked;
      END $f$;
      REVOKE ALL ON FUNCTION ship_orders(text, text[], text[]) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION ship_orders(text, text[], text[]) TO warehouse_bench;

      -- Issue 42 item 7: a claim and a shipment of the same order at another bench cannot cross. The order's
      -- row is locked first (ship_orders' UPDATE takes the same lock), so a claim sees a shipment committed a
      -- moment before it and is refused with it: state 'shipped' with the tracking number, when and which bench.
      -- Otherwise as claimOrder of schema 1: won, or the live holder ('held'). p_timeout_s: a silent bench's
      -- claims are taken over after it.
      CREATE FUNCTION claim_order(p_key text, p_bench text, p_packer text, p_timeout_s double precision)
      RETURNS TABLE (state text, holder_bench text, bench_name text, packer text, since timestamptz, tracking_number text)
      LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
      DECLARE
        o orders%ROWTYPE;
        c claims%ROWTYPE;
        won text;
      BEGIN
        PERFORM check_own_bench(p_bench, 'claim_order');
        SELECT * INTO o FROM orders WHERE order_key = p_key FOR UPDATE;
        IF FOUND AND o.shipped_at IS NOT NULL THEN
          RETURN QUERY SELECT 'shipped'::text, coalesce(o.shipped_by, o.bench_id), (SELECT b.name FROM benches b WHERE b.id = coalesce(o.shipped_by, o.bench_id)), NULL::text, o.shipped_at, o.tracking_number;
          RETURN;
        END IF;
        INSERT INTO claims AS k (order_key, bench_id, packer, claimed_at) VALUES (p_key, p_bench, p_packer, now())
          ON CONFLICT (order_key) DO UPDATE
            SET bench_id = EXCLUDED.bench_id,
                packer = CASE WHEN k.bench_id = EXCLUDED.bench_id THEN COALESCE(EXCLUDED.packer, k.packer) ELSE EXCLUDED.packer END,
                claimed_at = CASE WHEN k.bench_id = EXCLUDED.bench_id THEN k.claimed_at ELSE now() END
            WHERE k.bench_id = EXCLUDED.bench_id
               OR NOT EXISTS (SELECT 1 FROM benches b WHERE b.id = k.bench_id AND b.heartbeat_at > now() - make_interval(secs => p_timeout_s))
          RETURNING k.order_key INTO won;
        IF won IS NOT NULL THEN
          RETURN QUERY SELECT 'won'::text, NULL::text, NULL::text, NULL::text, NULL::timestamptz, NULL::text;
          RETURN;
        END IF;
        SELECT * INTO c FROM claims WHERE order_key = p_key;
        RETURN QUERY SELECT 'held'::text, c.bench_id, (SELECT b.name FROM benches b WHERE b.id = c.bench_id), c.packer, c.claimed_at, NULL::text;
      END $f$;
      REVOKE ALL ON FUNCTION claim_order(text, text, text, double precision) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION claim_order(text, text, text, double precision) TO warehouse_bench;
    `;
