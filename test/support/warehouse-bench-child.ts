/**
 * A bench in a process of its own, for the warehouse fault tests (issue 35,
 * test/integration/core/warehouse/faults.test.ts): the station's warehouse
 * link (electron/core/warehouse/link.ts) over the station's store in a data
 * folder, so that the test can SIGKILL it and start it again on the same
 * folder.
 *
 *   node --import tsx warehouse-bench-child.ts <dataDir> <warehouseUrl> send <rows>
 *     records <rows> activity rows first when the store has none (one backlog), then lets the link send them
 *   node --import tsx warehouse-bench-child.ts <dataDir> <warehouseUrl> claim <orderKey>
 *     claims the order as Anna, then keeps its heartbeat going
 *
 * The password comes from PGPASSWORD, as a station's does. Bench name "Bench 9", heartbeat 200 ms,
 * activity every 50 ms. Writes JSON lines on stdout: `{"bench": id}` once the link is made, `{"claim": …}`
 * after a claim. SIGTERM closes the link and the store (what is left is sent) and exits 0.
 */
import path from 'node:path';
import { openStore } from '../../electron/core/store';
import { createWarehouseLink } from '../../electron/core/warehouse/link';

const [dataDir, url, mode, arg] = process.argv.slice(2);
if (!dataDir || !url || (mode !== 'send' && mode !== 'claim') || !arg) {
  process.stderr.write('usage: warehouse-bench-child.ts <dataDir> <warehouseUrl> send <rows> | claim <orderKey>\n');
  process.exit(2);
}
const store = openStore(path.join(dataDir, 'station.sqlite'));
if (mode === 'send' && store.activity.listAfter(0, 1).length === 0) {
  const rows = Number(arg);
  store.tx(() => {
    for (let i = 1; i <= rows; i++) store.activity.record({ action: i % 3 === 0 ? 'print' : i % 3 === 1 ? 'scan' : 'ship', packerId: null, packerName: 'Anna', stationName: 'Bench 9', trackingNumber: i % 3 === 1 ? null : `GLS9${String(i).padStart(7, '0')}`, subject: `row ${i}` });
  });
}
const link = createWarehouseLink({ url, store, benchName: () => 'Bench 9', heartbeatMs: 200, activityMs: 50, log: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(`${JSON.stringify({ bench: link.status().bench.id })}\n`);
if (mode === 'claim') process.stdout.write(`${JSON.stringify({ claim: await link.claim(arg, 'Anna') })}\n`);
process.on('SIGTERM', () => {
  void link.close().finally(() => {
    store.close();
    process.exit(0);
  });
});
// The link's timers are unref'd: this keeps the bench alive until it is told to stop (or killed).
setInterval(() => undefined, 60_000);
