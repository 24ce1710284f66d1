/**
 * Ships by itself (issue 24 item 4), the renderer's side: the countdown runs
 * only when the core says so, Esc stops it for good on that order, the
 * Ctrl+Enter guards hold at its start and at its end, and an order needing
 * attention shows the core's reasons. Fake timers: the countdown's end is
 * driven, never waited for.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandInput, CommandName, StationApi } from '../../../shared/contract';
import type { AutoShipView } from '../../../shared/contract/plan';
import type { StationOrder } from '../../../shared/domain/order';
import { StationError } from '../../../shared/contract/errors';
import { setStation } from '../../../renderer/src/api';
import { setLanguage, t } from '../../../renderer/src/lib/i18n';
import { attentionText, ruleNameText } from '../../../renderer/src/lib/ruleText';
import { useApp } from '../../../renderer/src/stores/app';
import { useAutoShip } from '../../../renderer/src/stores/autoship';
import { useJob } from '../../../renderer/src/stores/job';
import { useVerify } from '../../../renderer/src/stores/verify';
import { sampleOrder } from '../../support/sample-order';

const order = (id: number) => sampleOrder(id);

const SHIPS: AutoShipView = { ships: true, box: { reason: null, parcels: 1 }, rule: { index: 2, name: 'Italia fino a 5 kg' }, reasons: [], countdownMs: 1500 };
const RESULT = {
  shipment: { trackingNumber: 'GL1234567890', carrier: { name: 'GLS', contractName: 'Economy' }, cost: { amount: 5.64, currency: 'EUR' }, printJobs: [] },
  printJob: { id: 1, state: 'printed', lastError: null },
  printError: null,
  shippedElsewhere: false,
};

let autoShip: AutoShipView;
let calls: Array<{ name: string; input: unknown }>;

beforeEach(() => {
  vi.useFakeTimers();
  autoShip = SHIPS;
  calls = [];
  const api: StationApi = {
    invoke: (async (name: CommandName, input: CommandInput<CommandName>) => {
      calls.push({ name, input });
      if (name === 'shipping.autoShip') return autoShip;
      if (name === 'shipping.shipOrder') return RESULT;
      if (name === 'items.get') return [];
      if (name === 'verify.mismatch' || name === 'verify.skip') return {};
      if (name === 'app.info') throw new StationError('unknown_command', 'not in this test');
      throw new StationError('unknown_command', name);
    }) as StationApi['invoke'],
    on: () => () => {},
  };
  setStation(api);
  useAutoShip.getState().stop();
  useVerify.setState({ settings: null, orderId: null, lines: [], active: false, skipped: false, asking: false });
  useJob.getState().startBlank();
  // Clearing the last test's order lets it go (scan.release): not this test's call.
  calls = [];
  useApp.setState({ screen: 'quote' });
});

afterEach(async () => {
  vi.useRealTimers();
  await setLanguage('en');
});

const shipOrders = () => calls.filter((c) => c.name === 'shipping.shipOrder');

describe('shipping by itself', () => {
  it('counts down with the rule, then ships once through shipping.shipOrder and ends on Print', async () => {
    useJob.getState().startOrder(order(1));
    expect(await useAutoShip.getState().consider(1.23)).toBe(true);
    expect(useAutoShip.getState().countdown).toMatchObject({ orderId: 1, weightKg: 1.23, rule: { name: 'Italia fino a 5 kg' }, ms: 1500 });
    // The same reading again: the countdown goes on, not a second one.
    expect(await useAutoShip.getState().consider(1.23)).toBe(true);
    expect(calls.filter((c) => c.name === 'shipping.autoShip')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1499);
    expect(shipOrders()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(shipOrders()).toEqual([{ name: 'shipping.shipOrder', input: { orderId: 1, weightKg: 1.23 } }]);
    expect(useAutoShip.getState().countdown).toBeNull();
    expect(useJob.getState().result?.shipment.trackingNumber).toBe('GL1234567890');
    expect(useApp.getState().screen).toBe('print');
    // Shipped: a later reading never ships it again.
    expect(await useAutoShip.getState().consider(1.5)).toBe(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(shipOrders()).toHaveLength(1);
  });

  it('Esc stops it: nothing ships, and that order does not start again until another opens', async () => {
    useJob.getState().startOrder(order(2));
    await useAutoShip.getState().consider();
    expect(useAutoShip.getState().stop()).toBe(true);
    expect(useApp.getState().banner?.title).toBe('Stopped: the order does not ship by itself');
    await vi.advanceTimersByTimeAsync(5000);
    expect(shipOrders()).toHaveLength(0);
    expect(await useAutoShip.getState().consider(0.8)).toBe(false);
    expect(useAutoShip.getState().countdown).toBeNull();
    useJob.getState().startOrder(order(3));
    expect(await useAutoShip.getState().consider(0.8)).toBe(true);
  });

  it('keeps the Ctrl+Enter guards: a shipment in flight, or one made by hand during the countdown', async () => {
    useJob.getState().startOrder(order(4));
    useJob.setState({ shipping: true });
    expect(await useAutoShip.getState().consider(1)).toBe(false);
    // The core is not even asked (opening the order asks only for its plan: the weight from product data).
    expect(calls.filter((c) => c.name !== 'shipping.plan')).toHaveLength(0);
    useJob.setState({ shipping: false });
    expect(await useAutoShip.getState().consider(1)).toBe(true);
    // Ctrl+Enter during the countdown: the countdown ends, only the packer's shipment is made.
    useJob.setState({ shipping: true });
    expect(useAutoShip.getState().countdown).toBeNull();
    await vi.advanceTimersByTimeAsync(5000);
    expect(shipOrders()).toHaveLength(0);
  });

  it('a rate the packer chooses ends the countdown: the packer ships by hand', async () => {
    useJob.getState().startOrder(order(9));
    await useAutoShip.getState().consider(1);
    useJob.setState({ chosen: { contractCode: 'GLS-ECO' } as never });
    expect(useAutoShip.getState().countdown).toBeNull();
    await vi.advanceTimersByTimeAsync(5000);
    expect(shipOrders()).toHaveLength(0);
    expect(await useAutoShip.getState().consider(1)).toBe(false);
  });

  it('another order scanned during the countdown ends it', async () => {
    useJob.getState().startOrder(order(5));
    await useAutoShip.getState().consider(1);
    useJob.getState().startOrder(order(6));
    expect(useAutoShip.getState().countdown).toBeNull();
    await vi.advanceTimersByTimeAsync(5000);
    expect(shipOrders()).toHaveLength(0);
  });

  it('an order needing attention does not count down and shows the core’s reasons', async () => {
    autoShip = { ships: false, box: { reason: null, parcels: 1 }, rule: { index: 1, name: 'Livigno' }, reasons: [{ key: 'customs', params: { count: 2 }, message: 'Livigno: the declaration misses 2 field(s)' }], countdownMs: 1500 };
    useJob.getState().startOrder(order(7));
    expect(await useAutoShip.getState().consider(2)).toBe(false);
    expect(useAutoShip.getState().countdown).toBeNull();
    const blocked = useAutoShip.getState().blocked;
    expect(blocked?.orderId).toBe(7);
    expect(blocked?.reasons.map(attentionText)).toEqual(['Customs declaration incomplete (2 fields)']);
    // A reason without a text of its own: the core's words.
    expect(attentionText({ key: 'packing.piece_too_big', params: { sku: 'VASO' }, message: 'VASO does not fit the box' })).toBe('VASO does not fit the box');
    // "No rule" is the usual bench: nothing to show.
    autoShip = { ships: false, box: { reason: null, parcels: 1 }, rule: null, reasons: [{ key: 'noRule', params: {}, message: 'No rule covers this order' }], countdownMs: 1500 };
    useJob.getState().startOrder(order(8));
    expect(await useAutoShip.getState().consider(2)).toBe(false);
    expect(useAutoShip.getState().blocked).toBeNull();
  });

  it('says the rule (its number and name, as the rule line does), the time and "Esc stops" in English and Italian', async () => {
    const rule = ruleNameText({ index: 2, name: 'Italia' });
    expect(`${t('autoShip.countdown', { rule, seconds: '1.5' })} — ${t('autoShip.escStops')}`).toBe("Rule 2 'Italia' ships this order by itself in 1.5 s — Esc stops");
    expect(attentionText({ key: 'notByItself', params: { rule: 'Italia', index: 2 }, message: 'x' })).toBe("Rule 2 'Italia' does not ship by itself");
    await setLanguage('it');
    expect(t('autoShip.countdown', { rule: ruleNameText({ index: 2, name: 'Italia' }), seconds: '1,5' })).toBe("Regola 2 'Italia' spedisce da sola questo ordine tra 1,5 s");
    expect(attentionText({ key: 'noContract', params: { rule: 'Italia', index: 2 }, message: 'x' })).toBe("Regola 2 'Italia' non sceglie un contratto");
    expect(t('autoShip.escStops')).toBe('Esc ferma');
    expect(attentionText({ key: 'customs', params: { count: 2 }, message: 'x' })).toBe('Dichiarazione doganale incompleta (2 campi)');
  });
});

describe('the last verified item ships the order by itself (issue 37 item 4)', () => {
  /** Order `id` with 2 mugs and a saucer, opened with scan to verify on (as the orders store opens it). */
  const verifying = (id: number) => {
    const o: StationOrder = { ...order(id), items: [{ sku: 'TAZ-1', name: 'Tazza', quantity: 2, unitPrice: 5 }, { sku: 'PIA-2', name: 'Piattino', quantity: 1, unitPrice: 3 }] };

    useVerify.setState({ settings: { enabled: true, tolerancePct: 10, toleranceKg: 0.05 } });
    useJob.getState().startOrder(o);
    expect(useVerify.getState().begin(o)).toBe(true);
    calls = [];
  };
  const asked = () => calls.filter((c) => c.name === 'shipping.autoShip');

  it('the last item’s scan starts the countdown (products’ weight), then the order ships once and ends on Print', async () => {
    verifying(11);
    // Nothing before the last item: the items are still to scan.
    expect(useVerify.getState().takeScan('taz-1')).toBe(true);
    expect(useVerify.getState().takeScan('PIA-2')).toBe(true);
    expect(asked()).toHaveLength(0);
    expect(await useAutoShip.getState().consider()).toBe(false);
    expect(useVerify.getState().takeScan('TAZ-1')).toBe(true);
    expect(useApp.getState().screen).toBe('quote');
    await vi.advanceTimersByTimeAsync(0);
    expect(asked()).toEqual([{ name: 'shipping.autoShip', input: { orderId: 11 } }]);
    expect(useAutoShip.getState().countdown).toMatchObject({ orderId: 11, weightKg: undefined, ms: 1500 });
    // The banner says so (not "weigh and press Enter").
    expect(useApp.getState().banner).toMatchObject({ kind: 'ok', title: 'All 3 items scanned', detail: 'Nothing to press: it ships by itself when the countdown ends.' });
    await vi.advanceTimersByTimeAsync(1500);
    expect(shipOrders()).toEqual([{ name: 'shipping.shipOrder', input: { orderId: 11 } }]);
    expect(useApp.getState().screen).toBe('print');
  });

  it('asks with the weight the parcel has (a stable scale reading during the scans)', async () => {
    verifying(12);
    useJob.getState().setParcel(0, 'weight', '1.230');
    useVerify.getState().takeScan('taz-1');
    useVerify.getState().takeScan('taz-1');
    useVerify.getState().takeScan('pia-2');
    await vi.advanceTimersByTimeAsync(0);
    expect(asked()).toEqual([{ name: 'shipping.autoShip', input: { orderId: 12, weightKg: 1.23 } }]);
    expect(useAutoShip.getState().countdown?.weightKg).toBe(1.23);
  });

  it('a wrong item, one too many, Esc (stops verifying) or a skip never start it', async () => {
    verifying(13);
    useVerify.getState().takeScan('4006381333931');
    useVerify.getState().takeScan('pia-2');
    useVerify.getState().takeScan('pia-2');
    expect(useApp.getState().banner?.outcome).toBe('wrong_item');
    useVerify.getState().abandon();
    await vi.advanceTimersByTimeAsync(0);
    expect(asked()).toHaveLength(0);
    // Scanned again: it resumes; the skip with a reason goes to Quote without a countdown.
    expect(useVerify.getState().begin(useJob.getState().order!)).toBe(true);
    expect(await useVerify.getState().skip('Piattino out of stock')).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(asked()).toHaveLength(0);
    expect(useAutoShip.getState().countdown).toBeNull();
    expect(shipOrders()).toHaveLength(0);
  });

  it('Esc during the countdown stops it: nothing ships', async () => {
    verifying(14);
    for (const code of ['taz-1', 'taz-1', 'pia-2']) useVerify.getState().takeScan(code);
    await vi.advanceTimersByTimeAsync(0);
    expect(useAutoShip.getState().countdown?.orderId).toBe(14);
    expect(useAutoShip.getState().stop()).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(shipOrders()).toHaveLength(0);
  });

  it('an order the core says needs the packer does not count down, though its items are verified', async () => {
    autoShip = { ships: false, box: { reason: null, parcels: 1 }, rule: { index: 1, name: 'Italia' }, reasons: [{ key: 'customs', params: { count: 1 }, message: 'x' }], countdownMs: 1500 };
    verifying(15);
    for (const code of ['taz-1', 'taz-1', 'pia-2']) useVerify.getState().takeScan(code);
    await vi.advanceTimersByTimeAsync(5000);
    expect(asked()).toHaveLength(1);
    expect(useAutoShip.getState().countdown).toBeNull();
    expect(useAutoShip.getState().blocked?.orderId).toBe(15);
    expect(useApp.getState().banner).toMatchObject({ title: 'All 3 items scanned', detail: 'Weigh the parcel and press Enter to quote.' });
    expect(shipOrders()).toHaveLength(0);
  });
});
