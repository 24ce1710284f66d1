/**
 * Issue 21 item 5, "no press waits in silence", on a station in platform
 * mode against the sandbox with the spec's rate limits kept client side:
 * - the 11th pickup request within a minute answers at once, queued, saying
 *   when it leaves; it is not sent meanwhile and leaves by itself later;
 * - a quote over the station's own rate window answers at once with
 *   `rate_limited` and how many seconds to wait;
 * - a carrier's refusal of a delivery-point search (502 `carrier_error`,
 *   "località non trovata") is shown at once with its message and asked once.
 * Timing is asserted only loosely (a press answers in well under the minute
 * it used to wait); the counts of platform requests are exact.
 */
import { describe, expect, it } from 'vitest';
import { clientFor, parcel, pickupDate, stationFailure } from './helpers';
import { useStation } from './station-fixture';

const calls: string[] = [];
const fx = useStation({ printer: 'file', options: () => ({ fetch: countingFetch, outboxBackoff: { baseMs: 600_000 } }) });
const invoke = fx.invoke;

/** Counts the station's requests by `METHOD pathname`, then sends them. */
const countingFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  calls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
  return fetch(input, init);
}) as typeof fetch;
const count = (suffix: string) => calls.filter((c) => c.endsWith(suffix)).length;

describe('a press the packer waits for answers at once', () => {
  it('the 11th pickup within a minute is queued at once, saying when it leaves, and is not sent meanwhile', async () => {
    const carriers = await clientFor(fx.sb, 0).getCarriers();
    const contract = carriers.find((c) => c.canRequestPickup)!.contracts[0]!;
    const request = { serviceType: contract.contractCode, pickupDate: pickupDate(), packages: [parcel()] };
    for (let i = 0; i < 10; i++) await invoke('pickups.book', { request });
    expect(count('/pickups')).toBe(10);
    const started = performance.now();
    const err = await stationFailure(invoke('pickups.book', { request }));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(err.code).toBe('queued');
    expect(err.message).toMatch(/^The platform allows 10 POST \/pickups requests a minute; the next one can leave in \d+ s\. This request is queued and leaves by itself at \d\d:\d\d:\d\d\.$/);
    expect(count('/pickups')).toBe(10);
    const queue = await invoke('outbox.list', {});
    const row = queue.pending.find((r) => r.kind === 'pickup.create' && r.state === 'queued');
    expect(row?.lastError?.code).toBe('queued');
    // Due when the window has room: about a minute after the first pickup, not now.
    expect(Date.parse(row?.nextAttemptAt ?? '') - Date.now()).toBeGreaterThan(5_000);
  });

  it('a quote over the rate window answers at once with rate_limited and the seconds to wait', async () => {
    const quote = { request: { recipient: { address: { postalCode: '20123', countryCode: 'IT' } }, packages: [parcel()] } };
    for (let i = 0; i < 60; i++) await invoke('shipping.quote', quote);
    const before = count('/rates');
    const started = performance.now();
    const err = await stationFailure(invoke('shipping.quote', quote));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(err.code).toBe('rate_limited');
    expect(err.message).toMatch(/^The platform allows 60 POST \/rates requests a minute; the next one can leave in \d+ s$/);
    expect(count('/rates')).toBe(before);
  });

  it("a carrier's refusal of a delivery-point search is shown at once with its message and asked only once", async () => {
    const before = count('/delivery-points');
    const started = performance.now();
    const err = await stationFailure(invoke('deliveryPoints.search', { city: 'Nowhereville', postalCode: '99999' }));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(err.code).toBe('carrier_error');
    expect(err.message).toContain('non trovata');
    expect(count('/delivery-points')).toBe(before + 1);
  });
});
