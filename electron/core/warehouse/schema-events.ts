/**
 * Schema 7 of the warehouse (issue 44): the platform's events (spec: Events), received by the supervisor's
 * program (electron/warehouse/events-receiver.ts) or found by its catch-up, stored once, applied once, and told
 * to every bench by NOTIFY `warehouse_events`. Kept in a module of its own so schema.ts stays a list of steps.
 *
 * - `platform_events`: one row per event, keyed by what identifies it (`dedup_key`: the event, the tracking
 *   number, the instant and status; a stock's id for stock events; the tracking number for shipment.created),
 *   so a retry or a replay is stored once. `applied_seq` is taken when the event is applied (one applier: the
 *   order benches read them in); `retry_at` defers a shipment.created a bench may still be recording.
 * - `held_stocks`: the held parcels (stocks) as the events and the catch-up say, open until closed.
 * - `parcel_status`: each parcel's last status the platform told (an older event never overwrites a newer).
 * - `delivery_exceptions`: a parcel's trouble (undelivered, returned, awaiting instructions or collection, held
 *   at the depot) from its first such status until delivered; per day and carrier on the page and the report.
 * - `webhook_endpoint`: the endpoint the warehouse registered (one row) and its signing secret: the owner's
 *   only, never granted to the benches.
 * - `orders.shipped_from`: 'platform' for an order shipped outside the benches (the web panel, another program).
 */

