/**
 * `shipments.tracking` against the sandbox over HTTP: the simulated carrier
 * moves the shipment as the sandbox clock is advanced (the access token
 * expires after one simulated hour: the client renews it on the 401), the
 * local shipment takes each new status, and without a network the station
 * answers the last known status, saying why.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { recipientToParty } from '../../../shared/domain/order';
import { bdaOf } from '../../../electron/sandbox/carrier/scenarios';
import { parcel, stationFailure as failure, switchableFetch } from './helpers';
import { useStation } from './station-fixture';

const net = switchableFetch();
const changed: string[] = [];

const fx = useStation({ printer: 'file', options: () => ({ fetch: net.fetch, platformTimeoutMs: 5000, retry: { attempts: 2, baseDelayMs: 10 }, outboxBackoff: { baseMs: 600_000 } }) });
const invoke = fx.invoke;

/** The local view of the shipment, without asking the platform. */
async function localStatus(ldv: string): Promise<string> {
  const recent = await invoke('shipments.recent', { limit: 10 });
  const s = recent.find((x) => x.trackingNumber === ldv);
  if (!s) throw new Error(`${ldv} not in the recent shipments`);
  return s.status.key;
}

const tokenRequests = () => net.state.calls.filter((c) => c === 'POST /oauth/token').length;

beforeAll(async () => {
  // Monday 23 November 2026, 10:00 in Rome: a working day, inside the carrier's hours.
  fx.sb.clock.set(new Date('2026-11-23T10:00:00+01:00'));
  fx.station.events.on('shipments.changed', ({ trackingNumber }) => changed.push(trackingNumber));
});

describe('shipments.tracking', () => {
  let ldv: string;

  it('shows a new shipment as shipped with no carrier events until the carrier collects it', async () => {
    const order = await invoke('orders.create', {
      recipient: { name: 'Giulia Bianchi', street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT' },
      items: [{ name: 'Vaso', quantity: 1, unitPrice: 20 }],
    });
    // The sandbox's training aid pins the journey: a normal delivery.
    const res = await invoke('shipping.shipOrder', {
      orderId: order.id,
      request: { recipient: recipientToParty(order.recipient), packages: [parcel()], options: { notes: 'sandbox:delivered' } },
    });
    ldv = res.shipment.trackingNumber;

    const t = await invoke('shipments.tracking', { trackingNumber: ldv });
    expect(t).toMatchObject({ trackingNumber: ldv, source: 'platform', unavailable: null, cancelled: false, stockId: null, deliveredAt: null });
    expect(t.status.key).toBe('shipped');
    expect(t.events).toEqual([]);
    expect(t.carrier.code).toBe(res.shipment.carrier.code);
    expect(t.carrier.name.length).toBeGreaterThan(0);
    // The package's own number finds the same record (scanner on a parcel label).
    const pkg = res.shipment.packageTrackingNumbers[0]!;
    expect((await invoke('shipments.tracking', { trackingNumber: pkg.toLowerCase() })).trackingNumber).toBe(ldv);
  });

  it('finds the shipment by the BDA printed on the carrier paperwork (scan field, GET /tracking/bda/{bda})', async () => {
    const rec = fx.sb.state.shipments.find((x) => x.trackingNumber === ldv)!;
    const bda = bdaOf(rec);
    expect(bda).toMatch(/^\d{14}$/);
    const found = await invoke('scan.resolve', { code: ` ${bda} ` });
    expect(found).toMatchObject({ kind: 'shipment', shipment: { trackingNumber: ldv } });
    // Fourteen digits the platform does not know: nothing found, no error.
    expect(await invoke('scan.resolve', { code: '99999999999999' })).toEqual({ kind: 'unknown', code: '99999999999999' });
  });

  it('moves as the sandbox clock moves: collected after the manifest, in transit, delivered; the local status follows', async () => {
    await invoke('manifests.closeDay');
    fx.sb.clock.advance(90 * 60_000); // 11:30: collected one hour after the manifest
    let t = await invoke('shipments.tracking', { trackingNumber: ldv });
    expect(t.status.key).toBe('shipped');
    expect(t.events.map((e) => e.description)).toEqual(['Spedizione ritirata dal corriere']);

    fx.sb.clock.set(new Date('2026-11-23T16:30:00+01:00')); // departure is 2-4 h after collection
    const tokensBefore = tokenRequests();
    const changesBefore = changed.length;
    t = await invoke('shipments.tracking', { trackingNumber: ldv });
    expect(t.status.key).toBe('in_transit');
    expect(t.events[0]!.status.key).toBe('in_transit');
    expect(t.events).toHaveLength(2);
    expect(t.estimatedDelivery).toBe('2026-11-24'); // Italy: the next working day
    expect(await localStatus(ldv)).toBe('in_transit');
    expect(changed.slice(changesBefore)).toEqual([ldv]);
    // Six and a half simulated hours after the first token: the sandbox said 401, the client renewed once.
    expect(tokenRequests()).toBe(tokensBefore + 1);

    fx.sb.clock.set(new Date('2026-11-25T12:00:00+01:00'));
    t = await invoke('shipments.tracking', { trackingNumber: ldv });
    expect(t.status).toEqual({ code: 5, key: 'delivered', label: 'Delivered' });
    expect(t.deliveredAt).not.toBeNull();
    expect(t.estimatedDelivery).toBeNull();
    const times = t.events.map((e) => Date.parse(e.timestamp));
    expect(times.every((x) => !Number.isNaN(x))).toBe(true);
    expect(times).toEqual([...times].sort((a, b) => b - a)); // newest first
    expect(t.events.map((e) => e.status.key)).toEqual(['delivered', 'out_for_delivery', 'in_transit', 'in_transit', 'shipped']);
    expect(t.events.every((e) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(e.timestamp) && e.location.length > 0)).toBe(true);
    expect(await localStatus(ldv)).toBe('delivered');
  });

  it('offline: the last known status, marked local, with the reason; an unknown number fails', async () => {
    net.state.down = true;
    try {
      const t = await invoke('shipments.tracking', { trackingNumber: ldv });
      expect(t.source).toBe('local');
      expect(t.unavailable?.code).toBe('offline');
      expect(t.status.key).toBe('delivered');
      expect(t.events).toEqual([]);
      expect(Number.isNaN(Date.parse(t.asOf))).toBe(false);
      expect((await failure(invoke('shipments.tracking', { trackingNumber: 'NOT-OURS-1' }))).code).toBe('offline');
    } finally {
      net.state.down = false;
    }
    expect((await failure(invoke('shipments.tracking', { trackingNumber: 'NOT-OURS-1' }))).code).toBe('not_found');
    expect((await failure(invoke('shipments.tracking', { trackingNumber: '  ' }))).code).toBe('invalid_input');
  });
});
