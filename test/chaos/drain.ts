/**
 * `npm run chaos:drain`: how long a queue of 30 shipments takes to drain
 * after a restart, against the sandbox with the spec's rate limits on
 * (POST /shipments: 30 per minute), right after the station used the whole
 * minute's allowance. Run twice: with the rate-limit windows the station
 * keeps in SQLite (issue 7), and with them forgotten at the restart (the
 * behaviour before). Prints one JSON line per run
 * `{"bench":"drain","windows":"kept"|"forgotten","queued":30,"drainMs":…,"rateLimited":…}`
 * and a human line. Real time (the sandbox's clock runs at real pace): about
 * two minutes per run.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ShipResult } from '../../shared/contract/commands';
import type { OutboxListView } from '../../shared/contract/views';
import type { ShipmentCreatePayload } from '../../electron/core/shipping/shipment-executor';
import { databaseFile, invokeCommand, type Station } from '../../electron/core/station';
import { startStation } from '../../electron/shell/start';
import { openStore } from '../../electron/core/store';
import { createSandbox } from '../../electron/sandbox/index';

const N = 30;
const request = (reference: string) => ({
  reference,
  recipient: { name: 'Giulia Bianchi', address: { street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT' } },
  packages: [{ weight: { value: 1, units: 'KG' as const }, dimensions: { length: 30, width: 20, height: 10, units: 'CM' as const } }],
});

async function run(windows: 'kept' | 'forgotten'): Promise<{ drainMs: number; rateLimited: number }> {
  const sb = await createSandbox({ port: 0, rateLimits: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-drain-'));
  const demo = sb.clients[0]!;
  const config = {
    dataDir,
    platform: { mode: 'platform' as const, baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret },
    printerUri: `file://${path.join(dataDir, 'labels')}`,
    ignoredArgs: [],
  };
  let rateLimited = 0;
  const log = (line: string) => {
    if (line.includes('-> 429')) rateLimited++;
  };
  try {
    // A busy minute: the station ships 30 (the platform's whole allowance).
    let station: Station = await startStation(config, { log });
    for (let i = 0; i < N; i++) await invokeCommand(station.handlers, 'shipping.shipOrder', { request: request(`BUSY-${i}`) }) as ShipResult;
    await station.close();
    // 30 more waiting in the queue (as a crash or an outage leaves them).
    const store = openStore(databaseFile(dataDir, 'platform'));
    store.tx(() => {
      for (let i = 0; i < N; i++) {
        const reference = `QUEUED-${i}`;
        const pending = store.shipments.createPending({ reference });
        const payload: ShipmentCreatePayload = { localShipmentId: pending.id, request: request(reference) };
        store.outbox.enqueue({ kind: 'shipment.create', payload, localRef: `shipment:${pending.id}` });
      }
    });
    store.close();
    if (windows === 'forgotten') {
      const db = new Database(databaseFile(dataDir, 'platform'));
      db.prepare('DELETE FROM rate_windows').run();
      db.close();
    }
    const t0 = Date.now();
    station = await startStation(config, { log });
    for (;;) {
      const list = (await invokeCommand(station.handlers, 'outbox.list', { doneLimit: 0 })) as OutboxListView;
      if (list.pending.length === 0) break;
      if (Date.now() - t0 > 15 * 60_000) throw new Error(`not drained after 15 min: ${list.pending.length} left`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const drainMs = Date.now() - t0;
    await station.close();
    const onPlatform = sb.state.shipments.filter((s) => s.reference?.startsWith('QUEUED-')).length;
    if (onPlatform !== N) throw new Error(`expected ${N} queued shipments on the platform, found ${onPlatform}`);
    return { drainMs, rateLimited };
  } finally {
    await sb.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const windows of ['kept', 'forgotten'] as const) {
  const r = await run(windows);
  console.log(JSON.stringify({ bench: 'drain', windows, queued: N, drainMs: r.drainMs, rateLimited: r.rateLimited }));
  console.log(`drain after restart (${windows === 'kept' ? 'windows kept in SQLite' : 'windows forgotten'}): ${N} queued shipments sent in ${(r.drainMs / 1000).toFixed(1)} s, ${r.rateLimited} answers 429`);
}
