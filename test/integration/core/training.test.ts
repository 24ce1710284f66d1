/**
 * Training mode: no platform configured, so `createStation` runs the sandbox
 * in-process, signs in with its first demo client and prints to the folder
 * printer under the data folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShipResult } from '../../../shared/contract/commands';
import type { AppInfo } from '../../../shared/contract/views';
import type { StationOrder } from '../../../shared/domain/order';
import { recipientToParty } from '../../../shared/domain/order';
import { resolveConfig } from '../../../electron/core/config';
import { createStation, invokeCommand, type Station } from '../../../electron/core/station';
import { parcel, tempDir } from './helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('training mode', () => {
  it('runs on the embedded sandbox, prints to the labels folder, starts afresh each time', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const config = resolveConfig(['--data-dir', tmp.dir], {});
    let station: Station = await createStation(config);
    cleanups.push(() => station.close());
    const invoke = <T>(name: string, input: unknown = {}) => invokeCommand(station.handlers, name, input) as Promise<T>;

    expect(station.info.mode).toBe('sandbox');
    expect(station.info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/2026-09$/);
    expect(station.info.accountName.length).toBeGreaterThan(0);
    const info = await invoke<AppInfo>('app.info');
    expect(info.printer.uri).toBe(`file://${path.join(tmp.dir, 'labels')}`);
    expect(info.connection).toBe('online');
    expect(info.credit?.balance).toBeGreaterThan(0);

    const order = await invoke<StationOrder>('orders.create', {
      recipient: { name: 'Paolo Gialli', street: 'Via Po 3', city: 'Torino', province: 'TO', postalCode: '10123', countryCode: 'IT' },
      items: [{ name: 'Tazza', quantity: 2, unitPrice: 9.5 }],
    });
    const res = await invoke<ShipResult>('shipments.create', { orderId: order.id, request: { recipient: recipientToParty(order.recipient), packages: [parcel()] } });
    expect(res.printError).toBeNull();
    const zpl = fs.readFileSync(path.join(tmp.dir, 'labels', `${res.shipment.trackingNumber}.zpl`), 'utf8');
    expect(zpl).toContain(res.shipment.trackingNumber);
    expect(res.shipment.reference).toBe(order.orderNumber);

    const baseUrl = station.info.baseUrl;
    await station.close();
    await expect(fetch(`${baseUrl}/carriers`)).rejects.toThrow();

    // The sandbox keeps its records in memory: the next session starts with an empty training database.
    station = await createStation(config);
    expect(await invoke<StationOrder[]>('orders.list', {})).toEqual([]);
    expect(fs.existsSync(path.join(tmp.dir, 'station.sqlite'))).toBe(false);
  });
});
