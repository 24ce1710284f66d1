/**
 * Schema 8 of the warehouse (issue 43 items 3–6): labels bought ahead, printed in batches, and the day closed
 * once for the whole warehouse. Kept in a module of its own so schema.ts stays a list of steps.
 *
 * - `ahead_settings` (one row, the supervisor's): labels ahead on or off, for which rules, how far ahead, the
 *   labels a minute left to the packers, and whether the batch printer stacks face down.
 * - `ahead_buyer` (one row): which bench buys labels ahead now (a lease renewed while it buys; one buyer for
 *   the warehouse, so fifty benches do not queue fifty background calls).
 * - `labels_ahead`: one row per label bought ahead: `buying` (reserved by the buyer, its POST on the way),
 *   `bought` (its bytes kept here), `batched` (in a batch print not printed yet), `printed` (printed in a batch,
 *   not packed yet), `used` (a bench shipped the order with it), `cancelled` (DELETE /shipments/{ldv} done, its
 *   refund recorded), `cancel_refused` (the platform refused the cancel, named with what to do), `failed` (the
 *   purchase was refused; the order ships as any other). At most one live row per order.
 * - `label_batches`: a batch print the supervisor asked of one bench: the labels in their order, printed by that
 *   bench (NOTIFY `warehouse_batches`), with a pick list in the same order.
 * - `warehouse_closes` / `closed_shipments`: each close of the day, its manifests, refunds and the benches that
 *   were offline, and which shipments went in which close (a shipment goes in one close only).
 * - A trigger on `platform_events`: a label ahead's own `shipment.created` is never taken for a shipment made on the
 *   web panel.
 * - `close_requests`: a close asked at a bench with the supervisor's PIN, carried out by the supervisor's program.
 * - `rate_waits`: each packer's wait for a label slot, kept two days, for the page's p50/p95 of today (rate_slots
 *   keeps ten windows only).
 * - `take_background_slot`: background work (labels ahead) takes a slot only while no packer waits and the
 *   window keeps `p_headroom` slots free for packers.
 */

