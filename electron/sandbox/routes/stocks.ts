/**
 * Stocks, held shipments (spec: Endpoints > Stocks; Resources > Stock;
 * States > Stock). Stocks are opened by the simulated carrier (lifecycle.ts).
 * - `GET /stocks?status=open|instructed|closed|all&trackingNumber=` -> paginated
 *   Stock list, newest opened first; `status` default `open`; `trackingNumber`
 *   matches the shipment's, a package's, the held or the reissued LDV (any case).
 * - `GET /stocks/{id}` -> Stock; 404 unknown or another client's.
 * - `POST /stocks/{id}/actions` -> 201 Stock (`instructed`). Body: release
 *   instructions by action name (shared/platform/tracking.ts `StockActionRequest`).
 *   422 `validation_failed` with `details` paths; 409 `invalid_state` when
 *   instructions were already registered or the stock is closed.
 */
import type { z } from 'zod';
import { issuesToDetails, type FieldErrors } from '../../../shared/platform/common';
import { StockActionRequest, StockStatusFilter } from '../../../shared/platform/tracking';
import { notFound, validationFailed } from '../errors';
import { paginate, pathId, queryString, type ApiRouter } from '../http';

/**
 * Parses the instructions. Beyond zod's paths: a field of another action is
 * reported under its own key, a missing `address` says which action needs it,
 * and a body that is not an object is reported under `_body`.
 * @throws ApiError 422 `validation_failed`.
 */
function parseStockAction(body: unknown): z.output<typeof StockActionRequest> {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw validationFailed({ _body: ['Request body must be a JSON object'] });
  }
  const data = body ?? {};
  const r = StockActionRequest.safeParse(data);
  if (r.success) return r.data;
  const action = (data as { action?: unknown }).action;
  const details: FieldErrors = {};
  for (const issue of r.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) (details[[...issue.path.map(String), key].join('.')] ??= []).push(`${key} is not a field of the ${String(action)} instruction`);
    } else if (issue.path.length === 1 && issue.path[0] === 'address' && issue.code === 'invalid_type' && (data as { address?: unknown }).address === undefined) {
      (details.address ??= []).push('address is required for redeliver_to_address');
    } else {
      for (const [k, v] of Object.entries(issuesToDetails([issue]))) (details[k] ??= []).push(...v);
    }
  }
  throw validationFailed(details);
}

/** Registers the stock routes. */
export function registerStockRoutes(r: ApiRouter): void {
  r.get('/stocks', ({ state, account, query, req }) => {
    const rawStatus = queryString(query, 'status');
    const parsed = StockStatusFilter.safeParse(rawStatus === undefined || rawStatus === '' ? 'open' : rawStatus.toLowerCase());
    if (!parsed.success) throw validationFailed({ status: ['status must be one of: open, instructed, closed, all'] });
    const status = parsed.data;
    const tn = queryString(query, 'trackingNumber')?.trim().toUpperCase();
    const lc = state.lifecycle;
    const shipmentId = tn === undefined || tn === '' ? undefined : lc.resolve(account.accountId, tn)?.id;
    const items = lc.stocks
      .filter((st) => st.accountId === account.accountId && (status === 'all' || st.status === status))
      .filter((st) => {
        if (tn === undefined || tn === '') return true;
        if (st.carrierTrackingNumber === tn || st.reissuedTrackingNumber === tn) return true;
        return shipmentId === st.shipmentId;
      })
      .sort((a, b) => b.openedAt.getTime() - a.openedAt.getTime() || b.id - a.id)
      .map((st) => lc.stockView(st));
    return { body: paginate(req, query, items) };
  });

  r.get('/stocks/:id', ({ state, account, params }) => {
    const id = pathId(params.id, `Stock ${params.id ?? ''}`);
    const st = state.lifecycle.stock(account.accountId, id);
    if (!st) throw notFound(`Stock ${id} not found`);
    return { body: state.lifecycle.stockView(st) };
  });

  r.post('/stocks/:id/actions', ({ state, account, params, body, now }) => {
    const id = pathId(params.id, `Stock ${params.id ?? ''}`);
    const st = state.lifecycle.stock(account.accountId, id);
    if (!st) throw notFound(`Stock ${id} not found`);
    const req = parseStockAction(body);
    state.lifecycle.instruct(st, req, now);
    return { status: 201, body: state.lifecycle.stockView(st) };
  });
}