/** Step 7's SQL (see the module doc). */
export const EVENTS_SCHEMA_SQL = `
  CREATE TABLE platform_events (
    id bigserial PRIMARY KEY,
    dedup_key text NOT NULL UNIQUE CHECK (length(dedup_key) BETWEEN 1 AND 600),
    event text NOT NULL CHECK (event IN ('tracking.update', 'shipment.created', 'stock.opened', 'stock.closed')),
    tracking_number text NOT NULL CHECK (length(tracking_number) BETWEEN 1 AND 100),
    event_at timestamptz NOT NULL,
    status_code integer,
    payload jsonb NOT NULL,
    source text NOT NULL CHECK (source IN ('webhook', 'catch_up')),
    received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    retry_at timestamptz,
    applied_seq bigint UNIQUE,
    applied_at timestamptz,
    outcome text
  );
  CREATE INDEX platform_events_pending ON platform_events (id) WHERE applied_seq IS NULL;
  CREATE INDEX platform_events_received ON platform_events (received_at);
  CREATE SEQUENCE platform_events_applied;

  CREATE TABLE held_stocks (
    stock_id bigint PRIMARY KEY,
    tracking_number text NOT NULL,
    giacenza_id text,
    shipping_id bigint,
    carrier text,
    order_key text,
    status text NOT NULL CHECK (status IN ('open', 'instructed', 'closed')),
    opened_at timestamptz NOT NULL,
    closed_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX held_stocks_open ON held_stocks (opened_at) WHERE status <> 'closed';

  CREATE TABLE parcel_status (
    tracking_number text PRIMARY KEY,
    status_code integer NOT NULL,
    status_key text NOT NULL,
    status_at timestamptz NOT NULL,
    carrier text,
    order_key text,
    last_event text,
    updated_at timestamptz NOT NULL DEFAULT now()
  );

  CREATE TABLE delivery_exceptions (
    tracking_number text NOT NULL,
    started_at timestamptz NOT NULL,
    status_key text NOT NULL CHECK (status_key IN ('undelivered', 'returned_to_sender', 'awaiting_instructions', 'awaiting_collection', 'held_at_depot')),
    carrier text,
    order_key text,
    last_event text,
    closed_at timestamptz,
    PRIMARY KEY (tracking_number, started_at)
  );
  CREATE INDEX delivery_exceptions_open ON delivery_exceptions (tracking_number) WHERE closed_at IS NULL;
  CREATE INDEX delivery_exceptions_started ON delivery_exceptions (started_at);

  CREATE TABLE webhook_endpoint (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    webhook_id integer NOT NULL,
    url text NOT NULL,
    secret text NOT NULL,
    registered_at timestamptz NOT NULL DEFAULT now()
  );

  ALTER TABLE orders ADD COLUMN shipped_from text CHECK (shipped_from IS NULL OR shipped_from = 'platform');

  -- The status key of a status code (spec: States > Shipment status).
  CREATE FUNCTION platform_status_key(p_code integer) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
    SELECT CASE p_code WHEN 0 THEN 'processing' WHEN 1 THEN 'processing' WHEN 2 THEN 'shipped' WHEN 3 THEN 'in_transit'
      WHEN 4 THEN 'out_for_delivery' WHEN 5 THEN 'delivered' WHEN 6 THEN 'held_at_depot' WHEN 7 THEN 'returned_to_sender'
      WHEN 8 THEN 'undelivered' WHEN 9 THEN 'awaiting_instructions' WHEN 10 THEN 'awaiting_collection' ELSE 'unknown' END
  $f$;

  -- The warehouse's order a shipment's reference names: the order's own reference, or a later shipment's
  -- ('-2' … '-99' after it, shared/domain/order-reference.ts); null when the warehouse has none.
  CREATE FUNCTION platform_order_of(p_reference text) RETURNS text LANGUAGE sql STABLE AS $f$
    SELECT order_key FROM orders WHERE p_reference IS NOT NULL
      AND order_key IN (p_reference, regexp_replace(p_reference, '-([2-9]|[1-9][0-9])$', ''))
    ORDER BY order_key = p_reference DESC LIMIT 1
  $f$;

  -- Applies up to p_limit stored events, oldest first, each once: the warehouse's tables follow, each applied
  -- event takes the next applied_seq and is told to the benches (NOTIFY warehouse_events, the seq). A
  -- shipment.created for an order a bench holds a claim on is deferred (retry_at) for p_settle_s: the bench may
  -- be recording its own shipment; after that the order is taken as shipped from the platform and its claim
  -- ends. Returns how many events were applied or deferred (0: none due).
  CREATE FUNCTION apply_platform_events(p_limit integer, p_settle_s double precision) RETURNS integer
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $f$
  DECLARE
    e platform_events%ROWTYPE;
    n integer := 0;
    seq bigint;
    result text;
    o_key text;
    o orders%ROWTYPE;
    carrier_name text;
    key_now text;
    v_last text;
    p jsonb;
  BEGIN
    FOR e IN SELECT * FROM platform_events WHERE applied_seq IS NULL AND (retry_at IS NULL OR retry_at <= now())
      ORDER BY id LIMIT p_limit FOR UPDATE SKIP LOCKED
    LOOP
      n := n + 1;
      p := e.payload;
      result := NULL;
      -- One event's failure (a payload the platform changed) is its outcome, never a block on those after it.
      BEGIN
      IF e.event IN ('stock.opened', 'stock.closed') THEN
        o_key := coalesce((SELECT order_key FROM orders WHERE tracking_number = e.tracking_number LIMIT 1),
                          (SELECT order_key FROM parcel_status WHERE tracking_number = e.tracking_number));
        carrier_name := coalesce(p->>'vector_name', (SELECT carrier FROM parcel_status WHERE tracking_number = e.tracking_number));
        IF e.event = 'stock.opened' THEN
          INSERT INTO held_stocks AS h (stock_id, tracking_number, giacenza_id, shipping_id, carrier, order_key, status, opened_at)
            VALUES ((p->>'stock_id')::bigint, e.tracking_number, p->>'giacenza_id', (p->>'shipping_id')::bigint, carrier_name, o_key,
                    coalesce(p->>'status', 'open'), coalesce((p->>'opened_at')::timestamptz, e.event_at))
            ON CONFLICT (stock_id) DO UPDATE SET carrier = coalesce(h.carrier, EXCLUDED.carrier), order_key = coalesce(h.order_key, EXCLUDED.order_key),
              status = CASE WHEN h.status = 'closed' THEN h.status ELSE EXCLUDED.status END, updated_at = now();
          result := 'stock_open';
        ELSE
          INSERT INTO held_stocks AS h (stock_id, tracking_number, giacenza_id, shipping_id, carrier, order_key, status, opened_at, closed_at)
            VALUES ((p->>'stock_id')::bigint, e.tracking_number, p->>'giacenza_id', (p->>'shipping_id')::bigint, carrier_name, o_key, 'closed',
                    coalesce((p->>'opened_at')::timestamptz, e.event_at), coalesce((p->>'closed_at')::timestamptz, e.event_at))
            ON CONFLICT (stock_id) DO UPDATE SET status = 'closed', closed_at = EXCLUDED.closed_at, updated_at = now();
          result := 'stock_closed';
        END IF;
      ELSIF e.event = 'tracking.update' THEN
        key_now := platform_status_key(e.status_code);
        o_key := coalesce((SELECT order_key FROM orders WHERE tracking_number = e.tracking_number LIMIT 1), platform_order_of(p->>'order_id'));
        v_last := nullif(concat_ws(' · ', p->'TrackingDettaglio'->0->>'Data', p->'TrackingDettaglio'->0->>'Stato', p->'TrackingDettaglio'->0->>'Luogo'), '');
        INSERT INTO parcel_status AS s (tracking_number, status_code, status_key, status_at, carrier, order_key, last_event)
          VALUES (e.tracking_number, e.status_code, key_now, e.event_at, p->>'vector_name', o_key, v_last)
          ON CONFLICT (tracking_number) DO UPDATE SET status_code = EXCLUDED.status_code, status_key = EXCLUDED.status_key, status_at = EXCLUDED.status_at,
            carrier = coalesce(EXCLUDED.carrier, s.carrier), order_key = coalesce(s.order_key, EXCLUDED.order_key),
            last_event = coalesce(EXCLUDED.last_event, s.last_event), updated_at = now()
          WHERE s.status_at <= EXCLUDED.status_at;
        IF NOT FOUND THEN
          result := 'older';
        ELSIF key_now IN ('undelivered', 'returned_to_sender', 'awaiting_instructions', 'awaiting_collection', 'held_at_depot') THEN
          UPDATE delivery_exceptions SET status_key = key_now, last_event = coalesce(v_last, delivery_exceptions.last_event)
            WHERE tracking_number = e.tracking_number AND closed_at IS NULL;
          IF NOT FOUND THEN
            INSERT INTO delivery_exceptions (tracking_number, started_at, status_key, carrier, order_key, last_event)
              VALUES (e.tracking_number, e.event_at, key_now, p->>'vector_name', o_key, v_last) ON CONFLICT DO NOTHING;
          END IF;
          result := 'exception';
        ELSIF key_now = 'delivered' THEN
          UPDATE delivery_exceptions SET closed_at = e.event_at, last_event = coalesce(v_last, delivery_exceptions.last_event)
            WHERE tracking_number = e.tracking_number AND closed_at IS NULL;
          result := CASE WHEN FOUND THEN 'exception_closed' ELSE 'status' END;
        ELSE
          result := 'status';
        END IF;
      ELSE
        -- shipment.created: an order of the warehouse no bench shipped is shipped from the platform.
        o_key := platform_order_of(p->>'order_id');
        IF o_key IS NULL THEN
          result := 'not_ours';
        ELSE
          SELECT * INTO o FROM orders WHERE order_key = o_key FOR UPDATE;
          IF o.tracking_number = e.tracking_number OR EXISTS (SELECT 1 FROM activity WHERE action = 'ship' AND tracking_number = e.tracking_number) THEN
            result := 'bench';
          ELSIF o.shipped_at IS NOT NULL THEN
            result := 'shipped_already';
          ELSIF EXISTS (SELECT 1 FROM claims WHERE order_key = o_key) AND (e.retry_at IS NULL OR e.received_at > now() - make_interval(secs => p_settle_s)) THEN
            UPDATE platform_events SET retry_at = now() + make_interval(secs => least(5, p_settle_s)) WHERE id = e.id;
            CONTINUE;
          ELSE
            UPDATE orders SET shipped_at = e.event_at, tracking_number = e.tracking_number, shipped_from = 'platform', shipped_by = NULL,
              revision = nextval('orders_revision') WHERE order_key = o_key;
            DELETE FROM claims WHERE order_key = o_key;
            result := 'adopted';
          END IF;
        END IF;
      END IF;
      EXCEPTION WHEN OTHERS THEN
        result := left('failed: ' || SQLERRM, 300);
      END;
      seq := nextval('platform_events_applied');
      UPDATE platform_events SET applied_seq = seq, applied_at = clock_timestamp(), outcome = result, retry_at = NULL WHERE id = e.id;
      PERFORM pg_notify('warehouse_events', seq::text);
    END LOOP;
    RETURN n;
  END $f$;
  REVOKE ALL ON FUNCTION apply_platform_events(integer, double precision) FROM PUBLIC;

  -- The benches read what happened (their Stocks screen, their shipments' status, a shipment made elsewhere);
  -- the endpoint and its secret stay the owner's.
  GRANT SELECT ON platform_events, held_stocks, parcel_status, delivery_exceptions TO warehouse_bench;

  -- claim_order of schema 5, also saying where a shipped order was shipped from: shipped_from 'platform' (the web
  -- panel, another program; then no bench is named), null for a bench. Callers name their columns, so the added
  -- one changes nothing for them.
  DROP FUNCTION claim_order(text, text, text, double precision);
  CREATE FUNCTION claim_order(p_key text, p_bench text, p_packer text, p_timeout_s double precision)
  RETURNS TABLE (state text, holder_bench text, bench_name text, packer text, since timestamptz, tracking_number text, shipped_from text)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  DECLARE
    o orders%ROWTYPE;
    c claims%ROWTYPE;
    won text;
    who text;
  BEGIN
    PERFORM check_own_bench(p_bench, 'claim_order');
    SELECT * INTO o FROM orders WHERE order_key = p_key FOR UPDATE;
    IF FOUND AND o.shipped_at IS NOT NULL THEN
      who := CASE WHEN o.shipped_from = 'platform' THEN NULL ELSE coalesce(o.shipped_by, o.bench_id) END;
      RETURN QUERY SELECT 'shipped'::text, who, (SELECT b.name FROM benches b WHERE b.id = who), NULL::text, o.shipped_at, o.tracking_number, o.shipped_from;
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
      RETURN QUERY SELECT 'won'::text, NULL::text, NULL::text, NULL::text, NULL::timestamptz, NULL::text, NULL::text;
      RETURN;
    END IF;
    SELECT * INTO c FROM claims WHERE order_key = p_key;
    RETURN QUERY SELECT 'held'::text, c.bench_id, (SELECT b.name FROM benches b WHERE b.id = c.bench_id), c.packer, c.claimed_at, NULL::text, NULL::text;
  END $f$;
  REVOKE ALL ON FUNCTION claim_order(text, text, text, double precision) FROM PUBLIC;
  GRANT EXECUTE ON FUNCTION claim_order(text, text, text, double precision) TO warehouse_bench;
`;