/** Step 8's SQL (see the module doc). */
export const AHEAD_SCHEMA_SQL = `
  CREATE TABLE ahead_settings (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    enabled boolean NOT NULL DEFAULT false,
    -- Rule names whose orders get labels ahead; null: every rule that ships by itself.
    rules text[],
    -- Orders imported in the last N hours; null: today's imported orders (Europe/Rome day).
    horizon_hours integer CHECK (horizon_hours IS NULL OR horizon_hours BETWEEN 1 AND 720),
    -- Label purchases a minute background work leaves free for the packers (of the account's 30).
    headroom integer NOT NULL DEFAULT 5 CHECK (headroom BETWEEN 0 AND 29),
    -- The batch printer stacks its labels face down: a batch prints its last label first.
    face_down boolean NOT NULL DEFAULT false,
    changed_at timestamptz NOT NULL DEFAULT now()
  );
  INSERT INTO ahead_settings DEFAULT VALUES;

  CREATE TABLE ahead_buyer (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    bench_id text REFERENCES benches (id),
    until timestamptz NOT NULL DEFAULT '-infinity'
  );
  INSERT INTO ahead_buyer DEFAULT VALUES;

  CREATE TABLE label_batches (
    id bigserial PRIMARY KEY,
    bench_id text NOT NULL REFERENCES benches (id),
    -- What the supervisor chose: {"kind": "single" | "sku" | "shop" | "all", "value": …}.
    selection jsonb NOT NULL,
    face_down boolean NOT NULL,
    labels integer NOT NULL,
    state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'printing', 'printed', 'failed')),
    error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    printed_at timestamptz
  );

  CREATE TABLE labels_ahead (
    id bigserial PRIMARY KEY,
    order_key text NOT NULL REFERENCES orders (order_key),
    state text NOT NULL CHECK (state IN ('buying', 'bought', 'batched', 'printed', 'used', 'cancelled', 'cancel_refused', 'failed')),
    -- The shipment's reference sent with POST /shipments (the order's own: a bench adopts it by reference).
    reference text NOT NULL,
    -- What the label was bought for: a digest of the order's items, address and rule; the planned weight (kg).
    fingerprint text NOT NULL,
    rule_name text,
    weight_kg numeric(10, 3),
    sku text,
    bin text,
    bought_by text NOT NULL REFERENCES benches (id),
    reserved_at timestamptz NOT NULL DEFAULT now(),
    tracking_number text UNIQUE,
    platform_id bigint,
    contract_code text,
    carrier_code text,
    cost numeric(10, 2),
    currency text,
    -- The platform's Shipment without its label; the label as received (base64, spec: Label).
    shipment jsonb,
    label_zpl text,
    label_pdf text,
    bought_at timestamptz,
    batch_id bigint REFERENCES label_batches (id),
    batch_pos integer,
    printed_by text REFERENCES benches (id),
    printed_at timestamptz,
    used_by text REFERENCES benches (id),
    used_packer text,
    used_at timestamptz,
    cancel_reason text CHECK (cancel_reason IS NULL OR cancel_reason IN ('weight', 'changed', 'day_closed', 'order_gone', 'failed')),
    cancelled_at timestamptz,
    refund numeric(10, 2),
    error text
  );
  CREATE UNIQUE INDEX labels_ahead_live ON labels_ahead (order_key) WHERE state IN ('buying', 'bought', 'batched', 'printed', 'used');
  CREATE INDEX labels_ahead_state ON labels_ahead (state);
  CREATE INDEX labels_ahead_batch ON labels_ahead (batch_id, batch_pos) WHERE batch_id IS NOT NULL;

  -- A label ahead's shipment is the warehouse's own, not one made on the web panel: its shipment.created (a webhook,
  -- or the catch-up) is applied at once as 'label_ahead', so apply_platform_events (schema 7) never takes its order
  -- as shipped from the platform. Matched by tracking number, or by the order of a purchase still on its way.
  CREATE FUNCTION platform_event_of_label_ahead() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $f$
  BEGIN
    IF NEW.event = 'shipment.created' AND NEW.applied_seq IS NULL AND (
         EXISTS (SELECT 1 FROM labels_ahead WHERE tracking_number = NEW.tracking_number)
      OR EXISTS (SELECT 1 FROM labels_ahead WHERE state = 'buying' AND order_key = platform_order_of(NEW.payload->>'order_id'))) THEN
      NEW.applied_seq := nextval('platform_events_applied');
      NEW.applied_at := clock_timestamp();
      NEW.outcome := 'label_ahead';
    END IF;
    RETURN NEW;
  END $f$;
  CREATE TRIGGER platform_events_label_ahead BEFORE INSERT ON platform_events FOR EACH ROW EXECUTE FUNCTION platform_event_of_label_ahead();

  CREATE TABLE warehouse_closes (
    id bigserial PRIMARY KEY,
    closed_at timestamptz NOT NULL DEFAULT now(),
    -- Where: 'page' (the supervisor's page) or a bench's id (at a bench with the supervisor's PIN).
    closed_at_place text NOT NULL,
    packer text,
    -- [{contractCode, manifestId, shipments}], the benches offline [{id, name, lastSeen}], the refused cancels
    -- [{trackingNumber, orderKey, reason}].
    manifests jsonb NOT NULL DEFAULT '[]',
    offline_benches jsonb NOT NULL DEFAULT '[]',
    cancel_refused jsonb NOT NULL DEFAULT '[]',
    cancelled integer NOT NULL DEFAULT 0,
    refunded numeric(10, 2) NOT NULL DEFAULT 0
  );
  CREATE TABLE closed_shipments (
    tracking_number text PRIMARY KEY,
    close_id bigint NOT NULL REFERENCES warehouse_closes (id),
    bench_id text,
    contract_code text
  );

  CREATE TABLE rate_waits (
    route text NOT NULL,
    at timestamptz NOT NULL,
    bench_id text NOT NULL,
    waited_ms integer NOT NULL
  );
  CREATE INDEX rate_waits_at ON rate_waits (route, at);
  CREATE FUNCTION rate_slot_taken() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    IF NEW.priority = 0 THEN
      INSERT INTO rate_waits (route, at, bench_id, waited_ms) VALUES (NEW.route, NEW.at, NEW.bench_id, NEW.waited_ms);
      DELETE FROM rate_waits WHERE route = NEW.route AND at < NEW.at - interval '2 days';
    END IF;
    RETURN NEW;
  END $f$;
  CREATE TRIGGER rate_slot_taken AFTER INSERT ON rate_slots FOR EACH ROW EXECUTE FUNCTION rate_slot_taken();

  -- Background work's try at a slot of p_route: as take_rate_slot with priority 1, but refused (granted false)
  -- while a packer waits for the route or fewer than p_headroom slots of the window are free, so labels ahead
  -- never take a slot a packer could want now. wait_ms: when to try again.
  CREATE FUNCTION take_background_slot(p_bench text, p_route text, p_key text, p_limit integer, p_window_ms integer, p_headroom integer, p_forget_ms integer)
  RETURNS TABLE (granted boolean, wait_ms integer, ahead integer, used integer)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  DECLARE
    t timestamptz;
    n_used integer;
    n_packers integer;
    oldest timestamptz;
  BEGIN
    PERFORM check_own_bench(p_bench, 'take_background_slot');
    PERFORM pg_advisory_xact_lock(hashtext('rate:' || p_route));
    t := clock_timestamp();
    SELECT count(*) INTO n_packers FROM rate_waiters w WHERE w.route = p_route AND w.priority = 0 AND w.seen_at > t - interval '30 seconds';
    SELECT count(*), min(s.at) INTO n_used, oldest FROM rate_slots s WHERE s.route = p_route AND s.at > t - make_interval(secs => p_window_ms / 1000.0);
    IF n_packers > 0 OR n_used >= p_limit - greatest(0, p_headroom) THEN
      RETURN QUERY SELECT false,
        greatest(250, CASE WHEN n_packers > 0 OR oldest IS NULL THEN 1000
          ELSE (extract(epoch FROM oldest + make_interval(secs => p_window_ms / 1000.0) - t) * 1000)::integer END),
        n_packers, n_used;
      RETURN;
    END IF;
    RETURN QUERY SELECT * FROM take_rate_slot(p_bench, p_route, p_key, p_limit, p_window_ms, 1::smallint, p_forget_ms);
  END $f$;
  REVOKE ALL ON FUNCTION take_background_slot(text, text, text, integer, integer, integer, integer) FROM PUBLIC;
  GRANT EXECUTE ON FUNCTION take_background_slot(text, text, text, integer, integer, integer, integer) TO warehouse_bench;

  -- The buyer's lease: p_bench buys labels ahead for p_lease_s seconds when no other live bench holds it.
  CREATE FUNCTION lead_labels_ahead(p_bench text, p_lease_s integer) RETURNS boolean
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  DECLARE
    won text;
  BEGIN
    PERFORM check_own_bench(p_bench, 'lead_labels_ahead');
    UPDATE ahead_buyer SET bench_id = p_bench, until = clock_timestamp() + make_interval(secs => p_lease_s)
      WHERE bench_id IS NULL OR bench_id = p_bench OR until < clock_timestamp()
      RETURNING bench_id INTO won;
    RETURN won IS NOT NULL;
  END $f$;

  -- Reserves the label ahead of p_key for p_bench (state buying): refused (null) when the order is shipped, claimed
  -- by a live bench, or has a live label ahead already. The order's row is locked first, as claim_order and
  -- ship_orders lock it, so a reservation and a packer's claim cannot cross.
  CREATE FUNCTION reserve_label_ahead(p_bench text, p_key text, p_reference text, p_fingerprint text, p_rule text, p_weight_kg numeric, p_sku text, p_bin text)
  RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  DECLARE
    o orders%ROWTYPE;
    new_id bigint;
  BEGIN
    PERFORM check_own_bench(p_bench, 'reserve_label_ahead');
    SELECT * INTO o FROM orders WHERE order_key = p_key FOR UPDATE;
    IF NOT FOUND OR o.shipped_at IS NOT NULL THEN RETURN NULL; END IF;
    IF EXISTS (SELECT 1 FROM claims c JOIN benches b ON b.id = c.bench_id WHERE c.order_key = p_key AND b.heartbeat_at > now() - interval '30 seconds') THEN
      RETURN NULL;
    END IF;
    INSERT INTO labels_ahead (order_key, state, reference, fingerprint, rule_name, weight_kg, sku, bin, bought_by)
      VALUES (p_key, 'buying', p_reference, p_fingerprint, p_rule, p_weight_kg, p_sku, p_bin, p_bench)
      ON CONFLICT DO NOTHING RETURNING id INTO new_id;
    RETURN new_id;
  END $f$;

  -- The label of reservation p_id bought: its shipment and bytes kept (state bought). False when the reservation
  -- is no longer the buyer's (a packer's bench took the order over meanwhile: it adopts the shipment by reference).
  CREATE FUNCTION store_label_ahead(p_bench text, p_id bigint, p_tracking text, p_platform_id bigint, p_contract text, p_carrier text,
    p_cost numeric, p_currency text, p_shipment jsonb, p_zpl text, p_pdf text) RETURNS boolean
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  DECLARE
    n integer;
  BEGIN
    PERFORM check_own_bench(p_bench, 'store_label_ahead');
    UPDATE labels_ahead SET state = 'bought', tracking_number = p_tracking, platform_id = p_platform_id, contract_code = p_contract,
      carrier_code = p_carrier, cost = p_cost, currency = p_currency, shipment = p_shipment, label_zpl = p_zpl, label_pdf = p_pdf,
      bought_at = now()
      WHERE id = p_id AND state = 'buying';
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n = 1;
  END $f$;

  -- A reservation whose POST never left (the account's budget refused it, the platform was not reached): the row
  -- of p_bench goes, as if never made, so the order may get its label ahead later. Only a 'buying' row of this bench.
  CREATE FUNCTION drop_label_ahead_reservation(p_bench text, p_id bigint) RETURNS boolean
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  DECLARE
    n integer;
  BEGIN
    PERFORM check_own_bench(p_bench, 'drop_label_ahead_reservation');
    DELETE FROM labels_ahead WHERE id = p_id AND state = 'buying' AND bought_by = p_bench;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n = 1;
  END $f$;

  -- A label ahead ends without being used: p_state 'cancelled' (p_refund recorded, EUR), 'cancel_refused' (p_error
  -- says what the platform said) or 'failed' (the purchase was refused, p_error why; nothing was bought).
  CREATE FUNCTION end_label_ahead(p_bench text, p_id bigint, p_state text, p_reason text, p_refund numeric, p_error text) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  BEGIN
    PERFORM check_own_bench(p_bench, 'end_label_ahead');
    IF p_state NOT IN ('cancelled', 'cancel_refused', 'failed') THEN RAISE EXCEPTION 'end_label_ahead: state %', p_state USING ERRCODE = '22023'; END IF;
    UPDATE labels_ahead SET state = p_state, cancel_reason = p_reason, refund = p_refund, error = p_error,
      cancelled_at = CASE WHEN p_state = 'cancelled' THEN now() ELSE cancelled_at END
      WHERE id = p_id AND state <> 'used';
  END $f$;

  -- A bench ships the order p_key with its label ahead: the row is locked and marked used by p_bench (and p_packer)
  -- and returned whole; a row this bench used already is returned again (a bench killed after using it finds it on
  -- its next try, and prints nothing twice: printed_at says whether it was printed in a batch). A label in a batch
  -- not printed yet ('batched') is not used: its batch prints it. No row: none to use.
  CREATE FUNCTION use_label_ahead(p_bench text, p_id bigint, p_packer text) RETURNS SETOF labels_ahead
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  BEGIN
    PERFORM check_own_bench(p_bench, 'use_label_ahead');
    RETURN QUERY UPDATE labels_ahead SET state = 'used', used_by = p_bench, used_packer = p_packer, used_at = now()
      WHERE id = p_id AND (state IN ('bought', 'printed') OR (state = 'used' AND used_by = p_bench))
      RETURNING *;
  END $f$;

  -- A batch print's labels printed (or not) by its bench: printed ones are 'printed', the batch says how it ended.
  CREATE FUNCTION batch_printed(p_bench text, p_batch bigint, p_printed bigint[], p_error text) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  BEGIN
    PERFORM check_own_bench(p_bench, 'batch_printed');
    UPDATE labels_ahead SET state = 'printed', printed_by = p_bench, printed_at = now()
      WHERE batch_id = p_batch AND id = ANY (p_printed) AND state = 'batched';
    UPDATE label_batches SET state = CASE WHEN p_error IS NULL THEN 'printed' ELSE 'failed' END, error = p_error, printed_at = now()
      WHERE id = p_batch AND bench_id = p_bench;
    -- Labels a failed batch did not print go back to be bought-and-waiting (a packer's scan prints them).
    UPDATE labels_ahead SET state = 'bought', batch_id = NULL, batch_pos = NULL WHERE batch_id = p_batch AND state = 'batched';
  END $f$;

  CREATE FUNCTION label_batches_changed() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    PERFORM pg_notify('warehouse_batches', NEW.bench_id);
    RETURN NEW;
  END $f$;
  CREATE TRIGGER label_batches_changed AFTER INSERT ON label_batches FOR EACH ROW EXECUTE FUNCTION label_batches_changed();

  DO $g$
  DECLARE
    f text;
  BEGIN
    FOREACH f IN ARRAY ARRAY['lead_labels_ahead(text, integer)', 'reserve_label_ahead(text, text, text, text, text, numeric, text, text)',
      'store_label_ahead(text, bigint, text, bigint, text, text, numeric, text, jsonb, text, text)', 'drop_label_ahead_reservation(text, bigint)',
      'end_label_ahead(text, bigint, text, text, numeric, text)',
      'use_label_ahead(text, bigint, text)', 'batch_printed(text, bigint, bigint[], text)'] LOOP
      EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
      EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO warehouse_bench', f);
    END LOOP;
  END $g$;
  -- A close of the day asked at a bench with the supervisor's PIN (item 4): the bench asks, the supervisor's program
  -- (NOTIFY warehouse_close_requests) closes the day as its page does and answers here with the close or why not.
  CREATE TABLE close_requests (
    id bigserial PRIMARY KEY,
    bench_id text NOT NULL REFERENCES benches (id),
    packer text,
    asked_at timestamptz NOT NULL DEFAULT now(),
    state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'done', 'refused')),
    close_id bigint REFERENCES warehouse_closes (id),
    message text,
    answered_at timestamptz
  );
  CREATE FUNCTION request_warehouse_close(p_bench text, p_packer text) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  DECLARE
    new_id bigint;
  BEGIN
    PERFORM check_own_bench(p_bench, 'request_warehouse_close');
    INSERT INTO close_requests (bench_id, packer) VALUES (p_bench, p_packer) RETURNING id INTO new_id;
    PERFORM pg_notify('warehouse_close_requests', new_id::text);
    RETURN new_id;
  END $f$;
  REVOKE ALL ON FUNCTION request_warehouse_close(text, text) FROM PUBLIC;
  GRANT EXECUTE ON FUNCTION request_warehouse_close(text, text) TO warehouse_bench;
  GRANT SELECT ON ahead_settings, ahead_buyer, labels_ahead, label_batches, warehouse_closes, closed_shipments, rate_waits, close_requests TO warehouse_bench;
`;
