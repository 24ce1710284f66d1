/**
 * Schema 6 of the warehouse (issue 43 item 1): the platform account's per-minute limits kept once for every
 * bench (`take_rate_slot`, `leave_rate_queue`, `block_rate_route`; the bench's side is budget.ts). Kept in a
 * module of its own so schema.ts stays a list of steps.
 */

/** Step 6's SQL (see the module doc). */
export const BUDGET_SCHEMA_SQL = `
      -- Issue 43 item 1: the platform counts its per-minute limits per account (spec: Limits); every bench of the
      -- warehouse takes its slots from one window per route here. rate_slots: the calls made (a sliding-window
      -- log); rate_waiters: the calls waiting their turn, a packer's (priority 0) before background work (1),
      -- first asked first served across benches, each keyed by the bench's own name for the call (an outbox row
      -- keeps its place between its tries); rate_blocks: a 429's Retry-After, holding the route for every bench;
      -- rate_refusals: the platform's 429s, for the supervisor's page.
      CREATE TABLE rate_slots (
        route text NOT NULL CHECK (length(route) BETWEEN 1 AND 100),
        at timestamptz NOT NULL,
        bench_id text NOT NULL REFERENCES benches (id),
        priority smallint NOT NULL CHECK (priority IN (0, 1)),
        waited_ms integer NOT NULL DEFAULT 0
      );
      CREATE INDEX rate_slots_route_at ON rate_slots (route, at);
      CREATE TABLE rate_waiters (
        key text PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 300),
        route text NOT NULL,
        bench_id text NOT NULL REFERENCES benches (id),
        priority smallint NOT NULL CHECK (priority IN (0, 1)),
        asked_at timestamptz NOT NULL,
        seen_at timestamptz NOT NULL,
        seq bigserial NOT NULL
      );
      CREATE INDEX rate_waiters_route ON rate_waiters (route, priority, asked_at, seq);
      CREATE TABLE rate_blocks (
        route text PRIMARY KEY,
        until timestamptz NOT NULL
      );
      CREATE TABLE rate_refusals (
        route text NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        bench_id text REFERENCES benches (id),
        retry_after_ms integer
      );
      CREATE INDEX rate_refusals_at ON rate_refusals (at);

      -- One try at a slot of p_route for the call p_key of bench p_bench, in one statement under the route's
      -- advisory lock: granted when no 429 holds the route, fewer than p_limit calls started in the last
      -- p_window_ms, and no live waiter stands before this one (priority, then who asked first); otherwise the
      -- call waits in rate_waiters and learns how long (wait_ms, the database's clock) and how many stand
      -- before it (ahead). A waiter not seen for p_forget_ms, or whose bench went silent for 30 s, is forgotten.
      CREATE FUNCTION take_rate_slot(p_bench text, p_route text, p_key text, p_limit integer, p_window_ms integer, p_priority smallint, p_forget_ms integer)
      RETURNS TABLE (granted boolean, wait_ms integer, ahead integer, used integer)
      LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
      DECLARE
        t timestamptz := clock_timestamp();
        win interval := make_interval(secs => p_window_ms / 1000.0);
        me rate_waiters%ROWTYPE;
        n_ahead integer;
        n_used integer;
        blocked timestamptz;
        k integer;
        free_at timestamptz;
      BEGIN
        PERFORM check_own_bench(p_bench, 'take_rate_slot');
        IF p_limit < 1 OR p_window_ms < 1000 THEN RAISE EXCEPTION 'take_rate_slot: limit %, window % ms', p_limit, p_window_ms USING ERRCODE = '22023'; END IF;
        PERFORM pg_advisory_xact_lock(hashtext('rate:' || p_route));
        -- The clock read under the lock: slots are logged in the order they are granted, never before the last one.
        t := clock_timestamp();
        DELETE FROM rate_waiters w WHERE w.route = p_route AND w.key <> p_key AND (w.seen_at < t - make_interval(secs => p_forget_ms / 1000.0)
          OR NOT EXISTS (SELECT 1 FROM benches b WHERE b.id = w.bench_id AND b.heartbeat_at > t - interval '30 seconds'));
        -- Ten windows of history are kept: the supervisor's page and the tests read the calls of the last minutes.
        DELETE FROM rate_slots s WHERE s.route = p_route AND s.at < t - win * 10;
        INSERT INTO rate_waiters AS w (key, route, bench_id, priority, asked_at, seen_at) VALUES (p_key, p_route, p_bench, p_priority, t, t)
          ON CONFLICT (key) DO UPDATE SET seen_at = t, priority = LEAST(w.priority, EXCLUDED.priority)
          RETURNING * INTO me;
        SELECT count(*) INTO n_ahead FROM rate_waiters w WHERE w.route = p_route AND (w.priority, w.asked_at, w.seq) < (me.priority, me.asked_at, me.seq);
        SELECT count(*) INTO n_used FROM rate_slots s WHERE s.route = p_route AND s.at > t - win;
        SELECT b.until INTO blocked FROM rate_blocks b WHERE b.route = p_route AND b.until > t;
        IF blocked IS NULL AND n_ahead = 0 AND n_used < p_limit THEN
          INSERT INTO rate_slots (route, at, bench_id, priority, waited_ms)
            VALUES (p_route, t, p_bench, me.priority, (extract(epoch FROM t - me.asked_at) * 1000)::integer);
          DELETE FROM rate_waiters w WHERE w.key = p_key;
          RETURN QUERY SELECT true, 0, 0, n_used + 1;
          RETURN;
        END IF;
        -- This call's turn comes when the slot the (n_ahead + 1)-th waiter takes frees: the k-th oldest slot of
        -- the window expires (k counted from 0), a further window for each full round of the limit.
        k := n_used + n_ahead - p_limit;
        IF k < 0 THEN
          -- A slot is free but callers before this one take theirs first: try again shortly, not at once (a
          -- floor of benches retrying at once would only queue on the route's lock).
          free_at := t + make_interval(secs => 0.05 * (n_ahead + 1));
        ELSE
          SELECT s.at + win * (1 + k / p_limit) INTO free_at FROM rate_slots s WHERE s.route = p_route AND s.at > t - win ORDER BY s.at OFFSET (k % p_limit) LIMIT 1;
          free_at := coalesce(free_at, t + win);
        END IF;
        IF blocked IS NOT NULL AND blocked > free_at THEN free_at := blocked; END IF;
        RETURN QUERY SELECT false, greatest(1, (extract(epoch FROM free_at - t) * 1000)::integer), n_ahead, n_used;
      END $f$;
      REVOKE ALL ON FUNCTION take_rate_slot(text, text, text, integer, integer, smallint, integer) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION take_rate_slot(text, text, text, integer, integer, smallint, integer) TO warehouse_bench;

      -- A call that no longer waits (refused to the packer, cancelled) leaves the queue.
      CREATE FUNCTION leave_rate_queue(p_bench text, p_key text) RETURNS void
      LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
      BEGIN
        DELETE FROM rate_waiters WHERE key = p_key AND bench_id = p_bench
          AND EXISTS (SELECT 1 FROM benches WHERE id = p_bench AND login = session_user);
      END $f$;
      REVOKE ALL ON FUNCTION leave_rate_queue(text, text) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION leave_rate_queue(text, text) TO warehouse_bench;

      -- A 429 the platform still sent (the web panel, another program on the account): its Retry-After holds
      -- the route for every bench, and it is counted for the supervisor.
      CREATE FUNCTION block_rate_route(p_bench text, p_route text, p_retry_after_ms integer) RETURNS void
      LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
      BEGIN
        PERFORM check_own_bench(p_bench, 'block_rate_route');
        INSERT INTO rate_refusals (route, bench_id, retry_after_ms) VALUES (p_route, p_bench, p_retry_after_ms);
        IF p_retry_after_ms IS NOT NULL AND p_retry_after_ms > 0 THEN
          INSERT INTO rate_blocks AS b (route, until) VALUES (p_route, clock_timestamp() + make_interval(secs => p_retry_after_ms / 1000.0))
            ON CONFLICT (route) DO UPDATE SET until = GREATEST(b.until, EXCLUDED.until);
        END IF;
      END $f$;
      REVOKE ALL ON FUNCTION block_rate_route(text, text, integer) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION block_rate_route(text, text, integer) TO warehouse_bench;
      GRANT SELECT ON rate_slots, rate_waiters, rate_blocks, rate_refusals TO warehouse_bench;
    `;
