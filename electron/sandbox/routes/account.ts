/**
 * Account-level reads: `GET /carriers` (spec: Endpoints > Carriers, only the
 * client's own contracts), `GET /credit` (spec: Financial records, credit
 * balance) and the sandbox extension `GET /warehouses` (the spec has no way to
 * list pickup points; answers `{data: Warehouse[]}`).
 */
import type { ApiRouter } from '../http';
import { carrierView, creditView, warehouseView } from '../views';

/** Registers GET /carriers, GET /credit, GET /warehouses. */
export function registerAccountRoutes(r: ApiRouter): void {
  r.get('/carriers', ({ account }) => ({ body: { data: account.carriers.map(carrierView) } }));
  r.get('/credit', ({ account }) => ({ body: creditView(account) }));
  r.get('/warehouses', ({ account }) => ({ body: { data: account.warehouses.map(warehouseView) } }));
}
