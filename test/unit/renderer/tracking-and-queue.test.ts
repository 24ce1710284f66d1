/**
 * Renderer side of tracking and the Queue: texts (event times in the
 * bench's local time, calendar days, summaries, the offline message, queue
 * row words) and the stores against a fake station API.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandInput, CommandName, OutboxRowView, StationApi, TrackingView } from '../../../shared/contract';
import { StationError } from '../../../shared/contract';
import { setStation } from '../../../renderer/src/api';
import { setLanguage } from '../../../renderer/src/lib/i18n';
import { cannotDismissReason, errorText, outcomeText, recordText, rowTitle, stateTagClass } from '../../../renderer/src/lib/queue';
import { calendarDay, eventTime, trackingSummary, unavailableText } from '../../../renderer/src/lib/tracking';
import { useApp } from '../../../renderer/src/stores/app';
import { useQueue } from '../../../renderer/src/stores/queue';
import { keepLastRead, useTracking } from '../../../renderer/src/stores/tracking';

const savedTz = process.env.TZ;
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const shipped = { code: 2, key: 'shipped' as const, label: 'Shipped' };
const inTransit = { code: 3, key: 'in_transit' as const, label: 'In transit' };

function tracking(over: Partial<TrackingView> = {}): TrackingView {
  return {
    trackingNumber: 'BRT000000042',
    carrierTrackingNumber: 'BRT000000042',
    carrier: { code: 'brt', name: 'BRT' },
    status: inTransit,
    events: [{ timestamp: '2026-11-23T15:10:00+01:00', status: inTransit, description: 'In transito', location: 'MILANO' }],
    estimatedDelivery: '2026-11-24',
    deliveredAt: null,
    cancelled: false,
    stockId: null,
    source: 'platform',
    unavailable: null,
    asOf: '2026-11-23T15:30:00.000Z',
    ...over,
  };
}

function row(over: Partial<OutboxRowView> = {}): OutboxRowView {
  return {
    id: 7,
    kind: 'shipment.create',
    title: 'Ship order #1002',
    titleParts: { what: 'ship', orderNumber: '#1002' },
    orderNumber: '#1002',
    trackingNumber: null,
    reference: '#1002',
    pickupDate: null,
    state: 'needs_attention',
    outcome: null,
    note: null,
    attempts: 1,
    lastError: { code: 'validation_failed', message: 'Province must be 2 letters', status: 422, details: null },
    canRetry: true,
    canDismiss: true,
    canConfirmResend: false,
    nextAttemptAt: null,
    createdAt: '2026-11-23T09:00:00.000Z',
    updatedAt: '2026-11-23T09:00:01.000Z',
    ...over,
  };
}

describe('tracking texts', () => {
  it('shows event timestamps in Europe/Rome like the labels, whatever offset the carrier used and whatever the PC zone', () => {
    process.env.TZ = 'Europe/Rome';
    expect(eventTime('2026-11-24T07:40:00Z')).toBe('24/11/2026, 08:40');
    expect(eventTime('2026-11-24T08:40:00+01:00')).toBe('24/11/2026, 08:40');
    process.env.TZ = 'America/New_York';
    expect(eventTime('2026-11-24T08:40:00+01:00')).toBe('24/11/2026, 08:40');
    expect(eventTime('not a time')).toBe('not a time');
  });

  it('shows a delivery date as that calendar day in any time zone', () => {
    process.env.TZ = 'America/Los_Angeles';
    expect(calendarDay('2026-11-24')).toBe('Tue, 24/11/2026');
    process.env.TZ = 'Asia/Tokyo';
    expect(calendarDay('2026-11-24')).toBe('Tue, 24/11/2026');
    expect(calendarDay('24/11/2026')).toBe('24/11/2026');
  });

  it('summarises: not collected yet, expected delivery, delivered, cancelled, held', () => {
    process.env.TZ = 'Europe/Rome';
    expect(trackingSummary(tracking({ events: [], status: shipped }))).toBe('No carrier events yet: the carrier has not collected the parcel. Expected delivery Tue, 24/11/2026.');
    expect(trackingSummary(tracking())).toBe('Expected delivery Tue, 24/11/2026.');
    expect(trackingSummary(tracking({ deliveredAt: '2026-11-24T13:05:00+01:00' }))).toBe('Delivered 24/11/2026, 13:05.');
    expect(trackingSummary(tracking({ cancelled: true }))).toBe('Cancelled: the carrier will not move it.');
    expect(trackingSummary(tracking({ stockId: 3, estimatedDelivery: null }))).toBe('Held at the depot: the stock needs instructions.');
    expect(trackingSummary(tracking({ estimatedDelivery: null }))).toBe('Checked 23/11/2026, 16:30.');
  });

  it('says clearly when only the last known status is shown, and why', () => {
    process.env.TZ = 'Europe/Rome';
    expect(unavailableText(tracking())).toBeNull();
    const offline = tracking({ source: 'local', unavailable: { code: 'offline', message: 'x' }, events: [], asOf: '2026-11-23T09:00:00.000Z' });
    expect(unavailableText(offline)).toBe('Tracking unavailable: the platform cannot be reached (no network). Showing the last known status; press Alt+T to try again.');
    expect(trackingSummary(offline)).toBe('Last known status, recorded 23/11/2026, 10:00.');
    expect(trackingSummary({ ...offline, deliveredAt: '2026-11-24T13:05:00+01:00' })).toBe('Last known status, recorded 23/11/2026, 10:00. Delivered 24/11/2026, 13:05.');
    expect(unavailableText({ ...offline, unavailable: { code: 'bad_gateway_x', message: 'x' } })).toContain('could not be asked (bad_gateway_x)');
  });

  it('keeps the timeline already read when a refresh cannot reach the platform', () => {
    process.env.TZ = 'Europe/Rome';
    const read = tracking();
    const offline = tracking({ source: 'local', unavailable: { code: 'timeout', message: 't' }, events: [], asOf: '2026-11-23T09:00:00.000Z' });
    const kept = keepLastRead(read, offline);
    expect(kept).toMatchObject({ source: 'local', unavailable: { code: 'timeout' }, events: read.events, asOf: read.asOf, estimatedDelivery: '2026-11-24' });
    expect(unavailableText(kept)).toBe('Tracking unavailable: the platform did not answer in time. Showing the last tracking read; press Alt+T to try again.');
    expect(trackingSummary(kept)).toBe('Last tracking read 23/11/2026, 16:30.');
    expect(keepLastRead(null, offline)).toBe(offline);
    expect(keepLastRead(tracking({ trackingNumber: 'OTHER' }), offline)).toBe(offline);
    expect(keepLastRead(offline, read)).toBe(read);
  });
});

describe('queue texts', () => {
  it('words a row title in the screen language from its parts', async () => {
    expect(rowTitle(row())).toBe('Ship order #1002');
    const pickup = row({ kind: 'pickup.create', title: 'Book pickup 2026-11-23 PM (BRT — BRT Standard)', titleParts: { what: 'pickup', date: '2026-11-23', time: 'PM', contract: 'BRT — BRT Standard' } });
    expect(rowTitle(pickup)).toBe('Book pickup 23/11/2026 PM (BRT — BRT Standard)');
    const manifest = row({ kind: 'manifest.create', titleParts: { what: 'manifest', shipments: 1 } });
    expect(rowTitle(manifest)).toBe('Close the day: 1 shipment');
    const stock = row({ kind: 'stock.instruct', titleParts: { what: 'stock', trackingNumber: 'BRT1', action: 'return_to_sender' } });
    expect(rowTitle(stock)).toBe('Held shipment BRT1: return to sender');
    const orders = row({ kind: 'orders.submit', titleParts: { what: 'orders', orderNumbers: ['#1', '#2', '#3', '#4'] } });
    expect(rowTitle(orders)).toBe('Send 4 orders to the platform (#1, #2, #3, …)');
    await setLanguage('it');
    try {
      expect(rowTitle(row())).toBe('Spedisci l’ordine #1002');
      expect(rowTitle(manifest)).toBe('Chiudi la giornata: 1 spedizione');
      expect(rowTitle(stock)).toBe('Giacenza BRT1: reso al mittente');
      expect(rowTitle(pickup)).toBe('Prenota ritiro 23/11/2026 PM (BRT — BRT Standard)');
    } finally {
      await setLanguage('en');
    }
  });

  it('names the record, the error with its HTTP status, and the outcome', () => {
    expect(recordText(row())).toBe('order #1002');
    expect(recordText(row({ orderNumber: null, reference: 'ST-20261123-ABCDEF', trackingNumber: 'BRT1' }))).toBe('ref. ST-20261123-ABCDEF → BRT1');
    expect(recordText(row({ kind: 'pickup.create', orderNumber: null, reference: null, pickupDate: '2026-11-24' }))).toBe('pickup 24/11/2026');
    expect(recordText(row({ orderNumber: null, reference: null }))).toBe('—');
    expect(errorText(row())).toBe('Province must be 2 letters [HTTP 422 validation_failed]');
    const withFields = row({ lastError: { code: 'validation_failed', message: 'The given data was invalid.', status: 422, details: { 'recipient.address.province': ['Use the 2-letter code'], 'packages.0.weight.value': ['Too heavy', 'Max 30 kg'] } } });
    expect(errorText(withFields)).toBe('The platform refused some fields: fix them Recipient › province: Use the 2-letter code; Parcel 1 › weight: Too heavy, Max 30 kg [HTTP 422 validation_failed]');
    process.env.TZ = 'Europe/Rome';
    expect(errorText(row({ state: 'queued', lastError: { code: 'offline', message: 'Platform not reachable', status: null, details: null }, nextAttemptAt: '2026-11-23T09:05:00.000Z' }))).toBe(
      'Platform not reachable [offline] — sent again automatically after 23/11/2026, 10:05',
    );
    expect(errorText(row({ state: 'queued', lastError: null }))).toBe('Waiting its turn');
    expect(outcomeText(row({ state: 'done', outcome: 'dismissed', note: 'Shipped by hand' }))).toBe('Dismissed: Shipped by hand');
    expect(outcomeText(row({ state: 'done', outcome: 'adopted' }))).toBe('Found on the platform after a lost answer');
    expect(stateTagClass('needs_attention')).toBe('tag-bad');
    expect(stateTagClass('queued')).toBe('tag-warn');
    expect(cannotDismissReason(row())).toBeNull();
    expect(cannotDismissReason(row({ canDismiss: false }))).toContain('send it again');
    expect(cannotDismissReason(row({ state: 'queued', canDismiss: false, canRetry: false }))).toBeNull();
  });
});

/** A fake station: answers from `handlers`, records the calls. */
function fakeStation(handlers: Partial<Record<CommandName, (input: unknown) => Promise<unknown>>>) {
  const calls: Array<{ name: string; input: unknown }> = [];
  const api: StationApi = {
    invoke: (async (name: CommandName, input: CommandInput<CommandName>) => {
      calls.push({ name, input });
      const h = handlers[name];
      if (!h) throw new StationError('unknown_command', name);
      return h(input);
    }) as StationApi['invoke'],
    on: () => () => {},
  };
  setStation(api);
  return calls;
}

