/** Temp-folder store for repository tests: a fresh file per test, removed afterwards. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type OrderDraft, type Store } from '../../../../electron/core/store';

/** A settable clock: `clock.now()` for the store, `clock.set(iso)` / `clock.advance(ms)` in tests. */
export function testClock(startIso = '2026-10-01T08:00:00.000Z') {
  let t = new Date(startIso).getTime();
  return {
    now: () => new Date(t),
    set: (iso: string) => void (t = new Date(iso).getTime()),
    advance: (ms: number) => void (t += ms),
  };
}

/** Creates a temp folder; returns its path and a cleanup function. */
export function tempDir(prefix = 'station-store-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Opens a store on a new temp file. */
export function tempStore(clock = testClock()): { store: Store; file: string; clock: ReturnType<typeof testClock>; cleanup: () => void } {
  const { dir, cleanup } = tempDir();
  const file = join(dir, 'station.sqlite');
  const store = openStore(file, { now: clock.now });
  return {
    store,
    file,
    clock,
    cleanup: () => {
      store.close();
      cleanup();
    },
  };
}

/** An open order numbered `n` of Giulia Rossi in Roma (two lines, EUR 19), with `over` applied. */
export function orderDraft(n: string, over: Partial<OrderDraft> = {}): OrderDraft {
  return {
    orderNumber: n,
    email: 'giulia.rossi@example.it',
    createdAt: '2026-09-30T10:15:00.000Z',
    source: 'shopify_csv',
    recipient: { name: 'Giulia Rossi', street: 'Via del Corso 12', city: 'Roma', province: 'RM', postalCode: '00186', countryCode: 'IT', phone: '+39 06 1234567' },
    items: [
      { sku: 'TAZZA-BLU', name: 'Tazza blu', quantity: 2, unitPrice: 9.5 },
      { name: 'Biglietto', quantity: 1, unitPrice: 0 },
    ],
    total: 19,
    currency: 'EUR',
    status: 'open',
    ...over,
  };
}
