/**
 * Schema 9 of the warehouse (issue 43 item 3): a label ahead that came too late is never a second live label.
 *
 * A packer's press waits for a label ahead still being bought (`buying`) for a while (shipping/ahead-use.ts), then
 * ships the order with a label of its own. Before this step the late purchase was still stored as `bought`, and the
 * order had two live labels until the close of the day. Now the press first marks the reservation `abandoned`
 * (`abandon_label_ahead`), and then buys its own under the order's next reference (`-2`), never adopting the
 * abandoned one's. Whatever the late purchase bought is cancelled: by its buyer when the platform's answer comes
 * (`store_label_ahead` answers `abandoned`), by the settling step when that buyer stopped, at the latest by the
 * close of the day. Its `shipment.created` is never taken for a shipment made on the web panel.
 */

/** Step 9's SQL (see the module doc). */
export const AHEAD_LATE_SCHEMA_SQL = `
  ALTER TABLE labels_ahead DROP CONSTRAINT labels_ahead_state_check;
  ALTER TABLE labels_ahead ADD CONSTRAINT labels_ahead_state_check
    CHECK (state IN ('buying', 'bought', 'batched', 'printed', 'used', 'cancelled', 'cancel_refused', 'failed', 'abandoned'));
  -- 'late': bought after the packer's press stopped waiting for it; 'unused': printed in a batch, its order shipped
  -- with another label.
  ALTER TABLE labels_ahead DROP CONSTRAINT labels_ahead_cancel_reason_check;
  ALTER TABLE labels_ahead ADD CONSTRAINT labels_ahead_cancel_reason_check
    CHECK (cancel_reason IS NULL OR cancel_reason IN ('weight', 'changed', 'day_closed', 'order_gone', 'failed', 'late', 'unused'));

  -- A press stops waiting for the purchase of p_id: true when it was still 'buying' (now 'abandoned', whatever it
  -- buys is cancelled), false when the purchase ended meanwhile (read the row again). Any live bench may.
  CREATE FUNCTION abandon_label_ahead(p_bench text, p_id bigint) RETURNS boolean
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  DECLARE
    n integer;
  BEGIN
    PERFORM check_own_bench(p_bench, 'abandon_label_ahead');
    UPDATE labels_ahead SET state = 'abandoned', error = 'the packer at ' || p_bench || ' stopped waiting for it' WHERE id = p_id AND state = 'buying';
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n = 1;
  END $f$;

  -- The label of reservation p_id bought: its shipment and bytes kept. Answers 'bought' (it was 'buying': now a label
  -- ahead), 'abandoned' (a press stopped waiting: kept as bought, still 'abandoned', for its buyer to cancel) or
  -- 'gone' (the reservation ended otherwise).
  DROP FUNCTION store_label_ahead(text, bigint, text, bigint, text, text, numeric, text, jsonb, text, text);
  CREATE FUNCTION store_label_ahead(p_bench text, p_id bigint, p_tracking text, p_platform_id bigint, p_contract text, p_carrier text,
    p_cost numeric, p_currency text, p_shipment jsonb, p_zpl text, p_pdf text) RETURNS text
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $f$
  DECLARE
    was text;
  BEGIN
    PERFORM check_own_bench(p_bench, 'store_label_ahead');
    SELECT state INTO was FROM labels_ahead WHERE id = p_id FOR UPDATE;
    IF was IS NULL OR was NOT IN ('buying', 'abandoned') THEN RETURN 'gone'; END IF;
    UPDATE labels_ahead SET state = CASE WHEN was = 'buying' THEN 'bought' ELSE 'abandoned' END, tracking_number = p_tracking,
      platform_id = p_platform_id, contract_code = p_contract, carrier_code = p_carrier, cost = p_cost, currency = p_currency,
      shipment = p_shipment, label_zpl = p_zpl, label_pdf = p_pdf, bought_at = now()
      WHERE id = p_id;
    RETURN CASE WHEN was = 'buying' THEN 'bought' ELSE 'abandoned' END;
  END $f$;

  REVOKE ALL ON FUNCTION abandon_label_ahead(text, bigint) FROM PUBLIC;
  GRANT EXECUTE ON FUNCTION abandon_label_ahead(text, bigint) TO warehouse_bench;
  REVOKE ALL ON FUNCTION store_label_ahead(text, bigint, text, bigint, text, text, numeric, text, jsonb, text, text) FROM PUBLIC;
  GRANT EXECUTE ON FUNCTION store_label_ahead(text, bigint, text, bigint, text, text, numeric, text, jsonb, text, text) TO warehouse_bench;

  -- As step 8's, and an abandoned purchase's own shipment.created (its exact reference: the packer's own label has
  -- the order's next one) is the warehouse's too.
  CREATE OR REPLACE FUNCTION platform_event_of_label_ahead() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $f$
  BEGIN
    IF NEW.event = 'shipment.created' AND NEW.applied_seq IS NULL AND (
         EXISTS (SELECT 1 FROM labels_ahead WHERE tracking_number = NEW.tracking_number)
      OR EXISTS (SELECT 1 FROM labels_ahead WHERE state = 'buying' AND order_key = platform_order_of(NEW.payload->>'order_id'))
      OR EXISTS (SELECT 1 FROM labels_ahead WHERE state = 'abandoned' AND reference = NEW.payload->>'order_id')) THEN
      NEW.applied_seq := nextval('platform_events_applied');
      NEW.applied_at := clock_timestamp();
      NEW.outcome := 'label_ahead';
    END IF;
    RETURN NEW;
  END $f$;
`;
