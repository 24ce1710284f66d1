/**
 * Helpers of the core integration tests: a sandbox on port 0, platform
 * clients for its demo accounts, parcels and recipients, a pickup date the
 * sandbox accepts, a fetch that can be switched off (network down), and
 * command calls and expected rejections for the station tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { StationError } from '../../../shared/contract/errors';
import { createPlatformClient } from '../../../electron/core/platform/client';
import type { PlatformClient, PlatformClientOptions } from '../../../electron/core/platform/client-api';
import { createSandbox, type Sandbox } from '../../../electron/sandbox/index';
import type { StationConfig } from '../../../electron/core/config';
import type { StationOrder } from '../../../shared/domain/order';
import type { Invoke } from '../../support/commands';

/** A sandbox with the default demo accounts (real clock). */
export function startSandbox(): Promise<Sandbox> {
  return createSandbox({ port: 0 });
}

/** Platform client of demo client `i` (0 = Bottega Verdi, 1 = Ceramiche Rossi). */
export function clientFor(sb: Sandbox, i = 0, extra: Partial<PlatformClientOptions> = {}): PlatformClient {
  const c = sb.clients[i];
  if (!c) throw new Error(`no demo client ${i}`);
  return createPlatformClient({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: c.clientId, clientSecret: c.clientSecret, ...extra });
}

/**
 * Station configuration in platform mode against `sb` as demo client `i`,
 * data in `dataDir`, labels to `printerUri` (a fake printer's `tcp://` URI or
 * a `file://` folder).
 */
export function stationConfig(sb: Sandbox, dataDir: string, printerUri: string, i = 0): StationConfig {
  const c = sb.clients[i];
  if (!c) throw new Error(`no demo client ${i}`);
  return {
    dataDir,
    platform: { mode: 'platform', baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: c.clientId, clientSecret: c.clientSecret },
    printerUri,
    ignoredArgs: [],
  };
}

/** A parcel in kg / cm. */
export function parcel(weightKg = 1.5, l = 30, w = 20, h = 12) {
  return { weight: { value: weightKg, units: 'KG' as const }, dimensions: { length: l, width: w, height: h, units: 'CM' as const } };
}

/** An Italian recipient Party. */
export function recipient(name = 'Giulia Bianchi') {
  return { name, phone: '+39 333 1234567', address: { street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT' } };
}

/** `YYYY-MM-DD` two or three days ahead, never a Sunday (carriers do not collect then). */
export function pickupDate(now = new Date()): string {
  const d = new Date(now.getTime() + 2 * 86_400_000);
  if (d.getUTCDay() === 0) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** A fresh temp folder, removed by the returned cleanup. */
export function tempDir(prefix = 'station-core-'): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fetch that behaves like the network: `down = true` makes every request
 * fail as an unreachable host would; `calls` counts requests by
 * `METHOD pathname` (token requests included).
 */
export function switchableFetch() {
  const state = { down: false, calls: [] as string[] };
  const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    state.calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    // As undici reports an unreachable host: the request never left (the outbox knows no POST is in flight).
    if (state.down) throw new TypeError('fetch failed (network down in test)', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    return fetch(input, init);
  }) as typeof fetch;
  return { fetch: f, state };
}

/** Awaits `p`, which must reject with an instance of `type`; resolves to that error, fails the test otherwise. */
export async function rejection<E extends Error>(p: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return e as E;
  }
  throw new Error(`expected a ${type.name}`);
}

/** The StationError a command rejects with (see {@link rejection}). */
export function stationFailure(p: Promise<unknown>): Promise<StationError> {
  return rejection(p, StationError);
}

export { invokerOf } from '../../support/commands';

/**
 * The imported order `orderNumber` (any shop, any state), through `orders.page` as the screens ask.
 * @throws Error when the station has no such order
 */
export async function orderByNumber(invoke: Invoke, orderNumber: string): Promise<StationOrder> {
  const page = await invoke('orders.page', { q: orderNumber, view: 'all' });
  const o = page.orders.find((x) => x.orderNumber === orderNumber);
  if (!o) throw new Error(`order ${orderNumber} not imported`);
  return o;
}
