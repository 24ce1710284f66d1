/**
 * The endpoints of the Client Shipping API 2026-09 (spec: Endpoints; Limits >
 * Rate limits), written once. The station's platform client builds its
 * requests and log routes from it (electron/core/platform/client.ts), the
 * sandbox's OpenAPI document names its operations from it
 * (electron/sandbox/openapi.ts), and the per-endpoint rate limits of both
 * sides are read from it (rate-limits.ts).
 */

/** One endpoint: HTTP method, path template relative to `{base_url}` (parameters `{name}`), and its limit. */
export interface Endpoint {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path template relative to `{base_url}`, parameters written `{name}` as the spec writes them (`/shipments/{ldv}`). */
  path: string;
  /** Calls per minute and client (spec: Limits > Rate limits); absent = the spec shows no limit. */
  ratePerMinute?: number;
}

/**
 * Every endpoint, keyed by its operation name (the OpenAPI `operationId`),
 * in the order of the spec's Endpoints section. `listWarehouses` and
 * `getOpenApi` are sandbox extensions, not in the spec.
 */
export const ENDPOINTS = {
  listCarriers: { method: 'GET', path: '/carriers' },
  quoteRates: { method: 'POST', path: '/rates', ratePerMinute: 60 },
  listShipments: { method: 'GET', path: '/shipments' },
  createShipment: { method: 'POST', path: '/shipments', ratePerMinute: 30 },
  getShipment: { method: 'GET', path: '/shipments/{ldv}' },
  cancelShipment: { method: 'DELETE', path: '/shipments/{ldv}' },
  getShipmentLabel: { method: 'GET', path: '/shipments/{ldv}/label' },
  getShipmentTracking: { method: 'GET', path: '/shipments/{ldv}/tracking' },
  getTrackingByBda: { method: 'GET', path: '/tracking/bda/{bda}' },
  createManifests: { method: 'POST', path: '/manifests', ratePerMinute: 5 },
  listManifests: { method: 'GET', path: '/manifests' },
  getManifest: { method: 'GET', path: '/manifests/{id}' },
  listStocks: { method: 'GET', path: '/stocks' },
  getStock: { method: 'GET', path: '/stocks/{id}' },
  instructStock: { method: 'POST', path: '/stocks/{id}/actions' },
  searchDeliveryPoints: { method: 'GET', path: '/delivery-points', ratePerMinute: 30 },
  searchTaric: { method: 'GET', path: '/taric', ratePerMinute: 60 },
  bookPickup: { method: 'POST', path: '/pickups', ratePerMinute: 10 },
  listPickups: { method: 'GET', path: '/pickups' },
  getPickup: { method: 'GET', path: '/pickups/{id}' },
  submitOrders: { method: 'POST', path: '/orders', ratePerMinute: 30 },
  listInvoices: { method: 'GET', path: '/invoices' },
  getInvoice: { method: 'GET', path: '/invoices/{id}' },
  getInvoicePdf: { method: 'GET', path: '/invoices/{id}/pdf', ratePerMinute: 10 },
  getCredit: { method: 'GET', path: '/credit' },
  listCreditMovements: { method: 'GET', path: '/credit/movements' },
  listCodLists: { method: 'GET', path: '/cod-lists' },
  getCodList: { method: 'GET', path: '/cod-lists/{id}' },
  listReturns: { method: 'GET', path: '/returns' },
  getReturnList: { method: 'GET', path: '/returns/{id}' },
  listWebhooks: { method: 'GET', path: '/webhooks' },
  registerWebhook: { method: 'POST', path: '/webhooks' },
  getWebhook: { method: 'GET', path: '/webhooks/{id}' },
  deleteWebhook: { method: 'DELETE', path: '/webhooks/{id}' },
  listWebhookDeliveries: { method: 'GET', path: '/webhooks/{id}/deliveries' },
  testWebhook: { method: 'POST', path: '/webhooks/{id}/test', ratePerMinute: 5 },
  listWarehouses: { method: 'GET', path: '/warehouses' },
  getOpenApi: { method: 'GET', path: '/openapi.json' },
} as const satisfies Record<string, Endpoint>;

/** Operation name of an endpoint (`getShipment`). */
export type Operation = keyof typeof ENDPOINTS;

/** `"<METHOD> <path template>"`, e.g. `GET /shipments/{ldv}`: the key of rate limits and the route of logs. */
export function routeOf(e: Endpoint): string {
  return `${e.method} ${e.path}`;
}

/**
 * The concrete path of `e` with every `{name}` replaced by `params[name]`,
 * URI-encoded (`/shipments/AB123%2F4`). Throws TypeError naming the
 * parameter when one is missing.
 */
export function pathOf(e: Endpoint, params: Readonly<Record<string, string | number>> = {}): string {
  return e.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined) throw new TypeError(`${routeOf(e)}: path parameter ${name} is missing`);
    return encodeURIComponent(String(v));
  });
}