describe('tracking store', () => {
  beforeEach(() => useTracking.getState().clear());

  it('drops a late answer for a shipment no longer shown', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    fakeStation({
      'shipments.tracking': async (input) => {
        const ldv = (input as { trackingNumber: string }).trackingNumber;
        if (ldv === 'SLOW') await gate;
        return tracking({ trackingNumber: ldv });
      },
    });
    const slow = useTracking.getState().load('SLOW');
    await useTracking.getState().load('FAST');
    release();
    await slow;
    expect(useTracking.getState().view?.trackingNumber).toBe('FAST');
    expect(useTracking.getState().loading).toBe(false);
  });

  it('refresh reads the shown shipment again and keeps the view when the read fails', async () => {
    let fail = false;
    const calls = fakeStation({
      'shipments.tracking': async () => {
        if (fail) throw new StationError('not_found', 'Shipment X not found');
        return tracking();
      },
    });
    await useTracking.getState().refresh(); // nothing shown: no call
    expect(calls).toHaveLength(0);
    await useTracking.getState().load('BRT000000042');
    fail = true;
    await useTracking.getState().refresh();
    expect(calls.map((c) => c.input)).toEqual([{ trackingNumber: 'BRT000000042' }, { trackingNumber: 'BRT000000042' }]);
    expect(useTracking.getState().error?.code).toBe('not_found');
    expect(useTracking.getState().view?.status).toEqual(inTransit);
  });
});

