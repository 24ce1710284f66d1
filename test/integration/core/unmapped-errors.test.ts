/**
 * Fault injection, issue 7 item 10: inputs that used to end in a 500 (or a
 * 502) through the headless host. A real station in platform mode on a
 * sandbox, behind the real host, called over HTTP as the renderer does. Each
 * case asserts the HTTP status, the one-sentence error naming the field,
 * and that nothing reached the platform (the sandbox's shipment count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StationErrorShape } from '../../../shared/contract/errors';
import type { Station } from '../../../electron/core/station';
import { startStation } from '../../../electron/shell/start';
import { startHost, type RunningHost } from '../../../electron/host/server';
import type { Sandbox } from '../../../electron/sandbox/index';
import { caller, tokenFor } from '../sandbox/helpers';
import { parcel, recipient, startSandbox, stationConfig, tempDir } from './helpers';

let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
let station: Station;
let host: RunningHost;

/** POST /rpc/<command> with the token, as the renderer's HTTP transport does. */
async function rpc(command: string, input: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${host.origin}/rpc/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-station-token': host.token },
    body: JSON.stringify(input),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** The error of a refused call; fails the test on a 2xx or 5xx. */
async function refused(command: string, input: unknown, status = 400): Promise<StationErrorShape> {
  const r = await rpc(command, input);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return (r.body as { error: StationErrorShape }).error;
}

const shipmentsOnPlatform = () => sb.state.shipments.length;

const order = {
  orderNumber: 'DUP-1',
  recipient: { name: 'Giulia Bianchi', street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT' },
  items: [{ name: 'Vaso', quantity: 1 }],
};

beforeAll(async () => {
  sb = await startSandbox();
  tmp = tempDir();
  station = await startStation(stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), { outboxBackoff: { baseMs: 600_000 } });
  host = await startHost({ station, port: 0, rendererDir: tmp.dir });
});

afterAll(async () => {
  await host?.close();
  await station?.close();
  await sb?.close();
  tmp?.cleanup();
});

describe('inputs that used to answer 500', () => {
  it('a duplicate orders.create is a field error on orderNumber (400), the first order kept', async () => {
    expect((await rpc('orders.create', order)).status).toBe(200);
    const e = await refused('orders.create', { ...order, items: [{ name: 'Other', quantity: 5 }] });
    expect(e).toEqual({ code: 'invalid_input', message: 'Order DUP-1 of shop main already exists', details: { orderNumber: ['Order DUP-1 of shop main already exists'] } });
    const list = ((await rpc('orders.page', { view: 'all', q: 'DUP-1' })).body as { orders: Array<{ orderNumber: string; items: Array<{ name: string }> }> }).orders;
    expect(list.map((o) => [o.orderNumber, o.items.map((i) => i.name)])).toEqual([['DUP-1', ['Vaso']]]);
  });

  it('an over-long orders.page query is a field error (400), not "LIKE or GLOB pattern too complex"', async () => {
    for (const q of ['%'.repeat(60_000), 'a'.repeat(101), '_%'.repeat(400)]) {
      const e = await refused('orders.page', { q });
      expect(Object.keys(e.details ?? {})).toEqual(['q']);
      expect(e.message).not.toMatch(/LIKE|GLOB/);
    }
    // The longest allowed query, all wildcards, runs.
    expect((await rpc('orders.page', { q: '%_'.repeat(50) })).status).toBe(200);
  });

  it('a lone surrogate in a tracking number is a field error (400), not "URI malformed"', async () => {
    for (const command of ['shipments.get', 'shipments.tracking', 'shipments.cancel', 'labels.reprint']) {
      const e = await refused(command, { trackingNumber: 'BR\ud800123' });
      expect(Object.keys(e.details ?? {})).toEqual(['trackingNumber']);
    }
    const scan = await refused('scan.resolve', { code: 'BR\udfff123' });
    expect(Object.keys(scan.details ?? {})).toEqual(['code']);
  });

  it('a scanned code that is no tracking number is "unknown" without asking the platform with it in the path', async () => {
    const r = await rpc('scan.resolve', { code: '../credit' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ kind: 'unknown', code: '../credit' });
  });

  it('a 1x1x1 cm parcel is a field error (400), not 502; nothing is shipped', async () => {
    const before = shipmentsOnPlatform();
    const request = { recipient: recipient(), packages: [parcel(1, 1, 1, 1)] };
    const quote = await refused('shipping.quote', { request });
    expect(quote.code).toBe('invalid_input');
    expect(quote.details).toEqual({ 'request.packages.0.dimensions.length': ['Parcel is too small: its largest face must be at least 15 × 11 cm, room for the label'] });
    const ship = await refused('shipping.shipOrder', { request: { ...request, serviceType: 'BRT-EXP-NAZ' } });
    expect(Object.keys(ship.details ?? {})).toEqual(['request.packages.0.dimensions.length']);
    expect(shipmentsOnPlatform()).toBe(before);
  });

  it('the cause of that 502: the platform never answers a weight of 0 (spec: Weight value > 0)', async () => {
    const call = caller(sb, await tokenFor(sb, 0));
    const tiny = await call<{ data: Array<{ volumetricWeight: { value: number }; billableWeight: { value: number } }> }>('POST', '/rates', {
      recipient: { address: { postalCode: '20123', countryCode: 'IT' } },
      packages: [{ weight: { value: 1, units: 'G' }, dimensions: { length: 1, width: 1, height: 1, units: 'CM' } }],
    });
    expect(tiny.status).toBe(200);
    expect(tiny.body.data.length).toBeGreaterThan(0);
    for (const rate of tiny.body.data) {
      expect(rate.volumetricWeight.value).toBe(0.01);
      expect(rate.billableWeight.value).toBe(0.01);
    }
  });
});
