import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../electron/sandbox/openapi-operations';
import { ENDPOINTS, pathOf, routeOf } from '../../../shared/platform/endpoints';
import { SPEC_RATE_LIMITS_PER_MINUTE } from '../../../shared/platform/rate-limits';

describe('the endpoint table (shared/platform/endpoints.ts)', () => {
  it('fills path parameters URI-encoded and names a missing one', () => {
    expect(pathOf(ENDPOINTS.getShipment, { ldv: 'AB 1/2' })).toBe('/shipments/AB%201%2F2');
    expect(pathOf(ENDPOINTS.instructStock, { id: 7001 })).toBe('/stocks/7001/actions');
    expect(pathOf(ENDPOINTS.listCarriers)).toBe('/carriers');
    expect(() => pathOf(ENDPOINTS.getTrackingByBda, {})).toThrow(/GET \/tracking\/bda\/\{bda\}: path parameter bda is missing/);
  });

  it('gives one route per method and path', () => {
    const routes = Object.values(ENDPOINTS).map(routeOf);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('feeds the rate limits: the spec Limits table, nothing else', () => {
    expect(SPEC_RATE_LIMITS_PER_MINUTE).toEqual({
      'POST /rates': 60,
      'POST /shipments': 30,
      'POST /orders': 30,
      'POST /pickups': 10,
      'POST /manifests': 5,
      'GET /delivery-points': 30,
      'GET /taric': 60,
      'GET /invoices/{id}/pdf': 10,
      'POST /webhooks/{id}/test': 5,
    });
  });

  it("feeds the sandbox's OpenAPI catalogue: every endpoint documented, once", () => {
    expect(OPERATIONS.map((o) => o.operationId).sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });
});
