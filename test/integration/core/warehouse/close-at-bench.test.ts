/**
 * The day closed for the whole warehouse at a bench with the supervisor's PIN (issue 43 item 4), on a real
 * PostgreSQL (each bench its own login) and the sandbox: the bench asks, the supervisor's program
 * (electron/warehouse/close-requests.ts) closes the day as its page does and answers; the bench says what the close
 * did. Without the supervisor's PIN the command is refused; without the platform account the program says so.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warehouseClientConfig } from '../../../../electron/core/warehouse/connection';
import { startCloseRequests } from '../../../../electron/warehouse/close-requests';
import { createWarehousePlatform } from '../../../../electron/warehouse/platform';
import { stationFailure } from '../helpers';
import { aheadFloor, within } from './ahead-floor';

const floor = aheadFloor('close_at_bench', [9501, 9502, 9503]);
let db: pg.Pool;

beforeAll(async () => {
  await floor.start();
  db = new pg.Pool({ ...warehouseClientConfig(floor.ownerUrl(), floor.password()).config, max: 4 });
}, 90_000);
afterAll(async () => {
  await db?.end();
  await floor.stop();
});

describe('the day closed at a bench with the supervisor’s PIN', () => {
  it('without the platform account the supervisor’s program refuses, with its words, and nothing is closed', async () => {
    const program = startCloseRequests({ db, platform: null, log: () => undefined, pollMs: 200 });
    try {
      const failure = await stationFailure(floor.one.invoke('warehouse.closeDay', {}));
      expect(failure.code).toBe('invalid_state');
      expect(failure.message).toBe('The day is not closed: the supervisor’s program runs without the platform account (start npm run warehouse with --platform-url, --client-id and STATION_CLIENT_SECRET)');
      expect(failure.text).toEqual({ key: 'warehouseCloseNoPlatform', values: {} });
      expect((await floor.owner.query('SELECT count(*)::int AS n FROM warehouse_closes')).rows[0].n).toBe(0);
    } finally {
      await program.stop();
    }
  }, 30_000);

  it('a supervisor’s PIN is asked; then the program closes the day: the shipment manifested, the unused label ahead cancelled and refunded', async () => {
    const { one, two } = floor;
    const sb = floor.sandbox();
    const demo = sb.clients[0]!;
    const program = startCloseRequests({
      db,
      platform: createWarehousePlatform({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret }),
      log: () => undefined,
      pollMs: 200,
    });
    try {
      // Bench 2 ships #9501 the ordinary way; a label ahead of #9502 is bought and never used.
      const found = await two.invoke('scan.resolve', { code: '#9501' });
      if (found.kind !== 'order') throw new Error('no #9501');
      const plan = await two.invoke('shipping.plan', { orderId: found.order.id });
      const shipped = await two.invoke('shipping.shipOrder', { orderId: found.order.id, weightKg: plan.weightKg ?? 1 });
      const tracking = shipped.shipment.trackingNumber!;
      const unused = await floor.labelAhead(one, '#9502');
      await within(5000, async () => (await floor.owner.query(`SELECT count(*)::int AS n FROM activity WHERE action = 'ship' AND tracking_number = $1`, [tracking])).rows[0].n, (n) => n === 1);

      // A supervisor at Bench 1: the close needs the PIN.
      await one.invoke('packers.save', { name: 'Anna Capo', pin: '4321', role: 'supervisor' });
      await one.invoke('packers.unlock', { pin: '4321' });
      await one.invoke('packers.save', { name: 'Marco Ferri', pin: '1111', role: 'packer' });
      // A packer signed in starts locked.
      await one.invoke('packers.signIn', { pin: '1111' });
      expect((await stationFailure(one.invoke('warehouse.closeDay', {}))).code).toBe('supervisor_required');
      await one.invoke('packers.unlock', { pin: '4321' });
      const close = await one.invoke('warehouse.closeDay', {});
      expect(close.shipments).toBe(1);
      expect(close.manifests.reduce((n, m) => n + m.shipments, 0)).toBe(1);
      expect(close.cancelled).toBe(1);
      expect(close.refunded).toBeGreaterThan(0);
      expect(close.offlineBenches).toEqual([]);
      const row = (await floor.owner.query<{ place: string; state: string }>(`SELECT closed_at_place AS place, (SELECT state FROM labels_ahead WHERE id = $1) AS state FROM warehouse_closes ORDER BY id DESC LIMIT 1`, [unused.id])).rows[0]!;
      expect(row).toEqual({ place: one.id, state: 'cancelled' });
      expect((await floor.owner.query(`SELECT tracking_number FROM closed_shipments`)).rows.map((r) => r.tracking_number)).toEqual([tracking]);
      // The platform made the manifest (its id kept with the close).
      const kept = (await floor.owner.query<{ manifests: Array<{ manifestId: number | null }> }>('SELECT manifests FROM warehouse_closes ORDER BY id DESC LIMIT 1')).rows[0]!;
      expect(kept.manifests.map((m) => typeof m.manifestId)).toEqual(['number']);
    } finally {
      await program.stop();
    }
  }, 60_000);
});