describe('queue store', () => {
  it('loads, retries and dismisses with a trimmed note, reporting on the banner', async () => {
    const calls = fakeStation({
      'outbox.list': async () => ({ pending: [row()], done: [] }),
      'outbox.retry': async () => row({ state: 'queued', canRetry: false, canDismiss: false }),
      'outbox.dismiss': async () => {
        throw new StationError('invalid_state', 'Queue row 7 cannot be dismissed');
      },
    });
    await useQueue.getState().load();
    expect(useQueue.getState().pending.map((r) => r.id)).toEqual([7]);
    await useQueue.getState().retry(row());
    expect(useApp.getState().banner).toMatchObject({ kind: 'info', title: 'Sending again: Ship order #1002' });

    useQueue.getState().askDismiss(row());
    expect(useQueue.getState().confirmDismiss?.id).toBe(7);
    await useQueue.getState().dismiss(row(), '  by phone  ');
    expect(useQueue.getState().confirmDismiss).toBeNull();
    expect(calls.filter((c) => c.name === 'outbox.dismiss').map((c) => c.input)).toEqual([{ id: 7, note: 'by phone' }]);
    expect(useApp.getState().banner).toMatchObject({ kind: 'error', title: 'Could not dismiss Ship order #1002' });
    expect(calls.filter((c) => c.name === 'outbox.list')).toHaveLength(3); // after each action
  });
});

describe('slip job progress (events out of order)', () => {
  it('grows with every step, a retry included, so an older view never replaces a newer one', async () => {
    const { slipProgress } = await import('../../../renderer/src/stores/slips');
    const steps = [
      { attempts: 0, state: 'queued' },
      { attempts: 1, state: 'printing' },
      { attempts: 1, state: 'queued' },
      { attempts: 2, state: 'printing' },
      { attempts: 2, state: 'printed' },
    ] as const;
    const ranks = steps.map((s) => slipProgress(s));
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(new Set(ranks).size).toBe(ranks.length);
    expect(slipProgress({ attempts: 1, state: 'failed' })).toBeGreaterThan(slipProgress({ attempts: 1, state: 'printing' }));
  });
});
